#!/usr/bin/python3
"""Runs a program under hindsight-collect and checks the trace it writes.

Usage: check_trace.py SCENARIO --collect LAUNCHER --mpiexec MPIEXEC
                      --program PROGRAM [--program-2 PROGRAM] [--scorep TRACE]

Each scenario states what the program does (derived from its source or
from doc/examples.md, never from a trace) and compares the trace against
it; the first mismatch fails the test with a message. Traces are read with
the OTF2 Python bindings and must also pass otf2-print.
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile

import otf2

TIMEOUT = 120


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def equal(actual, expected, what):
    expect(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")


# --- running -------------------------------------------------------------------

def run(args, ranks, program, program_args, options=(), env=None, check=True):
    command = [args.mpiexec, "-n", str(ranks), args.collect, *options, "--", program, *program_args]
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, env=full_env)
    if check and result.returncode != 0:
        raise Failure(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
    return result


def run_preloaded(args, ranks, program, program_args, env, rank_1_env=None):
    """Runs the program with the collector preloaded as the launcher would,
    but without the launcher's checks: what the library itself does with
    what the launcher refuses. `rank_1_env` holds variables only rank 1 gets."""
    preload = subprocess.run([args.collect, "--", "printenv", "LD_PRELOAD"], capture_output=True, text=True,
                             timeout=TIMEOUT, check=True).stdout.strip()
    rank_1 = " ".join(f"{name}={value}" for name, value in (rank_1_env or {}).items())
    script = f'if [ "${{PMI_RANK:-$OMPI_COMM_WORLD_RANK}}" = 1 ]; then export {rank_1}; fi; exec "$@"' \
        if rank_1 else 'exec "$@"'
    command = [args.mpiexec, "-n", str(ranks), "sh", "-c", script, "sh", "env", f"LD_PRELOAD={preload}", program,
               *program_args]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, env=dict(os.environ, **env))


def collect(args, workdir, ranks, program, program_args, options=(), env=None):
    trace_dir = os.path.join(workdir, "trace")
    result = run(args, ranks, program, program_args, ["-o", trace_dir, "--force", *options], env=env)
    anchor = os.path.join(trace_dir, "traces.otf2")
    expect(os.path.exists(anchor), f"no trace written:\n{result.stderr}")
    lines = [l for l in result.stderr.splitlines() if l.startswith("hindsight-collect:")]
    equal(len(lines), 1, f"messages of the collector in\n{result.stderr}")
    expect(lines[0].startswith("hindsight-collect: wrote ") and f" of {ranks} rank" in lines[0]
           and lines[0].endswith(" to " + anchor), f"unexpected summary line: {lines[0]}")
    printed = subprocess.run(["otf2-print", anchor], capture_output=True, text=True, timeout=TIMEOUT)
    expect(printed.returncode == 0, f"otf2-print cannot read the trace: {printed.stderr}")
    return Trace(anchor)


# --- reading -------------------------------------------------------------------

class Trace:
    def __init__(self, anchor):
        self.events = collections.defaultdict(list)  # rank -> [event]
        with otf2.reader.open(anchor) as reader:
            self.defs = reader.definitions
            self.regions = list(self.defs.regions)
            self.comms = list(self.defs.comms)
            self.cart_topologies = list(self.defs.cart_topologies)
            self.cart_coordinates = list(self.defs.cart_coordinates)
            for location, event in reader.events:
                self.events[location._ref].append(event)
        # Ranks are the master threads' locations (ids below 2^32; another
        # thread of rank r is location (t << 32) | r).
        self.ranks = len([loc for loc in self.defs.locations if loc._ref < (1 << 32)])

    def of_type(self, rank, kind):
        return [e for e in self.events[rank] if isinstance(e, kind)]

    def enters(self, rank):
        return collections.Counter(e.region.name for e in self.of_type(rank, otf2.events.Enter))

    def comm_named(self, name):
        """The communicators created by call `name` (their names add the
        reorder flag and the call path: "MPI_Cart_create(reorder) @ main")."""
        return [c for c in self.comms if creator(c.name) == name]


def creator(comm_name):
    return comm_name.split(" @ ")[0].removesuffix("(reorder)")


def members(comm):
    return [m._ref for m in comm.group.members]


def world_rank(comm, rank_in_comm, own):
    if isinstance(comm, otf2.definitions.InterComm):
        raise Failure("point-to-point on an inter-communicator is not expected here")
    ranks = members(comm)
    return own if not ranks else ranks[rank_in_comm]


def messages(trace):
    """Sent and received messages as multisets of (from, to, comm, tag, bytes)."""
    sent, received = collections.Counter(), collections.Counter()
    for rank in range(trace.ranks):
        for e in trace.events[rank]:
            if isinstance(e, (otf2.events.MpiSend, otf2.events.MpiIsend)):
                sent[(rank, world_rank(e.communicator, e.receiver, rank), e.communicator._ref, e.msg_tag, e.msg_length)] += 1
            elif isinstance(e, (otf2.events.MpiRecv, otf2.events.MpiIrecv)):
                received[(world_rank(e.communicator, e.sender, rank), rank, e.communicator._ref, e.msg_tag, e.msg_length)] += 1
    return sent, received


def check_messages_pair(trace):
    sent, received = messages(trace)
    equal(received, sent, "received messages (from, to, comm, tag, bytes) against sent ones")
    return sent


def check_started_at_entry(trace, rank):
    """A send MPI_Isend starts, and every request MPI_Start(all) starts, is
    stamped with the time its call was entered, as Score-P does: stamped once
    MPI has returned, a small message may already have been received on
    another rank, which one clock would show as received before it was sent."""
    entered = ("", None)
    started = 0
    for e in trace.events[rank]:
        if isinstance(e, otf2.events.Enter):
            entered = (e.region.name, e.time)
        elif isinstance(e, otf2.events.MpiIsend) or (
                isinstance(e, otf2.events.MpiIrecvRequest) and entered[0] in ("MPI_Start", "MPI_Startall")):
            equal(e.time, entered[1], f"rank {rank}: {type(e).__name__} in {entered[0]}: time against the call's entry")
            started += 1
    expect(started > 0, f"rank {rank}: no request started by MPI_Isend or MPI_Start(all)")


def check_calls(trace, rank, expected):
    counts = trace.enters(rank)
    for region, n in expected.items():
        equal(counts.get(region, 0), n, f"rank {rank}: calls of {region}")


def check_balanced(trace):
    for rank in range(trace.ranks):
        depth = 0
        for e in trace.events[rank]:
            if isinstance(e, otf2.events.Enter):
                depth += 1
            elif isinstance(e, otf2.events.Leave):
                depth -= 1
                expect(depth >= 0, f"rank {rank}: LEAVE without ENTER")
        equal(depth, 0, f"rank {rank}: regions left open at the end")


def collective_ends(trace, rank, op=None):
    ends = trace.of_type(rank, otf2.events.MpiCollectiveEnd)
    return [e for e in ends if op is None or e.collective_op == op]


def check_collective(trace, rank, op, comm_members, root, sent, received, index=0):
    ends = [e for e in collective_ends(trace, rank, op) if members(e.communicator) == comm_members]
    expect(len(ends) > index, f"rank {rank}: no {op} on {comm_members}")
    e = ends[index]
    equal((e.root, e.size_sent, e.size_received), (root, sent, received),
          f"rank {rank}: {op} on {comm_members} (root, sent, received)")


def check_nonblocking_collective(trace, rank, op, comm_members, root, sent, received):
    """A non-blocking collective: its request in the initiating call, the
    operation with its bytes at the completion in MPI_Wait."""
    events = trace.events[rank]
    completions = [i for i, e in enumerate(events)
                   if isinstance(e, otf2.events.NonBlockingCollectiveComplete) and e.collective_op == op
                   and members(e.communicator) == comm_members]
    equal(len(completions), 1, f"rank {rank}: completions of a non-blocking {op} on {comm_members}")
    done = events[completions[0]]
    equal((done.root, done.size_sent, done.size_received), (root, sent, received),
          f"rank {rank}: non-blocking {op} on {comm_members} (root, sent, received)")
    requests = [i for i, e in enumerate(events)
                if isinstance(e, otf2.events.NonBlockingCollectiveRequest) and e.request_id == done.request_id]
    expect(len(requests) == 1 and requests[0] < completions[0],
           f"rank {rank}: the request of the non-blocking {op} comes once, before its completion")
    regions = [e.region.name for e in events[requests[0]:completions[0]] if isinstance(e, otf2.events.Enter)]
    equal(regions[-1:], ["MPI_Wait"], f"rank {rank}: the non-blocking {op} completes in MPI_Wait")


NO_ROOT = 0xFFFFFFFF
Op = otf2.CollectiveOp


# --- scenarios -------------------------------------------------------------------

def scenario_pingpong(args, workdir):
    count, size = 7, 4096
    trace = collect(args, workdir, 3, args.program, ["--count", str(count), "--bytes", str(size)])
    check_balanced(trace)
    for rank in range(3):
        p2p = count if rank < 2 else 0
        check_calls(trace, rank, {"MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Finalize": 1,
                                  "MPI_Barrier": 1, "MPI_Send": p2p, "MPI_Recv": p2p, "main": 1})
        check_collective(trace, rank, Op.BARRIER, [0, 1, 2], NO_ROOT, 0, 0)
    sent = check_messages_pair(trace)
    equal(sent, collections.Counter({(0, 1, 0, 1, size): count, (1, 0, 0, 2, size): count}), "messages")


def scenario_ring(args, workdir):
    iterations, elements = 6, 64
    trace = collect(args, workdir, 4, args.program, ["--iterations", str(iterations), "--elements", str(elements)])
    check_balanced(trace)
    n0, n1, n2 = 2, 2, 2
    for rank in range(4):
        check_calls(trace, rank, {"MPI_Irecv": 2 * iterations, "MPI_Isend": 2 * iterations,
                                  "MPI_Waitall": n0 + n2, "MPI_Wait": 4 * n1, "MPI_Test": 4 * n2})
        equal(len(trace.of_type(rank, otf2.events.MpiIsendComplete)), 2 * iterations, f"rank {rank}: completed sends")
        equal(len(trace.of_type(rank, otf2.events.MpiIrecv)), 2 * iterations, f"rank {rank}: completed receives")
        equal(len(trace.of_type(rank, otf2.events.MpiIrecvRequest)), 2 * iterations, f"rank {rank}: receive requests")
    sent = check_messages_pair(trace)
    for rank in range(4):
        right, left = (rank + 1) % 4, (rank + 3) % 4
        equal(sent[(rank, right, 0, 1, 4 * elements)], iterations, f"rank {rank}: messages to the right")
        equal(sent[(rank, left, 0, 2, 4 * elements)], iterations, f"rank {rank}: messages to the left")


def scenario_halo2d(args, workdir):
    iterations, n = 5, 16
    trace = collect(args, workdir, 4, args.program, ["--iterations", str(iterations), "--n", str(n)])
    check_balanced(trace)
    carts = trace.comm_named("MPI_Cart_create")
    equal(len(carts), 1, "communicators created by MPI_Cart_create")
    cart = carts[0]
    equal(members(cart), [0, 1, 2, 3], "members of the Cartesian communicator")
    equal(cart.parent.name, "MPI_COMM_WORLD", "parent of the Cartesian communicator")
    equal(cart.name, "MPI_Cart_create @ main", "name of the Cartesian communicator: creator and call path")
    # 4 ranks: MPI_Dims_create gives a periodic 2 x 2 grid, ranks row-major.
    equal([(t.communicator._ref, [(d.size, d.cart_periodicity) for d in t.dimensions]) for t in trace.cart_topologies],
          [(cart._ref, [(2, otf2.CartPeriodicity.TRUE)] * 2)], "Cartesian topology of the communicator")
    equal(sorted((c.rank, tuple(c.coordinates)) for c in trace.cart_coordinates),
          [(0, (0, 0)), (1, (0, 1)), (2, (1, 0)), (3, (1, 1))], "coordinates of the ranks")
    for rank in range(4):
        check_calls(trace, rank, {"MPI_Sendrecv": 4 * iterations, "MPI_Allreduce": iterations,
                                  "MPI_Cart_create": 1, "MPI_Comm_free": 1})
        for i in range(iterations):
            check_collective(trace, rank, Op.ALLREDUCE, [0, 1, 2, 3], NO_ROOT, 4 * 16, 4 * 16, i)
    sent = check_messages_pair(trace)
    equal(sum(sent.values()), 4 * 4 * iterations, "messages")
    expect(all(key[4] == 8 * n and key[2] == cart._ref for key in sent), f"halo messages: {sent}")


def scenario_subcomm(args, workdir):
    trace = collect(args, workdir, 4, args.program, ["--repeat", "1"])
    check_balanced(trace)
    split = sorted(members(c) for c in trace.comm_named("MPI_Comm_split"))
    equal(split, [[0, 2], [1, 3]], "MPI_Comm_split communicators")
    equal([members(c) for c in trace.comm_named("MPI_Comm_dup")], [[0, 1, 2, 3]], "MPI_Comm_dup communicator")
    equal([members(c) for c in trace.comm_named("MPI_Comm_create")], [[0, 1]], "MPI_Comm_create communicator")
    for c in trace.comms[2:]:
        equal(c.parent.name, "MPI_COMM_WORLD", f"parent of {c.name}")
    collectives = ["MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Gather", "MPI_Scatter",
                   "MPI_Allgather", "MPI_Alltoall", "MPI_Scan", "MPI_Exscan", "MPI_Reduce_scatter_block"]
    for rank in range(4):
        lower = 1 if rank < 2 else 0
        check_calls(trace, rank, {name: 3 + lower for name in collectives})
        check_calls(trace, rank, {"MPI_Comm_split": 1, "MPI_Comm_dup": 1, "MPI_Comm_create": 1,
                                  "MPI_Comm_free": 2 + lower, "MPI_Comm_rank": 4 + lower})
        parity = [0, 2] if rank % 2 == 0 else [1, 3]
        me = parity.index(rank)
        # Bcast of one int from root 0 of the parity communicator (size 2).
        check_collective(trace, rank, Op.BCAST, parity, 0, 8 if me == 0 else 0, 4)
        check_collective(trace, rank, Op.GATHER, parity, 0, 4, 8 if me == 0 else 0)
        check_collective(trace, rank, Op.SCAN, [0, 1, 2, 3], NO_ROOT, (4 - rank) * 4, (rank + 1) * 4)
        check_collective(trace, rank, Op.EXSCAN, [0, 1, 2, 3], NO_ROOT, (3 - rank) * 4, rank * 4)
        check_collective(trace, rank, Op.ALLTOALL, [0, 1, 2, 3], NO_ROOT, 16, 16)
        if lower:
            check_collective(trace, rank, Op.REDUCE, [0, 1], 0, 4, 8 if rank == 0 else 0)


def scenario_fpingpong(args, workdir):
    count = 5
    trace = collect(args, workdir, 2, args.program, ["--count", str(count)])
    check_balanced(trace)
    for rank in range(2):
        check_calls(trace, rank, {"MPI_Send": count, "MPI_Recv": count, "MPI_Allreduce": 1, "MPI_Barrier": 1,
                                  "MPI_Init": 1, "MPI_Finalize": 1})
        check_collective(trace, rank, Op.ALLREDUCE, [0, 1], NO_ROOT, 8, 8)
    sent = check_messages_pair(trace)
    equal(sent, collections.Counter({(0, 1, 0, 1, 512): count, (1, 0, 0, 2, 512): count}), "messages")


def check_mpi_not_nested(trace, rank):
    """No MPI region inside another: MPI's own calls through the PMPI_* names
    (and the collector's) belong to the call that makes them."""
    depth = 0
    for e in trace.events[rank]:
        if isinstance(e, (otf2.events.Enter, otf2.events.Leave)) and e.region.name.startswith("MPI_"):
            depth += 1 if isinstance(e, otf2.events.Enter) else -1
            expect(depth in (0, 1), f"rank {rank}: {e.region.name} inside another MPI call")


def scenario_f08pingpong(args, workdir):
    # examples/f08pingpong.f90 through MPICH's `use mpi_f08` binding, whose
    # MPI_Init, MPI_Comm_rank/size, MPI_Wait, MPI_Barrier and MPI_Finalize
    # call PMPI_* directly: each of them, and every message, must be there.
    ranks, count, elements = 3, 5, 128
    trace = collect(args, workdir, ranks, args.program, ["--count", str(count), "--elements", str(elements)])
    check_balanced(trace)
    for rank in range(ranks):
        check_calls(trace, rank, {
            "MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Finalize": 1,
            "MPI_Send": count if rank == 0 else 0, "MPI_Irecv": count if rank == 0 else 0,
            "MPI_Recv": count if rank == 1 else 0, "MPI_Isend": count if rank == 1 else 0,
            "MPI_Wait": count if rank < 2 else 0, "MPI_Allreduce": 1, "MPI_Barrier": 1})
        equal(sum(trace.enters(rank).values()), 6 + (3 * count if rank < 2 else 0),
              f"rank {rank}: regions entered (nothing but the program's MPI calls)")
        check_mpi_not_nested(trace, rank)
        # 1 integer from each of 3 ranks to each (Score-P's count for MPI_Allreduce).
        check_collective(trace, rank, Op.ALLREDUCE, [0, 1, 2], NO_ROOT, 4 * ranks, 4 * ranks)
        check_collective(trace, rank, Op.BARRIER, [0, 1, 2], NO_ROOT, 0, 0)
    equal(len(trace.of_type(0, otf2.events.MpiIrecv)), count, "rank 0: completed receives")
    equal(len(trace.of_type(1, otf2.events.MpiIsendComplete)), count, "rank 1: completed sends")
    sent = check_messages_pair(trace)
    equal(sent, collections.Counter({(0, 1, 0, 1, 4 * elements): count, (1, 0, 0, 2, 4 * elements): count}),
          "messages")


def collector_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith("hindsight-collect:")]


