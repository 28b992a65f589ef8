#!/usr/bin/env python3
"""The hindsight command end to end: one run measures and analyzes an
example; the checks before the start stop a run that would waste its
allocation; the launcher is chosen as documented.

usage: test_driver.py CASE --driver PATH --collect PATH --analyze PATH
                      --values PATH --pingpong PATH --mpiexec PATH
"""
import argparse
import os
import stat
import subprocess
import sys
import tempfile

LIMIT_SECONDS = 120
DELAY = 0.2  # seconds rank 0 computes before one ping: rank 1 waits that long


def run(args, arguments, env=None, cwd=None):
    environment = dict(os.environ, HINDSIGHT_COLLECT=args.collect, HINDSIGHT_ANALYZE=args.analyze, **(env or {}))
    try:
        return subprocess.run(["sh", args.driver, *arguments], capture_output=True, text=True,
                              env=environment, cwd=cwd, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL: no exit within {LIMIT_SECONDS} s")


def expect(condition, what, done=None):
    if not condition:
        if done is not None:
            print(done.stdout, done.stderr, sep="\n")
        sys.exit(f"FAIL: {what}")


def late_sender_of_rank_1(args, report):
    values = subprocess.run([args.values, report], capture_output=True, text=True, check=True).stdout
    for line in values.splitlines():
        metric, path, rank, value = line.split("\t")
        # The call path starts at the program's own region (pingpong/main/...).
        if metric == "mpi_latesender" and path.endswith("main/MPI_Recv") and rank == "1":
            return float(value)
    return 0.0


def pingpong(args):
    return [args.pingpong, "--count", "4", "--delay", str(DELAY)]


def end_to_end(args, work):
    """One command: the trace, the report with rank 1's wait, the summary."""
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--", *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"exit status {done.returncode}", done)
    report = os.path.join(work, "trace", "analysis.cubex")
    expect(os.path.isfile(os.path.join(work, "trace", "traces.otf2")), "no trace", done)
    expect(os.path.isfile(report), "no report", done)
    expect("Largest wait states" in done.stdout, "no summary", done)
    wait = late_sender_of_rank_1(args, report)
    expect(wait >= 0.75 * DELAY, f"rank 1's Late Sender is {wait} s, at least {0.75 * DELAY} s due", done)


def default_directory(args, work):
    """Without -o the trace goes where the collector would put it."""
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "--", *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"exit status {done.returncode}", done)
    expect(os.path.isfile(os.path.join(work, "hindsight-pingpong-2", "analysis.cubex")), "no report", done)


def existing_trace(args, work):
    """An existing trace stops the run before the program starts; --force
    replaces it."""
    os.makedirs(os.path.join(work, "trace"))
    open(os.path.join(work, "trace", "traces.otf2"), "w").close()
    marker = os.path.join(work, "started")
    program = ["sh", "-c", f"touch {marker}"]
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--", *program], cwd=work)
    expect(done.returncode != 0, "exit status 0 over an existing trace", done)
    expect("holds a trace already" in done.stderr, "no reason given", done)
    expect(not os.path.exists(marker), "the program started", done)
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--force", "--",
                      *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"--force: exit status {done.returncode}", done)


def slurm_launcher(args, work):
    """Inside a Slurm job, srun launches both runs; its options pass through."""
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    log = os.path.join(work, "srun.log")
    srun = os.path.join(bin_dir, "srun")
    with open(srun, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {log}\nexec {args.mpiexec} "$@"\n')
    os.chmod(srun, os.stat(srun).st_mode | stat.S_IXUSR)
    env = {"SLURM_JOB_ID": "42", "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    done = run(args, ["run", "-n", "2", "-o", "trace", "--no-rootcause", "--", *pingpong(args)], env=env, cwd=work)
    expect(done.returncode == 0, f"exit status {done.returncode}", done)
    with open(log) as f:
        calls = f.read().splitlines()
    expect(len(calls) == 2, f"srun ran {len(calls)} times, 2 due: {calls}", done)
    expect(calls[0].startswith("-n 2 ") and args.collect in calls[0], f"measuring: {calls[0]}", done)
    expect(calls[1].startswith("-n 2 ") and args.analyze in calls[1] and "--no-rootcause" in calls[1],
           f"analyzing: {calls[1]}", done)


def bad_usage(args, work):
    """Wrong invocations end at once with one reason."""
    for arguments, reason in ((["run", "--", "true"], "number of ranks"),
                              (["run", "-n", "2"], "no program"),
                              (["analyse"], "unknown command")):
        done = run(args, arguments, cwd=work)
        expect(done.returncode != 0 and reason in done.stderr, f"{arguments}: {done.stderr!r}", done)
    done = run(args, ["--version"], cwd=work)
    expect(done.returncode == 0 and done.stdout.startswith("hindsight "), "--version", done)


CASES = {f.__name__.replace("_", "-"): f for f in (end_to_end, default_directory, existing_trace, slurm_launcher,
                                                  bad_usage)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    for option in ("--driver", "--collect", "--analyze", "--values", "--pingpong", "--mpiexec"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    # The cases run in a directory of their own.
    for name in ("driver", "collect", "analyze", "values", "pingpong", "mpiexec"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    with tempfile.TemporaryDirectory(prefix="hindsight-driver-") as work:
        CASES[args.case](args, work)


if __name__ == "__main__":
    main()
