#!/usr/bin/env python3
"""Runs hindsight-analyze (and the collector) on a corpus of broken and
hostile inputs and checks that each ends as it must.

usage: run_corpus.py --analyzer PATH --mpiexec PATH --writer PATH --values PATH
                     --testdata DIR [--collector PATH --crasher PATH]

Every case says what must happen: a clear error (non-zero exit, exactly one
line "hindsight-analyze: FILE: problem" matching the case's pattern) or a
correct result (exit 0, and the report holds the values the scenario
implies), which may come with warnings (the summary's Warnings line says
what the analysis went around or left out: a report with warning).
Damaged copies of a good trace may end either way, or in a report with
other values whose warnings say what the analysis left out, but never in
other values without a warning. Each outcome is classified as a clear error, a correct result, a
report with warning, a silent wrong result, an unclear error (more or fewer
lines, or another message), a hang or a crash; the test fails unless every
case ended as it must. The table of outcomes is printed at the end.
"""
import argparse
import dataclasses
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from typing import Callable, Optional

LIMIT_SECONDS = 30
GOOD_FILES = ["traces.otf2", "traces.def", "traces/0.evt", "traces/1.evt", "traces/0.def", "traces/1.def"]
# "good": rank 1 waits 30 ns for rank 0's message (write_corpus_trace.cpp).
GOOD_VALUES = {("mpi_latesender", "main/MPI_Recv", 1): 30e-9}
REPLACEMENT = "\ufffd"
# The analyzer's line at the end of each phase (analyzer/progress_display.*),
# printed unless --quiet: not a line about a problem.
PHASE_LINE = re.compile(r"^hindsight-analyze: (load|unify|pair|replay|report) [0-9.]+ [µmn]?s( \(.*\))?$")


@dataclasses.dataclass
class Case:
    name: str
    # Prepares the input in the work directory; returns the trace path.
    prepare: Callable[[str], str]
    ranks: int = 2
    # A clear error matching this pattern is what must (or may) happen.
    error: Optional[str] = None
    # A correct result with these values (metric, call path, rank; None:
    # any positive value) is what must (or may) happen.
    values: Optional[dict] = None
    # Extra analyzer arguments; "{work}" is replaced by the work directory.
    args: tuple = ()
    # The command to run instead of the analyzer (collector cases).
    command: Optional[Callable[[str, str], list]] = None
    # A pattern the summary must match (the analyzer then prints one).
    summary: Optional[str] = None
    # Environment variables for the run.
    env: Optional[dict] = None
    # The exit status due (collector cases; None: any).
    status: Optional[int] = None
    # Damaged input: a report with other values is right too when its
    # Warnings line says what the analysis went around or left out.
    may_warn: bool = False


