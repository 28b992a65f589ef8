#!/usr/bin/env python3
"""Mutation fuzzing of hindsight-analyze: damaged copies of the reference
traces, each analyzed and its outcome classified.

usage: mutate_traces.py --analyzer PATH --values PATH [--mpiexec PATH]
                        [--otf2-print PATH] [--testdata DIR] [--seed N]
                        [--cases N] [--jobs N] [--case NAME ...]
                        [--known-failures FILE] [--table-only]

The traces are the Score-P traces and those with Scalasca's reports in
tests/data. A case damages one file of one trace in one way:
  flip@OFFSET^MASK   the byte at OFFSET xor MASK
  cut@OFFSET         the file truncated to OFFSET bytes
  zero@OFFSET+LEN    LEN bytes from OFFSET set to zero
  swap@A,B           the 4 bytes at A exchanged with the 4 bytes at B
in the anchor (traces.otf2), the global definitions (traces.def), a local
definition file (traces/N.def) or an event file (traces/N.evt). A case's
name says all of it ("chain/traces/2.evt:flip@104^0x20"), so `--case NAME`
runs that case alone; the seed only chooses the names. Case i of a seed is
the same whatever the number of cases asked for.

Each outcome is one of:
  clear error          non-zero exit and, on standard error, exactly one
                       line "hindsight-analyze: FILE: problem" whose FILE is
                       a file of the damaged trace (the progress lines the
                       analyzer prints per phase aside)
  same report          exit 0, and the report's values are those of the
                       undamaged trace's report
  report with warning  exit 0, other values, and the summary's Warnings
                       line differs from the undamaged trace's
  undetectable         exit 0, other values, no new warning, and otf2-print
                       shows that the damaged trace is a well-formed trace
                       differing from the undamaged one only where OTF2 has
                       no means to notice (see UNDETECTABLE below)
  silent wrong result  exit 0, other values (or no readable report), no
                       new warning, and not undetectable
  unclear error        non-zero exit with more or fewer lines, or a line
                       that names no file of the trace
  hang                 no exit within the outer limit, or the analyzer's
                       own --timeout ended it
  crash                a signal, a sanitizer's report, an MPI job torn down
The first four are right; the test fails on any case of the last four,
except those listed with their reason in the known-failures file: a listed
case that ends right fails too, until it is taken off the list.
"""
import argparse
import concurrent.futures
import dataclasses
import difflib
import hashlib
import os
import random
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Optional

PROGRAM = "hindsight-analyze"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILE_KINDS = ("anchor", "global-defs", "local-defs", "events")
MUTATIONS = ("flip", "cut", "zero", "swap")
RIGHT = ("clear error", "same report", "report with warning", "undetectable")
WRONG = ("silent wrong result", "unclear error", "hang", "crash")
# The analyzer's own limit, and ours around the whole MPI job (loading and
# the reports' writing included; sanitized builds are slower).
ANALYZER_TIMEOUT = 10
OUTER_TIMEOUT = 60
# glibc fills each allocation with this byte (and freed memory with its
# complement): a read of uninitialized memory shows, and the same in every
# run (meson test would choose another byte each time).
# A sanitized build reports the leaks of the libraries as the tests do
# (tests/lsan.supp).
#
# Each process may reserve 2 GiB of address space; a sanitized build, which
# reserves terabytes for itself, may not allocate more than 2 GiB at once.
# The traces are a few hundred kilobytes. A damaged count in an anchor file
# makes OTF2's loader allocate gigabytes (and, on its error path, free each
# of the array's entries in turn): such an allocation must fail, and OTF2
# then reports the file, rather than the system kill the process (or
# others' jobs on the machine) or the sanitized build spend minutes.
ADDRESS_SPACE_LIMIT = 2 << 30
ANALYZER_ENVIRONMENT = {
    **os.environ,
    "MALLOC_PERTURB_": "165",
    # No leak check here: to match the libraries' known leaks (tests/lsan.supp)
    # it must unwind every allocation slowly, which made a sanitized run of
    # 2 ranks spend over a minute in MPI_Init on a loaded 2-core machine and
    # look like a hang. The hand-written inputs of the `corpus` test keep
    # the leak check; here the sanitizers look for bad reads and writes.
    "LSAN_OPTIONS": os.environ.get("LSAN_OPTIONS", "suppressions=" + os.path.join(ROOT, "tests", "lsan.supp"))
                    + ":fast_unwind_on_malloc=1:detect_leaks=0",
    "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "verify_asan_link_order=0")
                    + f":allocator_may_return_null=1:max_allocation_size_mb={ADDRESS_SPACE_LIMIT >> 20}",
}
# The analyzer's line at the end of each phase (analyzer/progress_display.*).
PHASE_LINE = re.compile(rf"^{PROGRAM}: (load|unify|pair|replay|report) [0-9.]+ [µmn]?s( \(.*\))?$")
VALUE_LINE = re.compile(r"(?P<metric>[^\t\n]*)\t(?P<path>.*?)\t(?P<rank>\d+)\t(?P<value>[^\t\n]+)\n", re.S)
# What a sanitized build adds without a problem: the table of the leak
# suppressions it used (the libraries' known leaks), and the note on an
# allocation beyond the limit, which fails as asked.
SANITIZER_NOTE = re.compile(r"^(-+|Suppressions used:|\s+count\s+bytes\s+template|\s+\d+\s+\d+\s+\S+"
                            r"|==\d+==WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]+ bytes)$")
