# shellcheck shell=sh
# Shared by the analyzer benchmark scripts (sourced).

# The smallest of the numbers given.
fastest() { printf '%s\n' "$@" | sort -g | head -n 1; }

# hindsight-analyze's flags for a mode: all passes, or forward only.
mode_flags() {
  if [ "$1" = all ]; then echo ""; else echo "--no-critical-path --no-rootcause"; fi
}

# An awk rule for hindsight-analyze --stats: the phases' times by name in
# t[] and their sum, the analyzer's total time, in total.
# shellcheck disable=SC2016,SC2034
phase_times='/^  [a-z]+ +[0-9.]+ s$/ { t[$1] = $2; total += $2 }'
