#!/usr/bin/env python3
"""Writes the `hindsight` driver from hindsight.in: the version, and the
handling of hindsight-analyze's options, taken from the analyzer's own
option table (hindsight-analyze-options prints it from the declaration in
analyzer/options.cpp), so that every option the analyzer has is passed to it.

usage: generate_driver.py TEMPLATE OUTPUT OPTION_TABLE_PROGRAM VERSION
"""
import os
import stat
import subprocess
import sys
import textwrap

# The driver's own options, or the analyzer's that the driver sets itself:
# -o is the trace directory, and the report goes beside the trace.
OWN = {"--help", "--version", "--output"}


def option_table(program):
    """(long name, takes a value, short name or None) for each option."""
    table = subprocess.run([program], capture_output=True, text=True, check=True).stdout
    options = []
    for line in table.splitlines():
        words = line.split()
        if len(words) not in (2, 3) or not words[0].startswith("--") or words[1] not in ("switch", "value"):
            sys.exit(f"generate_driver.py: {program}: unexpected line {line!r}")
        if words[0] not in OWN:
            options.append((words[0], words[1] == "value", words[2] if len(words) == 3 else None))
    if not options:
        sys.exit(f"generate_driver.py: {program}: no options")
    return options


def case_arms(options):
    """The arms of the driver's `case` over its arguments."""
    switches = [name for long, value, short in options if not value for name in (long, short) if name]
    valued = [long for long, value, short in options if value]
    arms = []
    if switches:
        arms.append(f'    {"|".join(switches)})\n'
                    '      analyze_options="$analyze_options $(quote "$1")"; shift ;;')
    if valued:
        arms.append(f'    {"|".join(valued)})\n'
                    '      has_value "$@" || fail "$1 needs a value (see hindsight-analyze --help)"\n'
                    '      analyze_options="$analyze_options $(quote "$1") $(quote "$2")"; shift 2 ;;')
        arms.append(f'    {"|".join(name + "=*" for name in valued)})\n'
                    '      [ -n "${1#*=}" ] || fail "${1%%=*} needs a value (see hindsight-analyze --help)"\n'
                    '      analyze_options="$analyze_options $(quote "$1")"; shift ;;')
    return "\n".join(arms)


def option_help(options):
    names = []
    for long, value, short in options:
        name = f"{short}, {long}" if short else long
        names.append(name + (" ARG" if value else ""))
    lines = textwrap.wrap(", ".join(names), width=76 - 2)
    return "\n".join("  " + line for line in lines)


def main():
    template, output, program, version = sys.argv[1:]
    options = option_table(program)
    with open(template) as f:
        text = f.read()
    for key, value in (("@VERSION@", version), ("@ANALYZER_OPTION_CASES@", case_arms(options)),
                       ("@ANALYZER_OPTION_HELP@", option_help(options))):
        if key not in text:
            sys.exit(f"generate_driver.py: {template}: no {key}")
        text = text.replace(key, value)
    with open(output, "w") as f:
        f.write(text)
    os.chmod(output, os.stat(output).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


if __name__ == "__main__":
    main()
