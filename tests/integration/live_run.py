#!/usr/bin/python3
"""Traces an example program with hindsight-collect, analyzes the trace with
hindsight-analyze and checks the report against what the program does.

usage: live_run.py SCENARIO --collect LAUNCHER --analyze ANALYZER --mpiexec MPIEXEC
                   --values CUBE_VALUES --invariants CHECK_INVARIANTS --program PROGRAM

The expected behaviour of every scenario comes from doc/examples.md (call
counts, message sizes, injected delays), never from a report. These are live
runs on a possibly shared, oversubscribed machine, so times only get coarse
bounds; counts and bytes are exact. Every scenario also checks invariants that
hold for any trace (checks_every_trace), among them those of check_invariants
(tests/reference/invariants.hpp). All checks run, and each failure
prints what it observed, before the test fails.
"""

import argparse
import collections
import csv
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from xml.etree import ElementTree

import otf2

# Per command; a hang fails the test instead of stalling the suite.
COMMAND_TIMEOUT = 25
# In sanitized builds the preloaded collector comes before the ASan runtime
# in the library list, which ASan refuses by default; the order is harmless
# here (both are built with the same runtime). Without ASan it is ignored.
PRELOAD_ENV = {"ASAN_OPTIONS": "verify_asan_link_order=0"}
# The analyzer's own limit comes first, so that a stalled replay reports
# what it waited for.
REPLAY_TIMEOUT = 15

SUMMARY_HEADINGS = ["total time:", "Largest wait states:", "Critical path and its imbalance:", "Imbalance indicators:",
                    "Warnings:"]

# Each wait-state pattern with a delay metric (its metrics, where one wait
# is measured in different calls), and that metric (short-term plus
# long-term): the delay analysis charges every second of such waiting to
# some cause.
WAITS_WITH_DELAY_COSTS = [
    (["mpi_latesender"], "delay_latesender_aggregate"),
    (["mpi_latereceiver"], "delay_latereceiver_aggregate"),
    (["mpi_barrier_wait"], "delay_barrier_aggregate"),
    (["mpi_earlyreduce"], "delay_n21_aggregate"),
    (["mpi_latebroadcast"], "delay_12n_aggregate"),
    (["mpi_wait_nxn"], "delay_n2n_aggregate"),
    (["mpi_io_wait_nxn"], "delay_io_n2n_aggregate"),
    (["mpi_rma_wait_at_create"], "delay_rma_create_aggregate"),
    (["mpi_rma_wait_at_free"], "delay_rma_free_aggregate"),
    (["mpi_rma_wait_at_fence"], "delay_rma_fence_aggregate"),
    (["mpi_rma_sync_late_post", "mpi_rma_comm_late_post"], "delay_rma_latepost_aggregate"),
    (["mpi_rma_early_wait"], "delay_rma_earlywait_aggregate"),
    (["mpi_rma_sync_lock_competition", "mpi_rma_comm_lock_competition"], "delay_rma_lockcontention_aggregate"),
    (["mpi_rma_sync_wait_for_progress", "mpi_rma_comm_wait_for_progress"], "delay_rma_waitforprogress_aggregate"),
]


class Checks:
    """Collects failed expectations instead of stopping at the first."""

    def __init__(self):
        self.failures = []

    def expect(self, condition, message):
        print(("ok:   " if condition else "FAIL: ") + message)
        if not condition:
            self.failures.append(message)

    def at_least(self, observed, bound, what):
        self.expect(observed >= bound, f"{what}: observed {observed:.6f}, expected >= {bound:.6f}")

    def at_most(self, observed, bound, what):
        self.expect(observed <= bound, f"{what}: observed {observed:.6f}, expected <= {bound:.6f}")

    def within(self, observed, low, high, what):
        self.expect(low <= observed <= high,
                    f"{what}: observed {observed:.6f}, expected in [{low:.6f}, {high:.6f}]")

    def equal(self, observed, expected, what):
        self.expect(observed == expected, f"{what}: observed {observed!r}, expected {expected!r}")


# --- running -------------------------------------------------------------------