NAME = re.compile(r"^(?P<trace>[\w.-]+)/(?P<file>traces\.otf2|traces\.def|traces/\d+\.(def|evt)):"
                  r"(?P<kind>flip|cut|zero|swap)@(?P<offset>\d+)(\^(?P<mask>0x[0-9a-f]+)|\+(?P<length>\d+)|,(?P<other>\d+))?$")


def file_kind(relative: str) -> str:
    if relative == "traces.otf2":
        return "anchor"
    if relative == "traces.def":
        return "global-defs"
    return "local-defs" if relative.endswith(".def") else "events"


@dataclasses.dataclass(frozen=True)
class Mutation:
    trace: str
    file: str  # relative to the trace's directory
    kind: str
    offset: int
    arg: int = 0  # the mask, the length or the other offset

    @property
    def name(self) -> str:
        suffix = {"flip": f"^{self.arg:#04x}", "cut": "", "zero": f"+{self.arg}", "swap": f",{self.arg}"}[self.kind]
        return f"{self.trace}/{self.file}:{self.kind}@{self.offset}{suffix}"

    @property
    def family(self) -> tuple:
        return file_kind(self.file), self.kind

    @staticmethod
    def parse(name: str) -> "Mutation":
        m = NAME.match(name)
        if not m:
            raise ValueError(f"not a case name: {name!r}")
        arg = {"flip": lambda: int(m["mask"], 16), "cut": lambda: 0, "zero": lambda: int(m["length"]),
               "swap": lambda: int(m["other"])}[m["kind"]]()
        return Mutation(m["trace"], m["file"], m["kind"], int(m["offset"]), arg)

    def apply(self, data: bytes) -> bytes:
        """The file's bytes after the damage; ValueError if it does not fit."""
        size = len(data)
        if self.kind == "cut":
            if self.offset >= size:
                raise ValueError(f"{self.name}: the file has {size} bytes")
            return data[:self.offset]
        if self.kind == "flip":
            if self.offset >= size or not 0 < self.arg < 256:
                raise ValueError(f"{self.name}: the file has {size} bytes")
            return data[:self.offset] + bytes([data[self.offset] ^ self.arg]) + data[self.offset + 1:]
        if self.kind == "zero":
            if self.offset + self.arg > size or self.arg < 1:
                raise ValueError(f"{self.name}: the file has {size} bytes")
            return data[:self.offset] + bytes(self.arg) + data[self.offset + self.arg:]
        a, b = sorted((self.offset, self.arg))
        if b + 4 > size or a + 4 > b:
            raise ValueError(f"{self.name}: the ranges overlap or the file has {size} bytes")
        return data[:a] + data[b:b + 4] + data[a + 4:b] + data[a:a + 4] + data[b + 4:]


@dataclasses.dataclass
class Trace:
    name: str
    directory: str
    ranks: int
    files: dict  # relative path -> bytes

    def of_kind(self, kind: str) -> list:
        return sorted(f for f in self.files if file_kind(f) == kind)


