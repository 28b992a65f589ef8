#!/bin/sh
# Times hindsight-analyze against OTF2's bare decoding on synthetic traces.
#   run_benchmark.sh BUILD_DIR [EVENTS_PER_RANK...]   (default: 100000 1000000)
# Environment: WAIT_PERCENT, ALLREDUCE_EVERY (see generate_trace.cpp),
# RUNS (default 3): every measurement is taken that often and the fastest
# run kept, so that one slow run (the first after the trace was written, or
# one disturbed by another job on the shared machine) does not decide.
# For every size: 2 ranks, then 4 ranks (oversubscribed on a 2-core
# machine), each with all passes and forward only (--no-critical-path
# --no-rootcause). One line each, the fastest of RUNS runs:
#   ranks events mode decode_s load_s replay_s total_s load_ev/s replay_ev/s peak_B/event total/decode shared_decode_s total/shared_decode
# decode_s is the slowest location's bare OTF2 decoding alone,
# shared_decode_s the slowest of as many processes as ranks decoding one
# location each at the same time (on the cores the analysis shares; the
# same as decode_s while every rank has a core), total_s the sum of the
# analyzer's phases (slowest rank each), rates are per rank.
set -eu
build=$1; shift
sizes=${*:-100000 1000000}
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"
echo "ranks events mode decode_s load_s replay_s total_s load_ev/s replay_ev/s peak_B/event total/decode" \
  "shared_decode_s total/shared_decode"
for events in $sizes; do
  for ranks in 2 4; do
    dir="$work/trace-$ranks-$events"
    "$build/bench/analyzer/generate_trace" "$dir" "$ranks" "$events" "${WAIT_PERCENT:-10}" "${ALLREDUCE_EVERY:-64}"
    decode=
    shared_decode=
    run=0
    while [ "$run" -lt "$runs" ]; do
      decode="$decode $("$build/bench/analyzer/decode_trace" "$dir/traces.otf2" |
                        awk '{ if ($7 > max) max = $7 } END { print max }')"
      location=0
      while [ "$location" -lt "$ranks" ]; do
        "$build/bench/analyzer/decode_trace" "$dir/traces.otf2" "$location" > "$work/decode-$location" &
        location=$((location + 1))
      done
      wait
      shared_decode="$shared_decode $(cat "$work"/decode-* | awk '{ if ($7 > max) max = $7 } END { print max }')"
      run=$((run + 1))
    done
    # shellcheck disable=SC2086
    decode=$(fastest $decode)
    # shellcheck disable=SC2086
    shared_decode=$(fastest $shared_decode)
    for mode in all forward; do
      run=0
      while [ "$run" -lt "$runs" ]; do
        # shellcheck disable=SC2046
        mpiexec -n "$ranks" "$build/analyzer/hindsight-analyze" "$dir/traces.otf2" --quiet --stats \
            $(mode_flags "$mode") |
          awk -v ranks="$ranks" -v mode="$mode" -v decode="$decode" -v shared="$shared_decode" "$phase_times"'
            /events per rank/ { ev = $4; sub(",", "", ev); peak = $(NF - 1) }
            END { printf "%s %s %s %.3f %.3f %.3f %.3f %.3g %.3g %.0f %.1f %.3f %.1f\n", ranks, ev, mode, decode,
                  t["load"], t["replay"], total, ev / t["load"], ev / t["replay"],
                  peak * 1048576 / ev, total / decode, shared, total / shared }'
        run=$((run + 1))
      done | sort -g -k7,7 | head -n 1
    done
    rm -rf "$dir" "$work"/decode-*
  done
done
