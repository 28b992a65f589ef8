#!/bin/sh
# Times the activity graph's pass against the forward and backward replays
# on synthetic traces (generate_trace), for 2, 4 and 8 ranks.
#   run_graph_benchmark.sh BUILD_DIR [EVENTS_PER_RANK...]   (default: 100000)
# Environment: RUNS (default 3; the fastest run of each is kept, by the
# graph pass's time), WAIT_PERCENT, ALLREDUCE_EVERY (generate_trace.cpp).
# One line per ranks, events and number of suggestions (0: the recorded
# path alone; 3: the default, five candidate scenarios evaluated):
#   ranks events suggestions forward_s backward_s graph_s walk_s graph/forward hops walk_rounds max_graph_bytes_per_rank
# (walk_s: the part of graph_s spent following the path back).
# Times are rank 0's, from hindsight-analyze --stats.
set -eu
build=$1; shift
sizes=${*:-100000}
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-graph-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "ranks events suggestions forward_s backward_s graph_s walk_s graph/forward hops walk_rounds max_graph_bytes_per_rank"
for events in $sizes; do
  for ranks in 2 4 8; do
    dir="$work/trace-$ranks-$events"
    "$build/bench/analyzer/generate_trace" "$dir" "$ranks" "$events" "${WAIT_PERCENT:-10}" "${ALLREDUCE_EVERY:-64}"
    for suggestions in 0 3; do
      : > "$work/runs"
      run=0
      while [ "$run" -lt "$runs" ]; do
        mpiexec -n "$ranks" "$build/analyzer/hindsight-analyze" "$dir" -q --stats --graph \
            --suggestions "$suggestions" -o "$work/report.cubex" |
          awk '/^passes on rank 0:/ { f = $6; b = $9; g = $13; w = $17 }
               /^activity graph:/ { h = $3; r = $6; m = $11 }
               END { printf "%s %s %s %s %.2f %s %s %s\n", f, b, g, w, g / f, h, r, m }' >> "$work/runs"
        run=$((run + 1))
      done
      best=$(sort -g -k3 "$work/runs" | head -n 1)
      echo "$ranks $events $suggestions $best"
    done
  done
done
