#!/usr/bin/python3
"""hindsight-collect refuses to start a program it could not measure.

Usage: check_refusals.py --collect LAUNCHER --mpiexec MPIEXEC

Each case runs `mpiexec -n 2 hindsight-collect ... -- touch MARKER` with one
thing wrong: an existing trace, a directory that cannot be made (a name too
long, a link leading nowhere or in a loop), a bad filter file (or one that
is no file), an unknown option, a bad or empty value of an option or a bad
value of a HINDSIGHT_* variable. The launcher must exit with status 2 and
one short line saying why (both
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
    try:
        result, started = launch(args, workdir, options, env)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: no exit within {TIMEOUT} s")
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    if started:
        raise Failure(f"{what}: the program was started")
    if result.returncode != 2:  # a refusal's status (doc/collector.md)
        raise Failure(f"{what}: exit status {result.returncode}, 2 due:\n{result.stderr}")
    if lines and len(lines[0]) > 400:  # long paths are shown shortened
        raise Failure(f"{what}: a line of {len(lines[0])} characters")
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
    refused(args, workdir, "existing trace in the default directory", [], ["hindsight-touch-2", "holds an incomplete trace (traces without traces.otf2"])
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

    # Names the file system cannot take, and links that lead nowhere: the
    # library could not create the directory, so the program must not start.
    long_name = os.path.join(workdir, "n" * 300)
    refused(args, workdir, "a name of 300 bytes", ["-o", long_name], ["has 300 bytes, more than the 255"])
    refused(args, workdir, "a name of 300 bytes below a new directory", ["-o", os.path.join(long_name, "x")],
            ["has 300 bytes"])
    dangling = os.path.join(workdir, "dangling")
    os.symlink("nowhere/x", dangling)
    refused(args, workdir, "a link that leads nowhere", ["-o", dangling], [dangling, "leads nowhere"])
    refused(args, workdir, "below a link that leads nowhere", ["-o", os.path.join(dangling, "t")],
            ["leads nowhere"])
    loop = os.path.join(workdir, "loop")
    os.symlink("loop", loop)
    refused(args, workdir, "a loop of links", ["-o", loop], [loop, "Too many levels of symbolic links"])
    huge = workdir
    while len(huge) + 201 < 4096:
        huge = os.path.join(huge, "d" * 200)
    huge = os.path.join(huge, "e" * (4096 - len(huge) - 1))  # 4096 bytes, beyond PATH_MAX with the zero
    refused(args, workdir, "HINDSIGHT_TRACE_DIR of 4096 bytes", [], ["the path is too long", "\u2026"],
            env={"HINDSIGHT_TRACE_DIR": huge})

    # Filter files that are not files: never read, never waited for.
    fifo = os.path.join(workdir, "fifo.filter")
    os.mkfifo(fifo)
    refused(args, workdir, "a FIFO as filter file", ["--filter", fifo], [fifo, "is not a regular file"])
    refused(args, workdir, "a directory as filter file", ["--filter", workdir], [workdir, "is a directory"])

    # Empty values: of an option refused, of a variable no setting (so an
    # empty HINDSIGHT_FORCE does not replace a trace).
    for option in ("-o", "--output", "--filter", "--buffer", "--timer"):
        refused(args, workdir, f"empty {option}", [option, ""], ["--"])
    refused(args, workdir, "empty HINDSIGHT_FORCE over an existing trace", ["-o", old],
            [old, "holds a trace already"], env={"HINDSIGHT_FORCE": ""})
    accepted(args, workdir, "empty HINDSIGHT_VERBOSE, _QUIET, _TIMER, _BUFFER_SIZE, _FILTER",
             ["-o", os.path.join(workdir, "t3")],
             env={name: "" for name in ("HINDSIGHT_VERBOSE", "HINDSIGHT_QUIET", "HINDSIGHT_TIMER",
                                        "HINDSIGHT_BUFFER_SIZE", "HINDSIGHT_FILTER")})

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
