#!/usr/bin/env python3
"""Writes Figure 3's trace, analyzes it with hindsight-analyze on 3 ranks and
checks the report's backward-analysis values; then the same for the
MPI_Sendrecv exchange on 2 ranks, for a Late Receiver posted by MPI_Irecv, for
a Late Sender waited for in MPI_Mprobe, for one waited for in an MPI_Test
polling loop, for a non-blocking collective awaited in MPI_Wait on 3 ranks,
and for an MPI_Alltoallv that waits for its receive sources only on 4 ranks.

usage: run_backward_e2e.py --checker PATH --analyzer PATH --mpiexec PATH
"""
import argparse
import os
import subprocess
import sys
import tempfile

LIMIT_SECONDS = 120


def step(cmd):
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL: no exit within {LIMIT_SECONDS} s: {' '.join(cmd)}")
    print(done.stdout, done.stderr, sep="\n")
    if done.returncode != 0:
        sys.exit(f"FAIL: exit status {done.returncode}: {' '.join(cmd)}")
    return done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checker", required=True)
    parser.add_argument("--analyzer", required=True)
    parser.add_argument("--mpiexec", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        trace_dir = os.path.join(work, "figure3")
        report = os.path.join(work, "figure3.cubex")
        step([args.checker, "write", trace_dir])
        done = step([args.mpiexec, "-n", "3", args.analyzer, os.path.join(trace_dir, "traces.otf2"),
                     "-o", report])
        for section in ("Critical path and its imbalance:", "Largest wait states:"):
            if section not in done.stdout:
                sys.exit(f"FAIL: the summary has no section {section!r}")
        # Figure 3's 5 units (1 s each) of Late Sender waiting, caused
        # mostly by A's g (2.25 units direct, 1.125 through B's wait), and
        # B's wait of 3 units from 3 s on.
        for line in ("Late Sender: 5.00 s", "caused mostly by", "main > g on rank 0: ",
                     "(2.25 s direct, ", "rank 1 at 3.000000 s: 3.00 s in main > MPI_Recv"):
            if line not in done.stdout:
                sys.exit(f"FAIL: the summary does not say {line!r}")
        step([args.checker, "check", report])

        # The MPI_Sendrecv exchange, a Late Receiver whose answer the MPI
        # engine must take where the receive was posted, not where it
        # completed (that would deadlock), and a Late Sender waited for in
        # MPI_Mprobe and in an MPI_Test polling loop.
        for scenario in ("sendrecv", "irecv", "probe", "polling"):
            trace_dir = os.path.join(work, scenario)
            report = os.path.join(work, scenario + ".cubex")
            step([args.checker, "write-" + scenario, trace_dir])
            step([args.mpiexec, "-n", "2", args.analyzer, os.path.join(trace_dir, "traces.otf2"),
                  "-o", report, "--timeout", "60"])
            step([args.checker, "check-" + scenario, report])

        # With the activity graph too: a non-blocking collective awaited in
        # MPI_Wait on 3 ranks (the graph's pass goes event by event, where a
        # collective that stood where it completes must not make the ranks
        # wait for each other), and an MPI_Alltoallv whose ranks wait for
        # their receive sources only, listed in the trace, on 4 ranks.
        for scenario, ranks in (("nonblocking", "3"), ("sparse", "4")):
            trace_dir = os.path.join(work, scenario)
            report = os.path.join(work, scenario + ".cubex")
            step([args.checker, "write-" + scenario, trace_dir])
            step([args.mpiexec, "-n", ranks, args.analyzer, os.path.join(trace_dir, "traces.otf2"),
                  "-o", report, "--graph", "--timeout", "60"])
            step([args.checker, "check-" + scenario, report])


if __name__ == "__main__":
    main()
