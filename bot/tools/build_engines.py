"""``python -m bot.build_engines``: compile the engines with mypyc.

The sources are copied to a scratch directory and each group of
:data:`~bot.engines.compiled.COMPILED_GROUPS` (a game's modules, or the
play-out loop) is compiled there on its own: an extension per module and one
runtime library per group, named after it (``sangram__mypyc``), all inside
the ``bot.engines`` package, so nothing is added to ``sys.path``.  The
extensions then replace ``.compiled/bot/engines``, and the stamp is written
last.  See :mod:`bot.engines.compiled` for how they
are chosen at import.

Exit status 0 when built; 1 with the compiler's last lines on stderr
otherwise (the bot then runs the pure engines, and the tests say so).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.engines.compiled import (
    COMPILED_DIR,
    COMPILED_GROUPS,
    COMPILED_MODULES,
    SOURCE_DIR,
    STAMP,
    compiled_engines,
    source_digest,
)

_SETUP: str = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="chaupal_engines",
    ext_modules=mypycify({paths!r}, opt_level="3", debug_level="1", group_name={group!r}),
)
"""
"""What ``mypyc <files>`` writes and runs, with the group's library named:
mypyc names a library of several modules by a hash, at the top level."""


def _compile(scratch: Path, group: str) -> subprocess.CompletedProcess[str]:
    tree = scratch / group
    paths = [f"bot/engines/{module}.py" for module in COMPILED_GROUPS[group]]
    (tree / "build").mkdir()
    setup = tree / "build" / "setup.py"
    setup.write_text(_SETUP.format(paths=paths, group=f"bot.engines.{group}"), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(setup), "build_ext", "--inplace"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )


def build(out: Path = COMPILED_DIR, jobs: int = 2) -> list[str]:
    """Compile :data:`COMPILED_GROUPS` into ``out``; the failures' reports
    (empty when every group built)."""
    digest = source_digest()
    with tempfile.TemporaryDirectory(prefix="chaupal-mypyc-") as tmp:
        scratch = Path(tmp)
        for group in COMPILED_GROUPS:
            # A tree per group: mypyc writes its build files and the
            # extensions into the working directory's package.
            engines = scratch / group / "bot" / "engines"
            engines.mkdir(parents=True)
            (engines.parent / "__init__.py").write_text("", encoding="utf-8")
            for source in SOURCE_DIR.glob("*.py"):
                shutil.copy2(source, engines / source.name)
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            results = list(pool.map(lambda g: _compile(scratch, g), COMPILED_GROUPS))
        failures = [
            f"{group}: {(r.stdout + r.stderr).strip()[-2000:]}"
            for group, r in zip(COMPILED_GROUPS, results, strict=True)
            if r.returncode != 0
        ]
        if failures:
            return failures
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        for group in COMPILED_GROUPS:
            for built in (scratch / group / "bot" / "engines").glob("*.so"):
                shutil.copy2(built, out / built.name)
        # The stamp last: a build cut short is never taken for a whole one.
        (out / STAMP).write_text(digest + "\n", encoding="utf-8")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.build_engines",
        description="Compile the game engines with mypyc (the pure ones stay the reference).",
    )
    parser.add_argument("--jobs", type=int, default=2, help="groups compiled at once")
    parser.add_argument(
        "--if-stale",
        action="store_true",
        help="do nothing when the compiled engines match the sources (for make)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="with --if-stale: exit 1 instead of compiling when they do not",
    )
    args = parser.parse_args(argv)
    if args.if_stale and compiled_engines(environ={})[0] is not None:
        return 0
    if args.check:
        return 1
    start = time.perf_counter()
    failures = build(jobs=args.jobs)
    if failures:
        print(
            "Could not compile the engines with mypyc, so Chaupal runs them as pure "
            "Python (slower searches, same games). A C compiler and Python's headers "
            "are needed.\n" + "\n".join(failures),
            file=sys.stderr,
        )
        return 1
    took = time.perf_counter() - start
    print(f"Compiled {len(COMPILED_MODULES)} modules into {COMPILED_DIR} in {took:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
