#!/bin/sh
# The analyzer's time per event on traces of two kinds with about as many
# events, from one generator:
#   hybrid   a hybrid (MPI + OpenMP) trace against an MPI-only one
#            (hybrid_trace.cpp)
#   rma      a trace of one-sided epochs against a point-to-point one
#            (rma_trace.cpp)
#   run_kinds_benchmark.sh BUILD_DIR hybrid|rma [ITERATIONS]   (default: 20000)
# Environment: RANKS (default 2), THREADS (default 4, hybrid only), RUNS
# (default 3): each measurement is taken that often and the fastest run kept.
# One line per trace:
#   kind ranks threads events load_s replay_s report_s total_s ns/event
# total_s is the sum of the analyzer's phases (slowest rank each, from
# --stats); ns/event is total_s over all events of the trace (every
# thread's), so the two lines compare the cost of an event of either kind.
set -eu
build=$1
pair=$2
iterations=${3:-20000}
ranks=${RANKS:-2}
threads=${THREADS:-4}
runs=${RUNS:-3}
case "$pair" in
  hybrid) kinds="hybrid mpi-only" ;;
  rma) kinds="one-sided point-to-point"; threads=1 ;;
  *) echo "run_kinds_benchmark.sh: the kinds are hybrid or rma, not '$pair'" >&2; exit 2 ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-kinds-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"
echo "kind ranks threads events load_s replay_s report_s total_s ns/event"
for kind in $kinds; do
  dir="$work/$kind"
  case "$kind" in
    hybrid) events=$("$build/bench/analyzer/hybrid_trace" "$dir" "$ranks" "$threads" "$iterations") ;;
    mpi-only) events=$("$build/bench/analyzer/hybrid_trace" "$dir" "$ranks" "$threads" "$iterations" --mpi-only) ;;
    one-sided) events=$("$build/bench/analyzer/rma_trace" "$dir" "$ranks" "$iterations") ;;
    point-to-point) events=$("$build/bench/analyzer/rma_trace" "$dir" "$ranks" "$iterations" --point-to-point) ;;
  esac
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
