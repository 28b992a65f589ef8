#!/usr/bin/python3
"""hindsight-collect --profile: the profile of programs whose calls and bytes
are known.

Usage: check_profile.py --collect LAUNCHER --mpiexec MPIEXEC --analyze ANALYZER
       --report REPORT --examples DIR --pcontrol PROGRAM --score-program PROGRAM

Cases:
- exact: pingpong on 2 ranks, 30 round trips of 100 bytes. Visits and bytes
  per rank and call path in profile.cubex (read with hindsight-report
  --text), the communicator table (profile.communicators.csv) and the
  message sizes (profile.communication.json) are exact; times only have to
  be positive, ordered and within the run's wall-clock time. No trace is
  written.
- pcontrol: MPI_Pcontrol(0) pauses the profile around 4 of 10 exchanges.
- names: subcomm on 4 ranks names its communicators as the tracer does.
- same-as-trace: for pingpong, transpose, subcomm, latecoll_nb and cartgrid the
  profile's communicator table equals the one the trace analysis computes
  from a trace of the same program (calls, operations, bytes; not times).
  Programs whose counts depend on timing (ring's MPI_Test completes a
  request or not) cannot be compared across two runs.
- score: hindsight-report --score of a profile estimates the size of the
  trace the collector then writes for the same program within 10 %
  (pingpong, halo2d); its filter file leaves out the short, frequent user
  region of profile_score.c and nothing else, and the collector, given it,
  records exactly the visits of that region less.
"""

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time

TIMEOUT = 120


class Failure(Exception):
    pass


