#!/usr/bin/python3
"""Runs an OpenMP program under hindsight-collect and checks the threads and
constructs its trace records, read with otf2-print (/usr/bin/otf2-print).

Usage: check_openmp.py --collect LAUNCHER --mpiexec MPIEXEC --program PROGRAM
                       --scenario constructs|constructs-gcc|hybrid|multiple|teams|nested|no-mpi|
                                  no-mpi-mpiexec|no-mpi-exit|no-mpi-thread
                       [--ranks N] [--threads T] [--regions R]
                       [--analyzer ANALYZER [--report REPORT]]

Scenarios (the expected values come from the programs, see their headers):
  constructs      tests/collector/openmp_constructs.c, R regions of 2 threads
                  per rank: per thread R parallel regions, R explicit
                  barriers, 2R implicit barriers (loop and closing), R loops;
                  per rank 2R acquisitions each of the critical section and
                  of the lock, orders 1..2R in time; per rank R taskloops
                  and 2R tasks (on any thread), all named by the program's
                  address of the taskloop (libomp 14 reports one of its own
                  for them).
  constructs-gcc  the same program built by GCC (libgomp), which the launcher
                  runs on LLVM's libomp; libomp reports GCC's explicit
                  barrier as one the implementation added, so the 3R barriers
                  are counted together, and GCC's static loop never calls the
                  runtime (no loop region).
  hybrid          examples/hybrid.c with R steps: per thread R regions, each
                  closed by its implicit barrier; MPI on the masters only.
  multiple        tests/collector/openmp_multiple.c (MPI_THREAD_MULTIPLE): in
                  a first region rank 0's thread 1 sends to rank 1, whose
                  master receives: the send on location 1 << 32, the
                  receive on 1; then every thread exchanges non-blocking
                  messages with its peer thread on the other rank, both
                  threads at once; in a second region each worker starts
                  two requests that its master completes after it.
                  With --analyzer, the trace is analyzed too: the report is
                  written without warnings (the messages pair, every
                  completion is recorded with the request it completes), the worker's
                  MPI_Send has its time and the message's 128 bytes, and
                  rank 1's MPI_Recv a Late Sender wait of the worker's 0.2 s
                  delay, within coarse bounds (read with hindsight-report
                  --text), and the Late Sender and Late Receiver waiting of
                  all threads equals their delay costs.
  teams           tests/collector/openmp_teams.c on 1 rank: a region before
                  MPI_Init (not recorded), then teams of 2 and 3 threads: the
                  master forks twice, thread 1 is in 2 regions, thread 2 in
                  1; one communicator per team size. With --analyzer, the
                  trace is analyzed without warnings (each team's barrier
                  pairs among its members).
  nested          tests/collector/openmp_nested.c with R rounds: per rank an
                  outer team of 2 threads, each of which forks an inner team
                  of 2 threads per round. Only the outer level is recorded
                  (per thread R regions, each closed by its implicit barrier,
                  none of the inner barriers and critical sections, nor the
                  teams construct that follows), the collector says per rank
                  that 2R nested regions and one teams construct were not
                  recorded, and with --analyzer the analyzer reports the
                  trace with its 2 threads per rank and no warning.
  no-mpi          tests/collector/openmp_no_mpi.c, an OpenMP program without
                  MPI, started without mpiexec: it runs as without the
                  collector and is recorded as rank 0 of 1 with 2 threads:
                  one region per thread with 1 explicit barrier, 1 implicit
                  barrier, 1 critical section; the program's begin and end
                  on the master, no MPI region.
  no-mpi-mpiexec  the same started by mpiexec -n 1.
  no-mpi-thread   the same program running its region on a POSIX thread
                  (the OpenMP runtime starts there): not measured, one line
                  says so, the program's output unchanged.
  no-mpi-exit     the same program, whose thread 1 calls exit() inside the
                  region: the trace closes the region on both threads (the
                  master's implicit barrier is recorded only if it entered
                  it before the exit).
"""

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 120
OTF2_PRINT = "/usr/bin/otf2-print"


def fail(message):
    print("check_openmp: " + message, file=sys.stderr)
    sys.exit(1)


