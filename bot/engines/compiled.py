"""Which build of the engines runs: compiled with mypyc, or pure Python.

The pure-Python engines are the reference.  ``python -m bot.build_engines``
(run by ``make``) compiles the engines' modules with mypyc, which comes
with mypy, into ``.compiled/bot/engines`` beside the sources, together with
a stamp: the digest of every source in ``bot/engines`` it was built from.

:func:`compiled_engines` puts that directory first on the ``bot.engines``
package's search path only when the stamp matches today's sources, so an
edited engine never runs as a stale compiled copy: it runs as pure Python,
and :data:`bot.engines.ENGINE_BUILD` says why.  ``CHAUPAL_PURE_ENGINES=1``
chooses the pure engines on purpose (for a profile, or a machine without a
C compiler).

Both builds give identical games: the engines' seeded playout logs
(``tests/engines/test_*_speed_safety.py``) are checked against the same
hashes in both (``tests/engines/test_compiled.py``).
"""

from __future__ import annotations

import copyreg
import hashlib
import os
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from bot.engines.games import GAMES, owner

PURE_SETTING: Final = "CHAUPAL_PURE_ENGINES"
SOURCE_DIR: Final = Path(__file__).resolve().parent
COMPILED_ROOT: Final = SOURCE_DIR.parent.parent / ".compiled"
COMPILED_DIR: Final = COMPILED_ROOT / "bot" / "engines"
STAMP: Final = "SOURCES"


def game_modules(game: str, source_dir: Path = SOURCE_DIR) -> tuple[str, ...]:
    """``game``'s compiled modules: its siblings ``<game>_*.py`` but its
    views (sorted), then ``<game>.py``, the engine itself.  The views stay
    Python: the renderers and the bot read them, and the compiled modules
    are built against their types (:func:`source_digest`)."""
    siblings = sorted(
        path.stem
        for path in source_dir.glob(f"{game}_*.py")
        if path.stem != f"{game}_views" and owner(path.stem) == game
    )
    return (*siblings, game)


COMPILED_GROUPS: Final[dict[str, tuple[str, ...]]] = {
    **{game: game_modules(game) for game in GAMES},
    "playouts": ("playouts",),
}
"""The modules mypyc compiles, by extension: each game's rules and the
play-out loop, where playouts and searches spend their time.  A game's
modules are compiled together, into one library named after the game
(``sangram__mypyc``), so that they call each other's functions and read
each other's classes natively, as one module would.  ``core`` stays Python
(its protocols are checked at run time, which mypyc's classes do not
support)."""

COMPILED_MODULES: Final = tuple(m for group in COMPILED_GROUPS.values() for m in group)
"""Every compiled module, group by group."""


def source_digest(source_dir: Path = SOURCE_DIR) -> str:
    """The digest of the compiled modules' sources and of those whose types
    they were compiled against (``core`` and the views), with the
    interpreter's tag: a compiled build matches only these sources and the
    Python it was built for."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    names = {f"{m}.py" for m in COMPILED_MODULES} | {"core.py", "messages.py"}
    for path in sorted(source_dir.glob("*.py")):
        if path.name not in names and not path.name.endswith("_views.py"):
            continue
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_engines(
    compiled_dir: Path = COMPILED_DIR,
    source_dir: Path = SOURCE_DIR,
    environ: dict[str, str] | None = None,
) -> tuple[Path | None, str]:
    """The directory of compiled engines to use (None: the pure ones), and a
    sentence saying which build runs and why."""
    env = os.environ if environ is None else environ
    if env.get(PURE_SETTING, "").strip() not in ("", "0"):
        return None, f"pure Python ({PURE_SETTING} is set)"
    stamp = compiled_dir / STAMP
    if not stamp.is_file():
        return None, "pure Python (not compiled: run `make` or `python -m bot.build_engines`)"
    if stamp.read_text(encoding="utf-8").strip() != source_digest(source_dir):
        return None, (
            "pure Python (the compiled engines are older than the sources: run "
            "`make` or `python -m bot.build_engines`)"
        )
    return compiled_dir, "compiled with mypyc"


def _by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in fields(value))


def register_pickling(module: ModuleType) -> None:
    """Pickle ``module``'s frozen dataclasses by their fields, through their
    constructor.

    A compiled frozen dataclass cannot be unpickled the dataclass way (by
    setting fields on an empty object, which mypyc's frozen attributes
    refuse), and states and actions travel to the search processes as
    pickles.  A state is built afresh too, so it leaves its caches behind.
    Registered in both builds, so both pickle alike.
    """
    for value_type in vars(module).values():
        if (
            isinstance(value_type, type)
            and value_type.__module__ == module.__name__
            and is_dataclass(value_type)
            and value_type.__dataclass_params__.frozen  # type: ignore[attr-defined]
            and all(f.init for f in fields(value_type))
        ):
            copyreg.pickle(value_type, _by_fields)
