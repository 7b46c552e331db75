"""Narration as data: a message id with its arguments (issue 33).

Engines keep no language.  What they report (a move, a capture, a deal, a
refusal, how a game ended) is a :class:`Msg`: the English text with named
``{placeholders}`` as its id, and the arguments that fill them.  The edge
renders it in the reader's language through the catalog (:mod:`bot.i18n`).

A ``Msg`` **is a str**, whose value is its English rendering.  So everything
that only needs English (the seeded playout hashes, logs, tests reading
``"captures" in said``) reads it as before, and any path that has not learned
about languages still shows a whole English sentence, never an id.  Code that
knows the reader's language asks :func:`bot.i18n.localize`.

Seat tags (``{p0}``, ``{p1}`` ...) are not arguments: they stay in the text
for the caller, who fills in names after translating (as before).

Stored form: :func:`encode` writes a ``Msg`` as JSON behind a marker, in the
same text column as before; :func:`decode` reads it back, and reads any text
without the marker (every entry stored before issue 33) as the plain string
it was written as.  This module is pure and imports nothing of the project.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["MARKER", "Msg", "Plural", "decode", "encode", "fill_english", "plural_index_en"]

MARKER: Final = "\x1fmsg"
"""What a stored message starts with: a control character no text typed by a
player or written by an older Chaupal contains."""


class _Keep(dict[str, Any]):
    """Arguments for ``format_map`` that leave unknown fields (the seat tags
    ``{p0}`` ...) as they were, for the caller to fill."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill_english(template: str, args: Mapping[str, Any]) -> str:
    """``template`` with ``args`` filled in, seat tags kept; a template that
    does not format (a translator's typo) is shown as it is."""
    if not args:
        return template
    try:
        return template.format_map(_Keep(args))
    except (ValueError, IndexError, KeyError, AttributeError):
        return template


def plural_index_en(n: int) -> int:
    """English's plural rule: 0 for one, 1 for other."""
    return 0 if n == 1 else 1


class Msg(str):
    """A message id (the English text) with its arguments; its str value is
    the English rendering.  Arguments are str, int or other messages."""

    id: str
    args: dict[str, Any]

    def __new__(cls, id: str, /, **args: Any) -> Msg:
        # Engines build messages in their rules (a move's news), so this is a
        # hot path: the usual case (every field an argument) formats at once,
        # and only a text with seat tags or a broken template takes the slow
        # way (issue 33's note has the figures).
        if args:
            try:
                english = id.format_map(args)
            except (KeyError, ValueError, IndexError, AttributeError):
                english = fill_english(id, args)
        else:
            english = id
        self = str.__new__(cls, english)
        self.id = id
        self.args = args
        return self

    @property
    def plural(self) -> str | None:
        """The plural form's id (None: no plural)."""
        return None

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.id, self.plural, self.args))

    def __repr__(self) -> str:
        return f"Msg({self.id!r}, {self.args!r})"

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)


class Plural(Msg):
    """A message whose words depend on a count ``n`` (``1 point``,
    ``3 points``): the singular and plural English ids, both given to the
    catalog, which picks the language's form."""

    _plural: str

    def __new__(cls, singular: str, plural: str, n: int, /, **args: Any) -> Plural:
        chosen = singular if plural_index_en(n) == 0 else plural
        english = fill_english(chosen, {**args, "n": n})
        self = str.__new__(cls, english)
        self.id = singular
        self._plural = plural
        self.args = {**args, "n": n}
        return self

    @property
    def plural(self) -> str | None:
        return self._plural

    def __repr__(self) -> str:
        return f"Plural({self.id!r}, {self._plural!r}, {self.args!r})"


def _rebuild(id: str, plural: str | None, args: dict[str, Any]) -> Msg:
    if plural is not None:
        given = dict(args)
        n = int(given.pop("n", 0))
        return Plural(id, plural, n, **given)
    return Msg(id, **args)


# -- stored form ------------------------------------------------------------------


def _to_json(text: Any) -> Any:
    if isinstance(text, Msg):
        out: dict[str, Any] = {
            "id": text.id,
            "args": {k: _to_json(v) for k, v in text.args.items()},
        }
        if text.plural is not None:
            out["plural"] = text.plural
        return {"$msg": out}
    return text


def _from_json(obj: Any) -> Any:
    if isinstance(obj, dict) and "$msg" in obj:
        body = obj["$msg"]
        args = {str(k): _from_json(v) for k, v in dict(body.get("args", {})).items()}
        return _rebuild(str(body["id"]), body.get("plural"), args)
    return obj


def encode(text: str) -> str:
    """The stored form of ``text``: a :class:`Msg` as marked JSON, any other
    string as it is."""
    if isinstance(text, Msg):
        return MARKER + json.dumps(_to_json(text), ensure_ascii=False, separators=(",", ":"))
    return str(text)


def decode(stored: str) -> str:
    """What :func:`encode` wrote: a :class:`Msg` again, or the plain string
    (text stored before issue 33 has no marker and reads as it was written).
    A marked text that does not read is returned without its marker, so a
    damaged row shows something rather than failing the game."""
    if not stored.startswith(MARKER):
        return stored
    try:
        value = _from_json(json.loads(stored[len(MARKER) :]))
    except (ValueError, KeyError, TypeError):
        return stored[len(MARKER) :]
    return value if isinstance(value, str) else stored[len(MARKER) :]