def otf2_print(args):
    result = subprocess.run([OTF2_PRINT, *args], capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        fail(f"otf2-print {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


# A paradigm as otf2-print shows it: by its definition's name where the
# trace defines it ("OpenMP" <3>), else by OTF2's constant (OPENMP).
PARADIGM = r'("[^"]*" <\d+>|\w+)'


def paradigm(shown):
    return shown.split('"')[1].upper() if shown.startswith('"') else shown


def definitions(anchor):
    """Locations {id: (name, group)}, regions {id: (name, role, paradigm)},
    groups {id: (name, type, paradigm, members)}, comms {id: (name, group)}."""
    locations, regions, groups, comms = {}, {}, {}, {}
    for line in otf2_print(["-G", anchor]).splitlines():
        m = re.match(r'^LOCATION\s+(\d+)\s+Name: "([^"]*)" <\d+>, Type: (\w+), # Events: \d+, Group: "[^"]*" <(\d+)>', line)
        if m:
            locations[int(m.group(1))] = (m.group(2), int(m.group(4)))
            continue
        m = re.match(r'^REGION\s+(\d+)\s+Name: "([^"]*)" .*Role: (\w+), Paradigm: ' + PARADIGM + ',', line)
        if m:
            regions[int(m.group(1))] = (m.group(2), m.group(3), paradigm(m.group(4)))
            continue
        m = re.match(r'^GROUP\s+(\d+)\s+Name: "([^"]*)" <\d+>, Type: (\w+), Paradigm: ' + PARADIGM +
                     r', .*?(\d+) Members?(?:: (.*))?$', line)
        if m:
            members = [int(x) for x in re.findall(r"<(\d+)>", m.group(6) or "")]
            groups[int(m.group(1))] = (m.group(2), m.group(3), paradigm(m.group(4)), members)
            continue
        m = re.match(r'^COMM\s+(\d+)\s+Name: "([^"]*)" <\d+>, Group: "[^"]*" <(\d+)>', line)
        if m:
            comms[int(m.group(1))] = (m.group(2), int(m.group(3)))
    return locations, regions, groups, comms


def events(anchor):
    """Per location: [(record, time, attributes)] in stream order."""
    out = {}
    for line in otf2_print([anchor]).splitlines():
        m = re.match(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$", line)
        if m:
            out.setdefault(int(m.group(2)), []).append((m.group(1), int(m.group(3)), m.group(4)))
    return out


def region_of(attributes):
    m = re.search(r"Region: \"[^\"]*\" <(\d+)>", attributes)
    return int(m.group(1)) if m else None


def check_stream(location, stream, regions, is_master):
    """ENTER/LEAVE nest, team begin/end pair up, a worker records nothing
    outside a region; returns per region name prefix the number of enters."""
    stack = []
    in_team = False
    entered = {}
    forks = joins = 0
    for record, _, attributes in stream:
        if record == "ENTER":
            region = region_of(attributes)
            stack.append(region)
            name = regions[region][0].split(" @")[0]
            entered[name] = entered.get(name, 0) + 1
        elif record == "LEAVE":
            region = region_of(attributes)
            if not stack or stack[-1] != region:
                fail(f"location {location}: LEAVE of region {region} does not match the open {stack[-1:]}")
            stack.pop()
        elif record == "THREAD_TEAM_BEGIN":
            if in_team:
                fail(f"location {location}: a team begins inside a team")
            in_team = True
        elif record == "THREAD_TEAM_END":
            if not in_team:
                fail(f"location {location}: a team ends that did not begin")
            in_team = False
        elif record == "THREAD_FORK":
            forks += 1
            if not is_master:
                fail(f"location {location}: a worker thread forks")
        elif record == "THREAD_JOIN":
            joins += 1
        if not is_master and not in_team and record not in ("THREAD_TEAM_END",):
            fail(f"location {location}: {record} outside a parallel region on a worker thread")
    if stack:
        fail(f"location {location}: regions left open: {stack}")
    if in_team:
        fail(f"location {location}: a team never ended")
    if forks != joins:
        fail(f"location {location}: {forks} forks but {joins} joins")
    return entered, forks


TASKLOOP = 2  # tasks per taskloop, as in openmp_constructs.c


def check_taskloops(rank, entered_by_thread, regions, rounds, program):
    """The rank's taskloops and their tasks, whichever thread ran them, are
    named by the program's address of the taskloop construct."""
    counts = {name: sum(entered.get(name, 0) for entered in entered_by_thread)
              for name in ("!$omp taskloop", "!$omp task")}
    if counts != {"!$omp taskloop": rounds, "!$omp task": TASKLOOP * rounds}:
        fail(f"rank {rank}: {counts}, expected {rounds} taskloops of {TASKLOOP} tasks each")
    named = {construct: {name.split(" @")[-1] for name, _, _ in regions.values() if name.split(" @")[0] == construct}
             for construct in counts}
    site = f"{os.path.basename(program)}+0x"
    addresses = named["!$omp taskloop"]
    if len(addresses) != 1 or not next(iter(addresses)).startswith(site) or named["!$omp task"] != addresses:
        fail(f"taskloop and its tasks named {named}, expected one address in {site}...")


def check_fork_join_bounds(master, worker):
    """Each of the worker's team begin/end lies within the master's fork/join."""
    forks = [t for r, t, _ in master if r == "THREAD_FORK"]
    joins = [t for r, t, _ in master if r == "THREAD_JOIN"]
    begins = [t for r, t, _ in worker if r == "THREAD_TEAM_BEGIN"]
    ends = [t for r, t, _ in worker if r == "THREAD_TEAM_END"]
    if len(begins) != len(forks) or len(ends) != len(joins):
        fail(f"worker teams {len(begins)}/{len(ends)} against forks/joins {len(forks)}/{len(joins)}")
    for f, b, e, j in zip(forks, begins, ends, joins):
        if not f <= b <= e <= j:
            fail(f"worker's team {b}..{e} is not within the master's fork {f} and join {j}")


def check_locks(streams, rank_locations, expected_per_lock, lock_count):
    acquisitions = {}
    for location in rank_locations:
        held = {}
        for record, time, attributes in streams.get(location, []):
            m = re.search(r"Lock: (\d+), Acquisition Order: (\d+)", attributes)
            if not m:
                continue
            lock, order = int(m.group(1)), int(m.group(2))
            if record == "THREAD_ACQUIRE_LOCK":
                acquisitions.setdefault(lock, []).append((time, order))
                held[lock] = order
            elif record == "THREAD_RELEASE_LOCK":
                if held.pop(lock, None) != order:
                    fail(f"location {location}: release of lock {lock} with order {order} it did not acquire")
    if len(acquisitions) != lock_count:
        fail(f"locations {rank_locations}: {len(acquisitions)} locks instead of {lock_count}")
    for lock, taken in acquisitions.items():
        taken.sort()
        orders = [order for _, order in taken]
        if orders != list(range(1, expected_per_lock + 1)):
            fail(f"lock {lock}: orders in time {orders}, expected 1..{expected_per_lock}")


def check_worker_message(streams, regions):
    """openmp_multiple.c: the one message, sent by rank 0's thread 1 inside
    its MPI_Send region, received by rank 1's master inside MPI_Recv."""
    worker = 1 << 32
    sends = [(t, a) for location, stream in streams.items() for r, t, a in stream if r == "MPI_SEND"]
    recvs = [(t, a) for location, stream in streams.items() for r, t, a in stream if r == "MPI_RECV"]
    on = {r: [loc for loc, stream in streams.items() for rec, _, _ in stream if rec == r]
          for r in ("MPI_SEND", "MPI_RECV")}
    if on["MPI_SEND"] != [worker] or on["MPI_RECV"] != [1]:
        fail(f"sends on {on['MPI_SEND']}, receives on {on['MPI_RECV']}; expected [{worker}] and [1]")
    if not re.search(r"Receiver: 1 .*Tag: 7, Length: 128", sends[0][1]):
        fail(f"the send: {sends[0][1]}")
    if not re.search(r"Sender: 0 .*Tag: 7, Length: 128", recvs[0][1]):
        fail(f"the receive: {recvs[0][1]}")
    entered = [regions[region_of(a)][0] for r, _, a in streams[worker] if r == "ENTER"]
    if "MPI_Send" not in entered:
        fail(f"rank 0's worker entered {entered}, no MPI_Send")
    if sends[0][0] > recvs[0][0]:
        fail("the message was received before it was sent")


def analyze(args, anchor, ranks, report):
    """Runs the analyzer on the trace; returns its summary."""
    command = [args.mpiexec, "-n", str(ranks), args.analyzer, "--timeout", "60", "--no-page", "-o", report, anchor]
    run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if run.returncode != 0:
        fail(f"{' '.join(command)} failed ({run.returncode}): {run.stderr.strip()}")
    return run.stdout


def check_no_warnings(summary):
    warnings = [line for line in summary.splitlines() if line.startswith("Warnings: ")]
    if warnings != ["Warnings: none"]:
        fail(f"the summary's warnings: {warnings}")


def check_worker_analysis(args, anchor, ranks, tmp):
    """openmp_multiple.c analyzed: the worker's send is its own, with time
    and bytes, and pairs with the master's receive, which waits for it; the
    waits of every thread's messages have delay costs that add up to them."""
    report = os.path.join(tmp, "report.cubex")
    check_no_warnings(analyze(args, anchor, ranks, report))

    def call_values(metric, call):
        """Exclusive `metric` summed over the call paths of `call` (ranks and
        threads summed): only rank 0's worker sends in the program, only
        rank 1's master receives."""
        text = subprocess.run([args.report, "--text", report, "--metric", metric, "--csv"], capture_output=True,
                              text=True, timeout=TIMEOUT)
        if text.returncode != 0:
            fail(f"hindsight-report --text {report} --metric {metric}: {text.stderr.strip()}")
        return sum(float(row["exclusive"]) for row in csv.DictReader(io.StringIO(text.stdout))
                   if row["call path"].endswith(call))

    if not call_values("time", "MPI_Send") > 0:
        fail("no time in the worker's MPI_Send")
    if call_values("bytes_sent", "MPI_Send") != 128:
        fail(f"bytes sent in MPI_Send: {call_values('bytes_sent', 'MPI_Send')}, expected the message's 128")
    # The receive was entered about when the region began, the send 0.2 s
    # later: a wait of about 0.2 s, which a loaded machine may shift by
    # how late either rank started the region.
    late_sender = call_values("mpi_latesender", "MPI_Recv")
    if not 0.05 < late_sender < 10:
        fail(f"Late Sender in MPI_Recv: {late_sender} s, expected about the worker's 0.2 s delay")
    # Every thread's waiting goes to delays: per pattern, the short- and
    # long-term delay costs over all call paths and threads add up to it.
    for wait, delay in (("mpi_latesender", "delay_latesender"), ("mpi_latereceiver", "delay_latereceiver")):
        waited = call_values(wait, "")
        caused = call_values(delay, "") + call_values(delay + "_longterm", "")
        if abs(waited - caused) > 1e-9 + 1e-9 * waited:
            fail(f"{wait}: {waited} s of waiting, but {caused} s of delay costs")


def check_teams(locations, groups, comms, streams, regions):
    """openmp_teams.c on 1 rank."""
    expected = {0: ("Master thread", 0), 1 << 32: ("OMP thread 1", 0), 2 << 32: ("OMP thread 2", 0)}
    if locations != expected:
        fail(f"locations {locations}, expected {expected}")
    for location, is_master, regions_in in ((0, True, 2), (1 << 32, False, 2), (2 << 32, False, 1)):
        entered, forks = check_stream(location, streams.get(location, []), regions, is_master)
        if entered.get("!$omp parallel", 0) != regions_in or (is_master and forks != 2):
            fail(f"location {location}: {entered.get('!$omp parallel', 0)} regions, {forks} forks")
        if not is_master:
            check_fork_join_bounds([e for e in streams[0] if e[0] in ("THREAD_FORK", "THREAD_JOIN")][-2 * regions_in:],
                                   streams[location])
    teams = sorted(len(groups[group][3]) for name, group in comms.values() if name.startswith("Thread team"))
    if teams != [2, 3]:
        fail(f"team sizes {teams}, expected [2, 3]")
    begins = [re.search(r"<(\d+)>", a).group(1) for r, _, a in streams[0] if r == "THREAD_TEAM_BEGIN"]
    if len(set(begins)) != 2:
        fail(f"the master's two teams name communicators {begins}")


def check_teams_analysis(args, anchor, tmp):
    """openmp_teams.c analyzed: thread 2's one team is the second region's,
    whose barrier pairs with the other two threads'."""
    summary = analyze(args, anchor, 1, os.path.join(tmp, "teams.cubex"))
    check_no_warnings(summary)
    if "\nOpenMP threads:\n" not in summary:
        fail(f"no thread section in the summary: {summary}")


def check_nested(args, stderr, anchor, ranks, threads, rounds, tmp):
    """openmp_nested.c: each of the outer team's threads forked one inner
    region per round, none recorded, and the teams construct that follows
    is not recorded either, which each rank says in one line; the analyzer
    reports the trace of the outer level, all of whose regions pair up."""
    for r in range(ranks):
        line = (f"rank {r}: {threads * rounds} nested parallel regions were not recorded (only the outermost level is)"
                "; 1 teams constructs on the host were not recorded, nor the regions inside them")
        if line not in stderr:
            fail(f"no line '{line}' in the collector's output: {stderr.strip()!r}")
    if not args.analyzer:
        return
    report = os.path.join(tmp, "nested.cubex")
    summary = analyze(args, anchor, ranks, report)
    if not os.path.isfile(report) or "\nOpenMP threads:\n" not in summary:
        fail(f"the analyzer wrote no report or no thread section: {summary}")
    check_no_warnings(summary)


def check_no_mpi(location, stream, regions, entered, barriers, exited_inside):
    """openmp_no_mpi.c: one region of 2 threads, no MPI; the master's stream
    is framed by the program's begin and end."""
    mpi = [regions[region_of(a)][0] for r, _, a in stream if r == "ENTER" and regions[region_of(a)][2] == "MPI"]
    if mpi:
        fail(f"location {location}: MPI regions in a program without MPI: {mpi}")
    if barriers[0] != 1 or barriers[1] > 1 or (not exited_inside and barriers[1] != 1):
        fail(f"location {location}: (explicit, implicit) barriers {barriers}, expected (1, 1)")
    for name in ("!$omp critical", "!$omp critical sblock"):
        if entered.get(name, 0) != 1:
            fail(f"location {location}: {entered.get(name, 0)} x {name}, expected 1")
    if location == 0:
        records = [r for r, _, _ in stream]
        if not records or records[0] != "PROGRAM_BEGIN" or records[-1] != "PROGRAM_END":
            fail(f"the master's stream runs from {records[:1]} to {records[-1:]}, "
                 "expected PROGRAM_BEGIN to PROGRAM_END")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--collect", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--scenario", required=True, choices=["constructs", "constructs-gcc", "hybrid", "multiple", "teams", "nested",
                                                               "no-mpi", "no-mpi-mpiexec", "no-mpi-exit", "no-mpi-thread"])
    parser.add_argument("--analyzer")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--regions", type=int, default=3)
    parser.add_argument("--report")
    args = parser.parse_args()
    ranks, threads, regions_per_thread = args.ranks, args.threads, args.regions

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trace")
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        program = [args.program]
        if args.scenario == "hybrid":
            program += ["--steps", str(regions_per_thread), "--unit", "0.002"]
        if args.scenario == "nested":
            program += [str(regions_per_thread)]
        if args.scenario == "no-mpi-exit":
            program += ["exit-inside"]
        if args.scenario == "no-mpi-thread":
            program += ["from-thread"]
        if args.scenario in ("no-mpi", "no-mpi-exit", "no-mpi-thread"):
            command = [args.collect, "-o", out, "--", *program]
        else:
            command = [args.mpiexec, "-n", str(ranks), args.collect, "-o", out, "--", *program]
        run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, env=env)
        if run.returncode != 0:
            fail(f"{' '.join(command)} failed ({run.returncode}): {run.stderr.strip()}")
        no_mpi = args.scenario.startswith("no-mpi")
        if no_mpi and "openmp_no_mpi: 2 threads" not in run.stdout:
            fail(f"the program's output changed: {run.stdout!r}")
        if args.scenario == "no-mpi-thread":
            if os.path.exists(out):
                fail(f"{out} was made for a program that is not measured")
            if "starts on another thread than the program's first is not measured" not in run.stderr:
                fail(f"no line says that the program is not measured: {run.stderr!r}")
            return
        anchor = os.path.join(out, "traces.otf2")
        locations, regions, groups, comms = definitions(anchor)
        streams = events(anchor)
        if args.scenario == "teams":
            check_teams(locations, groups, comms, streams, regions)
            if args.analyzer:
                check_teams_analysis(args, anchor, tmp)
            return

        # Locations: (thread << 32) | rank, Score-P's names, rank's group.
        expected = {}
        for r in range(ranks):
            for t in range(threads):
                expected[(t << 32) | r] = ("Master thread" if t == 0 else f"OMP thread {t}", r)
        if locations != expected:
            fail(f"locations {locations}, expected {expected}")

        # The OpenMP locations group and the team communicators.
        omp_groups = [g for g in groups.values() if g[1] == "COMM_LOCATIONS" and g[2] == "OPENMP"]
        if len(omp_groups) != 1 or sorted(omp_groups[0][3]) != sorted(expected):
            fail(f"OpenMP locations group {omp_groups}, expected the {len(expected)} thread locations")
        teams = {c: v for c, v in comms.items() if v[0].startswith("Thread team")}
        if len(teams) != ranks:
            fail(f"{len(teams)} thread teams for {ranks} ranks of one team each: {teams}")
        for c, (name, group) in teams.items():
            if groups[group][2] != "OPENMP" or len(groups[group][3]) != threads:
                fail(f"{name}: group {groups[group]}, expected {threads} OpenMP members")

        for r in range(ranks):
            master = streams.get(r, [])
            entered_by_thread = []
            for t in range(threads):
                location = (t << 32) | r
                entered, forks = check_stream(location, streams.get(location, []), regions, t == 0)
                entered_by_thread.append(entered)
                if t == 0 and forks != regions_per_thread:
                    fail(f"rank {r}: {forks} forks, expected {regions_per_thread}")
                if t > 0:
                    check_fork_join_bounds(master, streams[location])
                if entered.get("!$omp parallel", 0) != regions_per_thread:
                    fail(f"location {location}: {entered.get('!$omp parallel', 0)} parallel regions, "
                         f"expected {regions_per_thread}")
                barriers = (entered.get("!$omp barrier", 0), entered.get("!$omp implicit barrier", 0))
                if args.scenario == "constructs" and barriers != (regions_per_thread, 2 * regions_per_thread):
                    fail(f"location {location}: (explicit, implicit) barriers {barriers}, "
                         f"expected ({regions_per_thread}, {2 * regions_per_thread})")
                if args.scenario == "constructs-gcc" and sum(barriers) != 3 * regions_per_thread:
                    fail(f"location {location}: {sum(barriers)} barriers, expected {3 * regions_per_thread}")
                if args.scenario in ("hybrid", "multiple", "nested") and barriers != (0, regions_per_thread):
                    fail(f"location {location}: barriers {barriers}, expected (0, {regions_per_thread})")
                if no_mpi:
                    check_no_mpi(location, streams.get(location, []), regions, entered, barriers,
                                 args.scenario == "no-mpi-exit")
                mpi = [regions[region_of(a)][0] for rec, _, a in streams.get(location, [])
                       if rec == "ENTER" and regions[region_of(a)][2] == "MPI"]
                if t > 0 and mpi and args.scenario != "multiple":
                    fail(f"location {location}: MPI regions on a worker thread: {mpi}")
                if args.scenario.startswith("constructs"):
                    # Thread 1 takes the lock with omp_test_lock, which
                    # libomp reports as omp_set_lock: one call per region
                    # either way, however many tests failed before.
                    entered["taking the lock"] = entered.get("omp_set_lock", 0) + entered.get("omp_test_lock", 0)
                    expected_counts = [("!$omp critical", 1), ("!$omp critical sblock", 1), ("taking the lock", 1),
                                       ("omp_unset_lock", 1)]
                    # GCC schedules a static loop inline: the runtime, and
                    # so the tool, sees only its closing barrier.
                    if args.scenario == "constructs":
                        expected_counts.append(("!$omp for", 1))
                    for name, count in expected_counts:
                        if entered.get(name, 0) != count * regions_per_thread:
                            fail(f"location {location}: {entered.get(name, 0)} x {name}, "
                                 f"expected {count * regions_per_thread}")
            if args.scenario.startswith("constructs"):
                check_taskloops(r, entered_by_thread, regions, regions_per_thread, args.program)
                check_locks(streams, [(t << 32) | r for t in range(threads)], threads * regions_per_thread, 2)

        if args.scenario == "multiple":
            check_worker_message(streams, regions)
            if args.analyzer and args.report:
                check_worker_analysis(args, anchor, ranks, tmp)
        if args.scenario == "nested":
            check_nested(args, run.stderr, anchor, ranks, threads, regions_per_thread, tmp)

        # Roles and paradigm of the constructs.
        roles = {"!$omp parallel": "PARALLEL", "!$omp barrier": "BARRIER",
                 "!$omp implicit barrier": "IMPLICIT_BARRIER", "!$omp critical": "CRITICAL",
                 "!$omp critical sblock": "CRITICAL_SBLOCK", "!$omp for": "LOOP"}
        for name, role, paradigm in regions.values():
            construct = name.split(" @")[0]
            if construct in roles and (role, paradigm) != (roles[construct], "OPENMP"):
                fail(f"region {name}: role {role}, paradigm {paradigm}")


if __name__ == "__main__":
    main()