def scenario_unseen_mpi(args, workdir):
    # tests/collector/unseen_mpi.c calls MPI past the collector: one line
    # (the first process on the node speaks) says nothing was recorded, and
    # the program's own exit status (3) stays.
    trace_dir = os.path.join(workdir, "trace")
    result = run(args, 2, args.program, [], ["-o", trace_dir], check=False)
    equal(result.returncode, 3, f"exit status of the program (stderr:\n{result.stderr})")
    lines = collector_lines(result.stderr)
    equal(len(lines), 1, f"lines of the collector in\n{result.stderr}")
    expect(lines[0].startswith(f"hindsight-collect: {os.path.realpath(args.program)} initialized MPI without going "
                               "through the collector") and lines[0].endswith("; nothing was recorded"),
           f"unexpected line: {lines[0]}")
    expect(not os.path.exists(trace_dir), "a trace directory was made though nothing was measured")


def scenario_own_mpi(args, workdir):
    # tests/collector/own_mpi.c defines MPI_Init and PMPI_Init itself, as a
    # program with MPI linked in statically does: one line says so.
    trace_dir = os.path.join(workdir, "trace")
    result = run(args, 2, args.program, [], ["-o", trace_dir], check=False)
    equal(result.returncode, 3, f"exit status of the program (stderr:\n{result.stderr})")
    lines = collector_lines(result.stderr)
    equal(len(lines), 1, f"lines of the collector in\n{result.stderr}")
    expect(lines[0].startswith(f"hindsight-collect: {os.path.realpath(args.program)} contains its own copy of MPI")
           and "nothing was recorded" in lines[0], f"unexpected line: {lines[0]}")
    expect(not os.path.exists(trace_dir), "a trace directory was made though nothing was measured")