def find_traces(testdata: str) -> dict:
    """Every OTF2 trace under tests/data, once (the Scalasca folder holds a
    copy of the Score-P ping-pong)."""
    traces, seen = {}, set()
    candidates = [os.path.join(testdata, d) for d in sorted(os.listdir(testdata))]
    scalasca = os.path.join(testdata, "scalasca")
    if os.path.isdir(scalasca):
        candidates += [os.path.join(scalasca, d) for d in sorted(os.listdir(scalasca))]
    for directory in candidates:
        if not os.path.isfile(os.path.join(directory, "traces.otf2")):
            continue
        files = {}
        for relative in ["traces.otf2", "traces.def"] + [
                "traces/" + f for f in sorted(os.listdir(os.path.join(directory, "traces")))]:
            with open(os.path.join(directory, relative), "rb") as f:
                files[relative] = f.read()
        digest = hashlib.sha256(b"".join(files[k] for k in sorted(files))).hexdigest()
        name = os.path.basename(directory)
        if digest in seen or name in traces:
            continue
        seen.add(digest)
        # One rank per master thread: Score-P's OpenMP worker threads have
        # location ids (thread << 32) | rank.
        ranks = sum(1 for f in files if f.endswith(".evt") and int(os.path.basename(f)[:-4]) < 2 ** 32)
        traces[name] = Trace(name, directory, ranks, files)
    return traces


def generate(traces: dict, seed: int, count: int) -> list:
    """`count` cases of the seed, the families (file kind x mutation) in
    turn; a mutation that would change no byte is drawn again."""
    names = sorted(traces)
    families = [(k, m) for k in FILE_KINDS for m in MUTATIONS]
    cases = []
    for i in range(count):
        rng = random.Random(f"{seed}:{i}")
        kind, how = families[i % len(families)]
        while True:
            trace = traces[rng.choice(names)]
            relative = rng.choice(trace.of_kind(kind))
            data = trace.files[relative]
            size = len(data)
            if how == "flip":
                mutation = Mutation(trace.name, relative, how, rng.randrange(size), rng.randrange(1, 256))
            elif how == "cut":
                mutation = Mutation(trace.name, relative, how, rng.randrange(size))
            elif how == "zero":
                length = min(size, rng.choice((1, 2, 4, 8, 16, 64)))
                mutation = Mutation(trace.name, relative, how, rng.randrange(size - length + 1), length)
            else:
                a = rng.randrange(size - 7)
                mutation = Mutation(trace.name, relative, how, a, rng.randrange(a + 4, size - 3))
            if mutation.apply(data) != data:
                break
        cases.append(mutation)
    return cases


@dataclasses.dataclass
class Run:
    returncode: Optional[int]  # None: killed at the outer limit
    stdout: str
    stderr: str
    values: Optional[dict]


class Fuzzer:
    def __init__(self, args, traces: dict):
        self.args = args
        self.traces = traces
        self.baselines = {}

    def copy(self, trace: Trace, work: str, mutation: Optional[Mutation] = None) -> str:
        directory = os.path.join(work, trace.name)
        os.makedirs(os.path.join(directory, "traces"))
        for relative, data in trace.files.items():
            if mutation and relative == mutation.file:
                data = mutation.apply(data)
            with open(os.path.join(directory, relative), "wb") as f:
                f.write(data)
        return os.path.join(directory, "traces.otf2")

    def analyze(self, trace: Trace, anchor: str, work: str) -> Run:
        report = os.path.join(work, "r.cubex")
        command = [self.args.mpiexec, "-n", str(trace.ranks), self.args.analyzer, anchor, "-o", report,
                   "--timeout", str(ANALYZER_TIMEOUT)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=OUTER_TIMEOUT,
                                  start_new_session=True, env=ANALYZER_ENVIRONMENT)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            return Run(None, out, err, None)
        values = self.report_values(report) if done.returncode == 0 else None
        return Run(done.returncode, done.stdout, done.stderr, values)

    def report_values(self, report: str) -> Optional[dict]:
        if not os.path.isfile(report):
            return None
        done = subprocess.run([self.args.values, report], capture_output=True, text=True, errors="replace",
                              timeout=OUTER_TIMEOUT)
        if done.returncode != 0:
            return None
        # A damaged name may hold a tab or a line break: the rank and the
        # value end each line, the metric's name has no tab.
        values, end = {}, 0
        for m in VALUE_LINE.finditer(done.stdout):
            if m.start() != end:
                break
            values[(m["metric"], m["path"], int(m["rank"]))] = float(m["value"])
            end = m.end()
        if end != len(done.stdout):
            return {("unreadable", done.stdout, 0): 0.0}
        return values

    def baseline(self, trace: Trace) -> Run:
        """The undamaged trace's run (its report and its warnings)."""
        if trace.name not in self.baselines:
            with tempfile.TemporaryDirectory(prefix="hindsight-fuzz-") as work:
                run = self.analyze(trace, self.copy(trace, work), work)
            if run.returncode != 0 or run.values is None:
                raise SystemExit(f"the undamaged trace {trace.name} does not analyze: {run.stderr.strip()[-500:]}")
            self.baselines[trace.name] = run
        return self.baselines[trace.name]

    def run(self, mutation: Mutation) -> tuple:
        trace = self.traces[mutation.trace]
        good = self.baseline(trace)
        with tempfile.TemporaryDirectory(prefix="hindsight-fuzz-") as work:
            anchor = self.copy(trace, work, mutation)
            run = self.analyze(trace, anchor, work)
            outcome, detail = classify(run, good, os.path.dirname(anchor))
            if outcome == "silent wrong result":
                with tempfile.TemporaryDirectory(prefix="hindsight-fuzz-good-") as good_work:
                    reason = undetectable(self.args.otf2_print, self.copy(trace, good_work), anchor, mutation.file)
                if reason:
                    outcome, detail = "undetectable", reason
        return outcome, detail


