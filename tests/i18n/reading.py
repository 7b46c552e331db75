"""What a player reads, and in which language (issue 33): the one checker the
language tests share.

:func:`texts_of` lists every text a sent message carries that a person reads:
its content, its embeds, its buttons' labels, its selects' placeholders and
options, a modal's texts, and its attachments' descriptions (alt text).

:func:`english_in` finds English a Hindi reader would read: words of Latin
letters, once what is not language is set aside (mentions, timestamps,
links, `code` such as command names, the players' names, the games'
notation, numbers).  :func:`unmarked_in` finds text outside the pseudo-
locale's ⟦…⟧ marks: text that skipped the catalog.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.discord_harness import Sent

__all__ = ["Reading", "english_in", "texts_of", "unmarked_in"]

# Set aside before looking for words: none of them is language.
_NOT_LANGUAGE = re.compile(
    r"<(?:@[!&]?|#|t:|a?:\w+:|/[\w -]+:)[^<>]*>"  # mentions, timestamps, emoji, commands
    r"|https?://\S+"  # links
    r"|`[^`]*`"  # code: command and option names, notation typed
    r"|#\d+"  # game numbers
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


def _attachment_descriptions(raw: Any) -> Iterator[str]:
    """Every ``attachments[].description`` anywhere in a request body."""
    if isinstance(raw, dict):
        for key, value in raw.items():
            if key == "attachments" and isinstance(value, list):
                for attachment in value:
                    if isinstance(attachment, dict) and attachment.get("description"):
                        yield str(attachment["description"])
            else:
                yield from _attachment_descriptions(value)
    elif isinstance(raw, list):
        for item in raw:
            yield from _attachment_descriptions(item)


def _component_texts(components: Iterable[Any]) -> Iterator[tuple[str, str]]:
    for component in components:
        if not isinstance(component, dict):
            continue
        for key in ("label", "placeholder", "content", "title"):
            if component.get(key):
                yield f"component {key}", str(component[key])
        for option in component.get("options") or []:
            if option.get("label"):
                yield "option label", str(option["label"])
            if option.get("description"):
                yield "option description", str(option["description"])
        yield from _component_texts(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            yield from _component_texts([component["component"]])


def texts_of(sent: Sent) -> Iterator[tuple[str, str]]:
    """(where, text) for every text ``sent`` carries that a person reads."""
    if sent.content:
        yield "content", sent.content
    for embed in sent.embeds:
        for key in ("title", "description"):
            if embed.get(key):
                yield f"embed {key}", str(embed[key])
        for part in ("footer", "author"):
            found = embed.get(part) or {}
            text = found.get("text") or found.get("name")
            if text:
                yield f"embed {part}", str(text)
        for embed_field in embed.get("fields") or []:
            yield "embed field", f"{embed_field.get('name', '')}\n{embed_field.get('value', '')}"
    yield from _component_texts(sent.components)
    if sent.modal:
        if sent.modal.get("title"):
            yield "modal title", str(sent.modal["title"])
        yield from _component_texts(sent.modal.get("components") or [])
    for description in _attachment_descriptions(sent.raw):
        yield "alt text", description


@dataclass
class Reading:
    """What is not language in one game's messages: the players' names, the
    notation of its moves, the command and option names, and any word a test
    says is a name (a game's own proper noun written the same in every
    language is not one: those are translated too)."""

    names: set[str] = field(default_factory=set)
    notation: set[str] = field(default_factory=set)
    words: set[str] = field(default_factory=set)

    def strip(self, text: str) -> str:
        text = _NOT_LANGUAGE.sub(" ", text)
        # Longest first, so "asha2" goes before "asha".
        for name in sorted(self.names | self.notation, key=len, reverse=True):
            if name:
                text = re.sub(
                    rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", " ", text, flags=re.IGNORECASE
                )
        return text

    def allowed(self, word: str) -> bool:
        return word.lower() in {w.lower() for w in self.words}


def english_in(text: str, reading: Reading) -> list[str]:
    """The English words a Hindi reader would meet in ``text``."""
    return [
        word
        for word in _WORD.findall(reading.strip(text))
        if len(word) > 1 and not reading.allowed(word)
    ]


def unmarked_in(text: str, reading: Reading) -> list[str]:
    """The runs of text outside the pseudo-locale's marks (letters only)."""
    rest = reading.strip(text)
    # Marks nest (a translated argument inside a translated sentence).
    while True:
        shorter = _MARKED.sub(" ", rest)
        if shorter == rest:
            break
        rest = shorter
    return [
        word
        for word in re.findall(r"[^\W\d_][^\s]*", rest)
        if _LETTER.search(word) and not reading.allowed(word.strip(".,:;!?()[]*_~|"))
    ]