def scenario_worker_thread(args, workdir):
    # tests/collector/worker_thread.c (MPI_THREAD_MULTIPLE): the 3 MPI calls
    # of a worker thread per rank are recorded on that thread's location
    # (1 << 32) | rank, the main thread's on the rank's; nothing goes
    # unrecorded, so no rank warns.
    ranks, worker_calls = 2, 3
    trace_dir = os.path.join(workdir, "trace")
    result = run(args, ranks, args.program, [], ["-o", trace_dir])
    lines = sorted(collector_lines(result.stderr))
    equal(len(lines), 1, f"lines of the collector in\n{result.stderr}")
    expect(lines[0].startswith("hindsight-collect: wrote "), f"unexpected line: {lines[0]}")
    trace = Trace(os.path.join(trace_dir, "traces.otf2"))
    check_balanced(trace)
    equal(trace.ranks, ranks, "ranks")
    for rank in range(ranks):
        equal(dict(trace.enters(rank)), {"MPI_Init_thread": 1, "MPI_Barrier": 1, "MPI_Finalize": 1},
              f"rank {rank}: regions entered")
        worker = (1 << 32) | rank
        equal(dict(trace.enters(worker)), {"MPI_Comm_size": worker_calls}, f"rank {rank}'s worker: regions entered")
        names = {loc._ref: loc.name for loc in trace.defs.locations}
        equal(names.get(worker), "OMP thread 1", f"rank {rank}'s worker: location name")


def scenario_finalize_unseen(args, workdir):
    # MPI_Init and the message go through the collector, PMPI_Finalize past
    # it: each rank says that its trace stops short, why, and where it is.
    trace_dir = os.path.join(workdir, "trace")
    result = run(args, 2, args.program, ["finalize-unseen"], ["-o", trace_dir], check=False)
    equal(result.returncode, 3, f"exit status of the program (stderr:\n{result.stderr})")
    lines = sorted(collector_lines(result.stderr))
    equal(len(lines), 2, f"lines of the collector in\n{result.stderr}")
    for rank, line in enumerate(lines):
        expect(line.startswith(f"hindsight-collect: rank {rank}: MPI_Finalize was called without going through the "
                               f"collector; the events recorded so far are in {trace_dir}"),
               f"unexpected line: {line}")


def scenario_static_program(args, workdir):
    # No library can be preloaded into a statically linked program: the
    # launcher refuses it before it starts (status 2, one line, as any refusal).
    marker = os.path.join(workdir, "started")
    result = run(args, 2, args.program, [marker], ["-o", os.path.join(workdir, "trace")], check=False)
    equal(result.returncode, 2, f"exit status (stderr:\n{result.stderr})")
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    equal(len(lines), 1, f"lines in\n{result.stderr}")
    expect(lines[0].startswith(f"hindsight-collect: {os.path.realpath(args.program)}: is linked statically: "),
           f"unexpected line: {lines[0]}")
    expect(not os.path.exists(marker), "the program was started")