def warnings_line(stdout: str) -> str:
    lines = [line for line in stdout.splitlines() if line.startswith("Warnings:")]
    return lines[-1] if lines else ""


def classify(run: Run, good: Run, directory: str) -> tuple:
    lines = [line for line in run.stderr.splitlines() if line.strip() and not PHASE_LINE.match(line)
             and not SANITIZER_NOTE.match(line)]
    tail = " | ".join(lines)[-400:]
    if run.returncode is None:
        return "hang", f"no exit within {OUTER_TIMEOUT} s"
    if any("made no progress for" in line for line in lines):
        return "hang", tail
    # mpiexec reports a rank that died of a signal (on standard output) and
    # exits with the signal's number.
    output = run.stdout + "\n".join(lines)
    if (run.returncode < 0 or run.returncode >= 128 or "Sanitizer" in output or "runtime error:" in output
            or "BAD TERMINATION" in output or "terminate called" in output):
        return "crash", f"exit {run.returncode}: {tail}"
    if run.returncode != 0:
        prefix = f"{PROGRAM}: {directory}/"
        if len(lines) == 1 and lines[0].startswith(prefix) and ": " in lines[0][len(prefix):]:
            named = lines[0][len(prefix):].split(": ", 1)[0]
            if os.path.exists(os.path.join(directory, named)) or named.startswith("traces"):
                return "clear error", lines[0][len(prefix) - len(directory) - 1:]
        return "unclear error", f"exit {run.returncode}: {tail}"
    if run.values is None:
        return "silent wrong result", "exit 0 without a readable report"
    differences = value_differences(good.values, run.values)
    if not differences:
        return "same report", "the undamaged trace's values"
    warnings = warnings_line(run.stdout)
    if warnings != warnings_line(good.stdout):
        return "report with warning", f"{warnings}; {differences}"
    return "silent wrong result", differences


def value_differences(good: dict, found: dict) -> str:
    """"" if the reports hold the same values, else the first differences."""
    keys = sorted(set(good) | set(found), key=str)
    differing = [k for k in keys if not close(good.get(k), found.get(k))]
    if not differing:
        return ""
    shown = "; ".join(f"{k[0]} {k[1]} rank {k[2]}: {good.get(k)} -> {found.get(k)}" for k in differing[:3])
    return f"{len(differing)} values differ ({shown})"


def close(a: Optional[float], b: Optional[float]) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b)) + 1e-300


