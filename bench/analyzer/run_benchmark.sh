#!/bin/sh
# Times hindsight-analyze against OTF2's bare decoding on synthetic traces.
#   run_benchmark.sh BUILD_DIR [EVENTS_PER_RANK...]   (default: 100000 1000000 10000000)
# For every size: 2 ranks, then 4 ranks (oversubscribed on a 2-core machine).
# Prints the decode baseline per location and the analyzer's --stats.
set -eu
build=$1; shift
sizes=${*:-100000 1000000 10000000}
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
for events in $sizes; do
  for ranks in 2 4; do
    dir="$work/trace-$ranks-$events"
    "$build/bench/analyzer/generate_trace" "$dir" "$ranks" "$events"
    echo "== $ranks ranks, $events events per rank"
    "$build/bench/analyzer/decode_trace" "$dir/traces.otf2" | head -n 2
    start=$(date +%s.%N)
    mpiexec -n "$ranks" "$build/replay/analyzer/hindsight-analyze" "$dir/traces.otf2" --quiet --stats
    end=$(date +%s.%N)
    echo "  total (mpiexec) $(echo "$end - $start" | bc) s"
    rm -rf "$dir"
  done
done