def scenario_coverage(args, workdir):
    trace = collect(args, workdir, 4, args.program, [])
    check_balanced(trace)
    world = [0, 1, 2, 3]
    for r in range(4):
        check_calls(trace, r, {
            "point_to_point": 1, "collectives": 1,
            "MPI_Irecv": 3, "MPI_Isend": 2, "MPI_Waitall": 1, "MPI_Recv_init": 1, "MPI_Send_init": 1,
            "MPI_Startall": 3, "MPI_Wait": 6 + 1 + 2, "MPI_Request_free": 2, "MPI_Sendrecv": 1,
            "MPI_Ssend": 1 if r % 2 == 0 else 0, "MPI_Recv": 0 if r % 2 == 0 else 1, "MPI_Send": 1,
            "MPI_Cancel": 1, "MPI_Comm_split": 1, "MPI_Comm_dup": 1, "MPI_Cart_create": 1,
            "MPI_Intercomm_create": 1, "MPI_Intercomm_merge": 1, "MPI_Dist_graph_create_adjacent": 1,
            "MPI_Comm_free": 6,
            # One on the half, one on the merged communicator; the one while paused is not recorded.
            "MPI_Barrier": 2,
            "MPI_Bcast": 1, "MPI_Ibcast": 1, "MPI_Iallreduce": 1, "MPI_Allreduce": 2})
        check_started_at_entry(trace, r)
        equal(len(trace.of_type(r, otf2.events.MpiRequestCancelled)), 1, f"rank {r}: cancelled requests")
        equal(len(trace.of_type(r, otf2.events.MpiIsendComplete)), 1 + 3 + 1, f"rank {r}: completed sends")
        equal(len(trace.of_type(r, otf2.events.MpiIrecv)), 1 + 3 + 1, f"rank {r}: completed receives")
        equal(len(trace.of_type(r, otf2.events.MpiIrecvRequest)), 1 + 3 + 1 + 1, f"rank {r}: receive requests")
        equal([e.measurement_mode for e in trace.of_type(r, otf2.events.MeasurementOnOff)],
              [otf2.MeasurementMode.OFF, otf2.MeasurementMode.ON], f"rank {r}: measurement on/off")
        # Collectives (bytes by Score-P's rules, worked out by hand for 4 ranks).
        check_collective(trace, r, Op.BCAST, world, 1, 160 if r == 1 else 0, 40)
        check_collective(trace, r, Op.REDUCE, world, 2, 24, 96 if r == 2 else 0)
        check_collective(trace, r, Op.GATHERV, world, 0, 4 * (r + 1), 40 if r == 0 else 0)
        check_collective(trace, r, Op.SCATTER, world, 3, 32 if r == 3 else 0, 8)
        check_collective(trace, r, Op.ALLGATHER, world, NO_ROOT, 16, 16)
        check_collective(trace, r, Op.ALLTOALLV, world, NO_ROOT, 16, 16)
        check_collective(trace, r, Op.ALLTOALLW, world, NO_ROOT, 16, 16)
        check_collective(trace, r, Op.REDUCE_SCATTER, world, NO_ROOT, 24, 16 * [1, 2, 1, 2][r])
        check_collective(trace, r, Op.SCAN, world, NO_ROOT, 4 * (4 - r), 4 * (r + 1))
        check_collective(trace, r, Op.EXSCAN, world, NO_ROOT, 4 * (3 - r), 4 * r)
        check_collective(trace, r, Op.ALLREDUCE, world, NO_ROOT, 24, 24)          # MPI_IN_PLACE
        check_nonblocking_collective(trace, r, Op.BCAST, world, 0, 80 if r == 0 else 0, 20)  # MPI_Ibcast
        check_nonblocking_collective(trace, r, Op.ALLREDUCE, world, NO_ROOT, 16, 16)       # MPI_Iallreduce
        # Neither is recorded like a blocking collective (inside its call).
        equal(len([e for e in collective_ends(trace, r, Op.BCAST) if members(e.communicator) == world]), 1,
              f"rank {r}: blocking broadcasts on the world")
        half = [0, 1] if r < 2 else [2, 3]
        check_collective(trace, r, Op.BARRIER, half, NO_ROOT, 0, 0)
        check_collective(trace, r, Op.ALLREDUCE, half, NO_ROOT, 8, 8)
        check_collective(trace, r, Op.BARRIER, world, NO_ROOT, 0, 0)              # the merged one
    sent = check_messages_pair(trace)
    for r in range(4):
        right = (r + 1) % 4
        equal(sent[(r, right, 0, 5, 400)], 1, f"rank {r}: ring message")
        equal(sent[(r, right, 0, 6, 8)], 3, f"rank {r}: persistent messages")
        equal(sent[(r, right, 0, 7, 12)], 1, f"rank {r}: Sendrecv message")
        equal(sent[(r, right, 0, 10, 20)], 1, f"rank {r}: tested message")
    equal(sent[(0, 1, 0, 8, 16)] + sent[(2, 3, 0, 8, 16)], 2, "Ssend messages")
    # Communicators: members, parents, creators.
    halves = trace.comm_named("MPI_Comm_split")
    equal(sorted(members(c) for c in halves), [[0, 1], [2, 3]], "MPI_Comm_split communicators")
    dups = trace.comm_named("MPI_Comm_dup")
    equal(sorted(members(c) for c in dups), [[0, 1], [2, 3]], "MPI_Comm_dup communicators")
    expect(all(c.parent.name == "MPI_Comm_split" and members(c.parent) == members(c) for c in dups),
           "MPI_Comm_dup communicators must have their half as parent")
    equal([members(c) for c in trace.comm_named("MPI_Cart_create")], [world], "MPI_Cart_create communicator")
    # Names carry the reorder flag of topology constructors.
    equal([c.name.split(" @ ")[0] for c in trace.comm_named("MPI_Dist_graph_create_adjacent")],
          ["MPI_Dist_graph_create_adjacent(reorder)"], "the distributed graph's name and its reorder flag")
    equal([c.name.split(" @ ")[0] for c in trace.comm_named("MPI_Cart_create")], ["MPI_Cart_create"],
          "no reorder flag where none was asked for")
    inter = trace.comm_named("MPI_Intercomm_create")
    equal(len(inter), 1, "inter-communicators")
    # Written as one communicator over both groups, one side after the other.
    expect(members(inter[0]) in ([0, 1, 2, 3], [2, 3, 0, 1]), f"inter-communicator members {members(inter[0])}")
    merged = trace.comm_named("MPI_Intercomm_merge")
    equal([members(c) for c in merged], [world], "MPI_Intercomm_merge communicator")
    equal(merged[0].parent._ref, inter[0]._ref, "parent of the merged communicator")


def check_role(trace, name, role):
    roles = {r.name: r.region_role for r in trace.regions}
    expect(name in roles, f"no region {name} in the trace")
    equal(roles[name], role, f"role of {name}")