# --- what OTF2 cannot notice ----------------------------------------------------
#
# OTF2 stores no checksum: any byte may change into another value that is
# still well-formed. Accepted as undetectable, on otf2-print's evidence (it
# reads the damaged trace with OTF2's own reader, independently of the
# analyzer), nothing else:
#  - event times (damage in an event file) and clock offsets (in a local
#    definition file): the damaged trace prints the same definitions and
#    the same events, in the same order with the same attributes; only the
#    times of events differ (otf2-print applies the clock offsets), each
#    staying in its location's order and within the undamaged trace's
#    first and last time. Such a time is plausible; only the run that
#    measured it could know better. A time that leaves the trace's span, or
#    its location's order, is no such case: the clock properties or the
#    order give it away.
#  - timer resolution: only the clock properties' ticks per second differ
#    (the events print in ticks, so they stay the same).
#  - names: the damaged trace prints the same as the undamaged one once
#    every quoted string is blanked out: only the text of a STRING
#    definition differs (a region, a file or a communicator called
#    otherwise; MPI_Finalize, say, then is no longer recognized as such).

EVENT_LINE = re.compile(r"^(?P<record>[A-Z_0-9]+)\s+(?P<location>\d+)\s+(?P<time>\d+)(?P<rest>.*)$")
QUOTED = re.compile(r'"[^"]*"')
RESOLUTION = re.compile(r"(?<=CLOCK_PROPERTIES)\s+Ticks per Seconds: \d+")


