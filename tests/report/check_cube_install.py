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

import argparse
import os
import subprocess
import sys
import tempfile

TIMEOUT = 150


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
    root = destdir + args.prefix
    libdir = os.path.join(root, args.libdir)
    for path in ("bin/hindsight-report", "share/man/man1/hindsight-report.1", "share/doc/hindsight/report.md",
                 "include/hindsight/common/cube/reader.hpp", os.path.join(args.libdir, "libhindsight-cube.so"),
                 os.path.join(args.libdir, "pkgconfig", "hindsight-cube.pc")):
        if not os.path.exists(os.path.join(root, path)):
            raise Failure(f"not installed: {path}")

    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    flags = run(["pkg-config", f"--define-variable=prefix={root}", "--cflags", "--libs", "hindsight-cube"],
                env=env).stdout.split()
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


def main():
    parser = argparse.ArgumentParser()
    for option in ("--meson", "--build-dir", "--prefix", "--libdir", "--source", "--scalasca"):
        parser.add_argument(option, required=True)
    parser.add_argument("--cxx", nargs="+", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hindsight-cube-install.") as workdir:
        try:
            check(args, workdir)
        except Failure as failure:
            print(failure, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
