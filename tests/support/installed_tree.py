"""What the install tests share: `meson install` into a scratch DESTDIR and
the compiler flags of a package installed there, as pkg-config gives them
for the tree where it is (not the prefix it was made for)."""

import argparse
import os
import subprocess
import sys
import tempfile


class Failure(Exception):
    pass


def run(command, timeout=120, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    if result.returncode != 0:
        raise Failure(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


class InstalledTree:
    def __init__(self, meson, build_dir, prefix, libdir, workdir):
        destdir = os.path.join(workdir, "destdir")
        run([meson, "install", "-C", build_dir, "--no-rebuild", "--quiet", "--destdir", destdir])
        self.root = destdir + prefix  # the prefix as installed below DESTDIR
        self.libdir = os.path.join(self.root, libdir)

    def require(self, paths):
        for path in paths:
            if not os.path.exists(os.path.join(self.root, path)):
                raise Failure(f"not installed: {path}")

    def flags(self, package):
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(self.libdir, "pkgconfig"))
        return run(["pkg-config", f"--define-variable=prefix={self.root}", "--cflags", "--libs", package],
                   env=env).stdout.split()


def main(check, options, many=(), prefix="hindsight-install."):
    """Runs check(args, workdir) with the command line's `options` (each one
    value; those in `many` one or more) in a scratch directory; a Failure is
    printed and makes the exit status 1."""
    parser = argparse.ArgumentParser()
    for option in options:
        parser.add_argument(option, required=True)
    for option in many:
        parser.add_argument(option, nargs="+", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix=prefix) as workdir:
        try:
            check(args, workdir)
        except Failure as failure:
            print(failure, file=sys.stderr)
            return 1
    return 0
