#!/usr/bin/env python3
"""The layer check finds what it must: small source trees with one upward
include or one forbidden system header each, and a clean one.

    test_check_layers.py CHECK_LAYERS_SCRIPT
"""
import pathlib
import subprocess
import sys
import tempfile

CASES = [
    # (file, content, expected part of the report or None for clean)
    ("trace/loader.cpp", '#include "common/error.hpp"\n#include "trace/event.hpp"\n', None),
    ("trace/loader.cpp", '#include "replay/engine.hpp"\n', "trace/ includes replay/engine.hpp"),
    ("replay/engine.cpp", '  #  include "analyses/metrics.hpp"\n', "replay/ includes analyses/metrics.hpp"),
    ("analyses/profile/profile.cpp", "#include <mpi.h>\n", "analyses/ must not include mpi.h"),
    ("common/cube/writer.cpp", "#include <otf2/otf2.h>\n", "common/ must not include otf2/otf2.h"),
    ("collector/wrappers.cpp", '#include "trace/event.hpp"\n', "collector/ includes trace/event.hpp"),
    ("analyzer/main.cpp", '#include "analyses/pipeline.hpp"\n#include <mpi.h>\n', None),
    ("analyses/delay/delay_costs.cpp", '#include "analyses/metrics.hpp"\n#include "analyses/delay/cost_shares.hpp"\n',
     None),
    ("analyses/delay/delay_costs.cpp", '#include "analyses/graph/what_if.hpp"\n',
     "analyses/delay/ includes analyses/graph/what_if.hpp from analyses/graph/, another kind"),
    ("analyses/metrics.cpp", '#include "analyses/delay/cost_shares.hpp"\n',
     "analyses/metrics.cpp is shared by every analysis and must not include"),
    ("analyses/pipeline.cpp", '#include "analyses/delay/delay_costs.hpp"\n', None),
]


def run(check: str, relative: str, content: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for folder in ("common", "trace", "replay"):
            (root / folder).mkdir()
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
        return subprocess.run([sys.executable, check, str(root)], capture_output=True, text=True)


def main() -> int:
    check = sys.argv[1]
    failures = 0
    for relative, content, expected in CASES:
        result = run(check, relative, content)
        if expected is None:
            ok = result.returncode == 0 and not result.stdout
        else:
            ok = result.returncode == 1 and expected in result.stdout
        if not ok:
            failures += 1
            print(f"FAIL {relative}: expected {expected or 'no violation'}, got exit {result.returncode}: "
                  f"{result.stdout.strip()}")
    print(f"{len(CASES) - failures} of {len(CASES)} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