def otf2_print(tool: str, anchor: str) -> Optional[tuple]:
    """What otf2-print shows of the trace: the anchor's information with the
    definitions, and the events (merged by time), as two texts; None if
    otf2-print does not read the trace without complaint."""
    try:
        done = subprocess.run([tool, "-A", anchor], capture_output=True, text=True, errors="replace",
                              timeout=OUTER_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0 or done.stderr.strip():
        return None
    text = done.stdout.replace(os.path.dirname(anchor), "TRACE")
    definitions, marker, events = text.partition("\n=== Events")
    return (definitions, events) if marker else None


def location_events(text: str) -> dict:
    """Each location's events in its own order: (time, record, attributes)."""
    events = {}
    for line in text.splitlines():
        m = EVENT_LINE.match(line)
        if m:
            events.setdefault(m["location"], []).append((int(m["time"]), m["record"], m["rest"]))
    return events


def undetectable(tool: str, good_anchor: str, bad_anchor: str, damaged: str) -> str:
    """Why OTF2 cannot tell the damaged trace from a good one ("" if it could)."""
    good, bad = otf2_print(tool, good_anchor), otf2_print(tool, bad_anchor)
    if good is None or bad is None:
        return ""
    if good[0] != bad[0]:
        # The timer's resolution: any number of ticks per second is a
        # plausible timer.
        if RESOLUTION.sub("", good[0]) == RESOLUTION.sub("", bad[0]) and good[1] == bad[1]:
            return "timer resolution: " + " ".join(RESOLUTION.search(bad[0])[0].split())
        # Names: the same trace once every quoted string is blanked out (a
        # string may hold a line break).
        if QUOTED.sub('""', "".join(good)) != QUOTED.sub('""', "".join(bad)):
            return ""
        names = [b for g, b in zip(QUOTED.findall(good[0]), QUOTED.findall(bad[0])) if g != b]
        return f"names: {len(names)} quoted strings differ in the definitions ({names[0][:60]!r})"
    # Event times: the same records with the same attributes; only times
    # differ, each in its location's order and within the trace's span.
    good_events, bad_events = location_events(good[1]), location_events(bad[1])
    if good_events.keys() != bad_events.keys() or any(
            len(good_events[k]) != len(bad_events[k]) for k in good_events):
        return ""
    first = min(e[0][0] for e in good_events.values() if e)
    last = max(e[-1][0] for e in good_events.values() if e)
    changed, shift = 0, 0
    for location, events in good_events.items():
        previous = first
        for (good_time, good_record, good_rest), (time, record, rest) in zip(events, bad_events[location]):
            if (record, rest) != (good_record, good_rest) or not previous <= time <= last:
                return ""
            previous = time
            if time != good_time:
                changed += 1
                shift = max(shift, abs(time - good_time))
    if not changed:
        return ""
    # Times move through the event file's timestamps or through a local
    # definition file's clock offsets.
    what = "event times" if damaged.endswith(".evt") else "clock offsets"
    return f"{what}: {changed} timestamps differ, by at most {shift} ticks, in order and within the trace"


# --- the run ----------------------------------------------------------------------

def read_known_failures(path: Optional[str]) -> dict:
    """Case name -> reason, from lines "NAME  # reason"."""
    known = {}
    if not path:
        return known
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition("#")
            Mutation.parse(name.strip())
            if not reason.strip():
                raise SystemExit(f"{path}: {name.strip()}: a known failure needs its reason after '#'")
            known[name.strip()] = reason.strip()
    return known


def reproduce_command(args, name: str) -> str:
    words = [sys.executable, os.path.abspath(__file__), "--analyzer", args.analyzer, "--values", args.values,
             "--mpiexec", args.mpiexec, "--otf2-print", args.otf2_print, "--testdata", args.testdata, "--case", name]
    return " ".join(shlex.quote(w) for w in words)


def print_table(results: list):
    outcomes = RIGHT + WRONG
    print("| file | mutation | cases | " + " | ".join(outcomes) + " |")
    print("|---|---|---:|" + "---:|" * len(outcomes))
    totals = {o: 0 for o in outcomes}
    for kind in FILE_KINDS:
        for how in MUTATIONS:
            family = [outcome for mutation, outcome, _ in results if mutation.family == (kind, how)]
            if not family:
                continue
            counts = [family.count(o) for o in outcomes]
            for o, c in zip(outcomes, counts):
                totals[o] += c
            print(f"| {kind} | {how} | {len(family)} | " + " | ".join(str(c) for c in counts) + " |")
    print(f"| all | all | {len(results)} | " + " | ".join(str(totals[o]) for o in outcomes) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--analyzer", required=True, help="hindsight-analyze (any build, e.g. a sanitized one)")
    parser.add_argument("--values", required=True, help="the cube_values tool of the same build")
    parser.add_argument("--mpiexec", default=shutil.which("mpiexec"))
    parser.add_argument("--otf2-print", default=shutil.which("otf2-print"))
    parser.add_argument("--testdata", default=os.path.join(ROOT, "tests", "data"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2, help="cases run at the same time")
    parser.add_argument("--case", action="append", help="run this case alone (repeatable)")
    parser.add_argument("--known-failures", help="file of cases that fail today, each with its reason")
    parser.add_argument("--table-only", action="store_true", help="print failing cases and the table only")
    args = parser.parse_args()
    args.analyzer, args.values = os.path.abspath(args.analyzer), os.path.abspath(args.values)

    if "libasan" not in subprocess.run(["ldd", args.analyzer], capture_output=True, text=True).stdout:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))
    traces = find_traces(args.testdata)
    if args.case:
        cases = [Mutation.parse(name) for name in args.case]
        for m in cases:
            if m.trace not in traces or m.file not in traces[m.trace].files:
                raise SystemExit(f"{m.name}: no such trace file")
            m.apply(traces[m.trace].files[m.file])
    else:
        cases = generate(traces, args.seed, args.cases)
    known = read_known_failures(args.known_failures)
    fuzzer = Fuzzer(args, traces)
    started = time.monotonic()
    for trace in {traces[m.trace].name: traces[m.trace] for m in cases}.values():
        fuzzer.baseline(trace)

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for mutation, (outcome, detail) in zip(cases, pool.map(fuzzer.run, cases)):
            results.append((mutation, outcome, detail))
            if not args.table_only or outcome in WRONG or args.case:
                print(f"{outcome:20} {mutation.name}: {detail[:400]}", flush=True)

    unexpected, fixed = [], []
    for mutation, outcome, detail in results:
        if outcome in WRONG and mutation.name not in known:
            unexpected.append(mutation.name)
        if outcome in RIGHT and mutation.name in known:
            fixed.append(mutation.name)
    print()
    print(f"{len(cases)} cases (seed {args.seed}) in {time.monotonic() - started:.0f} s, {args.jobs} at a time")
    print_table(results)
    failed = False
    if unexpected:
        failed = True
        print(f"\nFAIL: {len(unexpected)} cases did not end right; to run one alone:")
        for name in unexpected:
            print("  " + reproduce_command(args, name))
    stale = sorted(set(known) - {m.name for m in cases})
    if stale:
        failed = True
        print(f"\nFAIL: {len(stale)} known failures are no cases of this run (seed, count): {', '.join(stale)}")
    listed = [m.name for m, outcome, _ in results if outcome in WRONG and m.name in known]
    if listed:
        print(f"\n{len(listed)} known failures still fail:")
        for name in listed:
            print(f"  {name}  # {known[name]}")
    if fixed:
        failed = True
        print(f"\nFAIL: {len(fixed)} known failures now end right; take them off {args.known_failures}:")
        for name in fixed:
            print("  " + name)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