def check_analyzed(args, workdir, ranks, anchor):
    """The analyzer reads the trace and analyzes it to the end."""
    expect(args.analyze, "the scenario needs --analyze")
    command = [args.mpiexec, "-n", str(ranks), args.analyze, anchor, "-o", os.path.join(workdir, "report.cubex"),
               "--no-page"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    equal(result.returncode, 0, f"exit status of the analyzer on the trace\n{result.stdout}\n{result.stderr}")


def scenario_families(args, workdir):
    trace = collect(args, workdir, 4, args.program, [workdir])
    check_balanced(trace)
    Role = otf2.RegionRole
    # Roles of Score-P's regions of the same functions.
    expected_roles = {
        "MPI_Mprobe": Role.POINT2POINT, "MPI_Mrecv": Role.POINT2POINT, "MPI_Improbe": Role.POINT2POINT,
        "MPI_Imrecv": Role.POINT2POINT, "MPI_Neighbor_alltoall": Role.COLL_ALL2ALL,
        "MPI_Neighbor_allgather": Role.COLL_ALL2ALL, "MPI_Ineighbor_alltoall": Role.COLL_ALL2ALL,
        "MPI_Comm_idup": Role.FUNCTION, "MPI_Comm_disconnect": Role.FUNCTION,
        "MPI_Win_allocate": Role.ALLOCATE, "MPI_Win_fence": Role.FUNCTION, "MPI_Put": Role.RMA,
        "MPI_Accumulate": Role.ATOMIC, "MPI_Win_free": Role.FUNCTION,
        "MPI_File_open": Role.FILE_IO_METADATA, "MPI_File_write_at_all": Role.FILE_IO,
        "MPI_File_iread_at": Role.FILE_IO, "MPI_File_close": Role.FILE_IO_METADATA,
        "MPI_File_delete": Role.FILE_IO_METADATA, "MPI_Testsome": Role.FUNCTION, "MPI_Test": Role.FUNCTION,
    }
    for name, role in expected_roles.items():
        check_role(trace, name, role)
    # And every MPI region Score-P's trace defines too has Score-P's role.
    if args.scorep:
        with otf2.reader.open(args.scorep) as reader:
            scorep_roles = {r.name: r.region_role for r in reader.definitions.regions}
        for region in trace.regions:
            if region.name in scorep_roles:
                equal(region.region_role, scorep_roles[region.name], f"{region.name}: role against Score-P's")
    for r in range(4):
        odd = r % 2
        check_calls(trace, r, {
            # One matched message each way of probing; the probe of MPI_PROC_NULL and its receive.
            "MPI_Mprobe": 1 + odd, "MPI_Mrecv": 1 + odd, "MPI_Imrecv": odd,
            "MPI_Neighbor_alltoall": 1, "MPI_Neighbor_allgather": 1, "MPI_Ineighbor_alltoall": 1,
            "MPI_Comm_idup": 1, "MPI_Comm_disconnect": 1, "MPI_Intercomm_create": 1,
            "MPI_Win_allocate": 1, "MPI_Win_fence": 2, "MPI_Put": 1, "MPI_Accumulate": 1, "MPI_Win_free": 1,
            # With the failing open, read and close of file_io().
            "MPI_File_open": 2, "MPI_File_write_at_all": 1, "MPI_File_iread_at": 1, "MPI_File_close": 2,
            "MPI_File_read": 1,
            "MPI_File_delete": 1 if r == 0 else 0,
            # Imrecv (odd ranks), Ineighbor_alltoall, the idup, the file read.
            "MPI_Wait": 3 + odd,
            # The inter-communicator broadcast; the barriers of file_io and polling.
            "MPI_Bcast": 1, "MPI_Barrier": 2})
        expect(trace.enters(r)["MPI_Improbe"] >= odd, f"rank {r}: MPI_Improbe calls")
        # The neighbourhood collectives are ALLTOALLV on the ring (OTF2 has
        # no neighbourhood operation): one int to and from each neighbour.
        equal([e for e in collective_ends(trace, r) if e.collective_op not in (Op.BCAST, Op.BARRIER, Op.ALLTOALLV)],
              [], f"rank {r}: collective operations other than the broadcast, the barriers and the neighbourhoods")
        equal(len(collective_ends(trace, r, Op.ALLTOALLV)), 2, f"rank {r}: blocking neighbourhood collectives")
        check_collective(trace, r, Op.ALLTOALLV, [0, 1, 2, 3], NO_ROOT, 8, 8)
        check_collective(trace, r, Op.ALLTOALLV, [0, 1, 2, 3], NO_ROOT, 8, 8, 1)
        check_nonblocking_collective(trace, r, Op.ALLTOALLV, [0, 1, 2, 3], NO_ROOT, 8, 8)
    # Every message pairs, on the same communicator on both sides.
    sent = check_messages_pair(trace)
    idup = trace.comm_named("MPI_Comm_idup")
    equal([members(c) for c in idup], [[0, 1, 2, 3]], "MPI_Comm_idup communicator")
    inter = trace.comm_named("MPI_Intercomm_create")
    equal(len(inter), 1, "inter-communicators")
    equal(sent, collections.Counter({
        (0, 1, 0, 21, 12): 1, (2, 3, 0, 21, 12): 1,          # MPI_Mprobe + MPI_Mrecv
        (0, 1, 0, 22, 20): 1, (2, 3, 0, 22, 20): 1,          # MPI_Improbe + MPI_Imrecv
        (3, 0, idup[0]._ref, 23, 8): 1,                      # on the idup communicator
        (0, 3, inter[0]._ref, 24, 16): 1,                    # to remote rank 1 of the inter-communicator
        (0, 1, 0, 25, 4): 1,                                 # the polled message
    }), "messages")
    # One communicator over both groups, the group of world rank 0 first;
    # the broadcast of 24 bytes from world rank 1 (MPI_ROOT) to the other
    # group, recorded without a root by every member.
    equal(members(inter[0]), [0, 1, 2, 3], "members of the inter-communicator, in the order its events use")
    for r, moved in ((0, (0, 0)), (1, (48, 0)), (2, (0, 24)), (3, (0, 24))):
        check_collective(trace, r, Op.BCAST, [0, 1, 2, 3], NO_ROOT, *moved)
    # The polling loop: every unsuccessful MPI_Testsome writes its test of
    # the request; the run after the first is one summed region.
    polled = {e.request_id for e in trace.of_type(1, otf2.events.MpiIrecvRequest)}
    tested_in = collections.Counter()
    inside = None
    for e in trace.events[1]:
        if isinstance(e, otf2.events.Enter):
            inside = e.region.name
        elif isinstance(e, otf2.events.MpiRequestTest):
            expect(e.request_id in polled, f"rank 1: a test of the unknown request {e.request_id}")
            tested_in[inside] += 1
    equal(tested_in, collections.Counter({"MPI_Testsome": 1, "MPI_Test": 1}),
          "rank 1: MPI_REQUEST_TEST events: the first unsuccessful call of each run")
    equal(trace.enters(1)["MPI_Testsome"], 2, "rank 1: MPI_Testsome regions (the first call and the summed rest)")
    check_file_io(trace, os.path.join(workdir, "families.dat"))
    expect(trace.enters(1)["MPI_Test"] <= 3, f"rank 1: MPI_Test regions: {trace.enters(1)['MPI_Test']}")
    check_analyzed(args, workdir, 4, os.path.join(workdir, "trace", "traces.otf2"))


def io_events(trace, rank):
    """The rank's I/O records, each with the region it lies in."""
    inside, out = None, []
    for e in trace.events[rank]:
        if isinstance(e, otf2.events.Enter):
            inside = e.region.name
        elif type(e).__name__.startswith("Io"):
            out.append((inside, e))
    return out


def check_file_io(trace, path):
    """families.c's file_io() in Score-P's I/O records: per rank a handle on
    the file, opened on MPI_COMM_WORLD; a collective blocking write of 8 ints
    and a non-blocking read of 8 ints completed in MPI_Wait; rank 0 deletes
    the file."""
    Ev = otf2.events
    paradigms = list(trace.defs.io_paradigms)
    equal([p.identification for p in paradigms], ["MPI-IO"], "I/O paradigms")
    equal([f.name for f in trace.defs.io_regular_files], [path], "files")
    handles = list(trace.defs.io_handles)
    equal(len(handles), 4, "I/O handles (one per rank)")
    for h in handles:
        equal(h.file.name, path, f"file of I/O handle {h._ref}")
        equal(h.comm.name, "MPI_COMM_WORLD", f"communicator of I/O handle {h._ref}")
        equal(h.io_paradigm.identification, "MPI-IO", f"paradigm of I/O handle {h._ref}")
    used = set()
    Flag, Mode = otf2.IoOperationFlag, otf2.IoOperationMode
    for r in range(4):
        records = io_events(trace, r)
        kinds = [(inside, type(e).__name__) for inside, e in records]
        expected = [("MPI_File_open", "IoCreateHandle"),
                    ("MPI_File_write_at_all", "IoOperationBegin"), ("MPI_File_write_at_all", "IoOperationComplete"),
                    ("MPI_File_iread_at", "IoOperationBegin"), ("MPI_File_iread_at", "IoOperationIssued"),
                    ("MPI_Wait", "IoOperationComplete"), ("MPI_File_close", "IoDestroyHandle")]
        if r == 0:
            expected.append(("MPI_File_delete", "IoDeleteFile"))
        equal(kinds, expected, f"rank {r}: I/O records and their calls")
        if kinds != expected:
            continue
        events = [e for _, e in records]
        handle = events[0].handle
        used.add(handle._ref)
        expect(all(e.handle == handle for e in events[:7]), f"rank {r}: every operation on the handle it created")
        equal(events[0].mode, otf2.IoAccessMode.READ_WRITE, f"rank {r}: access mode")
        write, written, read, issued, done = events[1:6]
        equal((write.mode, write.operation_flags, write.bytes_request), (Mode.WRITE, Flag.COLLECTIVE, 32),
              f"rank {r}: the collective write begins")
        equal((written.matching_id, written.bytes_result), (write.matching_id, 32), f"rank {r}: the write completes")
        equal((read.mode, read.operation_flags, read.bytes_request), (Mode.READ, Flag.NON_BLOCKING, 32),
              f"rank {r}: the non-blocking read begins")
        equal(issued.matching_id, read.matching_id, f"rank {r}: the read is issued")
        equal((done.matching_id, done.bytes_result), (read.matching_id, 32), f"rank {r}: MPI_Wait completes the read")
        expect(write.matching_id != read.matching_id, f"rank {r}: distinct matching ids")
        if r == 0:
            equal(events[7].file.name, path, "rank 0: the deleted file")
    equal(len(used), 4, "each rank on a handle of its own")


def scenario_rma_transfers(args, workdir):
    """rma_transfers.c on 3 ranks: per rank the RMA records, each in its
    call, as its source says they are (Score-P's records, doc/collector.md)."""
    ranks = 3
    trace = collect(args, workdir, ranks, args.program, [])
    windows = list(trace.defs.rma_wins)
    equal([(w.name, w.comm.name) for w in windows], [("MPI window 0", "MPI_COMM_WORLD"),
                                                     ("MPI window 1", "MPI_COMM_WORLD")], "RMA windows")
    Op, Atomic = otf2.CollectiveOp, otf2.RmaAtomicType
    for r in range(ranks):
        right = (r + 1) % ranks
        inside, records, lock_entries = None, [], []
        for e in trace.events[r]:
            if isinstance(e, otf2.events.Enter):
                inside = e.region.name
                if inside in ("MPI_Win_lock", "MPI_Win_lock_all"):
                    lock_entries.append(e.time)
            elif type(e).__name__.startswith("Rma"):
                records.append((inside, e))
        kinds = [(inside, type(e).__name__) for inside, e in records]
        collective = lambda call, event: [(call, "RmaCollectiveBegin"), (call, event), (call, "RmaCollectiveEnd")]
        expected = (collective("MPI_Win_allocate", "RmaWinCreate") +
                    [("MPI_Win_lock", "RmaRequestLock"),
                     ("MPI_Fetch_and_op", "RmaAtomic"), ("MPI_Win_flush", "RmaOpCompleteBlocking"),
                     ("MPI_Compare_and_swap", "RmaAtomic"), ("MPI_Get_accumulate", "RmaAtomic")] +
                    [("MPI_Win_flush_local", "RmaOpCompleteNonBlocking")] * 2 +
                    [("MPI_Rput", "RmaPut"), ("MPI_Wait", "RmaOpCompleteNonBlocking")] +
                    [("MPI_Win_unlock", "RmaOpCompleteRemote")] * 3 +
                    [("MPI_Win_unlock", "RmaReleaseLock"), ("MPI_Win_lock_all", "RmaRequestLock"),
                     ("MPI_Accumulate", "RmaAtomic"), ("MPI_Win_unlock_all", "RmaOpCompleteBlocking"),
                     ("MPI_Win_unlock_all", "RmaReleaseLock")] +
                    collective("MPI_Win_free", "RmaWinDestroy") +
                    collective("MPI_Win_create_dynamic", "RmaWinCreate") +
                    [("MPI_Win_fence", "RmaCollectiveBegin"), ("MPI_Win_fence", "RmaCollectiveEnd")] * 2 +
                    collective("MPI_Win_free", "RmaWinDestroy"))
        equal(kinds, expected, f"rank {r}: RMA records and their calls")
        if kinds != expected:
            continue
        e = [event for _, event in records]
        ends = [e[2], e[22], e[25], e[27], e[29], e[32]]
        equal([(x.collective_op, x.win._ref) for x in ends],
              [(Op.CREATE_HANDLE_AND_ALLOCATE, 0), (Op.DESTROY_HANDLE_AND_DEALLOCATE, 0), (Op.CREATE_HANDLE, 1),
               (Op.BARRIER, 1), (Op.BARRIER, 1), (Op.DESTROY_HANDLE, 1)], f"rank {r}: collective operations")
        atomics = [e[4], e[6], e[7], e[17]]
        equal([(x.type, x.remote, x.bytes_sent, x.bytes_received) for x in atomics],
              [(Atomic.FETCH_AND_ACCUMULATE, right, 4, 4), (Atomic.COMPARE_AND_SWAP, right, 8, 4),
               (Atomic.FETCH_AND_ACCUMULATE, right, 8, 8), (Atomic.ACCUMULATE, right, 4, 0)],
              f"rank {r}: atomic operations (type, target, bytes sent and received)")
        ids = [x.matching_id for x in atomics]
        equal(len(set(ids)), 4, f"rank {r}: distinct matching ids")
        # Completed at both ends by the flush and MPI_Win_unlock_all; the two
        # the local flush completed at the origin, at their target by the
        # unlock.
        equal([x.matching_id for x in (e[5], e[12], e[13], e[18])], ids, f"rank {r}: completions by matching id")
        equal([x.matching_id for x in (e[8], e[9])], ids[1:3], f"rank {r}: the local flush's completions")
        # The request-based put: 4 bytes to the right, completed at the
        # origin by its MPI_Wait, at its target by the unlock.
        put = e[10]
        equal((put.remote, put.bytes, e[11].matching_id, e[14].matching_id),
              (right, 4, put.matching_id, put.matching_id), f"rank {r}: MPI_Rput and its completions")
        expect(put.matching_id not in ids, f"rank {r}: the put's matching id is its own")
        # Passive target epochs: a shared lock on the right neighbour, then
        # on every target (OTF2_UNDEFINED_UINT32), each requested when its
        # call began and released after the completions; lock id 0.
        every = 0xffffffff
        equal([(type(x).__name__, x.win._ref, x.remote, x.lock_id) for x in (e[3], e[15], e[16], e[19])],
              [("RmaRequestLock", 0, right, 0), ("RmaReleaseLock", 0, right, 0),
               ("RmaRequestLock", 0, every, 0), ("RmaReleaseLock", 0, every, 0)], f"rank {r}: lock records")
        equal([x.lock_type for x in (e[3], e[16])], [otf2.LockType.SHARED] * 2, f"rank {r}: lock types")
        equal([x.time for x in (e[3], e[16])], lock_entries, f"rank {r}: locks requested at their calls' entry")


def scenario_rma_gats(args, workdir):
    """rma_gats.c on 3 ranks: Score-P's RMA_GROUP_SYNC records of general
    active target synchronization (doc/collector.md): at the end of
    MPI_Win_post and _start (level PROCESS), of MPI_Win_complete and _wait
    (PROCESS and MEMORY, after the completion of the epoch's put), of
    MPI_Win_test (NONE while the epoch is open, then as _wait), each naming
    the partners' group of world ranks."""
    ranks = 3
    trace = collect(args, workdir, ranks, args.program, [])
    # As numbers: the bindings cannot name a combination of levels.
    none, opened, ended = 0, 1, 3  # NONE, PROCESS, PROCESS | MEMORY
    for r in range(ranks):
        inside, records = None, []
        for e in trace.events[r]:
            if isinstance(e, otf2.events.Enter):
                inside = e.region.name
            elif isinstance(e, (otf2.events.RmaGroupSync, otf2.events.RmaPut, otf2.events.RmaOpCompleteBlocking)):
                records.append((inside, e))
        kinds = [(call, type(e).__name__) for call, e in records]
        syncs = [(call, e.sync_level.value, sorted(m._ref for m in e.group.members))
                 for call, e in records if isinstance(e, otf2.events.RmaGroupSync)]
        if r == 0:
            expected = [("MPI_Win_post", opened, [1, 2]), ("MPI_Win_wait", ended, [1, 2]),
                        ("MPI_Win_post", opened, [1, 2])]
            equal(syncs[:3], expected, "rank 0: group synchronizations of post, wait, post")
            tests = syncs[3:]
            expect(len(tests) >= 2 and all(call == "MPI_Win_test" for call, _, _ in tests),
                   f"rank 0: then the tests, at least two: {tests}")
            equal([(level, members) for _, level, members in tests],
                  [(none, [1, 2])] * (len(tests) - 1) + [(ended, [1, 2])],
                  "rank 0: the tests while the epoch is open, and the one that ends it")
            equal([k for k in kinds if k[1] != "RmaGroupSync"], [], "rank 0: no transfers")
        else:
            epoch = [("MPI_Win_start", "RmaGroupSync"), ("MPI_Put", "RmaPut"),
                     ("MPI_Win_complete", "RmaOpCompleteBlocking"), ("MPI_Win_complete", "RmaGroupSync")]
            equal(kinds, epoch * 2, f"rank {r}: records of the two access epochs")
            equal(syncs, [("MPI_Win_start", opened, [0]), ("MPI_Win_complete", ended, [0])] * 2,
                  f"rank {r}: group synchronizations with rank 0")
        groups = {e.group.group_type for _, e in records if isinstance(e, otf2.events.RmaGroupSync)}
        equal(groups, {otf2.GroupType.COMM_GROUP}, f"rank {r}: the groups list world ranks")


def region_durations(trace, rank, name):
    """Seconds spent in each visit of region `name` on `rank`."""
    resolution = trace.defs.clock_properties.timer_resolution
    durations, entered = [], None
    for e in trace.events[rank]:
        if isinstance(e, otf2.events.Enter) and e.region.name == name:
            entered = e.time
        elif isinstance(e, otf2.events.Leave) and e.region.name == name:
            durations.append((e.time - entered) / resolution)
    return durations


def scenario_mprobe(args, workdir):
    # doc/examples.md: rank 0 computes --delay before each of its two sends
    # to every other rank; they wait inside MPI_Mprobe, then poll with
    # MPI_Improbe. Coarse bound: at least half the delay in the probe.
    delay, count = 0.3, 64
    trace = collect(args, workdir, 3, args.program, ["--delay", str(delay), "--count", str(count)])
    check_balanced(trace)
    for r in (1, 2):
        check_calls(trace, r, {"MPI_Mprobe": 1, "MPI_Mrecv": 1, "MPI_Imrecv": 1, "MPI_Wait": 1})
        waited = region_durations(trace, r, "MPI_Mprobe")
        expect(len(waited) == 1 and waited[0] >= delay / 2, f"rank {r}: time in MPI_Mprobe {waited}")
        # The polling loop spans the delay; unsuccessful probes after the
        # first are summed, so few regions remain.
        probes = [e.time for e in trace.events[r] if isinstance(e, (otf2.events.Enter, otf2.events.Leave))
                  and e.region.name == "MPI_Improbe"]
        span = (probes[-1] - probes[0]) / trace.defs.clock_properties.timer_resolution
        expect(span >= delay / 2, f"rank {r}: polling with MPI_Improbe for {span:.3f} s")
        expect(trace.enters(r)["MPI_Improbe"] <= 3, f"rank {r}: {trace.enters(r)['MPI_Improbe']} MPI_Improbe regions")
    sent = check_messages_pair(trace)
    equal(sent, collections.Counter({(0, 1, 0, 3, 4 * count): 2, (0, 2, 0, 3, 4 * count): 2}), "messages")
    check_analyzed(args, workdir, 3, os.path.join(workdir, "trace", "traces.otf2"))


def scenario_neighbors(args, workdir):
    # doc/examples.md: rank 0 computes --delay before each of three
    # neighbourhood exchanges on a ring of 4; its neighbours 1 and 3 wait.
    delay = 0.3
    trace = collect(args, workdir, 4, args.program, ["--delay", str(delay)])
    check_balanced(trace)
    check_role(trace, "MPI_Neighbor_alltoall", otf2.RegionRole.COLL_ALL2ALL)
    for r in range(4):
        check_calls(trace, r, {"MPI_Neighbor_alltoall": 1, "MPI_Neighbor_allgather": 1,
                               "MPI_Ineighbor_alltoall": 1, "MPI_Wait": 1, "MPI_Cart_create": 1})
    for r in (1, 3):
        for name in ("MPI_Neighbor_alltoall", "MPI_Neighbor_allgather"):
            waited = region_durations(trace, r, name)
            expect(len(waited) == 1 and waited[0] >= delay / 2, f"rank {r}: time in {name} {waited}")
    check_analyzed(args, workdir, 4, os.path.join(workdir, "trace", "traces.otf2"))


def scenario_scope(args, workdir):
    filter_file = os.path.join(workdir, "filter.txt")
    with open(filter_file, "w") as out:
        # File rules match nothing: the collector knows no source files.
        out.write("SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE *\nSCOREP_FILE_NAMES_END\n"
                  "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE tiny  # too small to matter\n"
                  "  EXCLUDE MANGLED compute\n  INCLUDE MANGLED comp?te\n"
                  "SCOREP_REGION_NAMES_END\n")
    trace = collect(args, workdir, 2, args.program, [], ["--filter", filter_file])
    check_balanced(trace)
    for rank in range(2):
        check_calls(trace, rank, {"compute": 3, "tiny": 0, "MPI_Allreduce": 1})
    compute = [r for r in trace.regions if r.name == "compute"]
    equal([(r.paradigm, r.region_role) for r in compute], [(otf2.Paradigm.USER, otf2.RegionRole.FUNCTION)],
          "the user region's definition")


def scenario_flush(args, workdir):
    count = 40000
    trace = collect(args, workdir, 2, args.program, [str(count)], ["--buffer", "1M"])
    check_balanced(trace)
    flushes = [r for r in trace.regions if r.name == "TRACE BUFFER FLUSH"]
    equal([(r.paradigm, r.region_role) for r in flushes],
          [(otf2.Paradigm.MEASUREMENT_SYSTEM, otf2.RegionRole.ARTIFICIAL)], "the flush region")
    for rank in range(2):
        expect(trace.enters(rank)["TRACE BUFFER FLUSH"] >= 1, f"rank {rank}: no buffer flush recorded")
        check_calls(trace, rank, {"MPI_Send": count, "MPI_Recv": count})
    sent = check_messages_pair(trace)
    equal(sum(sent.values()), 2 * count, "messages")


def scenario_scorep_conventions(args, workdir):
    # CLOCK_MONOTONIC nanoseconds; the TSC timer's resolution is checked by scenario_timer.
    trace = collect(args, workdir, 2, args.program, ["--count", "3"], ["--timer", "monotonic"])
    with otf2.reader.open(args.scorep) as reader:
        scorep = reader.definitions
        scorep_regions = {r.name: (r.paradigm, r.region_role, r.source_file) for r in scorep.regions}
        scorep_tree = [(n.class_name, n.parent is None) for n in scorep.system_tree_nodes]
        scorep_groups = [(l.name, l.location_group_type) for l in scorep.location_groups]
        scorep_locations = [(l.name, l.type, l.group.name) for l in scorep.locations]
        scorep_comms = {c.name: (c.group.group_type, c.group.paradigm) for c in scorep.comms}
        scorep_locs_group = [(g.group_type, g.paradigm) for g in scorep.groups if g.group_type == otf2.GroupType.COMM_LOCATIONS][0]
    for region in trace.regions:
        if region.name.startswith("MPI_"):
            equal((region.paradigm, region.region_role, region.source_file), scorep_regions[region.name],
                  f"{region.name}: paradigm, role and file as Score-P writes them")
    equal([(n.class_name, n.parent is None) for n in trace.defs.system_tree_nodes], scorep_tree, "system tree")
    equal([(l.name, l.location_group_type) for l in trace.defs.location_groups], scorep_groups, "location groups")
    equal([(l.name, l.type, l.group.name) for l in trace.defs.locations], scorep_locations, "locations")
    for name in ("MPI_COMM_WORLD", "MPI_COMM_SELF"):
        equal((trace.comm_named(name)[0].group.group_type, trace.comm_named(name)[0].group.paradigm),
              scorep_comms[name], f"group of {name}")
    locs = [g for g in trace.defs.groups if g.group_type == otf2.GroupType.COMM_LOCATIONS]
    equal([(g.group_type, g.paradigm) for g in locs], [scorep_locs_group], "COMM_LOCATIONS group")
    equal([m._ref for m in locs[0].members], [0, 1], "COMM_LOCATIONS members")
    equal(trace.defs.clock_properties.timer_resolution, 1_000_000_000, "timer resolution")
    # The program's region, as Score-P names it and Scalasca's readers look
    # it up: display name the executable's, canonical name the call that
    # PROGRAM_BEGIN records, path and arguments joined by spaces.
    for rank in (0, 1):
        begin = trace.of_type(rank, otf2.events.ProgramBegin)
        equal(len(begin), 1, f"PROGRAM_BEGIN records of rank {rank}")
        call = " ".join([begin[0].program_name, *begin[0].program_arguments])
        equal(call.endswith(" --count 3"), True, f"the program call {call!r} names its arguments")
        programs = [(r.name, r.canonical_name) for r in trace.regions
                    if r.paradigm == otf2.Paradigm.MEASUREMENT_SYSTEM and r.region_role == otf2.RegionRole.ARTIFICIAL
                    and r.canonical_name == call]
        equal(programs, [(os.path.basename(begin[0].program_name), call)], "the program's region")


def scenario_unwritable(args, workdir):
    blocker = os.path.join(workdir, "a-file")
    open(blocker, "w").close()
    target = os.path.join(blocker, "trace")  # below a regular file: never creatable, even as root
    result = run_preloaded(args, 2, args.program, ["--count", "2"], {"HINDSIGHT_TRACE_DIR": target})
    lines = [l for l in result.stderr.splitlines() if l.startswith("hindsight-collect:")]
    equal(len(lines), 1, f"messages in\n{result.stderr}")
    expect(target in lines[0] and "runs without measurement" in lines[0], f"unclear message: {lines[0]}")
    expect("pingpong: 2 round trips" in result.stdout, "the program did not run to its end")


def scenario_existing(args, workdir):
    # The launcher refuses an existing trace before the program starts
    # (check_refusals.py); the library refuses it too, and keeps it.
    target = os.path.join(workdir, "trace")
    first = run(args, 2, args.program, ["--count", "2"], ["-o", target])
    expect("hindsight-collect: wrote " in first.stderr, first.stderr)
    anchor_time = os.stat(os.path.join(target, "traces.otf2")).st_mtime_ns
    second = run_preloaded(args, 2, args.program, ["--count", "2"], {"HINDSIGHT_TRACE_DIR": target})
    expect("holds a trace already" in second.stderr and "runs without measurement" in second.stderr, second.stderr)
    expect("pingpong: 2 round trips" in second.stdout, "the program did not run to its end")
    equal(os.stat(os.path.join(target, "traces.otf2")).st_mtime_ns, anchor_time, "the old trace's time")
    third = run(args, 2, args.program, ["--count", "2"], ["-o", target, "--force"])
    expect("hindsight-collect: wrote " in third.stderr, third.stderr)
    # What an aborted run leaves (event files, no anchor) counts as a trace too.
    remains = os.path.join(workdir, "remains")
    os.makedirs(os.path.join(remains, "traces"))
    fourth = run_preloaded(args, 2, args.program, ["--count", "2"], {"HINDSIGHT_TRACE_DIR": remains})
    expect("holds an incomplete trace (traces without traces.otf2" in fourth.stderr and
           "runs without measurement" in fourth.stderr,
           fourth.stderr)
    fifth = run(args, 2, args.program, ["--count", "2"], ["-o", remains, "--force"])
    expect("hindsight-collect: wrote " in fifth.stderr, fifth.stderr)
    quiet = run(args, 2, args.program, ["--count", "2"], ["-o", remains, "--force", "--quiet"])
    equal([l for l in quiet.stderr.splitlines() if l.startswith("hindsight-collect:")], [], "messages with --quiet")
    expect(os.path.exists(os.path.join(remains, "traces.otf2")), "no trace written with --quiet")


def scenario_one_rank_refuses(args, workdir):
    # Only rank 1 cannot read its filter file: no rank measures, none waits
    # for the other, rank 1 says why.
    missing = os.path.join(workdir, "missing.filter")
    result = run_preloaded(args, 2, args.program, ["--count", "2"], {"HINDSIGHT_TRACE_DIR": os.path.join(workdir, "t")},
                           rank_1_env={"HINDSIGHT_FILTER": missing})
    equal(result.returncode, 0, f"exit status\n{result.stderr}")
    expect("pingpong: 2 round trips" in result.stdout, "the program did not run to its end")
    lines = [l for l in result.stderr.splitlines() if l.startswith("hindsight-collect:")]
    equal(len(lines), 1, f"messages in\n{result.stderr}")
    expect(missing in lines[0] and "runs without measurement" in lines[0], f"unclear message: {lines[0]}")
    expect(not os.path.exists(os.path.join(workdir, "t")), "a trace directory was made")


def scenario_no_finalize(args, workdir):
    result = run(args, 2, args.program, [], ["-o", os.path.join(workdir, "trace")], check=False)
    expect("hindsight-collect: rank 0: the program ended without calling MPI_Finalize" in result.stderr,
           f"no message about the missing MPI_Finalize:\n{result.stderr}")


def scenario_abort(args, workdir):
    result = run(args, 2, args.program, ["abort"], ["-o", os.path.join(workdir, "trace")], check=False)
    expect(result.returncode != 0, "MPI_Abort must end the run with a failure status")
    expect("MPI_Abort was called (error code 3)" in result.stderr, f"no message about MPI_Abort:\n{result.stderr}")


def scenario_launcher(args, workdir):
    def launch(*words):
        return subprocess.run([args.collect, *words], capture_output=True, text=True, timeout=TIMEOUT)
    result = launch("--version")
    equal((result.returncode, result.stdout), (0, f"hindsight-collect {args.project_version}\n"), "--version")
    result = launch("--help")
    equal(result.returncode, 0, "--help status")
    expect("--buffer" in result.stdout and "--filter" in result.stdout, "--help lists the options")
    result = launch("--buffer", "12X", "--", "true")
    equal(result.returncode, 2, "status for a bad --buffer")
    expect(result.stderr.startswith("hindsight-collect: ") and "12X" in result.stderr, result.stderr)
    result = launch("-o", "x")
    equal(result.returncode, 2, "status without a program")
    result = launch("--timer", "sundial", "--", "true")
    equal(result.returncode, 2, "status for a bad --timer")
    expect(result.stderr.startswith("hindsight-collect: ") and "sundial" in result.stderr, result.stderr)
    result = launch("--", os.path.join(workdir, "does-not-exist"))
    equal(result.returncode, 127, "status for a program that does not exist")
    result = launch("--", "sh", "-c", 'echo "$LD_PRELOAD"')
    expect(result.stdout.strip().endswith("libhindsight-collect.so"), f"LD_PRELOAD: {result.stdout}")


def tsc_expected():
    """What the collector's timer should pick here: the TSC where the CPU's
    is invariant (Linux shows CPUID 0x80000007 EDX bit 8 as "nonstop_tsc")
    and the kernel keeps its clock on it."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            flags = next((l.split(":", 1)[1].split() for l in cpuinfo if l.startswith("flags")), [])
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as source:
            clocksource = source.read().strip()
    except OSError:
        return False
    return os.uname().machine == "x86_64" and "nonstop_tsc" in flags and clocksource == "tsc"


def scenario_timer(args, workdir):
    # latecoll spins in delayed_work for --delay seconds (rank 0 once, rank 1
    # three times on 2 ranks); the trace must show that many seconds, in
    # whatever ticks its clock properties declare. Spinning never ends
    # early; the upper bound allows for a preemption at the end, and a wrong
    # rate (TSC ticks taken as ns or the reverse) misses it by far.
    delay, slack = 0.3, 0.25
    for timer in ("auto", "monotonic"):
        trace = collect(args, workdir, 2, args.program, ["--delay", str(delay)], ["--timer", timer])
        check_balanced(trace)
        resolution = trace.defs.clock_properties.timer_resolution
        if timer == "monotonic" or not tsc_expected():
            equal(resolution, 1_000_000_000, f"timer resolution ({timer})")
        else:
            expect(resolution != 1_000_000_000, f"timer resolution ({timer}): expected the TSC's rate")
        for rank, spins in ((0, 1), (1, 3)):
            durations, entered = [], None
            for e in trace.events[rank]:
                if isinstance(e, otf2.events.Enter) and e.region.name == "delayed_work":
                    entered = e.time
                elif isinstance(e, otf2.events.Leave) and e.region.name == "delayed_work":
                    durations.append((e.time - entered) / resolution)
            equal(len(durations), spins, f"rank {rank}: delayed_work regions ({timer})")
            for seconds in durations:
                expect(delay <= seconds <= delay + slack,
                       f"rank {rank}: delayed_work took {seconds:.4f} s in the trace ({timer}), spun {delay} s")
    result = run_preloaded(args, 2, args.program, ["--delay", "0"],
                           {"HINDSIGHT_TRACE_DIR": os.path.join(workdir, "t2"), "HINDSIGHT_TIMER": "sundial"})
    lines = [l for l in result.stderr.splitlines() if l.startswith("hindsight-collect:")]
    equal(len(lines), 1, f"messages in\n{result.stderr}")
    expect("HINDSIGHT_TIMER" in lines[0] and "runs without measurement" in lines[0], f"unclear message: {lines[0]}")


def scenario_disk_full(args, workdir):
    # After MPI_Init the program lets files grow to 128 KiB only (as on a
    # full disk, writes beyond fail). Each rank records 2 * 3 * count events
    # of at least 3 bytes, 1.8 MB and more, passing through the 1 MiB
    # buffer and OTF2's 4 MiB file buffer: the first write to disk fails
    # before the program ends.
    count, limit = 100000, 128 << 10
    target = os.path.join(workdir, "trace")
    result = run(args, 2, args.program, [str(count), "0", str(limit)], ["-o", target, "--buffer", "1M"],
                 check=False)
    equal(result.returncode, 0, f"exit status of the program\n{result.stderr}")
    expect(f"many_messages: {count} messages" in result.stdout, f"the program did not run to its end:\n{result.stdout}")
    lines = [l for l in result.stderr.splitlines() if l.startswith("hindsight-collect:")]
    failures = [l for l in lines if "writing the trace failed" in l and "recording stops, the program continues" in l]
    expect(failures and all(target in l for l in failures), f"no clear message about the failed write:\n{result.stderr}")
    expect(any("is incomplete" in l for l in lines),
           f"rank 0 must call the trace incomplete:\n{result.stderr}")
    expect(not any("hindsight-collect: wrote" in l for l in lines),
           f"a failed trace reported as written:\n{result.stderr}")


SCENARIOS = {name[len("scenario_"):].replace("_", "-"): f for name, f in globals().items()
             if name.startswith("scenario_")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--collect", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--program")
    parser.add_argument("--scorep")
    parser.add_argument("--project-version")
    parser.add_argument("--analyze")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hindsight-collect-test.") as workdir:
        try:
            SCENARIOS[args.scenario](args, workdir)
        except Failure as failure:
            print(f"{args.scenario}: {failure}", file=sys.stderr)
            return 1
        except subprocess.TimeoutExpired as timeout:
            print(f"{args.scenario}: timed out: {timeout.cmd}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
