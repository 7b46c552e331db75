"""The catalog's message ids, read from the code, and what a language lacks
(``python -m bot.i18n``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog

from bot.i18n.catalog import LOCALES_DIR

__all__ = ["TEMPLATE", "message_ids", "placeholders", "report", "write_template"]

ROOT: Final = Path(__file__).resolve().parents[2]
SOURCES: Final = ("bot", "renderers")
TEMPLATE: Final = LOCALES_DIR / "chaupal.pot"
KEYWORDS: Final = {
    "Msg": None,
    "Plural": (1, 2),
    "t": (2,),
    "tn": (2, 3),
    "N_": None,
}
"""The calls whose string arguments are message ids (Babel's keyword specs:
which arguments are the singular and the plural)."""

_FIELD: Final = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


def placeholders(text: str) -> frozenset[str]:
    """The named ``{fields}`` of a text."""
    return frozenset(_FIELD.findall(text))


def message_ids() -> dict[str | tuple[str, str], list[str]]:
    """Every message id in the code, with where it is (``path:line``)."""
    from babel.messages.extract import extract_from_dir

    found: dict[str | tuple[str, str], list[str]] = {}
    for source in SOURCES:
        directory = ROOT / source
        for filename, lineno, message, _comments, _context in extract_from_dir(
            str(directory),
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=(),
            strip_comment_tags=True,
        ):
            key: str | tuple[str, str]
            if isinstance(message, tuple):
                if len(message) < 2 or not message[0] or not message[1]:
                    continue
                key = (str(message[0]), str(message[1]))
            else:
                if not message:
                    continue
                key = str(message)
            found.setdefault(key, []).append(f"{source}/{filename}:{lineno}")
    return found


def _template_catalog() -> Catalog:

    template = Catalog(project="chaupal", charset="utf-8", fuzzy=False)
    for key, places in sorted(message_ids().items(), key=lambda kv: str(kv[0])):
        template.add(
            key, locations=[(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in places]
        )
    return template


def write_template(path: Path = TEMPLATE) -> int:
    """Rewrite the template; returns how many messages it holds."""
    from babel.messages.pofile import write_po

    template = _template_catalog()
    out = BytesIO()
    write_po(out, template, omit_header=False, sort_output=True, width=100, no_location=True)
    path.write_bytes(out.getvalue())
    return len(template)


def _lines(title: str, items: list[str]) -> Iterator[str]:
    if items:
        yield f"{title} ({len(items)}):"
        yield from (f"  {item}" for item in items)


def report(code: str) -> tuple[str, bool]:
    """What ``<code>.po`` lacks, as text, and whether it is complete."""
    from babel.messages.pofile import read_po

    path = LOCALES_DIR / f"{code}.po"
    if not path.is_file():
        return f"{path} does not exist: copy {TEMPLATE.name} to it and translate.", False
    with path.open("rb") as handle:
        po = read_po(handle, locale=code)
    wanted = message_ids()
    missing: list[str] = []
    fuzzy: list[str] = []
    mismatched: list[str] = []
    for key in sorted(wanted, key=str):
        message = po.get(key)
        english = key if isinstance(key, str) else key[0]
        if (
            message is None
            or not message.string
            or (isinstance(message.string, tuple | list) and not all(message.string))
        ):
            missing.append(english)
            continue
        if message.fuzzy:
            fuzzy.append(english)
            continue
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        fields = placeholders(english) | (placeholders(key[1]) if isinstance(key, tuple) else set())
        for form in forms:
            if not placeholders(form) <= fields | {"n"} or not placeholders(form) >= (
                placeholders(english) - {"n"}
            ):
                mismatched.append(f"{english!r} -> {form!r}")
                break
    known = {m.id if isinstance(m.id, str) else (m.id[0], m.id[1]) for m in po if m.id}
    obsolete = sorted(str(k if isinstance(k, str) else k[0]) for k in known if k not in wanted)
    total = len(wanted)
    done = total - len(missing) - len(fuzzy)
    lines = [f"{code}: {done} of {total} messages translated"]
    lines += _lines("missing", missing)
    lines += _lines("fuzzy (not used until checked)", fuzzy)
    lines += _lines("placeholders differ from the English", mismatched)
    lines += _lines("obsolete (no longer in the code; remove them)", obsolete)
    return "\n".join(lines), not (missing or fuzzy or mismatched)
