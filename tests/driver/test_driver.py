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
    environment = dict(os.environ, HINDSIGHT_COLLECT=args.collect, HINDSIGHT_ANALYZE=args.analyze)
    environment.update(env or {})
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


def profile(args, work):
    """--profile: the collector's profile and no trace, nothing analyzed, even
    without an analyzer to be found."""
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "--profile", "-o", "prof", "--", *pingpong(args)],
               cwd=work, env={"HINDSIGHT_ANALYZE": os.path.join(work, "no-analyzer")})
    expect(done.returncode == 0, f"exit status {done.returncode}", done)
    expect(os.path.isfile(os.path.join(work, "prof", "profile.cubex")), "no profile", done)
    expect(os.path.isfile(os.path.join(work, "prof", "profile.communicators.csv")), "no communicator table", done)
    expect(not os.path.exists(os.path.join(work, "prof", "traces.otf2")), "a trace was written", done)
    expect(not os.path.exists(os.path.join(work, "prof", "analysis.cubex")), "a trace was analyzed", done)


def default_directory(args, work):
    """Without -o the trace goes where the collector would put it."""
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "--", *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"exit status {done.returncode}", done)
    expect(os.path.isfile(os.path.join(work, "hindsight-pingpong-2", "analysis.cubex")), "no report", done)


def existing_trace(args, work):
    """An earlier complete trace stops the run before the program starts,
    with the collector's line and status, and is left as it is (not
    analyzed again as if new); --force replaces it."""
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--", *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"first run: exit status {done.returncode}", done)
    report = os.path.join(work, "trace", "analysis.cubex")
    with open(report, "rb") as f:
        first_report = f.read()
    marker = os.path.join(work, "started")
    program = ["sh", "-c", f"touch {marker}"]
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--", *program], cwd=work)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    expect(done.returncode == 2, f"exit status {done.returncode} over an existing trace, 2 due", done)
    expect(len(lines) == 1 and lines[0].startswith("hindsight-collect: ") and "holds a trace already" in lines[0],
           "not the collector's one line", done)
    expect(not os.path.exists(marker), "the program started", done)
    expect(done.stdout == "", "a summary of the old trace", done)
    with open(report, "rb") as f:
        expect(f.read() == first_report, "the old trace's report was rewritten", done)
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--force", "--",
                      *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"--force: exit status {done.returncode}", done)


def old_trace_kept(args, work):
    """A run that writes no new trace (here the program fails before
    MPI_Init, so nothing replaces the old trace, --force or not) does not
    pass the old one off as its own."""
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--", *pingpong(args)], cwd=work)
    expect(done.returncode == 0, f"first run: exit status {done.returncode}", done)
    done = run(args, ["run", "-n", "2", "--launcher", args.mpiexec, "-o", "trace", "--force", "--",
                      "sh", "-c", "exit 3"], cwd=work)
    expect(done.returncode == 3, f"exit status {done.returncode}, the program's 3 due", done)
    expect("no new trace" in done.stderr and "analyzing" not in done.stderr, "the old trace was analyzed", done)
    expect(done.stdout == "", "a summary of the old trace", done)


