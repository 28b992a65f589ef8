#!/bin/sh
# Counts the instructions the analyzer executes per event against those of
# OTF2's bare decoding (decode_trace), under valgrind's callgrind: a measure
# that, unlike time, comes out the same on a busy machine, run after run.
#   run_instructions.sh BUILD_DIR [EVENTS_PER_RANK...]   (default: 1000000)
# Environment: RANKS (default 2), WAIT_PERCENT and ALLREDUCE_EVERY
# (generate_trace.cpp). Needs valgrind.
# One line per size and mode (all passes, or forward only), for rank 0:
#   ranks events mode decode_Ir/event analyzer_Ir/event analyzer/decode load/decode
# analyzer_Ir counts the whole process (MPI's start-up included), load_Ir
# the loading of the trace (load_local_trace, inclusive). What the
# instructions do not show is the memory a run touches: every fresh page
# costs a fault (doc/analyzer.md, Performance).
set -eu
build=$1; shift
sizes=${*:-1000000}
ranks=${RANKS:-2}
command -v valgrind > /dev/null || { echo "run_instructions.sh: needs valgrind" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-instructions-XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"

# total OUT: the instructions callgrind counted in its output file OUT.
total() { awk '/^summary:/ { print $2 }' "$1"; }
# inclusive OUT FUNCTION: the inclusive count of FUNCTION in OUT.
inclusive() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v f="$2" 'index($0, f) { gsub(",", "", $1); print $1; exit }'
}

echo "ranks events mode decode_Ir/event analyzer_Ir/event analyzer/decode load/decode"
for events in $sizes; do
  dir="$work/trace-$events"
  "$build/bench/analyzer/generate_trace" "$dir" "$ranks" "$events" "${WAIT_PERCENT:-10}" "${ALLREDUCE_EVERY:-64}"
  valgrind -q --tool=callgrind --callgrind-out-file="$work/decode.out" \
    "$build/bench/analyzer/decode_trace" "$dir/traces.otf2" 0 > /dev/null
  decode=$(total "$work/decode.out")
  for mode in all forward; do
    # shellcheck disable=SC2046
    mpiexec -n "$ranks" valgrind -q --tool=callgrind --callgrind-out-file="$work/analyze.out.%q{PMI_RANK}" \
      "$build/analyzer/hindsight-analyze" "$dir/traces.otf2" --quiet --no-page --timeout 3600 \
      -o "$work/report.cubex" $(mode_flags "$mode") > /dev/null 2> "$work/errors" ||
      { cat "$work/errors" >&2; exit 1; }
    analyze=$(total "$work/analyze.out.0")
    load=$(inclusive "$work/analyze.out.0" "hindsight::trace::load_local_trace(")
    awk -v r="$ranks" -v e="$events" -v m="$mode" -v d="$decode" -v a="$analyze" -v l="$load" \
      'BEGIN { printf "%s %s %s %.0f %.0f %.2f %.2f\n", r, e, m, d / e, a / e, a / d, l / d }'
  done
  rm -rf "$dir" "$work"/*.out*
done
