#!/usr/bin/python3
"""Programs without MPI, end to end: traced by hindsight-collect without
mpiexec, then analyzed by hindsight-analyze on 1 rank. The report must
exist and its summary name no warning; then, by scenario:

- imbalance (tests/collector/openmp_imbalance.c: 2 threads, thread 1 DELAY
  seconds late at the implicit barrier): thread 0's wait at the implicit
  barrier (the rank's omp_ibarrier_wait) is at least 0.75 x DELAY;
- tasks (tests/collector/openmp_tasks.c: thread 0 runs TASKS tasks of TASK
  seconds in the closing implicit barrier while thread 1 computes DELAY
  seconds): the tasks are regions below that barrier, TASKS visits of at
  least TASKS x TASK seconds in all, and the barrier's wait fits into the
  time the barrier keeps without them (the tasks are work, not waiting).

A live run on a shared machine gets coarse bounds only; the delays come
from the programs, never from a report.

usage: analyze_openmp_no_mpi.py --collect LAUNCHER --analyze ANALYZER --mpiexec MPIEXEC
                                --values CUBE_VALUES --program PROGRAM --scenario imbalance|tasks
"""

import argparse
import os
import subprocess
import sys
import tempfile

TIMEOUT = 120
DELAY = 0.2
TASKS, TASK = 4, 0.03  # as in openmp_tasks.c


def fail(message):
    print("analyze_openmp_no_mpi: " + message, file=sys.stderr)
    sys.exit(1)


def run(command, env=None):
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                            env=dict(os.environ, **(env or {})))
    print(result.stdout, result.stderr, sep="\n", flush=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} exited with status {result.returncode}")
    return result.stdout


def values(args, report):
    """(metric, call path) -> value, the rank's threads summed."""
    found = {}
    for line in run([args.values, report]).splitlines():
        metric, path, _, value = line.split("\t")
        found[(metric, path)] = found.get((metric, path), 0.0) + float(value)
    return found


def check_imbalance(found):
    wait = sum(v for (metric, _), v in found.items() if metric == "omp_ibarrier_wait")
    if wait < 0.75 * DELAY:
        fail(f"omp_ibarrier_wait {wait:.3f} s, expected at least {0.75 * DELAY:.3f} s "
             f"(thread 0 waits for thread 1, {DELAY} s late)")
    print(f"analyze_openmp_no_mpi: omp_ibarrier_wait {wait:.3f} s for a delay of {DELAY} s")


def check_tasks(found):
    def segments(path):
        return path.split("/")
    tasks = {path for (metric, path) in found if metric == "visits" and segments(path)[-1].startswith("!$omp task")}
    if not tasks:
        fail("the report has no call path of an !$omp task region")
    for path in tasks:
        if not segments(path)[-2].startswith("!$omp implicit barrier"):
            fail(f"the task ran outside the implicit barrier: {path}")
    visits = sum(found[("visits", path)] for path in tasks)
    task_time = sum(found.get(("time", path), 0.0) for path in tasks)
    if visits != TASKS:
        fail(f"{visits:g} visits of the tasks, expected {TASKS}")
    if task_time < TASKS * TASK * 0.99:
        fail(f"the tasks took {task_time:.3f} s, expected at least {TASKS * TASK:.3f} s")
    barriers = {"/".join(segments(path)[:-1]) for path in tasks}
    for barrier in barriers:
        wait = found.get(("omp_ibarrier_wait", barrier), 0.0)
        kept = found.get(("omp_ibarrier", barrier), 0.0)
        if wait > kept + 1e-9:
            fail(f"omp_ibarrier_wait {wait:.3f} s exceeds the barrier's own time {kept:.3f} s at {barrier}: "
                 "the tasks it ran counted as waiting")
        print(f"analyze_openmp_no_mpi: {visits:g} tasks, {task_time:.3f} s, in {barrier}; "
              f"its own time {kept:.3f} s, of which waiting {wait:.3f} s")


def main():
    parser = argparse.ArgumentParser()
    for option in ("--collect", "--analyze", "--mpiexec", "--values", "--program"):
        parser.add_argument(option, required=True)
    parser.add_argument("--scenario", required=True, choices=["imbalance", "tasks"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        run([args.collect, "-o", trace, "--", args.program, str(DELAY)], env={"OMP_NUM_THREADS": "2"})
        anchor = os.path.join(trace, "traces.otf2")
        if not os.path.exists(anchor):
            fail(f"no trace at {anchor}")
        report = os.path.join(tmp, "report.cubex")
        summary = run([args.mpiexec, "-n", "1", args.analyze, anchor, "-o", report, "--timeout", "30"])
        if not os.path.exists(report):
            fail(f"no report at {report}")
        lines = summary.splitlines()
        warnings = [i for i, line in enumerate(lines) if line.strip().startswith("Warnings:")]
        if not warnings:
            fail("the summary has no Warnings line")
        said = lines[warnings[0]].split("Warnings:", 1)[1].strip()
        if said != "none":
            fail(f"the summary warns: {lines[warnings[0]].strip()!r}")
        found = values(args, report)
        if args.scenario == "imbalance":
            check_imbalance(found)
        else:
            check_tasks(found)


if __name__ == "__main__":
    main()
