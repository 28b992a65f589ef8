#!/usr/bin/env python3
"""Runs every command example of the documentation (doc/*.md, README.md).

A command example is a line of a code block (indented, or fenced as sh)
that starts with a Hindsight tool or an MPI launcher. The examples speak of
a user's program ("./app args") on many ranks; here each runs on 2 ranks
with the pingpong example as the program, rank 0 late into one round trip,
so that call paths such as main/MPI_Recv exist; an example of a program
without MPI ("./omp_app", analyzed on "mpiexec -n 1") runs an OpenMP
program of 2 threads on one rank. Synopses run too, once
without their optional parts ([...]) and once with all of them (the first
of alternatives), their placeholders (TRACE, DIR, REPORT.cubex, ...)
standing for the trace and reports of such a run. A command
that writes a trace runs in an empty directory, any other one beside two
finished runs of the program (trace/ and trace2/, each with its report) and
its profile (prof/profile.cubex).
Each must exit 0 within the time limit.

The README's scripts (scripts/demo, scripts/test) are not run here: they
build and test the whole project, which is what the test suite is run by.

usage: doc_commands.py --source DIR --driver PATH --collect PATH --analyze PATH
                       --report PATH --program PATH --mpiexec PATH [--openmp-program PATH]
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

LIMIT_SECONDS = 180
RANKS = "2"

TOOLS = ("hindsight", "hindsight-collect", "hindsight-analyze", "hindsight-report")
LAUNCHERS = ("mpirun", "mpiexec", "srun")

# Placeholders of the synopses and the examples' names, and what they stand
# for here; the longest match first.
PLACEHOLDERS = [
    ("omp-trace", "omp"),
    ("TRACE/traces.otf2", "trace/traces.otf2"),
    ("DIR/traces.otf2", "trace/traces.otf2"),
    ('"trace-$SLURM_JOB_ID"', "trace"),
    ('"$SLURM_NTASKS"', RANKS),
    ("run1/analysis.cubex", "trace/analysis.cubex"),
    ("run2/analysis.cubex", "trace2/analysis.cubex"),
    ("BEFORE.cubex", "trace/analysis.cubex"),
    ("AFTER.cubex", "trace2/analysis.cubex"),
    ("before.cubex", "trace/analysis.cubex"),
    ("after.cubex", "trace2/analysis.cubex"),
    ("PROFILE.cubex", "prof/profile.cubex"),
    ("--filter-out FILE", "--filter-out advised.filter"),
    ("REPORT.cubex", "trace/analysis.cubex"),
    ("report.cubex", "trace/analysis.cubex"),
    ("PAGE.html", "page.html"),
    ("hindsight-app-64", "trace"),
    ("trace-app", "trace"),
    ("TRACE", "trace"),
    ("DIR", "trace"),
    ("ID", "mpi_latesender"),
    ("PATH", "main/MPI_Recv"),
    ("N", "3"),
]
# Options of other launchers than the one here (Slurm's srun).
FOREIGN_OPTIONS = ("--cpu-bind=cores", "--ntasks-per-node=8")


def code_lines(path):
    """(line number, text) of the lines of the file's code blocks."""
    lines = path.read_text(encoding="utf-8").split("\n")
    fence = None
    previous_blank = True
    in_indented = False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        if fence is not None:
            if fence in ("sh", "bash", "console", ""):
                yield number, line
            continue
        in_indented = line.startswith("    ") and (previous_blank or in_indented)
        if in_indented:
            yield number, line[4:]
        previous_blank = not line.strip()


def commands(path):
    """(line number, command) of the file's command examples, continuation
    lines joined and comments dropped."""
    pending, start = "", 0
    for number, line in code_lines(path):
        text = line.strip()
        if pending:
            text = pending + " " + text
        elif not text or text.split()[0] not in TOOLS + LAUNCHERS:
            continue
        else:
            start = number
        if text.endswith("\\"):
            pending = text[:-1].strip()
            continue
        pending = ""
        yield start, re.sub(r"\s+#.*$", "", text)


def with_options(command, included):
    """The synopsis with its optional parts ([...], innermost first) left out,
    or included (the first of alternatives "a | b"; a mere "[options]"
    stays out)."""
    def option(match):
        text = match.group(1)
        if not included or text.strip() in ("options", "launcher options"):
            return ""
        return " " + text.split("|")[0].strip()
    while True:
        shorter = re.sub(r"\s*\[([^\[\]]*)\]", option, command)
        if shorter == command:
            return command
        command = shorter