class Corpus:
    def __init__(self, args):
        self.args = args

    # --- inputs ---------------------------------------------------------

    def builder_trace(self, scenario: str, work: str) -> str:
        directory = os.path.join(work, scenario)
        subprocess.run([self.args.writer, scenario, directory], check=True, timeout=LIMIT_SECONDS)
        return os.path.join(directory, "traces.otf2")

    def good(self, work: str) -> str:
        return self.builder_trace("good", work)

    def copied(self, name: str, work: str) -> str:
        target = os.path.join(work, name)
        shutil.copytree(os.path.join(self.args.testdata, name), target)
        for root, dirs, files in os.walk(target):
            for entry in dirs + files:
                os.chmod(os.path.join(root, entry), 0o755)
        return os.path.join(target, "traces.otf2")

    # --- running --------------------------------------------------------

    def run(self, case: Case, work: str):
        trace = case.prepare(work)
        report = os.path.join(work, "report.cubex")
        if case.command:
            command = case.command(work, trace)
        else:
            extra = [a.replace("{work}", work) for a in case.args]
            if not any(a in ("-o", "--output") for a in extra):
                extra = ["-o", report, *extra]
            quiet = [] if case.summary or case.may_warn else ["--quiet"]
            command = [self.args.mpiexec, "-n", str(case.ranks), self.args.analyzer, trace, *quiet, *extra]
            report = extra[extra.index("-o") + 1] if "-o" in extra else report
        try:
            done = subprocess.run(command, capture_output=True, text=True, errors="replace",
                                  timeout=LIMIT_SECONDS, env=dict(os.environ, **(case.env or {})))
        except subprocess.TimeoutExpired:
            return "hang", f"no exit within {LIMIT_SECONDS} s"
        return self.classify(case, done, report)

    def classify(self, case: Case, done, report: str):
        crashed = (done.returncode < 0 or done.returncode >= 128 or "Sanitizer" in done.stderr
                   or "runtime error:" in done.stderr)
        program = "hindsight-collect" if case.command else "hindsight-analyze"
        lines = [line for line in done.stderr.splitlines()
                 if line.startswith(program + ":") and not PHASE_LINE.match(line)]
        if case.command:
            # Collector cases: the program's own fate (a crash) is the
            # scenario; what counts is the collector's one line, and for a
            # refusal before the start (case.status) its status.
            if case.status is not None and done.returncode != case.status:
                return "unclear error", f"exit {done.returncode}, {case.status} due: {done.stderr.strip()[-300:]}"
            if len(lines) == 1 and case.error and re.search(case.error, lines[0]):
                return "clear error", lines[0]
            return "unclear error", f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
        if crashed:
            return "crash", f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
        if done.returncode != 0:
            if case.error is None:
                return "unclear error", f"expected a result, got: {done.stderr.strip()[-300:]}"
            if len(lines) != 1 or not re.search(case.error, lines[0]):
                return "unclear error", f"expected one line matching {case.error!r}, got: {done.stderr.strip()[-300:]}"
            return "clear error", lines[0]
        if case.values is None:
            return "silent wrong result", "exit 0 where an error was due"
        if case.summary and not re.search(case.summary, done.stdout):
            return "silent wrong result", f"the summary does not say {case.summary!r}"
        found = self.report_values(report)
        if found is None:
            return "silent wrong result", "exit 0 without a readable report"
        warnings = re.search(r"^Warnings: (.*)$", done.stdout, re.MULTILINE)
        warned = warnings is not None and warnings.group(1) != "none"
        for key, expected in case.values.items():
            value = found.get(key)
            if expected is None:  # any positive value
                right = value is not None and value > 0
            else:
                right = value is not None and abs(value - expected) <= 1e-12 * max(1.0, abs(expected))
            if not right and case.may_warn and warned:
                return "report with warning", f"{key} = {value} (not {expected}); {warnings.group(1)[:200]}"
            if not right:
                return "silent wrong result", f"{key} = {value}, expected {expected or 'a positive value'}"
        values = ", ".join(f"{k[0]} {k[1]} rank {k[2]} = {found[k]:g}" for k in case.values)
        if warned:
            return "report with warning", f"{values}; {warnings.group(1)[:200]}"
        return "correct result", values

    def report_values(self, report: str):
        if not os.path.isfile(report):
            return None
        done = subprocess.run([self.args.values, report], capture_output=True, text=True, errors="replace",
                              timeout=LIMIT_SECONDS)
        if done.returncode != 0:
            return None
        values = {}
        for line in done.stdout.splitlines():
            metric, path, rank, value = line.split("\t")
            values[(metric, path, int(rank))] = float(value)
        return values


# --- the cases ----------------------------------------------------------------

