"""The catalog: every text a player reads, in their language (issue 33).

Message ids are the English texts with named ``{placeholders}``; English is
the default and the fallback for any message a language lacks.  Each other
language is one gettext file, ``bot/i18n/locales/<code>.po``, read once with
Babel (which also gives its plural rule, as CLDR has it).

Besides the languages there is a pseudo-locale, ``qps``: every text comes
out accented, at least 40% longer and between ``⟦`` and ``⟧``, so tests can
find any text that skipped the catalog (it is not marked) and any layout that
overflows when a translation is longer than the English.

Pure: no Discord, no Pillow, no I/O but reading the catalogs once.
"""

from __future__ import annotations

import gettext as _gettext
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from bot.engines.messages import Msg, fill_english, plural_index_en

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LOCALES_DIR",
    "N_",
    "PSEUDO",
    "catalog",
    "is_supported",
    "localize",
    "normalize",
    "pseudo",
    "t",
    "tn",
]

LOCALES_DIR: Final = Path(__file__).with_name("locales")
DEFAULT: Final = "en"
PSEUDO: Final = "qps"
"""The pseudo-locale (BCP 47's private-use ``qps-ploc``, as Windows calls it)."""

LANGUAGES: Final[dict[str, str]] = {"en": "English", "hi": "हिन्दी"}
"""The languages a player or a server may choose, each in its own words.
A language is here once its catalog is complete (``python -m bot.i18n
report``); the pseudo-locale is for tests and is not offered."""


def N_(text: str) -> str:
    """Marks a constant's text for the catalog; it is translated where it is
    shown (``t(lang, CONSTANT)``)."""
    return text


def normalize(locale: object) -> str:
    """A Discord locale (``en-US``, ``hi``, a ``discord.Locale``), or a code
    given by a setting, as one of the catalog's languages; anything else is
    English."""
    value = getattr(locale, "value", locale)
    if not isinstance(value, str):
        return DEFAULT
    code = value.strip().replace("_", "-").lower()
    if code == PSEUDO or code.startswith(PSEUDO + "-"):
        return PSEUDO
    base = code.split("-", 1)[0]
    return base if base in catalog().languages else DEFAULT


def is_supported(code: str) -> bool:
    return code in (DEFAULT, PSEUDO) or code in catalog().languages


# -- the pseudo-locale ----------------------------------------------------------------

_ACCENTED: Final = str.maketrans(
    "abcdeghiklmnoprstuwyzABCDEGHIKLMNOPRSTUWYZ",
    "àƀçđéĝĥíķĺɱñöþŕšţüŵýžÀßÇĐÉĜĤÎĶĹṀÑÖÞŔŠŢÛŴÝŽ",
)
# What stays as written inside a pseudo-localized text: placeholders,
# `code` (commands, option names), <...> (mentions, emoji, timestamps),
# links and Markdown's markers.
_KEEP: Final = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+|\*\*|__|~~|\|\|")


def pseudo(text: str) -> str:
    """``text`` as the pseudo-locale writes it: accented, 40% longer,
    between ⟦ and ⟧; placeholders, code, mentions and links unchanged.
    Each line is marked by itself, so a text cut at a line stays marked."""
    if not text:
        return text
    return "\n".join(_pseudo_line(line) for line in text.split("\n"))


def _pseudo_line(line: str) -> str:
    if not line.strip():
        return line
    out: list[str] = []
    at = 0
    for found in _KEEP.finditer(line):
        plain = line[at : found.start()]
        out.append(plain.translate(_ACCENTED))
        out.append(found.group(0))
        at = found.end()
    tail = line[at:]
    out.append(tail.translate(_ACCENTED))
    pad = "·" * max(1, math.ceil(0.4 * len(line)))
    return "⟦" + "".join(out) + pad + "⟧"


# -- the catalogs -----------------------------------------------------------------------


@dataclass
class Language:
    """One language's translations, read from its ``.po`` file."""

    code: str
    messages: dict[str, str] = field(default_factory=dict)
    plurals: dict[str, tuple[str, ...]] = field(default_factory=dict)
    plural_index: Callable[[int], int] = plural_index_en


@dataclass
class Catalog:
    languages: dict[str, Language]

    def gettext(self, lang: str, msgid: str) -> str:
        if lang == PSEUDO:
            return pseudo(msgid)
        language = self.languages.get(lang)
        if language is None:
            return msgid
        return language.messages.get(msgid) or msgid

    def ngettext(self, lang: str, singular: str, plural: str, n: int) -> str:
        if lang == PSEUDO:
            return pseudo(singular if plural_index_en(n) == 0 else plural)
        language = self.languages.get(lang)
        forms = language.plurals.get(singular) if language is not None else None
        if language is None or not forms:
            return singular if plural_index_en(n) == 0 else plural
        index = language.plural_index(n)
        chosen = forms[index] if 0 <= index < len(forms) else forms[-1]
        return chosen or (singular if plural_index_en(n) == 0 else plural)


def read_language(path: Path) -> Language:
    """One ``.po`` file; fuzzy and empty translations count as missing."""
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        po = read_po(handle, locale=path.stem)
    language = Language(code=path.stem)
    try:
        language.plural_index = _gettext.c2py(po.plural_expr)
    except (ValueError, SyntaxError):
        language.plural_index = plural_index_en
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = tuple(message.string or ())
            if any(forms):
                language.plurals[str(message.id[0])] = tuple(str(f) for f in forms)
        elif message.string:
            language.messages[str(message.id)] = str(message.string)
    return language


@cache
def catalog(directory: Path = LOCALES_DIR) -> Catalog:
    """Every language's catalog, read once."""
    languages = {
        path.stem: read_language(path)
        for path in sorted(directory.glob("*.po"))
        if path.stem not in (DEFAULT, PSEUDO)
    }
    return Catalog(languages)


# -- translating ------------------------------------------------------------------------


def t(lang: str, msgid: str, /, **args: Any) -> str:
    """``msgid`` in ``lang`` with ``args`` filled in (messages among them
    translated too); seat tags like ``{p0}`` are left for the caller."""
    template = catalog().gettext(lang, msgid)
    return fill_english(template, _localized_args(args, lang))


def tn(lang: str, singular: str, plural: str, n: int, /, **args: Any) -> str:
    """A text whose words depend on the count ``n`` (``{n}`` in it)."""
    template = catalog().ngettext(lang, singular, plural, n)
    return fill_english(template, _localized_args({**args, "n": n}, lang))


def _localized_args(args: Mapping[str, Any], lang: str) -> dict[str, Any]:
    return {
        key: localize(value, lang) if isinstance(value, Msg) else value
        for key, value in args.items()
    }


def localize(text: str, lang: str) -> str:
    """A text in ``lang``: a :class:`~bot.engines.messages.Msg` through the
    catalog, any other string as it is (a player's words, notation, or
    English stored before issue 33)."""
    if not isinstance(text, Msg):
        return text
    if lang == DEFAULT:
        return str.__str__(text)
    if text.plural is not None:
        rest = {k: v for k, v in text.args.items() if k != "n"}
        return tn(lang, text.id, text.plural, int(text.args.get("n", 0)), **rest)
    return t(lang, text.id, **text.args)