def runnable(command, program, included, openmp_program):
    """The command as it runs here, with its optional parts left out or
    included, or None if it is no Hindsight command."""
    words = command.split()
    if words[0] in LAUNCHERS:
        # "mpirun -n 64 [launcher options] TOOL ..." on this machine's mpiexec;
        # one rank stays one (a trace of a program without MPI).
        tool_at = next((i for i, w in enumerate(words) if w in TOOLS), None)
        if tool_at is None:
            return None
        ranks = "1" if words[1:3] == ["-n", "1"] else RANKS
        command = f"mpiexec -n {ranks} " + " ".join(words[tool_at:])
    for option in FOREIGN_OPTIONS:
        command = command.replace(" " + option, "")
    command = with_options(command, included)
    command = re.sub(r"\./app (args|input\.dat)", program, command)
    command = re.sub(r"(hindsight run -n) \S+", r"\1 " + RANKS, command)
    command = re.sub(r"(mpiexec -n) (?!1 )\S+", r"\1 " + RANKS, command)
    if "./omp_app" in command:
        if not openmp_program:
            return None
        command = command.replace("./omp_app", openmp_program)
    for placeholder, value in PLACEHOLDERS:
        command = re.sub(r"(?<![\w.$-])" + re.escape(placeholder) + r"(?![\w-])", value, command)
    return command


def writes_a_trace(command):
    return "hindsight-collect" in command or command.startswith("hindsight run")


def run(command, cwd, env):
    try:
        return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        return None


def main():
    parser = argparse.ArgumentParser()
    for option in ("--source", "--driver", "--collect", "--analyze", "--report", "--program", "--mpiexec"):
        parser.add_argument(option, required=True)
    parser.add_argument("--openmp-program", default="")
    args = parser.parse_args()
    if args.openmp_program:
        args.openmp_program = os.path.abspath(args.openmp_program) + " 0.01"
    elif any("./omp_app" in command for document in sorted((pathlib.Path(args.source) / "doc").glob("*.md"))
             for _, command in commands(document)):
        print("no OpenMP program in this build: the examples of programs without MPI are not run", flush=True)
    for option in ("driver", "collect", "analyze", "report", "program", "mpiexec"):
        setattr(args, option, os.path.abspath(getattr(args, option)))
    source = pathlib.Path(args.source)
    documents = sorted((source / "doc").glob("*.md")) + [source / "README.md"]
    program = f"{args.program} --count 4 --delay 0.05"

    with tempfile.TemporaryDirectory(prefix="hindsight-doc-") as work:
        work = pathlib.Path(work)
        tools = work / "bin"
        tools.mkdir()
        for name, target in (("hindsight", args.driver), ("hindsight-collect", args.collect),
                             ("hindsight-analyze", args.analyze), ("hindsight-report", args.report)):
            (tools / name).symlink_to(target)
        # mpiexec by its own directory: its process manager finds its helpers beside it.
        path = f"{tools}:{os.path.dirname(args.mpiexec)}:{os.environ.get('PATH', '')}"
        env = dict(os.environ, PATH=path, HINDSIGHT_COLLECT=args.collect,
                   HINDSIGHT_ANALYZE=args.analyze, HYDRA_TOPO_DEBUG="0")
        env.pop("SLURM_JOB_ID", None)

        runs = work / "runs"
        runs.mkdir()
        for name in ("trace", "trace2"):
            done = run(f"hindsight run -n {RANKS} -o {name} -- {program}", runs, env)
            if done is None or done.returncode != 0:
                sys.exit(f"FAIL: preparing {name}: " + ("timeout" if done is None else done.stdout + done.stderr))
        # A trace of a program without MPI (omp-trace), for its analysis.
        if args.openmp_program:
            done = run(f"hindsight-collect -o omp -- {args.openmp_program}", runs, env)
            if done is None or done.returncode != 0:
                sys.exit("FAIL: preparing omp: " + ("timeout" if done is None else done.stdout + done.stderr))
        # A profile, for the commands that read one (hindsight-report --score).
        done = run(f"hindsight run -n {RANKS} --profile -o prof -- {program}", runs, env)
        if done is None or done.returncode != 0:
            sys.exit("FAIL: preparing prof: " + ("timeout" if done is None else done.stdout + done.stderr))

        failures, ran = [], 0
        for document in documents:
            for number, command in commands(document):
                where = f"{document.relative_to(source)}:{number}"
                variants = {runnable(command, program, included, args.openmp_program)
                            for included in (False, True)} - {None}
                if variants:
                    print(f"{where}: {command}", flush=True)
                for line in sorted(variants):
                    sandbox = work / f"case{ran}"
                    if writes_a_trace(line):
                        sandbox.mkdir()
                    else:
                        shutil.copytree(runs, sandbox, symlinks=True)
                    ran += 1
                    print(f"    runs as: {line}", flush=True)
                    done = run(line, sandbox, env)
                    if done is None:
                        failures.append(f"{where}: no exit within {LIMIT_SECONDS} s: {line}")
                    elif done.returncode != 0:
                        failures.append(f"{where}: exit status {done.returncode}: {line}\n"
                                        + (done.stdout + done.stderr)[-2000:])
                    shutil.rmtree(sandbox, ignore_errors=True)
        if ran == 0:
            sys.exit("FAIL: no command example found in the documentation")
        if failures:
            sys.exit(f"FAIL: {len(failures)} of {ran} command examples failed:\n" + "\n".join(failures))
        print(f"all {ran} command examples ran")


if __name__ == "__main__":
    main()