def analyzer_options(args, work):
    """Every option of hindsight-analyze (as its --help lists them) goes to
    the analyzer, none to the launcher; each one takes effect."""
    help_text = subprocess.run([args.mpiexec, "-n", "1", args.analyze, "--help"], capture_output=True, text=True,
                               timeout=LIMIT_SECONDS).stdout
    names = []  # long names, with "=" when they take a value
    for line in help_text.splitlines():
        words = line.split()
        if words and words[0].startswith("-"):
            long = next(w for w in words if w.startswith("--"))
            names.append(long + ("=" if "arg" in words else ""))
    expect(len(names) >= 10, f"no option list in hindsight-analyze --help:\n{help_text}")
    # Values for the options that take one; the driver's own -o/--output
    # (the trace directory), --help and --version stay the driver's.
    values = {"--what-if": "callpath=pingpong/main/MPI_Recv,scale=0.5", "--suggestions": "1", "--timeout": "60",
              "--timeline": "1", "--cores-per-node": "1"}
    own = {"--help", "--version", "--output="}
    arguments = []
    for name in names:
        if name in own:
            continue
        if name.endswith("="):
            expect(name[:-1] in values, f"the test knows no value for the analyzer's new option {name[:-1]}")
            arguments += [name[:-1], values[name[:-1]]]
        elif name != "--quiet":  # the summary shows the other options' effects
            arguments.append(name)
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    log = os.path.join(work, "launcher.log")
    launcher = os.path.join(bin_dir, "launcher")
    with open(launcher, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {log}\nexec {args.mpiexec} "$@"\n')
    os.chmod(launcher, os.stat(launcher).st_mode | stat.S_IXUSR)
    done = run(args, ["run", "-n", "2", "--launcher", launcher, "-o", "trace", *arguments, "--", *pingpong(args)],
               cwd=work)
    expect(done.returncode == 0, f"exit status {done.returncode} with {arguments}", done)
    with open(log) as f:
        measuring, analyzing = f.read().splitlines()
    for argument in arguments:
        expect(argument not in measuring.split(), f"{argument} went to the measurement: {measuring}", done)
        expect(argument in analyzing.split(), f"{argument} did not go to the analyzer: {analyzing}", done)
    # The effects: no page (--no-page), the placement for 1 core per node,
    # the activity graph's prediction (--graph, --what-if).
    expect(not os.path.exists(os.path.join(work, "trace", "analysis.html")), "a page despite --no-page", done)
    expect("Placement on 2 nodes of 1 cores (--cores-per-node)" in done.stdout, "no placement for 1 core", done)
    expect("callpath=pingpong/main/MPI_Recv,scale=0.5" in done.stdout, "no what-if prediction", done)
    # The "--name=value" form too, and a missing value is refused at once.
    done = run(args, ["run", "-n", "2", "--launcher", launcher, "-o", "trace2", "--timeout=60", "--quiet", "--",
                      *pingpong(args)], cwd=work)
    expect(done.returncode == 0 and "Largest wait states" not in done.stdout,
           f"--timeout=60 --quiet: exit status {done.returncode}", done)
    for argument in (["--timeout"], ["--timeout", ""], ["--what-if="]):
        done = run(args, ["run", "-n", "2", "--launcher", launcher, "-o", "trace3", *argument, "--", "true"],
                   cwd=work)
        expect(done.returncode == 2 and "needs a value" in done.stderr, f"{argument}: {done.stderr!r}", done)


def slurm_launcher(args, work):
    """Inside a Slurm job, srun launches both runs; its options pass through.
    The ranks are given as mpirun's -np, which the driver accepts for -n."""
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    log = os.path.join(work, "srun.log")
    srun = os.path.join(bin_dir, "srun")
    with open(srun, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {log}\nexec {args.mpiexec} "$@"\n')
    os.chmod(srun, os.stat(srun).st_mode | stat.S_IXUSR)
    env = {"SLURM_JOB_ID": "42", "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    done = run(args, ["run", "-np", "2", "-o", "trace", "--no-rootcause", "--", *pingpong(args)], env=env, cwd=work)
    expect(done.returncode == 0, f"exit status {done.returncode}", done)
    with open(log) as f:
        calls = f.read().splitlines()
    expect(len(calls) == 2, f"srun ran {len(calls)} times, 2 due: {calls}", done)
    expect(calls[0].startswith("-n 2 ") and args.collect in calls[0], f"measuring: {calls[0]}", done)
    expect(calls[1].startswith("-n 2 ") and args.analyze in calls[1] and "--no-rootcause" in calls[1],
           f"analyzing: {calls[1]}", done)


def bad_usage(args, work):
    """Wrong invocations end at once with one reason."""
    for arguments, reason in ((["run", "--", "true"], "number of ranks with -n N"),
                              (["run", "-np", "two", "--", "true"], "a positive number, not 'two'"),
                              (["run", "-n", "2"], "no program"),
                              (["run", "-n", "2", "-o", "", "--", "true"], "-o needs a directory"),
                              (["run", "-n", "2", "-o", "--", "true"], "-o needs a directory"),
                              (["run", "-n", "2", "--filter", "", "--", "true"], "--filter needs a file"),
                              (["run", "-n", "2", "--launcher", "", "--", "true"], "--launcher needs a command"),
                              (["analyse"], "unknown command")):
        done = run(args, arguments, cwd=work)
        expect(done.returncode != 0 and reason in done.stderr, f"{arguments}: {done.stderr!r}", done)
    done = run(args, ["--version"], cwd=work)
    expect(done.returncode == 0 and done.stdout.startswith("hindsight "), "--version", done)


CASES = {f.__name__.replace("_", "-"): f for f in (end_to_end, profile, default_directory, existing_trace, old_trace_kept,
                                                  analyzer_options, slurm_launcher, bad_usage)}


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
