#!/usr/bin/python3
"""A program without MPI, end to end: tests/collector/openmp_imbalance.c
(2 threads, thread 1 DELAY seconds late at the implicit barrier) traced by
hindsight-collect without mpiexec, then analyzed by hindsight-analyze on 1
rank. The report must exist, its summary name no warning, and thread 0's
wait at the implicit barrier (the rank's omp_ibarrier_wait) be at least
0.75 x DELAY: a live run on a shared machine gets coarse bounds only; the
delay comes from the program, never from a report.

usage: analyze_openmp_no_mpi.py --collect LAUNCHER --analyze ANALYZER
                                --mpiexec MPIEXEC --values CUBE_VALUES --program PROGRAM
"""

import argparse
import os
import subprocess
import sys
import tempfile

TIMEOUT = 120
DELAY = 0.2


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


def main():
    parser = argparse.ArgumentParser()
    for option in ("--collect", "--analyze", "--mpiexec", "--values", "--program"):
        parser.add_argument(option, required=True)
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
        wait = 0.0
        for line in run([args.values, report]).splitlines():
            metric, _, rank, value = line.split("\t")
            if metric == "omp_ibarrier_wait":
                wait += float(value)
        if wait < 0.75 * DELAY:
            fail(f"omp_ibarrier_wait {wait:.3f} s, expected at least {0.75 * DELAY:.3f} s "
                 f"(thread 0 waits for thread 1, {DELAY} s late)")
        print(f"analyze_openmp_no_mpi: omp_ibarrier_wait {wait:.3f} s for a delay of {DELAY} s")


if __name__ == "__main__":
    main()
