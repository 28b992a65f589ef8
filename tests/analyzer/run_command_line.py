#!/usr/bin/env python3
"""Checks what hindsight-analyze prints besides the summary, and how it
takes its trace argument: --version; a trace directory for its traces.otf2,
with the report next to it by default and the version in the report; the
progress as plain phase lines in a log, as a status line rewritten in place
on a terminal (a pseudo-terminal here, behind mpiexec's pipes), and
nothing with --quiet.

usage: run_command_line.py --analyzer PATH --mpiexec PATH --writer PATH --version VERSION
"""
import argparse
import os
import pty
import re
import subprocess
import sys
import tarfile
import tempfile

LIMIT_SECONDS = 60
PHASE = r"hindsight-analyze: {} \d+\.\d\d s"
# The forward pass, the round analyses, with --graph or --what-if the
# activity graph's pass and the rounds of its path, and the timeline's
# windows (unless --timeline 0).
REPLAY = (r"hindsight-analyze: replay \d+\.\d\d s \(forward pass \d+\.\d\d s, rma epochs \d+\.\d\d s, delay costs \d+\.\d\d s, "
          r"critical path \d+\.\d\d s(, activity graph \d+\.\d\d s, activity graph's path \d+\.\d\d s)?"
          r"(, timeline windows \d+\.\d\d s)?\)")
LOG_LINES = [PHASE.format("load"), PHASE.format("unify"), PHASE.format("pair"), REPLAY, PHASE.format("report")]
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
STATUS = re.compile(r"\rhindsight-analyze: replay (forward pass|activity graph) +\d+% \[[# ]{16}\]( \d+:\d\d left)?\x1b\[K")

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=LIMIT_SECONDS, **kwargs)


def run_on_terminal(command):
    """Runs `command` with stdin and stderr on a pseudo-terminal and stdout
    into a pipe (the summary redirected); returns (status, terminal, stdout)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(command, stdin=terminal, stdout=subprocess.PIPE, stderr=terminal,
                               start_new_session=True)
    os.close(terminal)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO: every writer has closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    stdout = process.stdout.read()
    status = process.wait(timeout=LIMIT_SECONDS)
    os.close(controller)
    return status, shown.decode(errors="replace"), stdout.decode(errors="replace")


def lines_match(text, patterns):
    lines = text.splitlines()
    return len(lines) == len(patterns) and all(re.fullmatch(p, line) for p, line in zip(patterns, lines))


def main():
    parser = argparse.ArgumentParser()
    for option in ("--analyzer", "--mpiexec", "--writer", "--version"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    analyze = [args.mpiexec, "-n", "2", args.analyzer]

    done = run([args.mpiexec, "-n", "1", args.analyzer, "--version"])
    check(done.returncode == 0 and done.stdout == f"hindsight-analyze {args.version}\n",
          f"--version prints the version: {done.stdout!r}")

    with tempfile.TemporaryDirectory() as work:
        trace_dir = os.path.join(work, "good")
        subprocess.run([args.writer, "good", trace_dir], check=True, timeout=LIMIT_SECONDS)

        # A log: the trace given as its directory, the report by default next to traces.otf2.
        done = run(analyze + [trace_dir])
        report = os.path.join(trace_dir, "analysis.cubex")
        check(done.returncode == 0 and os.path.isfile(report),
              f"the trace directory is analyzed into {report}: {done.stderr.strip()}")
        check(lines_match(done.stderr, LOG_LINES), f"a log holds one line per phase:\n{done.stderr}")
        check(not CONTROL.search(done.stderr + done.stdout), "a log holds no control characters")
        check(done.stdout.strip() != "" and "hindsight-analyze:" not in done.stdout,
              "the summary on stdout holds no progress")
        if os.path.isfile(report):
            with tarfile.open(report) as archive:
                anchor = archive.extractfile("anchor.xml").read().decode()
            check(f'<attr key="Creator" value="Hindsight {args.version}"/>' in anchor,
                  "the report names the version that wrote it")
            # What the CUBE tools need to merge and compare it with Scalasca's
            # reports: unknown lines as -1, not as the unsigned 4294967295;
            # system tree nodes named after their class; 8-byte floating
            # point values as FLOAT.
            check('begin="-1"' in anchor and "4294967295" not in anchor,
                  "regions without source lines have begin and end -1")
            check("<name>machine Linux</name>" in anchor and "<name>node node0</name>" in anchor,
                  "system tree nodes are named 'machine NAME', 'node NAME'")
            check("<dtype>FLOAT</dtype>" in anchor and "<dtype>DOUBLE</dtype>" not in anchor,
                  "times are of type FLOAT")

        done = run(analyze + [os.path.join(trace_dir, "traces.otf2"), "--quiet", "-o", report])
        check(done.returncode == 0 and done.stderr == "" and done.stdout == "",
              f"--quiet prints nothing: {done.stderr!r} {done.stdout!r}")

        # A terminal behind mpiexec: the status line in place, then the phase lines.
        status, shown, stdout = run_on_terminal(analyze + [trace_dir, "-o", report])
        check(status == 0, f"the analysis on a terminal succeeds: {shown!r}")
        check(STATUS.search(shown) is not None, f"a terminal shows the replay's status line: {shown!r}")
        final = [line.split("\r")[-1].replace("\x1b[K", "") for line in shown.replace("\r\n", "\n").split("\n")]
        check(lines_match("\n".join(line for line in final if line), LOG_LINES),
              f"each phase leaves its line on the terminal: {final!r}")
        check(stdout.strip() != "" and not CONTROL.search(stdout), "the redirected summary holds no control characters")

        # A pipe into another program (tee) between mpiexec and the terminal:
        # a log, although the shell that made the pipe runs on the terminal.
        status, shown, piped = run_on_terminal(
            ["sh", "-c", " ".join(f"'{a}'" for a in analyze + [trace_dir, "-o", report]) + " 2>&1 | cat"])
        check(status == 0 and not CONTROL.search(piped) and re.search(REPLAY, piped) is not None,
              f"output piped into another program holds no control characters: {piped!r}")

        # What-if scenarios: predictions in the summary; a call path the
        # trace lacks, or a malformed one, is one line on stderr and no report.
        done = run(analyze + [trace_dir, "-o", report, "--what-if", "callpath=main,scale=0.5"])
        check(done.returncode == 0 and "What if (predicted run time):" in done.stdout
              and "callpath=main,scale=0.5: " in done.stdout,
              f"--what-if predicts the run time: {done.stdout!r}")
        for bad, problem in (("callpath=main/nosuch,scale=0.5", "the trace has no call path main/nosuch"),
                             ("callpath=main,scale=-1", "scale= needs a factor of at least 0")):
            missing = os.path.join(work, "not-written.cubex")
            done = run(analyze + [trace_dir, "-o", missing, "--what-if", bad])
            lines = done.stderr.splitlines()
            check(done.returncode != 0 and problem in done.stderr and not os.path.exists(missing)
                  and len([line for line in lines if problem in line]) == 1,
                  f"--what-if '{bad}' is refused in one line: {done.stderr!r}")

    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
