#!/bin/sh
# How the analyzer's time per event grows with the ranks on a machine with
# fewer cores than ranks, for each trace shape of generate_trace.
#   run_scaling.sh BUILD_DIR [EVENTS_PER_RANK]   (default: 250000)
# Environment: SHAPES (default: pairs pipeline halo alltoall), RANKS
# (default: 2 4 8), RUNS (default 3; the fastest run is kept), TIMEOUT
# (default 600 s per analyzer run; an analyzer that collapses under
# oversubscription must not stall the whole series), WAIT_PERCENT and
# ALLREDUCE_EVERY (generate_trace.cpp).
# One line per shape, ranks and mode (all passes, or forward only:
# --no-critical-path --no-rootcause):
#   shape ranks mode total_s replay_s ns/event ns/rank_event ratio exchange_rounds
# total_s is the sum of the analyzer's phases (slowest rank each),
# ns/event total_s over the events of all ranks, ns/rank_event over the
# events of one rank, ratio ns/event against the first RANKS line of the
# same shape and mode (1.0: the ranks share the cores without loss), and
# exchange_rounds the numbers of the --stats line "exchange rounds", joined
# by '/' (- when the analyzer prints none). A run that exceeds TIMEOUT
# prints "timeout" instead of the numbers, one that fails "failed".
set -eu
build=$1
events=${2:-250000}
runs=${RUNS:-3}
limit=${TIMEOUT:-600}
# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-scaling-XXXXXX")
trap 'rm -rf "$work"' EXIT

# measure RANKS TRACE MODE: runs the analyzer RUNS times and prints the
# fastest run's "total_s replay_s exchange_rounds", or "timeout" or
# "failed" at the first run that does not end well.
measure() {
  : > "$work/runs"
  run=0
  while [ "$run" -lt "$runs" ]; do
    status=0
    # shellcheck disable=SC2046
    timeout -k 10 "$limit" mpiexec -n "$1" "$build/analyzer/hindsight-analyze" "$2" --quiet --stats \
      $(mode_flags "$3") > "$work/stats" 2> "$work/errors" || status=$?
    if [ "$status" -eq 124 ]; then echo timeout; return; fi
    if [ "$status" -ne 0 ]; then echo failed; return; fi
    awk "$phase_times"'
      /exchange rounds/ { rounds = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) {
                            n = $i; sub(",", "", n); rounds = rounds (rounds == "" ? "" : "/") n } }
      END { printf "%.4f %.4f %s\n", total, t["replay"], rounds == "" ? "-" : rounds }' "$work/stats" >> "$work/runs"
    run=$((run + 1))
  done
  sort -g -k1,1 "$work/runs" | head -n 1
}

echo "shape ranks mode total_s replay_s ns/event ns/rank_event ratio exchange_rounds"
for shape in ${SHAPES:-pairs pipeline halo alltoall}; do
  for ranks in ${RANKS:-2 4 8}; do
    dir="$work/trace-$shape-$ranks"
    "$build/bench/analyzer/generate_trace" --shape "$shape" "$dir" "$ranks" "$events" \
      "${WAIT_PERCENT:-10}" "${ALLREDUCE_EVERY:-64}"
    for mode in all forward; do
      result=$(measure "$ranks" "$dir/traces.otf2" "$mode")
      # The first ranks' line of a shape and mode holds the ratio's
      # reference (- when that run did not end well).
      reference="$work/reference-$shape-$mode"
      case $result in
        timeout|failed)
          [ -f "$reference" ] || echo - > "$reference"
          echo "$shape $ranks $mode $result"
          continue ;;
      esac
      line=$(echo "$result" | awk -v ranks="$ranks" -v events="$events" -v first="$(cat "$reference" 2>/dev/null)" '{
        per_event = $1 * 1e9 / (ranks * events)
        printf "%s %s %.1f %.1f %s %s\n", $1, $2, per_event, $1 * 1e9 / events,
               first == "" ? "1.00" : first == "-" ? "-" : sprintf("%.2f", per_event / first), $3 }')
      [ -f "$reference" ] || echo "$line" | cut -d ' ' -f 3 > "$reference"
      echo "$shape $ranks $mode $line"
    done
    rm -rf "$dir"
  done
done
