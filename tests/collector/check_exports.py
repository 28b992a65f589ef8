#!/usr/bin/python3
"""The collector library defines every function the spec records under both
of its names, MPI_* and PMPI_* (doc/collector.md, "Bindings"): a binding that
calls PMPI_* directly (MPICH's `use mpi_f08`) is seen only then. Functions of
kind "local" are left alone (none of them is recorded; MPI_Pcontrol has a
hand-written wrapper that records nothing). Checks the
library's dynamic symbol table against the spec, whatever the spec lists.

Usage: check_exports.py SPEC LIBRARY
"""

import re
import subprocess
import sys

spec_path, library = sys.argv[1:]
names = []
with open(spec_path, encoding="utf-8") as spec:
    for line in spec:
        match = re.search(r"^\s*(\w+).*\|\s*\w+\s+(MPI_\w+)\s*\(", line)
        if match and not line.lstrip().startswith("#"):
            if match.group(1) != "local":
                names.append(match.group(2))
if not names:
    sys.exit(f"{spec_path}: no function found")
symbols = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True).stdout
defined = {fields[-1] for fields in (l.split() for l in symbols.splitlines()) if len(fields) >= 3 and fields[-2] in ("T", "W")}
missing = [name for n in names for name in (n, "P" + n) if name not in defined]
if missing:
    sys.exit(f"{library}: defines no {', '.join(missing)} (of {len(names)} recorded functions in the spec)")
print(f"all {len(names)} recorded functions of the spec defined under both names")
