#!/usr/bin/python3
"""Runs tests/collector/receive_sources.c under hindsight-collect on 4 ranks
and checks the receive sources its collectives record, read with otf2-print
(the OTF2 Python bindings need not be installed).

Usage: check_receive_sources.py --collect LAUNCHER --mpiexec MPIEXEC --program PROGRAM

The expected sources are the program's (see its header comment), as world
ranks: the attribute's group holds world ranks.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 120
ATTRIBUTE = "hindsight:receive sources"


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def otf2_print(args):
    result = subprocess.run(["otf2-print", *args], capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        fail(f"otf2-print {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def groups_of(anchor):
    """Group id -> members (world ranks), from the global definitions."""
    groups = {}
    for line in otf2_print(["-G", anchor]).splitlines():
        m = re.match(r"^GROUP\s+(\d+)\s.*Type: COMM_GROUP,.*?(\d+) Members?(?:: (.*))?$", line)
        if m:
            groups[int(m.group(1))] = [int(x) for x in re.findall(r"(?:^|, )(\d+) \(", m.group(3) or "")]
    return groups


def collectives_of(anchor, groups):
    """Per location (world rank): [(record, operation, communicator, sources,
    bytes sent, bytes received)] in stream order; sources None without the
    attribute."""
    out = {}
    last = None
    for line in otf2_print([anchor]).splitlines():
        m = re.match(r"^(MPI_COLLECTIVE_END|NON_BLOCKING_COLLECTIVE_COMPLETE)\s+(\d+)\s+\d+\s+Operation: (\w+), "
                     r"Communicator: (\"[^\"]*\") <(\d+)>, Root: \w+, Sent: (\d+), Received: (\d+)", line)
        if m:
            last = [m.group(1), m.group(3), int(m.group(5)), None, int(m.group(6)), int(m.group(7))]
            out.setdefault(int(m.group(2)), []).append(last)
            continue
        a = re.search(r'\("' + re.escape(ATTRIBUTE) + r'" <\d+>; GROUP; "[^"]*" <(\d+)>\)', line)
        if a and last is not None and line.startswith(" "):
            if int(a.group(1)) not in groups:
                fail(f"the sources name group {a.group(1)}, which is no COMM_GROUP")
            last[3] = sorted(groups[int(a.group(1))])
        elif not line.startswith(" "):
            last = None
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--collect", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--program", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        trace = os.path.join(workdir, "trace")
        result = subprocess.run([args.mpiexec, "-n", "4", args.collect, "-o", trace, "--force", args.program],
                                capture_output=True, text=True, timeout=TIMEOUT)
        anchor = os.path.join(trace, "traces.otf2")
        if result.returncode != 0 or not os.path.exists(anchor):
            fail(f"the run failed ({result.returncode}):\n{result.stderr}")
        definitions = otf2_print(["-G", anchor])
        if not re.search(r'^ATTRIBUTE\s+\d+\s+Name: "' + re.escape(ATTRIBUTE) + r'" <\d+>, .*Type: GROUP$',
                         definitions, re.M):
            fail(f"no attribute '{ATTRIBUTE}' of type GROUP in the definitions:\n{definitions}")
        collectives = collectives_of(anchor, groups_of(anchor))
        for w in range(4):
            # Operation, whether non-blocking, sources (world ranks), bytes
            # sent and received (checked for the neighborhood collectives).
            line = [v for v in (w - 1, w + 1) if 0 <= v < 4]
            expected = [
                ("ALLTOALLV", False, [(w + 2) % 4], None),
                ("ALLTOALLV", True, [(w + 2) % 4], None),
                ("ALLTOALLW", False, [w - 1] if w > 0 else [], None),
                ("ALLTOALLV", False, [], None),
                ("ALLTOALLV", False, [(w + 1) % 4], (4, 4)),
                ("ALLTOALLV", False, line, (4 * len(line), 4 * len(line))),
                ("ALLTOALLV", True, line, (4 * len(line), 4 * len(line))),
            ]
            actual = [(op, record == "NON_BLOCKING_COLLECTIVE_COMPLETE", sources,
                       (sent, received) if k >= 4 else None)
                      for k, (record, op, _, sources, sent, received) in enumerate(
                          c for c in collectives.get(w, []) if c[1] in ("ALLTOALLV", "ALLTOALLW"))]
            if actual != expected:
                fail(f"rank {w}: expected the collectives {expected}, got {actual}")
            # Every other collective (MPI_Comm_split's agreement is none of
            # the program's) carries no sources.
            others = [c for c in collectives.get(w, []) if c[1] not in ("ALLTOALLV", "ALLTOALLW") and c[3] is not None]
            if others:
                fail(f"rank {w}: sources on other collectives: {others}")
    print("receive sources as expected on all 4 ranks")


if __name__ == "__main__":
    main()
