#!/usr/bin/env python3
"""Checks that every source folder includes only the layers below it.

The project is layered (doc/design.md): each folder may include its own
headers and those of the folders listed for it below, and some may not
include certain system headers at all (the trace layer knows no MPI, the
analyses neither MPI nor OTF2). Prints one line per violation and exits 1
if there is any.

    check_layers.py SOURCE_ROOT
"""
import pathlib
import re
import sys

# Folder -> the project folders its files may include (besides its own).
ALLOWED = {
    "common": [],
    "trace": ["common"],
    "replay": ["common", "trace"],
    "analyses": ["common", "trace", "replay"],
    "analyzer": ["common", "trace", "replay", "analyses", "report"],
    "collector": ["common"],
    "report": ["common"],
}
# Folder -> system headers (prefixes) its files must not include.
FORBIDDEN_SYSTEM = {
    "common": ["mpi.h", "otf2/"],
    "trace": ["mpi.h"],
    "analyses": ["mpi.h", "otf2/"],
}
# Inside analyses/, each kind of analysis has a folder of its own
# (analyses/README.md): it may include the shared files at the top of
# analyses/ and its own folder, never another kind's, so that analyses meet
# only through the facts and the cube they share. The shared files include
# no kind at all; only the pipeline, which runs them, sees every folder.
ANALYSES_RUNNERS = {"pipeline.hpp", "pipeline.cpp"}
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".c"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def analyses_violation(inside: pathlib.Path, header: str):
    """Why a file at `inside` (relative to analyses/) may not include
    `header`, or None if it may."""
    parts = header.split("/")
    if parts[0] != "analyses" or len(parts) < 3:
        return None  # another layer, or a shared file of analyses/
    kind = parts[1]
    own = inside.parts[0] if len(inside.parts) > 1 else None
    if own is None:
        if inside.name in ANALYSES_RUNNERS:
            return None
        return f"analyses/{inside} is shared by every analysis and must not include {header}"
    if kind != own:
        return f"analyses/{own}/ includes {header} from analyses/{kind}/, another kind of analysis"
    return None


def violations(root: pathlib.Path):
    for folder, allowed in ALLOWED.items():
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES:
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                quote, header = match.groups()
                where = f"{path.relative_to(root)}:{number}"
                top = header.split("/", 1)[0]
                if quote == '"' and "/" in header and top in ALLOWED:
                    if top != folder and top not in allowed:
                        yield f"{where}: {folder}/ includes {header} from {top}/, which is not below it"
                if folder == "analyses" and quote == '"':
                    problem = analyses_violation(path.relative_to(base), header)
                    if problem:
                        yield f"{where}: {problem}"
                for banned in FORBIDDEN_SYSTEM.get(folder, []):
                    if header == banned or (banned.endswith("/") and header.startswith(banned)):
                        yield f"{where}: {folder}/ must not include {header}"


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    if not all((root / folder).is_dir() for folder in ("common", "trace", "replay")):
        print(f"{root}: not the source root (no common/, trace/, replay/)", file=sys.stderr)
        return 2
    found = list(violations(root))
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
