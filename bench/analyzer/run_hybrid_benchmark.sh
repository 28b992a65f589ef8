#!/bin/sh
# The analyzer's time per event on a hybrid (MPI + OpenMP) trace against an
# MPI-only trace of the same number of events (hybrid_trace.cpp writes both).
#   run_hybrid_benchmark.sh BUILD_DIR [ITERATIONS]   (default: 20000)
# Environment: RANKS (default 2), THREADS (default 4), RUNS (default 3):
# each measurement is taken that often and the fastest run kept.
# One line per trace:
#   kind ranks threads events load_s replay_s report_s total_s ns/event
# total_s is the sum of the analyzer's phases (slowest rank each, from
# --stats); ns/event is total_s over all events of the trace (every
# thread's), so the two lines compare the cost of an event of either kind.
set -eu
build=$1
iterations=${2:-20000}
ranks=${RANKS:-2}
threads=${THREADS:-4}
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-hybrid-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"
echo "kind ranks threads events load_s replay_s report_s total_s ns/event"
for kind in hybrid mpi-only; do
  dir="$work/$kind"
  flag=""
  [ "$kind" = mpi-only ] && flag=--mpi-only
  # shellcheck disable=SC2086
  events=$("$build/bench/analyzer/hybrid_trace" "$dir" "$ranks" "$threads" "$iterations" $flag)
  best=""
  i=0
  while [ "$i" -lt "$runs" ]; do
    i=$((i + 1))
    line=$(mpiexec -n "$ranks" "$build/analyzer/hindsight-analyze" --stats -q --no-page -o "$dir/analysis.cubex" \
      "$dir/traces.otf2" | awk "$phase_times"' END { printf "%.4f %.4f %.4f %.4f", t["load"], t["replay"], t["report"], total }')
    total=$(echo "$line" | cut -d' ' -f4)
    if [ -z "$best" ] || [ "$(fastest "$total" "$(echo "$best" | cut -d' ' -f4)")" = "$total" ]; then best=$line; fi
  done
  echo "$kind $ranks $threads $events $best" | awk '{ printf "%s %s %s %s %s %s %s %s %.1f\n", $1, $2, $3, $4, $5, $6, $7, $8, $8 * 1e9 / $4 }'
done