def damaged_good_trace(corpus: Corpus):
    """Each file of the good trace missing, emptied, cut, replaced."""
    def edit(relative, how):
        def prepare(work):
            trace = corpus.good(work)
            path = os.path.join(os.path.dirname(trace), relative)
            size = os.path.getsize(path)
            if how == "missing":
                os.remove(path)
            elif how == "empty":
                os.truncate(path, 0)
            elif how.startswith("cut-"):
                keep = {"cut-quarter": size // 4, "cut-half": size // 2, "cut-three-quarters": 3 * size // 4,
                        "cut-last-byte": size - 1}[how]
                os.truncate(path, keep)
            elif how == "fifo":
                os.remove(path)
                os.mkfifo(path)
            elif how == "directory":
                os.remove(path)
                os.mkdir(path)
            elif how == "zeroed":
                with open(path, "wb") as f:
                    f.write(bytes(size))
            elif how == "garbage":
                rng = random.Random(f"{relative}-{size}")
                with open(path, "wb") as f:
                    f.write(bytes(rng.randrange(256) for _ in range(size)))
            return trace
        return prepare

    hows = ["missing", "empty", "cut-quarter", "cut-half", "cut-three-quarters", "cut-last-byte",
            "fifo", "directory", "zeroed", "garbage"]
    for relative in GOOD_FILES:
        for how in hows:
            # Any clear error naming a file of the trace, the right values,
            # or a report whose warnings say what the analysis left out.
            yield Case(f"{relative} {how}", edit(relative, how), error=r"^hindsight-analyze: \S*traces",
                       values=GOOD_VALUES, may_warn=True)

    def swap(a, b):
        def prepare(work):
            trace = corpus.good(work)
            base = os.path.dirname(trace)
            os.rename(os.path.join(base, a), os.path.join(base, "swap"))
            os.rename(os.path.join(base, b), os.path.join(base, a))
            os.rename(os.path.join(base, "swap"), os.path.join(base, b))
            return trace
        return prepare

    # Rank 0 then receives from itself, rank 1 sends to itself: both left out.
    yield Case("event files swapped", swap("traces/0.evt", "traces/1.evt"), error=r"^hindsight-analyze: \S*traces",
               values=GOOD_VALUES, may_warn=True)
    yield Case("local definitions swapped", swap("traces/0.def", "traces/1.def"),
               error=r"^hindsight-analyze: \S*traces", values=GOOD_VALUES, may_warn=True)

    def reversed_bytes(relative, at):
        def prepare(work):
            trace = corpus.good(work)
            with open(os.path.join(os.path.dirname(trace), relative), "r+b") as f:
                f.seek(at)
                old = f.read(4)
                f.seek(at)
                f.write(old[::-1])
            return trace
        return prepare

    # OTF2 rejects the Group record half read (its flags cannot be decoded)
    # and leaks what it allocated for it (tests/lsan.supp).
    yield Case("traces.def bytes 431-434 reversed", reversed_bytes("traces.def", 431),
               error=r"^hindsight-analyze: \S*traces\.otf2: cannot read the global definitions", values=GOOD_VALUES)

    def scorep_bytes(relative, at, size, change):
        """The Score-P ping-pong trace with `size` bytes from `at` of one file changed."""
        def prepare(work):
            trace = corpus.copied("scorep-pingpong", work)
            with open(os.path.join(os.path.dirname(trace), relative), "r+b") as f:
                f.seek(at)
                old = f.read(size)
                f.seek(at)
                f.write(change(old))
            return trace
        return prepare

    # Bit 4 of the top byte of location 1's second clock offset: -19 - 2^60.
    yield Case("Score-P trace, clock offset bit flipped",
               scorep_bytes("traces/1.def", 136, 1, lambda b: bytes([b[0] ^ 0x10])),
               error=r"traces/1\.def: a clock offset of location 1 .*outside its time span")
    # Location 1's first MPI_RECV timestamp one second (2095197216 ticks) back.
    yield Case("Score-P trace, timestamp a second back",
               scorep_bytes("traces/1.evt", 139, 8,
                            lambda b: (int.from_bytes(b, "little") - 2095197216).to_bytes(8, "little")),
               error=r"rank 1: record MPI_RECV .*the trace is broken")
    # Bytes 68-71 of location 1's string mapping zeroed: its PROGRAM_BEGIN
    # names the empty string instead of the program.
    yield Case("Score-P trace, program name mapped away", scorep_bytes("traces/1.def", 68, 4, lambda b: bytes(4)),
               error=r"PROGRAM_BEGIN of rank 1 names no region")


