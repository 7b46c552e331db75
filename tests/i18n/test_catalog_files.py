"""The catalog files (issue 33): Hindi complete, the template current, no
message twice, and every translation with the English's placeholders."""

from __future__ import annotations

from collections import Counter

from babel.messages.pofile import read_po

from bot.i18n.catalog import LANGUAGES, LOCALES_DIR
from bot.i18n.extract import TEMPLATE, message_ids, placeholders, report


def _ids_in(text: str) -> list[str]:
    """The msgids of a .po file's text as written (a duplicate kept twice)."""
    ids: list[str] = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        collecting, parts = False, []
        for line in lines:
            if line.startswith("msgid "):
                collecting, parts = True, [line[len("msgid ") :].strip('"')]
            elif collecting and line.startswith('"'):
                parts.append(line.strip('"'))
            else:
                collecting = False
        if parts and "".join(parts):
            ids.append("".join(parts))
    return ids


def test_every_language_offered_has_its_catalog() -> None:
    for code in LANGUAGES:
        if code != "en":
            assert (LOCALES_DIR / f"{code}.po").is_file(), code


def test_no_message_is_in_a_catalog_twice() -> None:
    for path in LOCALES_DIR.glob("*.po"):
        counts = Counter(_ids_in(path.read_text(encoding="utf-8")))
        twice = [m for m, n in counts.items() if n > 1]
        assert not twice, f"{path.name}: {twice[:10]}"


def test_hindi_is_complete() -> None:
    text, complete = report("hi")
    assert complete, text


def test_the_template_holds_every_message_of_the_code() -> None:
    with TEMPLATE.open("rb") as handle:
        template = read_po(handle)
    written = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template if m.id}
    assert written == set(message_ids()), "run `python -m bot.i18n template`"


def test_a_translation_keeps_the_placeholders_of_its_english() -> None:
    with (LOCALES_DIR / "hi.po").open("rb") as handle:
        catalog = read_po(handle, locale="hi")
    for message in catalog:
        if not message.id or not message.string:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for form in forms:
            if form:
                assert placeholders(form) - {"n"} == placeholders(english) - {"n"}, (english, form)
