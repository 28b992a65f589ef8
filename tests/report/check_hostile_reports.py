#!/usr/bin/python3
"""hindsight-report on damaged and hostile CUBE files (written by
write_hostile_report, whose comment describes each case).

Every case is shown in four ways: the page, the text tables, and the
difference from the sound base report as a page and as tables. Each run
must end within a time limit and as the case says:

- an error: status 1, nothing on standard output, exactly one line on
  standard error, "hindsight-report: FILE: PROBLEM" naming the case's file
  and matching the case's pattern, and no page left behind;
- a correct result: status 0, the page written (its path printed) or the
  tables printed, and on standard error exactly the warning lines the case
  implies ("hindsight-report: warning: FILE: ..."), which the text tables
  repeat above the table.

No run may create or change a file outside its work directory (the cases
name members "../hindsight-escaped.txt", absolute paths and links to
/etc/passwd), and no line of the text output may hold a control character.
With --memory-limit-gb each run gets that much address space at most, so
that a report declaring terabytes of values cannot take the machine's
memory (the AddressSanitizer build reserves far more, so it runs without).

Usage: check_hostile_reports.py --report-tool R --writer W [--memory-limit-gb N] [--time-limit SECONDS]
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile

TIMEOUT = 60  # seconds per run; --time-limit sets another (sanitized builds are slower)

# case -> the pattern its one error line must match after "FILE: "
ERRORS = {
    "empty-anchor": r"anchor\.xml is empty",
    "blank-anchor": r"anchor\.xml: line 3: the document has no root element",
    "symlink-anchor": r"not a CUBE report \(no anchor\.xml in the archive\)",
    "hardlink-anchor": r"not a CUBE report \(no anchor\.xml in the archive\)",
    "symlink-data": r"metric time has only one of 0\.index and 0\.data",
    "duplicate-anchor": r"the archive holds two members named anchor\.xml",
    "huge-member-size": r"tar member at byte 0 is truncated",
    "not-xml": r"anchor\.xml: line \d+: .+",
    "binary-anchor": r"anchor\.xml: line 1: the document has no root element",
    "billion-laughs": r"anchor\.xml: line 2: declarations are not supported \(a DOCTYPE, entities\)",
    "external-entity": r"anchor\.xml: line 2: declarations are not supported \(a DOCTYPE, entities\)",
    "undeclared-entity": r"anchor\.xml: line \d+: unknown entity &secret;",
    "duplicate-cnode-id": r"anchor\.xml: line \d+: cnode id 0 is used twice",
    "duplicate-region-id": r"anchor\.xml: line \d+: region id 0 is used twice",
    "negative-id": r"anchor\.xml: line \d+: id of <cnode> is not a valid number: '-1'",
    "huge-id": r"anchor\.xml: line \d+: id 4294967295 of <cnode> is out of range",
    "many-attributes": r"anchor\.xml: line \d+: <cube> has more than 64 attributes",
    "huge-index-count": r"0\.index/\.data: index size does not match its entry count",
    "dense-index-short-data": r"0\.index/\.data: data holds 0 bytes where 32 were expected",
    "compression-bomb": r"0\.index/\.data: compressed block inflates beyond the data's size",
    "declared-size-bomb": r"its values would need 6400\.0 GB of memory \(20000 call paths x 20000 locations x "
                          r"2000 metrics with data\), more than the machine's [\d.]+ GB",
}

# case -> the warnings it must give (after "hindsight-report: warning: FILE: ")
WARNINGS = {
    "base": [],
    "traversal-members": [],
    "control-names": [],
    "compression-bomb-opaque": [],
    "many-report-attributes": [],
    # time stored call-tree inclusive: main 1, 2 and its callee solve 3, 4.
    "callee-exceeds-caller": [
        r"metric time \(call-tree inclusive\): the callees of call path main exceed it on rank 0, "
        r"so its exclusive value is -2 sec \(1 more negative values\)"],
    # visits renamed time: both read, the second under a name of its own (as cube_merge writes them).
    "duplicate-metric-name": [r"anchor\.xml: line \d+: metric time is defined more than once; this one is read "
                              r"as 'time \(2\)'"],
    "not-finite": [r"metric time holds 2 value\(s\) that are not finite numbers, e\.g\. nan at call path "
                   r"main/solve on rank 0"],
}

# case -> lines the text tables (the overview) must hold, as printed
TEXT_LINES = {
    # visits is 1 on each of 2 call paths x 2 ranks; time 1+2 at main, 3+4 at solve.
    "base": [r"^time\s+\(all\)\s+10\s+sec$", r"^time\s+main/solve\s+7\s+sec$", r"^visits\s+\(all\)\s+4\s+occ$"],
    # main's exclusive time is -2 on both ranks: -4 in all; solve 7; 3 in all.
    "callee-exceeds-caller": [r"^time\s+\(all\)\s+3\s+sec$", r"^time\s+main\s+-4\s+sec$",
                              r"^time\s+main/solve\s+7\s+sec$"],
    # Region names "ma\nin\rx" and "so\tlve\x1b[31mred\u009b", escaped.
    "control-names": [r"^time\s+ma\\nin\\rx\s+3\s+sec$",
                      r"^time\s+ma\\nin\\rx/so\\tlve\\x1b\[31mred\\u009b\s+7\s+sec$"],
    "compression-bomb-opaque": [r"^time\s+\(all\)\s+not computed\s+sec$"],
    # Both metrics named time keep their values: the visits, 4 in all, under the new name.
    "duplicate-metric-name": [r"^time\s+\(all\)\s+10\s+sec$", r"^time \(2\)\s+\(all\)\s+4\s+occ$"],
}


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def limit_memory(gigabytes):
    if gigabytes <= 0:
        return None
    limit = gigabytes << 30
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def snapshot(directory):
    """Every path below `directory`; files with their size and modification time."""
    found = {}
    for root, dirs, files in os.walk(directory):
        for name in dirs:
            found[os.path.join(root, name) + "/"] = None
        for name in files:
            st = os.lstat(os.path.join(root, name))
            found[os.path.join(root, name)] = (st.st_size, st.st_mtime_ns)
    return found


def run(args, command, cwd):
    try:
        return subprocess.run([args.report_tool, *command], capture_output=True, cwd=cwd, timeout=args.time_limit,
                              preexec_fn=limit_memory(args.memory_limit_gb))
    except subprocess.TimeoutExpired:
        raise Failure(f"hindsight-report {' '.join(command)}: no end within {args.time_limit} s")


def check_run(args, case, mode, command, cwd, named, page):
    if os.path.exists(page):  # left by a failed run before
        os.remove(page)
    result = run(args, command, cwd)
    what = f"{case}, {mode}"
    check(result.returncode >= 0, f"{what}: killed by signal {-result.returncode}\n{result.stderr[-2000:]!r}")
    stderr = result.stderr.decode("utf-8", "replace")
    stdout = result.stdout.decode("utf-8", "replace")
    lines = stderr.splitlines()
    if case in ERRORS:
        check(result.returncode == 1, f"{what}: status {result.returncode}, expected 1\n{stderr[-2000:]}")
        check(len(lines) == 1, f"{what}: {len(lines)} error lines, expected one:\n{stderr[-2000:]}")
        prefix = f"hindsight-report: {named}: "
        check(lines[0].startswith(prefix), f"{what}: the error does not name {named}:\n{lines[0]}")
        check(re.fullmatch(ERRORS[case], lines[0][len(prefix):]),
              f"{what}: the error is not /{ERRORS[case]}/:\n{lines[0]}")
        check(stdout == "", f"{what}: printed {stdout[:500]!r}")
        check(not os.path.exists(page), f"{what}: a page was left behind")
        return
    check(result.returncode == 0, f"{what}: status {result.returncode}, expected 0\n{stderr[-2000:]}")
    expected = WARNINGS[case]
    prefix = f"hindsight-report: warning: {named}: "
    check(len(lines) == len(expected), f"{what}: {len(lines)} lines on stderr, expected {len(expected)}:\n{stderr}")
    for line, pattern in zip(lines, expected):
        check(line.startswith(prefix) and re.fullmatch(pattern, line[len(prefix):]),
              f"{what}: the warning is not /{pattern}/ about {named}:\n{line}")
    if "--text" in command:
        out = stdout.splitlines()
        check(all(not re.search(r"[\x00-\x1f\x7f\x80-\x9f]", line) for line in out),
              f"{what}: a control character in the tables:\n{stdout!r}")
        check(out[:len(expected)] == [line[len("hindsight-report: "):] for line in lines],
              f"{what}: the tables do not start with the warnings:\n{stdout}")
        if mode == "text":
            for pattern in TEXT_LINES.get(case, []):
                check(any(re.search(pattern, line) for line in out), f"{what}: no line /{pattern}/ in:\n{stdout}")
    else:
        check(stdout.strip() == page and os.path.isfile(page), f"{what}: no page {page}:\n{stdout}")
        os.remove(page)


def check_case(args, work, case, base):
    run_dir = os.path.join(work, "run")
    report = os.path.join(run_dir, f"{case}.cubex")
    written = subprocess.run([args.writer, case, report], capture_output=True, text=True, timeout=args.time_limit)
    check(written.returncode == 0, f"{case}: the writer failed: {written.stderr}")
    page = os.path.join(run_dir, "page.html")
    if os.path.exists(page):  # left by a failed case before
        os.remove(page)
    # The outside of the run directory, and where the members' names point.
    watched = [work, os.path.dirname(work)]
    before = [snapshot(watched[0]), set(os.listdir(watched[1]))]
    for mode, command in (("page", [report, "-o", page]),
                          ("text", ["--text", report]),
                          ("difference page", ["--diff", base, report, "-o", page]),
                          ("difference text", ["--diff", base, report, "--text"])):
        check_run(args, case, mode, command, run_dir, report, page)
    after = [snapshot(watched[0]), set(os.listdir(watched[1]))]
    check(after[0] == before[0], f"{case}: files changed in the work directory: "
                                 f"{sorted(set(after[0].items()) ^ set(before[0].items()))}")
    check(after[1] == before[1], f"{case}: files appeared beside the work directory: {sorted(after[1] ^ before[1])}")
    for name in ("/tmp/hindsight-escaped-absolute.txt",):
        check(not os.path.exists(name), f"{case}: {name} was written")
    os.remove(report)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--writer", required=True)
    parser.add_argument("--memory-limit-gb", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=TIMEOUT)
    args = parser.parse_args()
    args.report_tool, args.writer = os.path.abspath(args.report_tool), os.path.abspath(args.writer)
    listed = subprocess.run([args.writer, "--list"], capture_output=True, text=True, check=True).stdout.split()
    cases = [c for c in listed if c in ERRORS or c in WARNINGS]
    missing = set(ERRORS) | set(WARNINGS)
    missing -= set(listed)
    failures = []
    with tempfile.TemporaryDirectory(prefix="hindsight-hostile.") as parent:
        work = os.path.join(parent, "work")
        os.makedirs(os.path.join(work, "run"))
        base = os.path.join(work, "base.cubex")
        subprocess.run([args.writer, "base", base], check=True, timeout=args.time_limit)
        for case in cases:
            try:
                check_case(args, work, case, base)
                print(f"ok    {case}")
            except Failure as failure:
                failures.append(str(failure))
                print(f"FAIL  {case}: {failure}")
    if missing:
        failures.append(f"the writer lacks the cases {sorted(missing)}")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