def run(command, echo_output=True, env=None):
    """Runs a command in its own process group, so that a timeout ends all of it."""
    print("$ " + " ".join(command), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=dict(os.environ, **(env or {})))
    try:
        out, err = process.communicate(timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        sys.exit(f"FAIL: no exit within {COMMAND_TIMEOUT} s: {' '.join(command)}\n{out}\n{err}")
    print(out if echo_output else "", err, sep="\n", flush=True)
    return process.returncode, out


def collect_and_analyze(args, workdir, ranks, program_args, collect_env=None):
    trace = os.path.join(workdir, "trace")
    status, _ = run([args.mpiexec, "-n", str(ranks), args.collect, "-o", trace, "--",
                     args.program, *program_args], env={**PRELOAD_ENV, **(collect_env or {})})
    if status != 0:
        sys.exit(f"FAIL: the traced program exited with status {status}")
    anchor = os.path.join(trace, "traces.otf2")
    report = os.path.join(workdir, "report.cubex")
    status, summary = run([args.mpiexec, "-n", str(ranks), args.analyze, anchor, "-o", report,
                           "--timeout", str(REPLAY_TIMEOUT)])
    if status != 0:
        sys.exit(f"FAIL: hindsight-analyze exited with status {status}")
    status, values = run([args.values, report], echo_output=False)
    if status != 0:
        sys.exit(f"FAIL: cube_values cannot read {report}")
    return Report(values, ranks, os.path.basename(args.program), report), Spans(anchor), summary


# --- reading -------------------------------------------------------------------

class Report:
    """The report's values as stored (metric-inclusive), per metric, call path and rank.
    Call paths are kept relative to the program's root region, which is named
    after the executable: "pingpong/main/MPI_Recv" is "main/MPI_Recv" here, the
    root itself "". `outside_root` holds the paths that do not lie below it.
    `path` is the .cubex file."""

    def __init__(self, text, ranks, root, path):
        self.path = path
        self.ranks = ranks
        self.root = root
        self.cells = collections.defaultdict(float)
        self.outside_root = set()
        for line in text.splitlines():
            metric, path, rank, value = line.split("\t")
            if path == root or path.startswith(root + "/"):
                path = path[len(root) + 1:]
            else:
                self.outside_root.add(path)
            self.cells[(metric, path, int(rank))] += float(value)

    def at(self, metric, path, rank):
        return self.cells.get((metric, path, rank), 0.0)

    def over_ranks(self, metric, path):
        return sum(self.at(metric, path, r) for r in range(self.ranks))

    def over_paths(self, metric, rank):
        return sum(v for (m, _, r), v in self.cells.items() if m == metric and r == rank)

    def total(self, metric):
        return sum(v for (m, _, _), v in self.cells.items() if m == metric)

    def paths(self):
        return {p for (_, p, _) in self.cells}


class Spans:
    """Per rank the time from its first to its last event; for the whole run
    the time from the first event to the last one, and the times from the
    earliest and from the latest start of a rank (its program's begin) to the
    last entry into MPI_Finalize."""

    def __init__(self, anchor):
        first, last, first_enter, finalize = {}, {}, {}, []
        with otf2.reader.open(anchor) as reader:
            resolution = reader.definitions.clock_properties.timer_resolution
            for location, event in reader.events:
                first.setdefault(location._ref, event.time)
                last[location._ref] = event.time
                if isinstance(event, (otf2.events.ProgramBegin, otf2.events.Enter)):
                    first_enter.setdefault(location._ref, event.time)
                if isinstance(event, otf2.events.Enter):
                    if event.region.name == "MPI_Finalize":
                        finalize.append(event.time)
        self.rank = {r: (last[r] - first[r]) / resolution for r in first}
        self.run = (max(last.values()) - min(first.values())) / resolution
        self.to_finalize_from_first_start = (max(finalize) - min(first_enter.values())) / resolution
        self.to_finalize_from_last_start = (max(finalize) - max(first_enter.values())) / resolution


# --- checks every trace gets ---------------------------------------------------------

def checks_every_trace(checks, report, spans, summary, invariants):
    # The relations within the report that hold for any trace, each
    # violation on a line of its own (check_invariants' exit status 1).
    status, _ = run([invariants, report.path])
    checks.equal(status, 0, "check_invariants exit status (0: the report's invariants hold; "
                 "its violations are listed above)")
    for heading in SUMMARY_HEADINGS:
        checks.expect(heading in summary, f"the summary has the heading {heading!r}")
    # The program's region encloses everything a rank did, so its time,
    # instrumented or not, adds up to the rank's span.
    checks.equal(sorted(report.outside_root), [], f"call paths outside the program's root region {report.root!r}")
    for rank in range(report.ranks):
        checks.within(report.over_paths("time", rank), 0.99 * spans.rank[rank], 1.01 * spans.rank[rank],
                      f"rank {rank}: time summed over call paths against the rank's span "
                      f"{spans.rank[rank]:.6f} s (+-1 %)")
    waiting = sum(report.total(w) for waits, _ in WAITS_WITH_DELAY_COSTS for w in waits)
    delays = sum(report.total(d) for _, d in WAITS_WITH_DELAY_COSTS)
    checks.within(delays, waiting * (1 - 1e-6) - 1e-9, waiting * (1 + 1e-6) + 1e-9,
                  f"delay costs (short- and long-term, all patterns) against the waiting they explain "
                  f"{waiting:.9f} s")
    checks.within(report.total("delay"), delays * (1 - 1e-9) - 1e-12, delays * (1 + 1e-9) + 1e-12,
                  "delay (the root) against the sum of its pattern aggregates")
    # The path ends where the last rank enters MPI_Finalize (doc/metrics.md)
    # and begins where the rank it leads back to started: between the
    # latest and the earliest start of a rank. (Finalizing, which includes
    # writing the trace, is left out; it can be a tenth of a short run.) A
    # live run gets coarse bounds; the exact length is checked on
    # trace-builder traces.
    critical = report.total("critical_path")
    checks.at_most(critical, spans.run, "critical-path length against the run's span")
    low, high = spans.to_finalize_from_last_start, spans.to_finalize_from_first_start
    checks.within(critical, 0.95 * low, high + 1e-5,
                  "critical-path length against the time from the latest and the earliest start of a rank "
                  "to the last MPI_Finalize entry")


def check_run_information(checks, report, program, program_args, started_after, started_before):
    """The report's attribute "Hindsight run" names the program's call as it
    was launched, the ranks, a start within the collector's run, and the tools."""
    with tarfile.open(report.path) as archive:
        anchor = ElementTree.fromstring(archive.extractfile("anchor.xml").read())
    values = {a.get("key"): a.get("value") for a in anchor.iter("attr")}
    checks.expect("Hindsight run" in values, "the report has the attribute 'Hindsight run'")
    run = json.loads(values.get("Hindsight run", "{}"))
    checks.equal(os.path.realpath(run.get("program", "")), os.path.realpath(program), "run: the program")
    checks.equal(run.get("arguments"), list(program_args), "run: the program's arguments")
    checks.equal(run.get("ranks"), report.ranks, "run: ranks")
    checks.equal(run.get("writer"), "Hindsight collector", "run: the trace's writer")
    checks.expect(str(run.get("analyzer", "")).startswith("Hindsight "), "run: the analyzer names itself")
    start = run.get("start") or ""
    checks.expect(started_after <= start <= started_before,
                  f"run: start {start!r} between {started_after!r} and {started_before!r}")


def check_visits(checks, report, prefix, expected_by_rank):
    """Visits of every MPI region below `prefix` equal the expected counts, and
    no other MPI region occurs there."""
    for rank, expected in enumerate(expected_by_rank):
        observed = {}
        for path in report.paths():
            region = path[len(prefix):]
            if path.startswith(prefix) and region.startswith("MPI_") and "/" not in region:
                visits = report.at("visits", path, rank)
                if visits:
                    observed[region] = round(visits)
        checks.equal(dict(sorted(observed.items())), dict(sorted(expected.items())),
                     f"rank {rank}: visits of the MPI regions below '{prefix or '(root)'}'")


def with_lifecycle(calls):
    """Every example calls these once each (doc/examples.md, common behaviour)."""
    return {"MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Finalize": 1, **calls}


def check_bytes(checks, report, sent_by_rank):
    for rank, expected in enumerate(sent_by_rank):
        checks.equal(round(report.over_paths("bytes_sent", rank)), expected, f"rank {rank}: bytes_sent")
    checks.equal(round(report.total("bytes_rcvd")), round(report.total("bytes_sent")),
                 "bytes_rcvd against bytes_sent, summed over ranks")


def check_messages(checks, report, messages, zero_byte_messages=0):
    """Point-to-point counts: every message is a send and a receive, with data or a sync."""
    with_data = messages - zero_byte_messages
    checks.equal(round(report.total("comms_send")), with_data, "comms_send summed over ranks")
    checks.equal(round(report.total("comms_recv")), with_data, "comms_recv summed over ranks")
    checks.equal(round(report.total("syncs_send")), zero_byte_messages, "syncs_send summed over ranks")
    checks.equal(round(report.total("syncs_recv")), zero_byte_messages, "syncs_recv summed over ranks")


def check_messages_to_oneself(checks, report, messages, size):
    """The communication matrix's diagonal: every rank sent `messages`
    messages of `size` bytes to itself (the matrix file beside the report)."""
    matrix = os.path.splitext(report.path)[0] + ".matrix.csv"
    diagonal = {}
    with open(matrix) as rows:
        for row in list(csv.DictReader(rows)):
            if row["from"] == row["to"]:
                diagonal[int(row["from"])] = (int(row["messages"]), int(row["bytes"]))
    expected = {rank: (messages, messages * size) for rank in range(report.ranks)} if messages else {}
    checks.equal(diagonal, expected, "messages and bytes of each rank to itself (the matrix's diagonal)")


def check_collective_counts(checks, report, dataless_by_rank, with_data_by_rank):
    for rank in range(report.ranks):
        checks.equal(round(report.over_paths("syncs_coll", rank)), dataless_by_rank[rank],
                     f"rank {rank}: syncs_coll (collectives without data)")
        checks.equal(round(report.over_paths("comms_coll", rank)), with_data_by_rank[rank],
                     f"rank {rank}: comms_coll (collectives with data)")


# --- scenarios -------------------------------------------------------------------
# Each returns (ranks, program arguments, check function).

def pingpong_delay():
    ranks, count, size, delay = 2, 10, 1024, 0.2

    def check(c, r):
        late_sender_1 = r.at("mpi_latesender", "main/MPI_Recv", 1)
        late_sender_0 = r.over_paths("mpi_latesender", 0)
        c.at_least(late_sender_1, 0.75 * delay, "rank 1: Late Sender at main/MPI_Recv")
        c.at_most(late_sender_0, 0.5 * late_sender_1, "rank 0: Late Sender (all call paths), at most half of rank 1's")
        c.at_least(r.at("delay_latesender", "main/delayed_work", 0), 0.75 * delay,
                   "rank 0: short-term Late Sender delay cost at main/delayed_work")
        c.at_least(r.over_ranks("critical_path", "main/delayed_work"), 0.75 * delay,
                   "critical path at main/delayed_work")
        check_visits(c, r, "main/", [with_lifecycle({"MPI_Barrier": 1, "MPI_Send": count, "MPI_Recv": count})] * 2)
        c.equal([round(r.at("visits", "main/delayed_work", k)) for k in range(ranks)], [1, 0],
                "visits of main/delayed_work per rank")
        check_bytes(c, r, [count * size] * 2)
        check_messages(c, r, 2 * count)

    return ranks, ["--count", str(count), "--bytes", str(size), "--delay", str(delay)], check


def latecoll():
    ranks, delay = 4, 0.2
    last = ranks - 1
    early = range(0, last)

    def check(c, r):
        for rank in range(1, ranks):
            c.at_least(r.at("mpi_latebroadcast", "main/MPI_Bcast", rank), 0.75 * delay,
                       f"rank {rank}: Late Broadcast at main/MPI_Bcast")
        c.at_least(r.at("mpi_earlyreduce", "main/MPI_Reduce", 0), 0.75 * delay, "rank 0: Early Reduce at main/MPI_Reduce")
        for rank in early:
            c.at_least(r.at("mpi_wait_nxn", "main/MPI_Allreduce", rank), 0.75 * delay,
                       f"rank {rank}: Wait at N x N at main/MPI_Allreduce")
            c.at_least(r.at("mpi_barrier_wait", "main/MPI_Barrier", rank), 0.75 * delay,
                       f"rank {rank}: Wait at Barrier at main/MPI_Barrier")
        # The late ranks' delayed_work caused that waiting (ranks - 1 waiters each time).
        c.at_least(r.at("delay_12n", "main/delayed_work", 0), 0.75 * delay * (ranks - 1),
                   "rank 0: short-term Late Broadcast delay cost at main/delayed_work")
        c.at_least(r.over_ranks("delay_n21", "main/delayed_work"), 0.75 * delay,
                   "short-term Early Reduce delay cost at main/delayed_work (all ranks)")
        # Rank 0's interval with the last rank reaches back to MPI_Bcast: the
        # last rank's 2 D of delayed_work since, against none, explain its D.
        # The other early ranks' intervals with it reach back to the first
        # barrier (a rooted operation ties them only to its root): there
        # both ran D of delayed_work for MPI_Reduce, and the last rank's
        # further D stands against its own D of Late Broadcast waiting, so
        # half of each wait is short-term cost and half goes on, through that
        # Late Broadcast wait, to rank 0's delayed_work as long-term cost.
        c.at_least(r.at("delay_n2n", "main/delayed_work", last), 0.75 * delay * 2,
                   f"rank {last}: short-term Wait at N x N delay cost at main/delayed_work")
        c.at_least(r.at("delay_n2n_longterm", "main/delayed_work", 0), 0.75 * delay,
                   "rank 0: long-term Wait at N x N delay cost at main/delayed_work")
        c.at_least(r.at("delay_barrier", "main/delayed_work", last), 0.75 * delay * (ranks - 1),
                   f"rank {last}: short-term Wait at Barrier delay cost at main/delayed_work")
        calls = with_lifecycle({"MPI_Barrier": 2, "MPI_Bcast": 1, "MPI_Reduce": 1, "MPI_Allreduce": 1})
        check_visits(c, r, "main/", [calls] * ranks)
        c.equal([round(r.at("visits", "main/delayed_work", k)) for k in range(ranks)], [1, 1, 1, 3],
                "visits of main/delayed_work per rank")

    return ranks, ["--delay", str(delay)], check


def latecoll_nb():
    ranks, delay = 3, 0.2
    last = ranks - 1

    def check(c, r):
        # 1. MPI_Iallreduce: the others start at once, work D/2, then wait
        # about D/2 in MPI_Wait for the last rank's start.
        for rank in range(0, last):
            c.at_least(r.at("mpi_wait_nxn", "main/MPI_Wait", rank), 0.75 * delay / 2,
                       f"rank {rank}: Wait at N x N at main/MPI_Wait")
            c.at_most(r.at("mpi_wait_nxn", "main/MPI_Wait", rank), 1.25 * delay / 2,
                      f"rank {rank}: Wait at N x N at main/MPI_Wait (the overlapped work is no waiting)")
        # 2. MPI_Ibarrier: the others wait about D.
        for rank in range(0, last):
            c.at_least(r.at("mpi_barrier_wait", "main/MPI_Wait", rank), 0.75 * delay,
                       f"rank {rank}: Wait at Barrier at main/MPI_Wait")
        # 3. MPI_Ibcast from a late root: the others wait about D.
        for rank in range(1, ranks):
            c.at_least(r.at("mpi_latebroadcast", "main/MPI_Wait", rank), 0.75 * delay,
                       f"rank {rank}: Late Broadcast at main/MPI_Wait")
        # The late starts caused it: each waiter's wait is short-term cost of
        # the late rank's delayed_work (its overlapped_work is on no side:
        # the late rank did none).
        c.at_least(r.at("delay_n2n", "main/delayed_work", last), 0.75 * delay / 2 * (ranks - 1),
                   f"rank {last}: short-term Wait at N x N delay cost at main/delayed_work")
        c.at_least(r.at("delay_barrier", "main/delayed_work", last), 0.75 * delay * (ranks - 1),
                   f"rank {last}: short-term Wait at Barrier delay cost at main/delayed_work")
        c.at_least(r.at("delay_12n", "main/delayed_work", 0), 0.75 * delay * (ranks - 1),
                   "rank 0: short-term Late Broadcast delay cost at main/delayed_work")
        c.at_most(r.over_ranks("delay_n2n", "main/overlapped_work"), 0.05 * delay,
                  "short-term Wait at N x N delay costs at main/overlapped_work (all ranks)")
        calls = with_lifecycle({"MPI_Barrier": 1, "MPI_Iallreduce": 1, "MPI_Ibarrier": 1, "MPI_Ibcast": 1,
                                "MPI_Wait": 3})
        check_visits(c, r, "main/", [calls] * ranks)

    return ranks, ["--delay", str(delay)], check


def mprobe():
    ranks, delay = 3, 0.2

    def check(c, r):
        # Round 1: every other rank waits about D inside MPI_Mprobe for rank
        # 0's send (a Late Sender in the probe, none in MPI_Mrecv), which
        # rank 0's delayed_work caused.
        for rank in range(1, ranks):
            c.at_least(r.at("mpi_latesender", "main/receive_round/MPI_Mprobe", rank), 0.75 * delay,
                       f"rank {rank}: Late Sender at main/receive_round/MPI_Mprobe")
            c.at_most(r.at("mpi_latesender", "main/receive_round/MPI_Mrecv", rank), 0.05 * delay,
                      f"rank {rank}: Late Sender at main/receive_round/MPI_Mrecv")
        # Round 2: they poll with MPI_Improbe for about D more. The time
        # inside the probes before the send began is a Late Sender in
        # polling: most of MPI_Improbe's time (the calls after the send are
        # few), though only part of D, as the loop and its measurement
        # between the calls take a good share of a tight loop (the probes
        # held 55-75 % of D in our runs). None of it is in the MPI_Wait that
        # completes MPI_Imrecv; rank 0's delayed_work caused it too.
        improbe = "main/receive_round/MPI_Improbe"
        polling_waits = 0.0
        for rank in range(1, ranks):
            polling_wait = r.at("mpi_latesender", improbe, rank)
            polling_waits += polling_wait
            c.at_least(polling_wait, 0.25 * delay, f"rank {rank}: Late Sender at {improbe}")
            c.at_least(polling_wait, 0.8 * r.at("time", improbe, rank),
                       f"rank {rank}: Late Sender at {improbe} against the time in it")
            c.at_most(r.at("mpi_latesender", "main/receive_round/MPI_Wait", rank), 0.05 * delay,
                      f"rank {rank}: Late Sender at main/receive_round/MPI_Wait")
        c.at_least(r.at("delay_latesender", "main/delayed_work", 0), 0.75 * (delay * (ranks - 1) + polling_waits),
                   "rank 0: short-term Late Sender delay cost at main/delayed_work (both rounds)")

    return ranks, ["--delay", str(delay)], check


def neighbors():
    ranks, delay = 4, 0.2

    def check(c, r):
        # Each exchange follows rank 0's delayed_work: its ring neighbours,
        # ranks 1 and 3, wait about D for it in each. Rank 2 receives from
        # ranks 1 and 3 only: in the first exchange they came in time, so it
        # waits for nobody; in the next two they come about D late (held up
        # by rank 0 the exchange before), and it waits about D, not the 2 D
        # until rank 0's entry that waiting for every member would give.
        exchanges = ("main/MPI_Neighbor_alltoall", "main/MPI_Neighbor_allgather", "main/MPI_Wait")
        for path in exchanges:
            for rank in (1, 3):
                c.at_least(r.at("mpi_wait_nxn", path, rank), 0.75 * delay, f"rank {rank}: Wait at N x N at {path}")
        c.at_most(r.at("mpi_wait_nxn", exchanges[0], 2), 0.25 * delay, f"rank 2: Wait at N x N at {exchanges[0]}")
        for path in exchanges[1:]:
            c.within(r.at("mpi_wait_nxn", path, 2), 0.5 * delay, 1.5 * delay, f"rank 2: Wait at N x N at {path}")
        c.at_least(r.at("delay_n2n", "main/delayed_work", 0), 0.75 * delay * 2 * len(exchanges),
                   "rank 0: short-term Wait at N x N delay cost at main/delayed_work")
        calls = with_lifecycle({"MPI_Cart_create": 1, "MPI_Cart_shift": 1, "MPI_Barrier": 1,
                                "MPI_Neighbor_alltoall": 1, "MPI_Neighbor_allgather": 1,
                                "MPI_Ineighbor_alltoall": 1, "MPI_Wait": 1, "MPI_Comm_free": 1})
        check_visits(c, r, "main/", [calls] * ranks)

    return ranks, ["--delay", str(delay)], check


def shift():
    ranks, delay = 4, 0.2

    def check(c, r):
        # Each shift follows rank 0's delayed_work. Rank 1 receives from rank
        # 0 alone and waits about D in each; every other rank receives from a
        # rank that came in time and waits for nobody (waiting for every
        # member would give them about D too).
        for path in ("main/MPI_Alltoallv", "main/MPI_Wait"):
            c.at_least(r.at("mpi_wait_nxn", path, 1), 0.75 * delay, f"rank 1: Wait at N x N at {path}")
            for rank in (0, 2, 3):
                c.at_most(r.at("mpi_wait_nxn", path, rank), 0.25 * delay, f"rank {rank}: Wait at N x N at {path}")
        c.at_least(r.at("delay_n2n", "main/delayed_work", 0), 0.75 * delay * 2,
                   "rank 0: short-term Wait at N x N delay cost at main/delayed_work")
        calls = with_lifecycle({"MPI_Barrier": 2, "MPI_Alltoallv": 1, "MPI_Ialltoallv": 1, "MPI_Wait": 1})
        check_visits(c, r, "main/", [calls] * ranks)

    return ranks, ["--delay", str(delay)], check


def fileio():
    ranks, delay = 4, 0.2
    last = ranks - 1

    def check(c, r):
        # The last rank joins MPI_File_write_at_all D late: the others wait
        # about D for it inside (Wait at collective I/O, part of the file
        # I/O time), caused by the late rank's delayed_work.
        for rank in range(0, last):
            c.at_least(r.at("mpi_io_wait_nxn", "main/MPI_File_write_at_all", rank), 0.75 * delay,
                       f"rank {rank}: Wait at collective I/O at main/MPI_File_write_at_all")
            c.at_least(r.at("mpi_io_collective", "main/MPI_File_write_at_all", rank), 0.75 * delay,
                       f"rank {rank}: collective file I/O (its wait included) at main/MPI_File_write_at_all")
        c.at_most(r.at("mpi_io_wait_nxn", "main/MPI_File_write_at_all", last), 0.25 * delay,
                  f"rank {last}: Wait at collective I/O at main/MPI_File_write_at_all (it came last)")
        c.at_least(r.at("comp", "main/delayed_work", last), 0.75 * delay, f"rank {last}: computation at main/delayed_work")
        c.at_least(r.at("delay_io_n2n", "main/delayed_work", last), 0.75 * delay * (ranks - 1),
                   f"rank {last}: short-term Wait at collective I/O delay cost at main/delayed_work")
        for rank in range(ranks):
            c.equal(r.at("mpi_file_cwops", "main/MPI_File_write_at_all", rank), 1.0,
                    f"rank {rank}: collective writes at main/MPI_File_write_at_all")
            c.equal(r.at("mpi_file_crops", "main/MPI_File_read_all", rank), 1.0,
                    f"rank {rank}: collective reads at main/MPI_File_read_all")
            # 1024 ints written, all ranks' ints read back.
            c.equal(r.at("io_bytes_written", "main/MPI_File_write_at_all", rank), 4.0 * 1024,
                    f"rank {rank}: bytes written at main/MPI_File_write_at_all")
            c.equal(r.at("io_bytes_read", "main/MPI_File_read_all", rank), 4.0 * 1024 * ranks,
                    f"rank {rank}: bytes read at main/MPI_File_read_all")
            # Then its own block alone: a non-blocking write, whose bytes
            # count where MPI_Wait completes it, and a blocking read.
            c.equal(r.at("mpi_file_iwops", "main/MPI_File_iwrite_at", rank), 1.0,
                    f"rank {rank}: individual writes at main/MPI_File_iwrite_at")
            c.equal(r.at("io_bytes_written", "main/MPI_Wait", rank), 4.0 * 1024,
                    f"rank {rank}: bytes written at main/MPI_Wait")
            c.equal(r.at("mpi_file_irops", "main/MPI_File_read_at", rank), 1.0,
                    f"rank {rank}: individual reads at main/MPI_File_read_at")
            c.equal(r.at("io_bytes_read", "main/MPI_File_read_at", rank), 4.0 * 1024,
                    f"rank {rank}: bytes read at main/MPI_File_read_at")
        calls = with_lifecycle({"MPI_Bcast": 1, "MPI_Barrier": 1, "MPI_File_open": 1, "MPI_File_write_at_all": 1,
                                "MPI_File_seek": 1, "MPI_File_read_all": 1, "MPI_File_iwrite_at": 1,
                                "MPI_Wait": 1, "MPI_File_read_at": 1, "MPI_File_close": 1})
        check_visits(c, r, "main/", [calls] * ranks)

    return ranks, ["--delay", str(delay)], check


def rma():
    ranks, delay, block = 3, 0.2, 256
    last = ranks - 1

    def check(c, r):
        # The last rank reaches the fence that ends the put epoch D late:
        # the others wait about D for it inside (Wait at Fence), caused by
        # its delayed_work.
        for rank in range(0, last):
            c.at_least(r.at("mpi_rma_wait_at_fence", "main/MPI_Win_fence", rank), 0.5 * delay,
                       f"rank {rank}: Wait at Fence at main/MPI_Win_fence")
        c.at_most(r.at("mpi_rma_wait_at_fence", "main/MPI_Win_fence", last), 0.25 * delay,
                  f"rank {last}: Wait at Fence at main/MPI_Win_fence (it came last)")
        c.at_least(r.at("comp", "main/delayed_work", last), 0.75 * delay, f"rank {last}: computation at main/delayed_work")
        # Then rank 0 posts its window D late: each origin waits about D in
        # whichever call of its access epoch MPI lets wait for the post
        # (MPICH: the put or the complete), none at rank 0's MPI_Win_wait.
        for rank in range(1, ranks):
            late_post = sum(r.at(metric, f"main/{call}", rank)
                            for metric in ("mpi_rma_sync_late_post", "mpi_rma_comm_late_post")
                            for call in ("MPI_Win_start", "MPI_Put", "MPI_Win_complete"))
            c.within(late_post, 0.5 * delay, 1.5 * delay, f"rank {rank}: Late Post in its access epoch")
            c.equal(r.at("mpi_rma_pairsync_count", "main/MPI_Win_complete", rank), 1.0,
                    f"rank {rank}: one pair synchronized at main/MPI_Win_complete")
        c.at_least(r.at("comp", "main/late_post_work", 0), 0.75 * delay, "rank 0: computation at main/late_post_work")
        # That work bears the two origins' Late Post costs, about D each.
        c.within(r.at("delay_rma_latepost", "main/late_post_work", 0), 1.0 * delay, 3.0 * delay,
                 "rank 0: Late Post delay costs at main/late_post_work")
        c.at_most(r.at("mpi_rma_early_wait", "main/MPI_Win_wait", 0) +
                  r.at("mpi_rma_late_complete", "main/MPI_Win_wait", 0), 0.25 * delay,
                  "rank 0: Early Wait at main/MPI_Win_wait (its origins were waiting for it)")
        c.equal(r.at("mpi_rma_pairsync_count", "main/MPI_Win_wait", 0), float(ranks - 1),
                "rank 0: pairs synchronized at main/MPI_Win_wait")
        # Last, rank 0 holds an exclusive lock on the last rank's window D
        # long; rank 1 asks for it after rank 0 (a barrier between) and waits
        # about D in whichever call of its epoch MPI lets wait (MPICH: the
        # unlock); rank 0 waits for nobody.
        lock_wait = lambda rank: sum(r.at(metric, f"main/{call}", rank)
                                     for metric in ("mpi_rma_sync_lock_competition", "mpi_rma_comm_lock_competition")
                                     for call in ("MPI_Win_lock", "MPI_Put", "MPI_Win_unlock"))
        c.within(lock_wait(1), 0.5 * delay, 1.5 * delay, "rank 1: Lock Contention in its lock epoch")
        c.at_most(lock_wait(0), 0.25 * delay, "rank 0: Lock Contention (it held the lock first)")
        c.at_least(r.at("comp", "main/held_lock_work", 0), 0.75 * delay, "rank 0: computation at main/held_lock_work")
        c.within(r.at("delay_rma_lockcontention", "main/held_lock_work", 0), 0.5 * delay, 1.5 * delay,
                 "rank 0: Lock Contention delay costs at main/held_lock_work")
        # Then the last rank computes D outside MPI while rank 0, D/10 later,
        # locks its window: MPICH grants the lock only when the last rank
        # calls MPI again (MPI_Win_free), so rank 0 waits about 0.9 D in
        # whichever call of its epoch MPICH lets wait (the lock), and those
        # costs go to that computation.
        progress_wait = sum(r.at(metric, f"main/{call}", 0)
                            for metric in ("mpi_rma_sync_wait_for_progress", "mpi_rma_comm_wait_for_progress")
                            for call in ("MPI_Win_lock", "MPI_Put", "MPI_Win_unlock"))
        c.within(progress_wait, 0.5 * delay, 1.5 * delay, "rank 0: Wait for Progress in its last lock epoch")
        c.at_least(r.at("comp", "main/unprogressed_work", last), 0.75 * delay,
                   f"rank {last}: computation at main/unprogressed_work")
        c.within(r.at("delay_rma_waitforprogress", "main/unprogressed_work", last), 0.4 * delay, 1.5 * delay,
                 f"rank {last}: Wait for Progress delay costs at main/unprogressed_work")
        for rank in range(ranks):
            # One put and one get of 256 ints each; the origins of the GATS
            # epoch one more put of an int, the lockers one more (rank 0 two).
            extra = {0: 2, 1: 2}.get(rank, 1)
            c.equal(r.at("bytes_put", "main/MPI_Put", rank), 4.0 * (block + extra),
                    f"rank {rank}: bytes put at main/MPI_Put")
            c.equal(r.at("bytes_get", "main/MPI_Get", rank), 4.0 * block, f"rank {rank}: bytes got at main/MPI_Get")
            c.equal(r.at("comms_rma_puts", "main/MPI_Put", rank), 1.0 + extra, f"rank {rank}: puts at main/MPI_Put")
            c.equal(r.at("comms_rma_gets", "main/MPI_Get", rank), 1.0, f"rank {rank}: gets at main/MPI_Get")
        fences = {"MPI_Win_create": 1, "MPI_Win_fence": 3, "MPI_Get": 1, "MPI_Win_free": 1, "MPI_Comm_group": 1,
                  "MPI_Group_free": 2, "MPI_Barrier": 2}
        locking = {"MPI_Win_lock": 1, "MPI_Win_unlock": 1}
        target = with_lifecycle(fences | {"MPI_Win_lock": 2, "MPI_Win_unlock": 2, "MPI_Put": 3, "MPI_Group_excl": 1,
                                          "MPI_Win_post": 1, "MPI_Win_wait": 1, "MPI_Win_flush": 1})
        origin = with_lifecycle(fences | {"MPI_Put": 2, "MPI_Group_incl": 1, "MPI_Win_start": 1,
                                          "MPI_Win_complete": 1})
        contender = origin | locking | {"MPI_Put": 3}
        check_visits(c, r, "main/", [target, contender] + [origin] * (ranks - 2))

    def check_trace(c, anchor):
        # One window, on MPI_COMM_WORLD (all ranks), defined once for all.
        with otf2.reader.open(anchor) as reader:
            windows = list(reader.definitions.rma_wins)
            c.equal(len(windows), 1, "RMA_WIN definitions")
            for w in windows:
                c.equal(len(w.comm.group.members), ranks, f"members of the communicator of {w.name}")
        # OTF2's own reader takes the trace: its reference printer.
        status, _ = run(["/usr/bin/otf2-print", anchor], echo_output=False)
        c.equal(status, 0, "otf2-print exit status")

    return ranks, ["--delay", str(delay)], check, {"trace": check_trace}


def imbalance(mode):
    ranks, iterations, work, extra = 4, 8, 0.02, 0.02
    expected_imbalance = iterations * extra  # N·D (doc/examples.md)

    def check(c, r):
        c.within(r.over_ranks("critical_path_imbalance", "main/work"), 0.6 * expected_imbalance,
                 1.5 * expected_imbalance, "critical-path imbalance of main/work, summed over ranks")
        work_time = [r.at("time", "main/work", k) for k in range(ranks)]
        profile_imbalance = max(work_time) - sum(work_time) / ranks
        what = f"profile imbalance (max - avg of time at main/work over ranks {work_time})"
        if mode == "dynamic":  # P divides N: every rank works N·W
            c.at_most(profile_imbalance, 0.5 * expected_imbalance, what)
        elif mode == "static":  # max - avg = N·D
            c.at_least(profile_imbalance, 0.6 * expected_imbalance, what)
        else:  # mixed, even N: N·D·(P − 2)/(2(P − 1)) = N·D/3 on 4 ranks
            third = expected_imbalance / 3
            c.within(profile_imbalance, 0.5 * third, 1.5 * third, what)
        check_visits(c, r, "main/", [with_lifecycle({"MPI_Barrier": iterations})] * ranks)
        c.equal([round(r.at("visits", "main/work", k)) for k in range(ranks)], [iterations] * ranks,
                "visits of main/work per rank")

    return ranks, ["--mode", mode, "--iterations", str(iterations), "--work", str(work),
                   "--imbalance", str(extra)], check


def ring():
    """Traced with the system's monotonic clock, one clock for all ranks: a
    correct run cannot receive a message before it was sent, so the summary
    must name no clock-condition violation (MPI_Isend's send is stamped when
    its call began, as Score-P does; stamped when it returned, a small
    message was often received earlier)."""
    ranks, rounds, elements = 4, 9, 64
    n0, n1, n2 = -(-rounds // 3), -(-(rounds - 1) // 3), rounds // 3

    def check(c, r):
        calls = with_lifecycle({"MPI_Irecv": 2 * rounds, "MPI_Isend": 2 * rounds, "MPI_Waitall": n0 + n2,
                                "MPI_Wait": 4 * n1, "MPI_Test": 4 * n2})
        check_visits(c, r, "main/", [calls] * ranks)
        check_bytes(c, r, [2 * rounds * 4 * elements] * ranks)
        check_messages(c, r, ranks * 2 * rounds)

    def check_summary(c, summary):
        c.expect("clock-condition" not in summary, "clock-condition violations on one clock:\n" + summary)

    return (ranks, ["--iterations", str(rounds), "--elements", str(elements)], check,
            {"env": {"HINDSIGHT_TIMER": "monotonic"}, "summary": check_summary})


def halo2d(ranks=4, rows=None):
    """With `rows` 1 the grid is 1 x ranks: along the rows' dimension (one
    rank wide) both neighbours are the rank itself, so half of its messages
    go to itself; 4 ranks without `rows` make a 2 x 2 grid, with none."""
    iterations, n = 10, 32

    def check(c, r):
        # The topology queries are recorded too (doc/collector.md): one
        # MPI_Dims_create, one MPI_Cart_coords, MPI_Cart_shift per dimension.
        calls = with_lifecycle({"MPI_Dims_create": 1, "MPI_Cart_create": 1, "MPI_Cart_coords": 1,
                                "MPI_Cart_shift": 2, "MPI_Sendrecv": 4 * iterations,
                                "MPI_Allreduce": iterations, "MPI_Comm_free": 1})
        check_visits(c, r, "main/", [calls] * ranks)
        check_bytes(c, r, [4 * iterations * 8 * n] * ranks)
        check_messages(c, r, ranks * 4 * iterations)
        check_collective_counts(c, r, [0] * ranks, [iterations] * ranks)
        check_messages_to_oneself(c, r, 2 * iterations if rows == 1 else 0, 8 * n)

    grid = [] if rows is None else ["--rows", str(rows)]
    return ranks, ["--iterations", str(iterations), "--n", str(n), *grid], check


def transpose():
    """Every rank sends a block to every rank, itself included; rank 1 is
    late by `delay` before each transpose, so the others wait for its block."""
    ranks, iterations, block, delay, late = 3, 4, 16, 0.05, 1
    size = block * block * 8

    def check(c, r):
        waiting = sum(r.at("mpi_latesender", "main/MPI_Waitall", k) for k in range(ranks) if k != late)
        c.at_least(waiting, 0.75 * (ranks - 1) * iterations * delay,
                   "Late Sender at main/MPI_Waitall of the ranks that wait for the late one")
        c.at_least(r.at("delay_latesender", "main/delayed_work", late), 0.75 * (ranks - 1) * iterations * delay,
                   f"rank {late}: short-term Late Sender delay cost at main/delayed_work")
        c.at_least(r.over_ranks("critical_path", "main/delayed_work"), 0.75 * iterations * delay,
                   "critical path at main/delayed_work")
        calls = with_lifecycle({"MPI_Irecv": ranks * iterations, "MPI_Isend": ranks * iterations,
                                "MPI_Waitall": iterations})
        check_visits(c, r, "main/", [calls] * ranks)
        c.equal([round(r.at("visits", "main/delayed_work", k)) for k in range(ranks)],
                [iterations if k == late else 0 for k in range(ranks)], "visits of main/delayed_work per rank")
        check_bytes(c, r, [ranks * iterations * size] * ranks)
        check_messages(c, r, ranks * ranks * iterations)
        check_messages_to_oneself(c, r, iterations, size)

    return ranks, ["--iterations", str(iterations), "--block", str(block), "--delay", str(delay),
                   "--delay-rank", str(late)], check


def subcomm():
    ranks, repeat = 4, 2
    collectives = ["MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Gather", "MPI_Scatter",
                   "MPI_Allgather", "MPI_Alltoall", "MPI_Scan", "MPI_Exscan", "MPI_Reduce_scatter_block"]
    lower = [1 if rank < -(-ranks // 2) else 0 for rank in range(ranks)]
    rounds = [repeat * (3 + lower[rank]) for rank in range(ranks)]

    def check(c, r):
        # The group calls are recorded too (doc/collector.md): the lower
        # half's group comes from MPI_Comm_group and MPI_Group_incl, both
        # groups are freed.
        expected = [with_lifecycle({**{name: rounds[rank] for name in collectives},
                                    "MPI_Comm_split": 1, "MPI_Comm_dup": 1, "MPI_Comm_create": 1,
                                    "MPI_Comm_group": 1, "MPI_Group_incl": 1, "MPI_Group_free": 2,
                                    "MPI_Comm_free": 2 + lower[rank],
                                    "MPI_Comm_rank": 1 + rounds[rank], "MPI_Comm_size": 1 + rounds[rank]})
                    for rank in range(ranks)]
        check_visits(c, r, "main/", expected)
        check_messages(c, r, 0)
        # Barriers carry no data; the other ten collectives move one int per rank.
        check_collective_counts(c, r, rounds, [10 * k for k in rounds])
        c.equal(round(r.total("bytes_cout")) > 0, True, "collective bytes recorded")

    return ranks, ["--repeat", str(repeat)], check


def cartgrid():
    ranks, iterations = 4, 3
    setup = "main > setup_grid"

    def check(c, r):
        # The profile per communicator beside the report (doc/analyzer.md):
        # the grid, its two rows and two columns, each named by its creating
        # call and call path; 4 ranks form a periodic 2 x 2 grid.
        base = os.path.splitext(r.path)[0]
        with open(base + ".communication.json") as f:
            doc = json.load(f)
        c.equal(doc["schema"], "hindsight-communication", "JSON schema name")
        comms = {}
        for comm in doc["communicators"]:
            comms.setdefault(comm["name"], []).append(comm)
        grid_name = f"MPI_Cart_create(reorder) @ {setup}"
        c.equal(sorted(comms), sorted(["MPI_COMM_WORLD", grid_name, f"MPI_Cart_sub @ {setup} > row_communicator",
                                       f"MPI_Cart_sub @ {setup} > column_communicator"]), "communicator names")
        [grid] = comms.get(grid_name, [None])
        if grid is None:
            return
        c.equal((grid["size"], grid["topology"], grid["reorder"], grid["dims"], grid["periodic"]),
                (4, "cartesian", True, [2, 2], [True, True]), "the grid: size, topology, reorder, dimensions")
        c.equal(grid["label"], grid_name + " of MPI_COMM_WORLD", "the grid's label names its parent")
        # Four MPI_Sendrecv per rank and iteration, each one operation of 4 bytes.
        c.equal([(o["operation"], o["operations"], o["calls"], o["bytes_sent"]) for o in grid["by_operation"]],
                [("MPI_Sendrecv", 4 * 4 * iterations, 4 * 4 * iterations, 4 * 4 * 4 * iterations)],
                "the grid's operations")
        for kind, members in (("row", [[0, 1], [2, 3]]), ("column", [[0, 2], [1, 3]])):
            subs = comms.get(f"MPI_Cart_sub @ {setup} > {kind}_communicator", [])
            c.equal(sorted(s["members"] for s in subs), members, f"members of the {kind} communicators")
            for sub in subs:
                # One MPI_Allreduce per iteration, counted once for its 2 ranks.
                c.equal([(o["operation"], o["operations"], o["calls"]) for o in sub["by_operation"]],
                        [("MPI_Allreduce", iterations, 2 * iterations)], f"operations on a {kind} communicator")
                c.equal((sub["parent"], sub["topology"], sub["dims"]), (grid["id"], "cartesian", [2]),
                        f"a {kind} communicator: parent and topology")
        with open(base + ".communicators.csv") as f:
            lines = f.read().splitlines()
        c.equal(len(lines), 1 + 5, "CSV: a header and one line per communicator and operation")
        # The matrix: on a 2 x 2 periodic grid both neighbours along a
        # dimension are one rank, so each rank sends 2 messages of 4 bytes per
        # dimension and iteration to each of its 2 partners; the row and
        # column sums (8 bytes recorded per call) imply 4 bytes per call to
        # the partner in the row or column.
        c.equal(sorted(len([m for m in doc["rank_matrix"] if m[0] == rank]) for rank in range(ranks)), [2] * ranks,
                "every rank sends to its 2 grid neighbours")
        c.equal(sorted({tuple(m[2:]) for m in doc["rank_matrix"]}), [(2 * iterations, 8 * iterations, 4 * iterations)],
                "messages, bytes and collective bytes of every pair")
        # One node here: the placement puts all on it.
        placement = doc["placement"]
        c.equal((placement["nodes"], placement["cores_per_node"], placement["cores_from"]), (1, ranks, "trace"),
                "placement on the one node of the run")
        with open(base + ".machines") as f:
            c.equal(f.read(), f"{doc['nodes'][0]}:{ranks}\n", "the machine file")
        # The report's topologies for Cube's topology view: the grid (rank r
        # at row-major coordinates, location id = rank) and the 4 sub-grids.
        with tarfile.open(r.path) as archive:
            anchor = ElementTree.fromstring(archive.extractfile("anchor.xml").read())
        carts = anchor.findall("./system/topologies/cart")
        c.equal(sorted(cart.get("name") for cart in carts),
                sorted([grid_name] + [f"MPI_Cart_sub @ {setup} > {k}_communicator" for k in ("row", "row", "column", "column")]),
                "the report's Cartesian topologies")
        for cart in carts:
            if cart.get("name") == grid_name:
                c.equal([(d.get("size"), d.get("periodic")) for d in cart.findall("dim")], [("2", "true")] * 2,
                        "the grid's dimensions in the report")
                c.equal(sorted((e.get("locId"), e.text) for e in cart.findall("coord")),
                        [("0", "0 0"), ("1", "0 1"), ("2", "1 0"), ("3", "1 1")], "the grid's coordinates in the report")

    return ranks, ["--iterations", str(iterations)], check


def fpingpong():
    ranks, count, elements = 3, 5, 128

    def check(c, r):
        # Not compiled with instrumentation: the MPI calls are the program's children.
        pair = with_lifecycle({"MPI_Send": count, "MPI_Recv": count, "MPI_Allreduce": 1, "MPI_Barrier": 1})
        others = with_lifecycle({"MPI_Allreduce": 1, "MPI_Barrier": 1})
        check_visits(c, r, "", [pair, pair, others])
        check_bytes(c, r, [count * 4 * elements] * 2 + [0])
        check_messages(c, r, 2 * count)
        check_collective_counts(c, r, [1] * ranks, [1] * ranks)

    return ranks, ["--count", str(count), "--elements", str(elements)], check


def f08pingpong():
    ranks, count, elements, delay = 3, 5, 128, 0.3

    def check(c, r):
        # Through `use mpi_f08`, whose MPI_Init, MPI_Wait, MPI_Barrier ... call
        # PMPI_* directly; not instrumented: the MPI calls are the program's children.
        rank_0 = with_lifecycle({"MPI_Send": count, "MPI_Irecv": count, "MPI_Wait": count,
                                 "MPI_Allreduce": 1, "MPI_Barrier": 1})
        rank_1 = with_lifecycle({"MPI_Recv": count, "MPI_Isend": count, "MPI_Wait": count,
                                 "MPI_Allreduce": 1, "MPI_Barrier": 1})
        check_visits(c, r, "", [rank_0, rank_1, with_lifecycle({"MPI_Allreduce": 1, "MPI_Barrier": 1})])
        check_bytes(c, r, [count * 4 * elements] * 2 + [0])
        check_messages(c, r, 2 * count)
        check_collective_counts(c, r, [1] * ranks, [1] * ranks)
        # Rank 0 computes `delay` seconds before its first send: rank 1 waits
        # for it in MPI_Recv, rank 2 (and the pair's ping-pong) in MPI_Allreduce.
        c.at_least(r.at("mpi_latesender", "MPI_Recv", 1), 0.75 * delay, "rank 1: Late Sender at MPI_Recv")
        c.at_least(r.at("mpi_wait_nxn", "MPI_Allreduce", 2), 0.75 * delay, "rank 2: Wait at N x N at MPI_Allreduce")

    return ranks, ["--count", str(count), "--elements", str(elements), "--delay", str(delay)], check


SCENARIOS = {
    "pingpong-delay": pingpong_delay,
    "latecoll": latecoll,
    "latecoll_nb": latecoll_nb,
    "mprobe": mprobe,
    "neighbors": neighbors,
    "shift": shift,
    "fileio": fileio,
    "rma": rma,
    "imbalance-static": lambda: imbalance("static"),
    "imbalance-dynamic": lambda: imbalance("dynamic"),
    "imbalance-mixed": lambda: imbalance("mixed"),
    "ring": ring,
    "halo2d": halo2d,
    "halo2d-one-row": lambda: halo2d(ranks=3, rows=1),
    "transpose": transpose,
    "subcomm": subcomm,
    "cartgrid": cartgrid,
    "fpingpong": fpingpong,
    "f08pingpong": f08pingpong,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    for option in ("--collect", "--analyze", "--mpiexec", "--values", "--invariants", "--program"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    # A scenario may add {"env": the collector's environment, "summary": a
    # check of the analyzer's summary, "trace": a check of the trace (its
    # anchor file)}.
    ranks, program_args, check, *more = SCENARIOS[args.scenario]()
    extra = more[0] if more else {}
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="hindsight-live-") as workdir:
        utc = lambda: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        started_after = utc()
        report, spans, summary = collect_and_analyze(args, workdir, ranks, program_args, extra.get("env"))
        check_run_information(checks, report, args.program, program_args, started_after, utc())
        check(checks, report)
        if "summary" in extra:
            extra["summary"](checks, summary)
        if "trace" in extra:
            extra["trace"](checks, os.path.join(workdir, "trace", "traces.otf2"))
        checks_every_trace(checks, report, spans, summary, args.invariants)
    if checks.failures:
        sys.exit(f"FAIL: {len(checks.failures)} check(s) failed:\n  " + "\n  ".join(checks.failures))
    print("all checks passed")


if __name__ == "__main__":
    main()
