#!/usr/bin/python3
"""hindsight-report's command line: the text mode on Scalasca's report of
the `chain` trace, and bad input.

The chain report's Late Sender (metric mpi_latesender, stored with its
sub-metrics) is, read by hand from its 6.data: 0, 1.0, 1.1 and 1.0 s on
ranks 0-3, all at main/MPI_Recv; so its total is 3.1 s and its largest
call path main/MPI_Recv.

Bad input (a file that is no archive, a truncated report, a missing file,
a missing metric or call path, a page that cannot be written) must give one line naming the file, status
1, and leave no page, complete or partial, in the directory. A damaged
communication structure beside a report (REPORT.communication.json) costs
the page only its communication view: one warning line naming the file,
status 0, the page written; a sound one is embedded.

Usage: check_command_line.py --report-tool R --scalasca DIR
"""

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 60


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def run(args, command, status=0):
    result = subprocess.run([args.report_tool, *command], capture_output=True, text=True, timeout=TIMEOUT)
    check(result.returncode == status,
          f"hindsight-report {' '.join(command)}: status {result.returncode}, expected {status}\n{result.stderr}")
    return result


def check_text(args, chain):
    json_rows = json.loads(run(args, ["--text", chain, "--metric", "mpi_latesender", "--callpath", "main/MPI_Recv",
                                      "--json"]).stdout)
    by_rank = {row["rank"]: row["exclusive"] for row in json_rows}
    check(by_rank == {0: 0.0, 1: 1.0, 2: 1.1, 3: 1.0}, f"per-rank Late Sender: {by_rank}")

    rows = list(csv.DictReader(io.StringIO(run(args, ["--text", chain, "--metric", "mpi_latesender",
                                                      "--csv"]).stdout)))
    tree = {row["call path"]: (float(row["inclusive"]), float(row["exclusive"])) for row in rows}
    check(abs(tree["main/MPI_Recv"][1] - 3.1) < 1e-12, f"Late Sender call tree: {tree}")
    check(abs(tree["main"][0] - 3.1) < 1e-12 and tree["main"][1] == 0, f"Late Sender at main: {tree['main']}")
    check(len(tree) == 2, f"call paths without Late Sender are listed: {sorted(tree)}")

    overview = list(csv.DictReader(io.StringIO(run(args, ["--text", chain, "--top", "1", "--csv"]).stdout)))
    late = [row for row in overview if row["metric"] == "mpi_latesender"]
    check([row["call path"] for row in late] == ["(all)", "main/MPI_Recv"], f"overview of Late Sender: {late}")
    check(abs(float(late[0]["value"]) - 3.1) < 1e-12, f"Late Sender total: {late[0]}")

    top = run(args, ["--text", chain, "--metric", "mpi_latesender", "--callpath", "main/MPI_Recv", "--top", "1"])
    lines = top.stdout.splitlines()
    check(len(lines) == 2 and lines[1].split()[:2] == ["2", "1.1"], f"largest rank:\n{top.stdout}")

    # A report minus itself is zero everywhere.
    same = run(args, ["--diff", chain, chain, "--text", "--csv"]).stdout.strip().splitlines()
    check(same == ["metric,call path,value,unit"], f"a report differs from itself:\n{same}")


def check_difference_page(args, work, chain):
    """The page of a difference goes beside the later report as .diff.html,
    never over that run's own page."""
    runs = []
    for name in ("run1", "run2"):
        os.mkdir(os.path.join(work, name))
        runs.append(os.path.join(work, name, "analysis.cubex"))
        shutil.copy(chain, runs[-1])
    own_page = os.path.join(work, "run2", "analysis.html")
    with open(own_page, "w") as out:
        out.write("run2's own page")
    result = run(args, ["--diff", *runs])
    expected = os.path.join(work, "run2", "analysis.diff.html")
    check(result.stdout.strip() == expected and os.path.isfile(expected),
          f"the difference's page is not {expected}: {result.stdout!r}")
    with open(own_page) as page:
        check(page.read() == "run2's own page", "the difference replaced run2's own page")