def builder_scenarios(corpus: Corpus):
    """Well-formed traces whose content is wrong, or unusual but fine."""
    def scenario(name):
        return lambda work: corpus.builder_trace(name, work)

    yield Case("good", scenario("good"), values=GOOD_VALUES)
    yield Case("good, with the program's call and start", scenario("named-run"), values=GOOD_VALUES)
    yield Case("good, 4 ranks", scenario("good4"), ranks=4,
               values={("mpi_barrier_wait", "main/MPI_Barrier", 0): 30e-9,
                       ("mpi_barrier_wait", "main/MPI_Barrier", 1): 20e-9,
                       ("mpi_barrier_wait", "main/MPI_Barrier", 2): 10e-9})
    yield Case("Latin-1 region name", scenario("latin1-name"),
               values={("mpi_latesender", REPLACEMENT + "ber/MPI_Recv", 1): 30e-9})
    yield Case("noncharacter in a region name", scenario("noncharacter-name"),
               values={("mpi_latesender", "work" + REPLACEMENT + "/MPI_Recv", 1): 30e-9})
    yield Case("global offset 2^62", scenario("large-global-offset"), values=GOOD_VALUES)
    # What does not pair up is left out of the analysis, which goes on.
    # Rank 0's receive of tag 1 (and rank 1's send of it) go; rank 1 then
    # waits in MPI_Recv from 10 to its end at 20 for tag 2, sent at 30.
    yield Case("receives before the sends they wait for", scenario("cyclic-order"),
               values={("mpi_latesender", "main/MPI_Recv", 1): 10e-9},
               summary=r"Warnings: 1 message from rank 1 to rank 0 is received in an order no run can have "
                       r"\(at main/MPI_Recv\); it is left out of the analysis")
    yield Case("collective root 2^31", scenario("root-2-31"), error=r"root 2147483648 outside the communicator")
    yield Case("rank without events", scenario("rank-without-events"), error=r"rank 1 has no events")
    yield Case("timestamps near 2^62", scenario("far-timestamps"), error=r"more than 2\^61 ticks")
    yield Case("clock offset 2^62", scenario("far-clock-offset"), error=r"clock offset .*2\^61")
    # The calls of what is left out keep their time: rank 0's two MPI_Send
    # calls 10 ns each, rank 1's MPI_Recv 15 ns.
    yield Case("unmatched message", scenario("unmatched"),
               values={("time", "main/MPI_Send", 0): 20e-9, ("time", "main/MPI_Recv", 1): 15e-9},
               summary=r"Warnings: 1 message from rank 0 to rank 1 has no matching receive \(at main/MPI_Send\); "
                       r"it is left out of the analysis")
    yield Case("tag mismatch", scenario("tag-mismatch"),
               values={("time", "main/MPI_Send", 0): 10e-9, ("time", "main/MPI_Recv", 1): 15e-9},
               summary=r"Warnings: 1 message from rank 0 to rank 1 has no matching receive \(at main/MPI_Send\); "
                       r"it is left out of the analysis; 1 receive of rank 1 from rank 0 has no matching send "
                       r"\(at main/MPI_Recv\); it is left out of the analysis")
    yield Case("collective count mismatch", scenario("collective-count-mismatch"),
               values={("time", "main/MPI_Barrier", 0): 20e-9, ("time", "main/MPI_Barrier", 1): 10e-9},
               summary=r"Warnings: 3 collective operations on MPI_COMM_WORLD are recorded differently by its "
                       r"members \(rank 0 records 2, rank 1 only 1; at main/MPI_Barrier\); they are left out")
    yield Case("receive of a request never posted", scenario("unposted-irecv"),
               values={("mpi_latesender", "main/MPI_Wait", 1): 30e-9},
               summary=r"rank 1: 1 MPI_IRECV completions of requests never posted .*request 99")
    yield Case("send completion of a request never started", scenario("unstarted-isend-complete"),
               values=GOOD_VALUES, summary=r"rank 0: 1 MPI_ISEND_COMPLETE records of requests no MPI_ISEND started")
    yield Case("collective begun, never ended", scenario("collective-begin-without-end"), values=GOOD_VALUES,
               summary=r"rank 0: 1 MPI_COLLECTIVE_BEGIN records without their MPI_COLLECTIVE_END .*'MPI_Barrier'")