def run(command, cwd, what):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: no exit within {TIMEOUT} s")
    if result.returncode != 0:
        raise Failure(f"{what}: exit status {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def profile(args, workdir, name, ranks, program):
    out = os.path.join(workdir, name)
    start = time.monotonic()
    run([args.mpiexec, "-n", str(ranks), args.collect, "--profile", "-q", "-o", out, "--", *program], workdir,
        f"{name}: profile run")
    return out, time.monotonic() - start


def per_rank(args, report, metric, path):
    """{rank: exclusive value} of `metric` at call path `path`."""
    text = run([args.report, "--text", report, "--metric", metric, "--callpath", path, "--csv"], None,
               f"{report}: {metric} at {path}").stdout
    return {int(row["rank"]): float(row["exclusive"]) for row in csv.DictReader(io.StringIO(text))}


def call_paths(args, report, metric):
    """{call path: (inclusive, exclusive)} of `metric` summed over ranks."""
    text = run([args.report, "--text", report, "--metric", metric, "--csv"], None, f"{report}: {metric}").stdout
    return {row["call path"]: (float(row["inclusive"]), float(row["exclusive"]))
            for row in csv.DictReader(io.StringIO(text))}


def communicators(path):
    """{(communicator, operation): row} of a .communicators.csv."""
    with open(path, newline="") as f:
        return {(row["communicator"], row["operation"]): row for row in csv.DictReader(f)}


def expect(what, got, wanted):
    if got != wanted:
        raise Failure(f"{what}: got {got}, expected {wanted}")


def check_exact(args, workdir):
    count, size = 30, 100
    out, elapsed = profile(args, workdir, "exact", 2,
                           [os.path.join(args.examples, "pingpong"), "--count", str(count), "--bytes", str(size)])
    if os.path.exists(os.path.join(out, "traces.otf2")) or os.path.exists(os.path.join(out, "traces")):
        raise Failure("exact: a profile run wrote a trace")
    report = os.path.join(out, "profile.cubex")
    base = "pingpong/main/"
    for call, visits in (("MPI_Send", count), ("MPI_Recv", count), ("MPI_Barrier", 1), ("MPI_Init", 1),
                         ("MPI_Finalize", 1)):
        expect(f"exact: visits of {call}", per_rank(args, report, "visits", base + call), {0: visits, 1: visits})
    expect("exact: bytes sent by MPI_Send", per_rank(args, report, "bytes_sent", base + "MPI_Send"),
           {0: count * size, 1: count * size})
    expect("exact: bytes received by MPI_Recv", per_rank(args, report, "bytes_received", base + "MPI_Recv"),
           {0: count * size, 1: count * size})
    # Bytes nowhere else: the totals are those of the two calls.
    expect("exact: bytes sent in all", call_paths(args, report, "bytes_sent")["pingpong"][0], 2 * count * size)
    expect("exact: bytes received in all", call_paths(args, report, "bytes_received")["pingpong"][0],
           2 * count * size)
    time_paths = call_paths(args, report, "time")
    whole = time_paths["pingpong"][0]
    if not 0 < time_paths[base + "MPI_Send"][0] < whole <= 2 * elapsed:
        raise Failure(f"exact: times out of order: MPI_Send {time_paths[base + 'MPI_Send'][0]} s, program {whole} s, "
                      f"run {elapsed} s on 2 ranks")
    for rank in (0, 1):
        shortest = per_rank(args, report, "min_time", base + "MPI_Send")[rank]
        longest = per_rank(args, report, "max_time", base + "MPI_Send")[rank]
        if not 0 < shortest <= longest <= elapsed:
            raise Failure(f"exact: rank {rank}: MPI_Send visits of {shortest} s to {longest} s, run {elapsed} s")

    table = communicators(os.path.join(out, "profile.communicators.csv"))
    counted = {key: (row["communicator_id"], row["size"], row["operations"], row["calls"], row["bytes_sent"],
                     row["bytes_received"]) for key, row in table.items()}
    expect("exact: communicator table", counted, {
        ("MPI_COMM_WORLD", "MPI_Send"): ("0", "2", str(2 * count), str(2 * count), str(2 * count * size), "0"),
        ("MPI_COMM_WORLD", "MPI_Recv"): ("0", "2", str(2 * count), str(2 * count), "0", str(2 * count * size)),
        ("MPI_COMM_WORLD", "MPI_Barrier"): ("0", "2", "1", "2", "0", "0"),
    })
    with open(os.path.join(out, "profile.communication.json")) as f:
        document = json.load(f)
    expect("exact: schema", document["schema"], "hindsight-communication")
    world = [c for c in document["communicators"] if c["name"] == "MPI_COMM_WORLD"]
    expect("exact: MPI_COMM_WORLD in the JSON", len(world), 1)
    sends = [op for op in world[0]["by_operation"] if op["operation"] == "MPI_Send"]
    expect("exact: message sizes of MPI_Send",
           [(op["messages"], op["min_message_bytes"], op["max_message_bytes"], op["mean_message_bytes"])
            for op in sends], [(2 * count, size, size, size)])


def check_pcontrol(args, workdir):
    sends, paused, size = 10, 4, 77  # as profile_pcontrol.c has them
    out, _ = profile(args, workdir, "pcontrol", 2, [args.pcontrol])
    report = os.path.join(out, "profile.cubex")
    for call in ("MPI_Send", "MPI_Recv"):
        expect(f"pcontrol: visits of {call}", per_rank(args, report, "visits", "collector_profile_pcontrol/" + call),
               {0: sends - paused, 1: sends - paused})
    expect("pcontrol: bytes sent", per_rank(args, report, "bytes_sent", "collector_profile_pcontrol/MPI_Send"),
           {0: (sends - paused) * size, 1: (sends - paused) * size})


def check_names(args, workdir):
    out, _ = profile(args, workdir, "names", 4, [os.path.join(args.examples, "subcomm"), "--repeat", "2"])
    table = communicators(os.path.join(out, "profile.communicators.csv"))
    names = {key[0] for key in table}
    expect("names: communicators", names, {
        "MPI_COMM_WORLD",
        "MPI_Comm_dup @ main of MPI_COMM_WORLD",
        "MPI_Comm_create @ main of MPI_COMM_WORLD",
        "MPI_Comm_split @ main of MPI_COMM_WORLD (ranks 0, 2)",
        "MPI_Comm_split @ main of MPI_COMM_WORLD (ranks 1, 3)",
    })
    # Two rounds: on a communicator of n ranks each collective makes 2 operations of 2n calls.
    for name, ranks in (("MPI_COMM_WORLD", 4), ("MPI_Comm_create @ main of MPI_COMM_WORLD", 2),
                        ("MPI_Comm_split @ main of MPI_COMM_WORLD (ranks 1, 3)", 2)):
        row = table[(name, "MPI_Allreduce")]
        expect(f"names: MPI_Allreduce on {name}", (row["size"], row["operations"], row["calls"]),
               (str(ranks), "2", str(2 * ranks)))


def check_same_as_trace(args, workdir):
    programs = [
        ("pingpong", 2, ["--count", "20"]),
        ("transpose", 3, []),
        ("subcomm", 4, []),
        ("latecoll_nb", 3, []),
        ("cartgrid", 4, []),
    ]
    for program, ranks, options in programs:
        command = [os.path.join(args.examples, program), *options]
        out, _ = profile(args, workdir, "same-" + program, ranks, command)
        trace = os.path.join(workdir, "trace-" + program)
        run([args.mpiexec, "-n", str(ranks), args.collect, "-q", "-o", trace, "--", *command], workdir,
            f"{program}: trace run")
        run([args.mpiexec, "-n", str(ranks), args.analyze, "-q", os.path.join(trace, "traces.otf2")], workdir,
            f"{program}: analysis")
        columns = ("communicator_id", "size", "topology", "reorder", "operations", "calls", "bytes_sent",
                   "bytes_received")

        def counts(path):
            return {key: tuple(row[c] for c in columns) for key, row in communicators(path).items()}

        from_profile = counts(os.path.join(out, "profile.communicators.csv"))
        from_trace = counts(os.path.join(trace, "analysis.communicators.csv"))
        if not from_trace:
            raise Failure(f"{program}: the trace analysis found no communicator operations")
        if from_profile != from_trace:
            lines = [f"  {k}: profile {from_profile.get(k)}, trace {from_trace.get(k)}"
                     for k in sorted(set(from_profile) | set(from_trace)) if from_profile.get(k) != from_trace.get(k)]
            raise Failure(f"{program}: the profile's communicator table differs from the trace analysis's:\n" +
                          "\n".join(lines))


def trace_bytes(args, workdir, name, ranks, program, options=()):
    """(events, bytes) of the trace the collector writes, as its --verbose line says."""
    out = os.path.join(workdir, name)
    done = run([args.mpiexec, "-n", str(ranks), args.collect, "--verbose", *options, "-o", out, "--", *program],
               workdir, f"{name}: trace run")
    match = re.search(r"the trace holds (\d+) events in (\d+) bytes", done.stderr)
    if not match:
        raise Failure(f"{name}: no event count in:\n{done.stderr}")
    return int(match.group(1)), int(match.group(2))


def score(args, report, filter_out=None):
    """The estimated total bytes and the score's text."""
    command = [args.report, "--score", report] + (["--filter-out", filter_out] if filter_out else [])
    text = run(command, None, f"{report}: score").stdout
    match = re.search(r"Estimated trace: .* in all \((\d+) bytes\)", text)
    if not match:
        raise Failure(f"{report}: no estimate in:\n{text}")
    return int(match.group(1)), text


def check_score(args, workdir):
    for program, options in (("pingpong", ["--count", "3000"]), ("halo2d", ["--iterations", "400"])):
        command = [os.path.join(args.examples, program), *options]
        out, _ = profile(args, workdir, "score-" + program, 2, command)
        estimate, _ = score(args, os.path.join(out, "profile.cubex"))
        _, actual = trace_bytes(args, workdir, "score-trace-" + program, 2, command)
        if abs(estimate - actual) > 0.1 * actual:
            raise Failure(f"score: {program}: estimated {estimate} bytes, the trace has {actual}")
    tiny, ranks = 5000, 2  # as profile_score.c has it
    out, _ = profile(args, workdir, "score-filter", ranks, [args.score_program])
    filter_file = os.path.join(workdir, "advised.filter")
    score(args, os.path.join(out, "profile.cubex"), filter_file)
    with open(filter_file) as f:
        patterns = [line.split() for line in f if line.startswith("    ")]
    expect("score: the advised filter's patterns", patterns, [["tiny"]])
    events, _ = trace_bytes(args, workdir, "score-unfiltered", ranks, [args.score_program])
    filtered, _ = trace_bytes(args, workdir, "score-filtered", ranks, [args.score_program], ["--filter", filter_file])
    expect("score: events the filter saves", events - filtered, 2 * tiny * ranks)


def main():
    parser = argparse.ArgumentParser()
    for option in ("--collect", "--mpiexec", "--analyze", "--report", "--examples", "--pcontrol", "--score-program"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    # The runs happen in a directory of their own; meson passes paths relative to the build directory.
    for name in ("collect", "analyze", "report", "examples", "pcontrol", "score_program"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    failures = []
    with tempfile.TemporaryDirectory() as workdir:
        for case in (check_exact, check_pcontrol, check_names, check_same_as_trace, check_score):
            try:
                case(args, workdir)
                print(f"ok: {case.__name__}")
            except Failure as e:
                failures.append(str(e))
                print(f"FAILED: {e}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
