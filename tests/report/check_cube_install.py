#!/usr/bin/python3
"""The installed CUBE library is usable on its own: `meson install` into a
scratch DESTDIR, then a user program is compiled with nothing but
`pkg-config hindsight-cube` (pointed at that tree), with all warnings as
errors, linked against the installed shared library, and run on Scalasca's
report of the `chain` trace: its Late Sender at main/MPI_Recv on rank 2 is
1.1 s (read by hand from the report: metric 6, row 5, column 2 of 6.data).
The installed hindsight-report and its manual page are there too.

Usage: check_cube_install.py --meson MESON --build-dir DIR --prefix P --libdir L
                             --source FILE --scalasca DIR --cxx COMPILER...
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import installed_tree  # noqa: E402
from installed_tree import Failure, InstalledTree, run  # noqa: E402


def check(args, workdir):
    tree = InstalledTree(args.meson, args.build_dir, args.prefix, args.libdir, workdir)
    libdir = tree.libdir
    tree.require(("bin/hindsight-report", "share/man/man1/hindsight-report.1", "share/doc/hindsight/report.md",
                  "include/hindsight/common/cube/reader.hpp", os.path.join(args.libdir, "libhindsight-cube.so"),
                  os.path.join(args.libdir, "pkgconfig", "hindsight-cube.pc")))
    flags = tree.flags("hindsight-cube")
    program = os.path.join(workdir, "reader")
    run([*args.cxx, "-std=c++20", "-Wall", "-Wextra", "-Werror", args.source, *flags, f"-Wl,-rpath,{libdir}",
         "-o", program])
    report = os.path.join(args.scalasca, "chain", "scalasca.cubex")
    # `meson test` points LD_LIBRARY_PATH at the build tree; a user's program has only its rpath.
    alone = {key: value for key, value in os.environ.items() if key != "LD_LIBRARY_PATH"}
    value = float(run([program, report, "mpi_latesender", "main/MPI_Recv", "2"], env=alone).stdout)
    if abs(value - 1.1) > 1e-12:
        raise Failure(f"the installed library reads {value} s of Late Sender on rank 2, expected 1.1 s")
    linked = run(["ldd", program], env=alone).stdout
    if not any("libhindsight-cube.so" in line and libdir in line for line in linked.splitlines()):
        raise Failure(f"the program is not linked against the installed library:\n{linked}")


if __name__ == "__main__":
    sys.exit(installed_tree.main(check, ("--meson", "--build-dir", "--prefix", "--libdir", "--source", "--scalasca"),
                                 many=("--cxx",), prefix="hindsight-cube-install."))
