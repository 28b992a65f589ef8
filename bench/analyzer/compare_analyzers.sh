#!/bin/sh
# Times two builds of hindsight-analyze on the same synthetic traces, run
# after run in alternation, so that a change meant to keep the speed (a
# restructure) is measured under the same load as what it replaces.
#   compare_analyzers.sh BUILD_DIR OLD_ANALYZER NEW_ANALYZER [EVENTS_PER_RANK...]
# (default sizes: 100000 1000000; BUILD_DIR provides generate_trace).
# Environment: WAIT_PERCENT, ALLREDUCE_EVERY (see generate_trace.cpp), RUNS
# (default 5). For every size, 2 and 4 ranks, all passes, forward only and
# all passes with the activity graph: one line per analyzer, its run with
# the shortest total of RUNS (phases as --stats prints them, slowest rank):
#   ranks events mode analyzer load_s replay_s total_s
set -eu
build=$1 old=$2 new=$3
shift 3
sizes=${*:-100000 1000000}
runs=${RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-compare-XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"

flags() {
  case $1 in
    graph) echo "--graph --suggestions 0" ;;
    *) mode_flags "$1" ;;
  esac
}

echo "ranks events mode analyzer load_s replay_s total_s"
for events in $sizes; do
  for ranks in 2 4; do
    dir="$work/trace-$ranks-$events"
    "$build/bench/analyzer/generate_trace" "$dir" "$ranks" "$events" "${WAIT_PERCENT:-10}" "${ALLREDUCE_EVERY:-64}"
    for mode in all forward graph; do
      : > "$work/old.times"
      : > "$work/new.times"
      run=0
      while [ "$run" -lt "$runs" ]; do
        for side in old new; do
          if [ "$side" = old ]; then analyzer=$old; else analyzer=$new; fi
          # shellcheck disable=SC2046
          mpiexec -n "$ranks" "$analyzer" "$dir/traces.otf2" --quiet --stats --no-page \
              -o "$work/report.cubex" $(flags "$mode") |
            awk "$phase_times"'END { printf "%.3f %.3f %.3f\n", t["load"], t["replay"], total }' \
              >> "$work/$side.times"
        done
        run=$((run + 1))
      done
      for side in old new; do
        sort -g -k3,3 "$work/$side.times" | head -n 1 |
          awk -v ranks="$ranks" -v ev="$events" -v mode="$mode" -v side="$side" \
            '{ printf "%s %s %s %s %s %s %s\n", ranks, ev, mode, side, $1, $2, $3 }'
      done
    done
    rm -rf "$dir"
  done
done
