#!/usr/bin/python3
"""The installed tree is usable on its own: `meson install` into a scratch
DESTDIR, then a user program with user regions is compiled and linked with
nothing but `pkg-config hindsight-collect` (pointed at that tree), run under
the installed hindsight-collect, and its trace must hold its regions.

Usage: check_install.py --meson MESON --build-dir DIR --prefix P --libdir L
                        --mpicxx MPICXX --mpicc MPICC --mpiexec MPIEXEC --source FILE
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile

import otf2

TIMEOUT = 120
RANKS = 2


class Failure(Exception):
    pass


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, **kwargs)
    if result.returncode != 0:
        raise Failure(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def check(args, workdir):
    destdir = os.path.join(workdir, "destdir")
    run([args.meson, "install", "-C", args.build_dir, "--no-rebuild", "--quiet", "--destdir", destdir])
    root = destdir + args.prefix  # the prefix as installed below DESTDIR
    libdir = os.path.join(root, args.libdir)
    for path in ("include/hindsight.h", "bin/hindsight-collect", "bin/hindsight-analyze",
                 "share/doc/hindsight/usage.md", "share/doc/hindsight/collector.md",
                 "share/man/man1/hindsight-collect.1", "share/man/man1/hindsight-analyze.1",
                 os.path.join(args.libdir, "libhindsight-collect.so")):
        if not os.path.exists(os.path.join(root, path)):
            raise Failure(f"not installed: {path}")
    for header in os.listdir(os.path.join(root, "include")):
        # include/hindsight/ holds the CUBE library's headers (tests/report checks them).
        if header not in ("hindsight.h", "hindsight"):
            raise Failure(f"installed without a library to go with it: include/{header}")

    # pkg-config finds the tree where it is, not at the prefix it was made for.
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    flags = run(["pkg-config", f"--define-variable=prefix={root}", "--cflags", "--libs", "hindsight-collect"],
                env=env).stdout.split()
    program = os.path.join(workdir, "user_regions")
    run([args.mpicxx, args.source, *flags, f"-Wl,-rpath,{libdir}", "-o", program])
    # The header compiles as C as well.
    c_source = os.path.join(workdir, "regions.c")
    with open(c_source, "w") as out:
        out.write('#include <hindsight.h>\nvoid mark(void) { hindsight_region_begin("x"); hindsight_region_end("x"); }\n')
    run([args.mpicc, "-std=c11", "-Wall", "-Werror", "-c", c_source, *flags,
         "-o", os.path.join(workdir, "regions.o")])

    trace_dir = os.path.join(workdir, "trace")
    result = run([args.mpiexec, "-n", str(RANKS), os.path.join(root, "bin", "hindsight-collect"), "-o", trace_dir,
                  "--", program], cwd=workdir)
    anchor = os.path.join(trace_dir, "traces.otf2")
    if f"of {RANKS} ranks to {anchor}" not in result.stderr:
        raise Failure(f"no line about the written trace:\n{result.stderr}")
    enters = collections.Counter()
    with otf2.reader.open(anchor) as reader:
        for location, event in reader.events:
            if isinstance(event, otf2.events.Enter):
                enters[(location._ref, event.region.name)] += 1
    for rank in range(RANKS):
        for region, count in (("setup", 1), ("solve", 3), ("MPI_Allreduce", 3)):
            if enters[(rank, region)] != count:
                raise Failure(f"rank {rank}: {region} entered {enters[(rank, region)]} times, expected {count}")


def main():
    parser = argparse.ArgumentParser()
    for option in ("--meson", "--build-dir", "--prefix", "--libdir", "--mpicxx", "--mpicc", "--mpiexec", "--source"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hindsight-install.") as workdir:
        try:
            check(args, workdir)
        except Failure as failure:
            print(failure, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
