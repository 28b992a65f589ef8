#!/usr/bin/python3
"""hindsight-collect refuses to start a program it could not measure.

Usage: check_refusals.py --collect LAUNCHER --mpiexec MPIEXEC

Each case runs `mpiexec -n 2 hindsight-collect ... -- touch MARKER` with one
thing wrong: an existing trace, a directory that cannot be made, a bad
filter file, an unknown option, a bad value of an option or of a HINDSIGHT_*
variable. The launcher must exit non-zero with one line saying why (both
ranks run on this node, whose first launcher alone speaks), and the program
must never have started: MARKER does not exist. The cases that must be
accepted (a Score-P filter file, --force over an old trace) start it.
"""

import argparse
import os
import subprocess
import sys
import tempfile

TIMEOUT = 60
RANKS = 2


class Failure(Exception):
    pass


def launch(args, workdir, options, env=None):
    marker = os.path.join(workdir, "started")
    if os.path.exists(marker):
        os.remove(marker)
    command = [args.mpiexec, "-n", str(RANKS), args.collect, *options, "--", "touch", marker]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=workdir,
                            env=dict(os.environ, **(env or {})))
    return result, os.path.exists(marker)


def refused(args, workdir, what, options, expected_words, env=None):
    result, started = launch(args, workdir, options, env)
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    if started:
        raise Failure(f"{what}: the program was started")
    if result.returncode == 0:
        raise Failure(f"{what}: exit status 0")
    if len(lines) != 1 or not lines[0].startswith("hindsight-collect: "):
        raise Failure(f"{what}: expected one line 'hindsight-collect: ...', got:\n{result.stderr}")
    for word in expected_words:
        if word not in lines[0]:
            raise Failure(f"{what}: '{word}' missing in: {lines[0]}")


def accepted(args, workdir, what, options, env=None):
    result, started = launch(args, workdir, options, env)
    if result.returncode != 0 or not started:
        raise Failure(f"{what}: the program did not run (status {result.returncode}):\n{result.stderr}")


def write(path, text):
    with open(path, "w") as out:
        out.write(text)
    return path


def check(args, workdir):
    old = os.path.join(workdir, "old")
    os.makedirs(old)
    write(os.path.join(old, "traces.otf2"), "")
    refused(args, workdir, "existing trace", ["-o", old], [old, "holds a trace already (traces.otf2)", "--force"])
    accepted(args, workdir, "--force over an existing trace", ["-o", old, "--force"])
    refused(args, workdir, "existing trace, HINDSIGHT_TRACE_DIR", [], [old, "holds a trace already"],
            env={"HINDSIGHT_TRACE_DIR": old})

    # The default directory, hindsight-<program>-<ranks> in the working
    # directory, holding what an aborted run leaves.
    default = os.path.join(workdir, f"hindsight-touch-{RANKS}")
    os.makedirs(os.path.join(default, "traces"))
    refused(args, workdir, "existing trace in the default directory", [], ["hindsight-touch-2", "(traces)"])
    os.rmdir(os.path.join(default, "traces"))
    accepted(args, workdir, "the default directory without a trace", [])

    blocker = write(os.path.join(workdir, "a-file"), "")
    below = os.path.join(blocker, "trace")  # never creatable, even as root
    refused(args, workdir, "directory below a file", ["-o", below], [below, "cannot create the directory"])

    bad_filter = write(os.path.join(workdir, "bad.filter"),
                       "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE tiny\n  foo_ MANGLED\n")
    refused(args, workdir, "malformed filter file", ["--filter", bad_filter], [bad_filter, "line 3"])
    missing = os.path.join(workdir, "missing.filter")
    refused(args, workdir, "missing filter file", ["--filter", missing], [missing, "cannot read"])
    refused(args, workdir, "malformed filter file, HINDSIGHT_FILTER", [], [bad_filter],
            env={"HINDSIGHT_FILTER": bad_filter})
    scorep_filter = write(os.path.join(workdir, "scorep.filter"),
                          "# as Score-P writes them\n"
                          "SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE */third_party/*\nSCOREP_FILE_NAMES_END\n"
                          "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MANGLED main _Z4mainv\n"
                          "SCOREP_REGION_NAMES_END\n")
    accepted(args, workdir, "Score-P filter file", ["-o", os.path.join(workdir, "t1"), "--filter", scorep_filter])

    refused(args, workdir, "unknown option", ["--bogus"], ["--bogus"])
    refused(args, workdir, "bad --buffer", ["--buffer", "12X"], ["--buffer", "12X"])
    refused(args, workdir, "bad --timer", ["--timer", "sundial"], ["--timer", "sundial"])
    for name, value in (("HINDSIGHT_BUFFER_SIZE", "12X"), ("HINDSIGHT_FORCE", "maybe"),
                        ("HINDSIGHT_TIMER", "sundial"), ("HINDSIGHT_VERBOSE", "loud"), ("HINDSIGHT_QUIET", "2")):
        refused(args, workdir, f"bad {name}", ["-o", os.path.join(workdir, "t2")], [name, value],
                env={name: value})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--collect", required=True)
    parser.add_argument("--mpiexec", required=True)
    args = parser.parse_args()
    args.collect = os.path.abspath(args.collect)  # the cases run in a directory of their own
    with tempfile.TemporaryDirectory(prefix="hindsight-refusals.") as workdir:
        try:
            check(args, workdir)
        except Failure as failure:
            print(failure, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