def check_bad_input(args, work, chain):
    not_cube = os.path.join(work, "notes.cubex")
    with open(not_cube, "w") as out:
        out.write("these are notes, not a report\n" * 40)
    truncated = os.path.join(work, "truncated.cubex")
    with open(chain, "rb") as source, open(truncated, "wb") as out:
        out.write(source.read(5000))
    missing = os.path.join(work, "missing.cubex")
    copy = os.path.join(work, "chain.cubex")
    shutil.copy(chain, copy)
    # Neither may be read: a directory, and a FIFO nobody writes (a read
    # would wait for ever).
    directory = os.path.join(work, "directory.cubex")
    os.mkdir(directory)
    fifo = os.path.join(work, "fifo.cubex")
    os.mkfifo(fifo)
    cases = [([not_cube], not_cube), ([truncated], truncated), ([missing], missing),
             (["--text", directory], directory), (["--text", fifo], fifo), (["--diff", copy, fifo], fifo),
             (["--text", truncated], truncated), (["--diff", copy, truncated], truncated),
             (["--text", copy, "--metric", "no_such_metric"], copy),
             (["--text", copy, "--metric", "mpi_latesender", "--callpath", "main/nowhere"], copy),
             ([copy, "-o", os.path.join(work, "no-such-directory", "page.html")],
              os.path.join(work, "no-such-directory", "page.html")),
             ([copy, "-o", work], work),
             # An analysis is no profile: nothing to plan a trace from, and no filter written.
             (["--score", copy, "--filter-out", os.path.join(work, "advised.filter")], copy)]
    for command, named in cases:
        before = set(os.listdir(work))
        result = run(args, command, status=1)
        lines = result.stderr.splitlines()
        check(len(lines) == 1 and lines[0].startswith(f"hindsight-report: {named}: "),
              f"{command}: not one line naming {named}:\n{result.stderr}")
        check(result.stdout == "", f"{command}: printed {result.stdout!r}")
        check(set(os.listdir(work)) == before, f"{command}: left {sorted(set(os.listdir(work)) - before)}")
    # A trace given instead of its report: the line says what to do with it.
    for name in ("traces.otf2", "traces.def"):
        part = os.path.join(work, name)
        with open(part, "wb") as out:
            out.write(b"\x03BOTF2" + bytes(58))
        result = run(args, ["--text", part], status=1)
        check(result.stderr.count("\n") == 1 and result.stderr.startswith(f"hindsight-report: {part}: ")
              and "hindsight-analyze" in result.stderr, f"a trace's {name}: no advice:\n{result.stderr}")
        os.remove(part)
    for usage in (["--text", copy, "--csv", "--json"], ["--metric", "time", copy], ["--diff", copy], [],
                  ["--text", copy, "--top", "0"], ["--filter-out", "f", copy], ["--score", copy, "--text"]):
        result = run(args, usage, status=1)
        check(len(result.stderr.splitlines()) == 1, f"{usage}: not one line:\n{result.stderr}")


def check_communication_file(args, work, chain):
    copy = os.path.join(work, "with-communication.cubex")
    shutil.copy(chain, copy)
    side = os.path.join(work, "with-communication.communication.json")
    page = os.path.join(work, "with-communication.html")
    with open(side, "w") as out:
        out.write('{"schema": "hindsight-communication", "version": 1, "communicators": [')
    result = run(args, [copy])
    lines = result.stderr.splitlines()
    check(len(lines) == 1 and lines[0].startswith(f"hindsight-report: warning: {side}: not JSON: "),
          f"a damaged communication file: not one warning naming it:\n{result.stderr}")
    check(result.stdout.strip() == page and os.path.isfile(page), "no page beside a damaged communication file")
    without = os.path.getsize(page)
    with open(side, "w") as out:
        out.write('{"schema": "hindsight-communication", "version": 1, "communicators": [], "ranks": 4,'
                  ' "rank_matrix": [[0, 1, 1, 8, 0]]}')
    result = run(args, [copy])
    check(result.stderr == "", f"a sound communication file: {result.stderr}")
    check(os.path.getsize(page) > without, "the communication structure is not in the page")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--scalasca", required=True)
    args = parser.parse_args()
    chain = os.path.join(args.scalasca, "chain", "scalasca.cubex")
    with tempfile.TemporaryDirectory(prefix="hindsight-report-cli.") as work:
        try:
            check_text(args, chain)
            check_bad_input(args, work, chain)
            check_difference_page(args, work, chain)
            check_communication_file(args, work, chain)
        except Failure as failure:
            print(f"FAIL: {failure}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
