#!/usr/bin/python3
"""hindsight-report on large trees: a chain of nested metrics, a deep chain
of call paths and a wide call tree (write_hostile_report's nested-metrics,
deep-calls and wide-calls), each in the text mode, as a page and as the
difference of the report from itself. Time 1 s on rank 0 at every metric or
call path makes the expected values easy to derive:

- nested-metrics N: metric m_i holds, with its sub-metrics, N - i seconds;
  m0 is N at main.
- deep-calls N: main/f1/f2/... N call paths deep; time in all is N, main's
  inclusive value N and its exclusive value 1; the text tables name call
  paths deeper than 10 regions by their first 3 and last 6 regions.
- wide-calls N: main and N - 1 callees; time in all is N.
- the difference of a report from itself is zero everywhere.

A program that takes time or stack in the square of the depth or of the
number of metrics or call paths does not end within the test's time limit
(meson's timeout, the only bound; no speed is asserted here).

Usage: check_large_reports.py --report-tool R --writer W --metrics N --call-paths N
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def run(args, command):
    result = subprocess.run([args.report_tool, *command], capture_output=True, text=True, errors="replace")
    check(result.returncode == 0, f"hindsight-report {' '.join(command)}: status {result.returncode}\n"
                                  f"{result.stderr[-2000:]}")
    check(result.stderr == "", f"hindsight-report {' '.join(command)}: {result.stderr[-2000:]}")
    return result.stdout


def lines_matching(text, pattern):
    return [line for line in text.splitlines() if re.search(pattern, line)]


def check_modes(args, report, page):
    """The page, and the difference from itself as tables and as a page."""
    check(run(args, [report, "-o", page]).strip() == page and os.path.getsize(page) > 0, f"{report}: no page")
    same = run(args, ["--diff", report, report, "--text", "--csv"]).splitlines()
    check(same == ["metric,call path,value,unit"], f"{report} differs from itself: {same[:5]}")
    check(run(args, ["--diff", report, report, "-o", page]).strip() == page, f"{report}: no difference page")


def check_nested_metrics(args, work, n):
    report = os.path.join(work, "nested.cubex")
    subprocess.run([args.writer, "nested-metrics", report, str(n)], check=True)
    text = run(args, ["--text", report])
    check(lines_matching(text, rf"^m0\s+\(all\)\s+{n}\s+sec$"), f"nested: m0 is not {n} s:\n{text[:500]}")
    last = lines_matching(text, rf"^\s+m{n - 1}\s+\(all\)\s+1\s+sec$")
    check(len(last) == 1, f"nested: the innermost metric is not 1 s")
    check(len(text.splitlines()) == 1 + 2 * n, f"nested: {len(text.splitlines())} lines, expected {1 + 2 * n}")
    tree = run(args, ["--text", report, "--metric", f"m{n // 2}", "--csv"])
    check(tree.splitlines()[1:] == [f"main,{n - n // 2},{n - n // 2}"], f"nested: m{n // 2} at main: {tree[:300]}")
    check_modes(args, report, os.path.join(work, "nested.html"))


def check_deep_calls(args, work, n):
    report = os.path.join(work, "deep.cubex")
    subprocess.run([args.writer, "deep-calls", report, str(n)], check=True)
    text = run(args, ["--text", report])
    check(lines_matching(text, rf"^time\s+\(all\)\s+{n}\s+sec$"), f"deep: time is not {n} s:\n{text[:500]}")
    tree = run(args, ["--text", report, "--metric", "time"]).splitlines()
    check(len(tree) == 1 + n, f"deep: {len(tree)} lines in the call tree, expected {1 + n}")
    check(re.fullmatch(rf"main\s+{n}\s+1", tree[1]), f"deep: main is not {n} inclusive, 1 exclusive: {tree[1]}")
    # The deepest call path, n regions: main, f1..f999, f1000, f1, ... round 1000.
    names = ["main"] + [f"f{1 + (c - 1) % 1000}" for c in range(1, n)]
    deepest = "/".join(names[:3]) + f"/…({n - 9} more)…/" + "/".join(names[-6:])
    check(re.fullmatch(rf"\s*{re.escape(deepest)}\s+1\s+1", tree[-1]), f"deep: the deepest row is {tree[-1]!r}")
    check_modes(args, report, os.path.join(work, "deep.html"))


def check_wide_calls(args, work, n):
    report = os.path.join(work, "wide.cubex")
    subprocess.run([args.writer, "wide-calls", report, str(n)], check=True)
    text = run(args, ["--text", report])
    check(lines_matching(text, rf"^time\s+\(all\)\s+{n}\s+sec$"), f"wide: time is not {n} s:\n{text[:500]}")
    check_modes(args, report, os.path.join(work, "wide.html"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--writer", required=True)
    parser.add_argument("--metrics", type=int, required=True)
    parser.add_argument("--call-paths", type=int, required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hindsight-large.") as work:
        try:
            check_nested_metrics(args, work, args.metrics)
            check_deep_calls(args, work, args.call_paths)
            check_wide_calls(args, work, args.call_paths)
        except Failure as failure:
            print(f"FAIL: {failure}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
