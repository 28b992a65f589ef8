#!/usr/bin/python3
"""The installed tree is usable on its own: `meson install` into a scratch
DESTDIR, then a user program with user regions is compiled and linked with
nothing but `pkg-config hindsight-collect` (pointed at that tree), run under
the installed hindsight-collect, and its trace must hold its regions.

Usage: check_install.py --meson MESON --build-dir DIR --prefix P --libdir L
                        --mpicxx MPICXX --mpicc MPICC --mpiexec MPIEXEC --source FILE
"""

import collections
import os
import sys

import otf2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import installed_tree  # noqa: E402
from installed_tree import Failure, InstalledTree, run  # noqa: E402

RANKS = 2


def check(args, workdir):
    tree = InstalledTree(args.meson, args.build_dir, args.prefix, args.libdir, workdir)
    root, libdir = tree.root, tree.libdir
    tree.require(("include/hindsight.h", "bin/hindsight-collect", "bin/hindsight-analyze",
                  "share/doc/hindsight/usage.md", "share/doc/hindsight/collector.md",
                  "share/man/man1/hindsight-collect.1", "share/man/man1/hindsight-analyze.1",
                  os.path.join(args.libdir, "libhindsight-collect.so")))
    for header in os.listdir(os.path.join(root, "include")):
        # include/hindsight/ holds the CUBE library's headers (tests/report checks them).
        if header not in ("hindsight.h", "hindsight"):
            raise Failure(f"installed without a library to go with it: include/{header}")

    flags = tree.flags("hindsight-collect")
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


if __name__ == "__main__":
    sys.exit(installed_tree.main(check, ("--meson", "--build-dir", "--prefix", "--libdir", "--mpicxx", "--mpicc",
                                         "--mpiexec", "--source")))