def wrong_invocations(corpus: Corpus):
    """The right trace, asked for the wrong way."""
    for ranks in (1, 3, 4):
        yield Case(f"{ranks} ranks for 2", corpus.good, ranks=ranks, error=r"the trace has 2 MPI ranks")
    # The directory stands for its traces.otf2, or for its only .otf2 file.
    yield Case("trace directory given", lambda work: os.path.dirname(corpus.good(work)), values=GOOD_VALUES)

    def renamed_anchor(work):
        directory = os.path.dirname(corpus.good(work))
        os.rename(os.path.join(directory, "traces.otf2"), os.path.join(directory, "run.otf2"))
        os.rename(os.path.join(directory, "traces.def"), os.path.join(directory, "run.def"))
        os.rename(os.path.join(directory, "traces"), os.path.join(directory, "run"))
        return directory
    yield Case("directory of one other anchor", renamed_anchor, values=GOOD_VALUES)

    def two_anchors(work):
        directory = renamed_anchor(work)
        shutil.copy(os.path.join(directory, "run.otf2"), os.path.join(directory, "other.otf2"))
        return directory
    yield Case("directory of two anchors", two_anchors,
               error=r"good: holds several OTF2 archives \(other.otf2, run.otf2\); give one")
    yield Case("directory without anchor", lambda work: os.path.join(os.path.dirname(corpus.good(work)), "traces"),
               error=r"traces: is a directory without an OTF2 archive")
    yield Case("no such trace", lambda work: os.path.join(work, "none", "traces.otf2"), error=r"no such file")
    # The other files users give instead of the anchor: the line names the
    # anchor, or the tool that opens a report.
    yield Case("definitions given", lambda work: corpus.good(work)[:-len(".otf2")] + ".def",
               error=r"traces.def: the definitions of an OTF2 trace, not its anchor file: give .*/traces.otf2$")
    yield Case("events given", lambda work: os.path.join(corpus.good(work)[:-len(".otf2")], "0.evt"),
               error=r"0.evt: the events of one location of an OTF2 trace, not its anchor file: give .*/traces.otf2$")
    yield Case("report given", lambda work: os.path.join(work, "analysis.cubex"),
               error=r"analysis.cubex: a CUBE report, not a trace: open it with hindsight-report")
    yield Case("HINDSIGHT_HUGE_PAGES not a yes/no word", corpus.good, env={"HINDSIGHT_HUGE_PAGES": "maybe"},
               error=r"^hindsight-analyze: HINDSIGHT_HUGE_PAGES: 'maybe' is not a yes/no value")
    yield Case("HINDSIGHT_HUGE_PAGES=false", corpus.good, env={"HINDSIGHT_HUGE_PAGES": "false"}, values=GOOD_VALUES)
    # The placement advice needs at least one core per node; a given number
    # is used whatever the trace's nodes say.
    yield Case("zero cores per node", corpus.good, args=("--cores-per-node", "0"),
               error=r"--cores-per-node must be at least 1, not 0")
    # Numbers an option must not take for another: -1 read as the largest
    # unsigned, an infinite timeout.
    yield Case("negative suggestions", corpus.good, args=("--suggestions", "-1"),
               error=r"--suggestions must be a number from 0 to 4294967295, not -1")
    yield Case("infinite timeout", corpus.good, args=("--timeout", "inf"),
               error=r"--timeout must be a positive number of seconds")
    yield Case("cores per node given", corpus.good, args=("--cores-per-node", "1"), values=GOOD_VALUES,
               summary=r"Placement on 2 nodes of 1 cores \(--cores-per-node\)")

    def garbage_anchor(work):
        path = os.path.join(work, "traces.otf2")
        with open(path, "w") as f:
            f.write("not an archive\n" * 10)
        return path
    yield Case("garbage anchor", garbage_anchor, error=r"OTF2")
    # Real Score-P traces: both ranks wait for each other in receives; the
    # one with PAPI counters holds 84 METRIC records, which the summary
    # says it skipped.
    for name, summary in (("scorep-pingpong", r"Largest wait states"), ("scorep-pingpong-papi", r"84 METRIC")):
        receive = "ping-pong.otf2/int main(int, char**)/MPI_Recv"
        yield Case(f"Score-P trace {name}", lambda work, n=name: corpus.copied(n, work),
                   values={("mpi_latesender", receive, 0): None, ("mpi_latesender", receive, 1): None},
                   summary=summary)


