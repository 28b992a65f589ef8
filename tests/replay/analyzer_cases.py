#!/usr/bin/env python3
"""Runs hindsight-analyze on one input case and checks how it ends.

usage: analyzer_cases.py CASE --analyzer PATH --mpiexec PATH --testdata DIR --scenario PATH

Good inputs must exit 0 and write a report; bad inputs must exit non-zero
with exactly one line on stderr that names the file. Every run has a time
limit, so that a hang fails the test instead of stalling the suite.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

LIMIT_SECONDS = 120


def run(args, ranks, trace, extra=()):
    cmd = [args.mpiexec, "-n", str(ranks), args.analyzer, trace, *extra]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL: no exit within {LIMIT_SECONDS} s: {' '.join(cmd)}")
    return done


def expect_success(args, ranks, trace, work, must_print=()):
    report = os.path.join(work, "report.cubex")
    done = run(args, ranks, trace, ["-o", report])
    print(done.stdout, done.stderr, sep="\n")
    if done.returncode != 0:
        sys.exit(f"FAIL: exit status {done.returncode}")
    if not os.path.isfile(report) or os.path.getsize(report) == 0:
        sys.exit("FAIL: no report written")
    for text in must_print:
        if text not in done.stdout:
            sys.exit(f"FAIL: the summary does not mention {text!r}")


def expect_failure(args, ranks, trace, must_say):
    done = run(args, ranks, trace, ["-o", os.path.join(os.path.dirname(trace) or ".", "never.cubex")])
    print(done.stdout, done.stderr, sep="\n")
    if done.returncode == 0:
        sys.exit("FAIL: exit status 0 on bad input")
    lines = [line for line in done.stderr.splitlines() if line.startswith("hindsight-analyze:")]
    if len(lines) != 1:
        sys.exit(f"FAIL: expected one error line, got {len(lines)}")
    if not lines[0].startswith(f"hindsight-analyze: {trace}: "):
        sys.exit("FAIL: the error line does not name the file first")
    if must_say not in lines[0]:
        sys.exit(f"FAIL: the error line does not say {must_say!r}")


def copy_trace(args, name, work):
    target = os.path.join(work, name)
    shutil.copytree(os.path.join(args.testdata, name), target)
    for root, dirs, files in os.walk(target):
        for entry in dirs + files:
            os.chmod(os.path.join(root, entry), 0o755)
    os.chmod(target, 0o755)
    return os.path.join(target, "traces.otf2")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case")
    for option in ("--analyzer", "--mpiexec", "--testdata", "--scenario"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hindsight-analyzer-") as work:
        if args.case == "scorep-pingpong":
            expect_success(args, 2, os.path.join(args.testdata, "scorep-pingpong", "traces.otf2"), work,
                           ["Largest wait states", "total time"])
        elif args.case == "scorep-pingpong-papi":
            expect_success(args, 2, os.path.join(args.testdata, "scorep-pingpong-papi", "traces.otf2"), work,
                           ["84 METRIC"])
        elif args.case == "missing-file":
            expect_failure(args, 2, os.path.join(work, "nothing", "traces.otf2"), "no such file")
        elif args.case == "garbage-file":
            garbage = os.path.join(work, "traces.otf2")
            with open(garbage, "w") as f:
                f.write("not an archive\n" * 10)
            expect_failure(args, 2, garbage, "OTF2")
        elif args.case == "truncated-events":
            trace = copy_trace(args, "scorep-pingpong", work)
            evt = os.path.join(os.path.dirname(trace), "traces", "1.evt")
            os.truncate(evt, os.path.getsize(evt) // 2)
            expect_failure(args, 2, trace, "rank 1")
        elif args.case == "rank-count-mismatch":
            expect_failure(args, 3, os.path.join(args.testdata, "scorep-pingpong", "traces.otf2"),
                           "the trace has 2 MPI ranks")
        elif args.case == "unmatched-message":
            directory = os.path.join(work, "unmatched")
            subprocess.run([args.scenario, "unmatched", directory], check=True, timeout=LIMIT_SECONDS)
            expect_failure(args, 2, os.path.join(directory, "traces.otf2"),
                           "1 messages from rank 0 to rank 1 have no matching receive")
        else:
            sys.exit(f"unknown case {args.case}")


if __name__ == "__main__":
    main()