def output_paths(corpus: Corpus):
    """Report paths that must be refused before the analysis, and two that
    must work."""
    def with_output(make):
        def prepare(work):
            trace = corpus.good(work)
            make(work, os.path.dirname(trace))
            return trace
        return prepare

    def nothing(work, trace_dir):
        pass

    refused = [
        ("the anchor", "{work}/good/traces.otf2", nothing, r"is a file of the trace"),
        ("the global definitions", "{work}/good/traces.def", nothing, r"is a file of the trace"),
        ("an event file", "{work}/good/traces/0.evt", nothing, r"lies in the trace's directory"),
        ("a new file among the event files", "{work}/good/traces/new.cubex", nothing,
         r"lies in the trace's directory"),
        ("a directory", "{work}/good", nothing, r"is a directory"),
        ("a missing directory", "{work}/none/report.cubex", nothing, r"directory .* does not exist"),
        ("a FIFO", "{work}/fifo", lambda w, t: os.mkfifo(os.path.join(w, "fifo")), r"is a FIFO"),
        ("a device", "{work}/null", lambda w, t: os.mknod(os.path.join(w, "null"), 0o666 | stat.S_IFCHR,
                                                          os.makedev(1, 3)), r"is a device"),
        ("a link to a FIFO", "{work}/link", lambda w, t: (os.mkfifo(os.path.join(w, "fifo")),
                                                          os.symlink("fifo", os.path.join(w, "link"))),
         r"is a FIFO"),
        ("a link to a device", "{work}/link", lambda w, t: (
            os.mknod(os.path.join(w, "null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3)),
            os.symlink("null", os.path.join(w, "link"))), r"is a device"),
        ("a link to a directory", "{work}/link", lambda w, t: os.symlink("good", os.path.join(w, "link")),
         r"is a directory"),
        ("a link to the anchor", "{work}/link", lambda w, t: os.symlink("good/traces.otf2", os.path.join(w, "link")),
         r"is a file of the trace"),
        ("a link that leads nowhere", "{work}/link", lambda w, t: os.symlink("none/x", os.path.join(w, "link")),
         r"leads nowhere"),
        ("an empty name", "", nothing, r"no output file name given"),
    ]
    for name, output, make, error in refused:
        if name.endswith("device") and os.geteuid() != 0:
            continue  # only root can make device nodes
        yield Case(f"report onto {name}", with_output(make), args=("-o", output), error=error)

    def existing(work, trace_dir):
        with open(os.path.join(work, "old.cubex"), "w") as f:
            f.write("an old report")
    yield Case("report over an older one", with_output(existing), args=("-o", "{work}/old.cubex"),
               values=GOOD_VALUES)

    def link_to_file(work, trace_dir):
        existing(work, trace_dir)
        os.symlink("old.cubex", os.path.join(work, "latest.cubex"))
    yield Case("report through a link to a file", with_output(link_to_file), args=("-o", "{work}/latest.cubex"),
               values=GOOD_VALUES)


def collector_faults(corpus: Corpus):
    """The collector around a program that fails, or with a bad setting."""
    if not corpus.args.collector:
        return

    def collect(env=None, program=None, program_args=(), options=None):
        def command(work, trace):
            given = [o.replace("{work}", work) for o in options] if options is not None else \
                ["-o", os.path.join(work, "run")]
            return ["env", *[f"{k}={v.replace('{work}', work)}" for k, v in (env or {}).items()],
                    corpus.args.mpiexec, "-n", "2", corpus.args.collector, *given,
                    "--", program or corpus.args.crasher, *program_args]
        return command

    nothing = lambda work: os.path.join(work, "run", "traces.otf2")
    yield Case("collector: the program crashes", nothing, command=collect(program_args=("segv",)),
               error=r"rank 1: the program crashed \(SIGSEGV\)")
    yield Case("collector: the program aborts", nothing, command=collect(program_args=("abort",)),
               error=r"rank 1: the program crashed \(SIGABRT\)")
    yield Case("collector: buffer larger than the machine", nothing,
               command=collect(env={"HINDSIGHT_BUFFER_SIZE": "99999999G"}, program_args=("ok",)),
               error=r"more than this machine's memory")
    yield Case("collector: buffer size not a number", nothing,
               command=collect(env={"HINDSIGHT_BUFFER_SIZE": "lots"}, program_args=("ok",)),
               error=r"is not a size")
    # Refused before the start (status 2), never a crash or a run unmeasured.
    refusals = [
        ("empty -o", ["-o", ""], r"--output: the value is empty"),
        ("empty --filter", ["-o", "{work}/run", "--filter", ""], r"--filter: the value is empty"),
        ("empty --timer", ["-o", "{work}/run", "--timer", ""], r"--timer: '' is not a timer"),
        ("--buffer of 2^64 M", ["-o", "{work}/run", "--buffer", "18446744073709551616M"],
         r"--buffer: .* is not a size"),
        ("trace directory name of 300 bytes", ["-o", "{work}/" + "n" * 300], r"has 300 bytes, more than the 255"),
        ("filter file a directory", ["-o", "{work}/run", "--filter", "{work}"], r": is a directory$"),
    ]
    for name, options, error in refusals:
        yield Case(f"collector: {name}", nothing, command=collect(options=options, program_args=("ok",)),
                   error=error, status=2)
    yield Case("collector: HINDSIGHT_TRACE_DIR of more than 4096 bytes", nothing,
               command=collect(env={"HINDSIGHT_TRACE_DIR": "{work}/" + "/".join(["d" * 200] * 21)}, options=[],
                               program_args=("ok",)),
               error=r"^hindsight-collect: /\S{69}…d{70}: the path is too long \(\d{4} bytes", status=2)


def main():
    parser = argparse.ArgumentParser()
    for option in ("--analyzer", "--mpiexec", "--writer", "--values", "--testdata"):
        parser.add_argument(option, required=True)
    parser.add_argument("--collector")
    parser.add_argument("--crasher")
    args = parser.parse_args()
    corpus = Corpus(args)
    cases = [*damaged_good_trace(corpus), *builder_scenarios(corpus), *wrong_invocations(corpus),
             *output_paths(corpus), *collector_faults(corpus)]
    tally = {}
    failures = []
    started = time.monotonic()
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="hindsight-corpus-") as work:
            outcome, detail = corpus.run(case, work)
        tally[outcome] = tally.get(outcome, 0) + 1
        print(f"{outcome:20} {case.name}: {detail}")
        if outcome not in ("clear error", "correct result", "report with warning"):
            failures.append(case.name)
    print()
    print(f"{len(cases)} cases in {time.monotonic() - started:.0f} s")
    print("| outcome | cases |")
    print("|---|---|")
    for outcome in ("clear error", "correct result", "report with warning", "silent wrong result", "unclear error",
                    "hang", "crash"):
        print(f"| {outcome} | {tally.get(outcome, 0)} |")
    if failures:
        print(f"FAIL: {len(failures)} cases did not end as they must: {', '.join(failures)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
