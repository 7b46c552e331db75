"""The catalog and narration as data (issue 33)."""

from __future__ import annotations

import pickle

from bot.engines.messages import MARKER, Msg, Plural, decode, encode
from bot.i18n import PSEUDO, localize, normalize, pseudo, t, tn


def test_a_message_is_its_english_rendering_with_seat_tags_kept() -> None:
    said = Msg("{p0} rolls {n} and takes {piece}", n=5, piece=Msg("a horse"))
    assert said == "{p0} rolls 5 and takes a horse"
    assert said.id == "{p0} rolls {n} and takes {piece}"
    assert "{p0}" in localize(said, "hi")


def test_stored_messages_read_back_and_old_text_reads_as_written() -> None:
    said = Msg("{p0} rolls {n} and takes {piece}", n=5, piece=Msg("a horse"))
    stored = encode(said)
    assert stored.startswith(MARKER)
    back = decode(stored)
    assert isinstance(back, Msg) and back.id == said.id and back == said
    assert isinstance(back.args["piece"], Msg)
    # Written before issue 33: plain text, no marker.
    assert decode("{p0} rolls 5") == "{p0} rolls 5"
    assert not isinstance(decode("{p0} rolls 5"), Msg)
    assert encode("plain") == "plain"
    # A damaged stored message still shows something.
    assert decode(MARKER + "{not json") == "{not json"


def test_messages_survive_pickling_for_the_render_processes() -> None:
    said = Plural("{n} point", "{n} points", 3, who=Msg("the winner"))
    back = pickle.loads(pickle.dumps(said))
    assert isinstance(back, Plural) and back == "3 points" and back.plural == "{n} points"


def test_plurals_follow_each_language() -> None:
    assert Plural("{n} point", "{n} points", 1) == "1 point"
    assert Plural("{n} point", "{n} points", 0) == "0 points"
    assert tn("en", "{n} move", "{n} moves", 2) == "2 moves"


def test_the_pseudo_locale_marks_and_lengthens_but_keeps_placeholders_code_and_mentions() -> None:
    text = "Use `/game play` to move, {p0}: <@123> at https://example.com/x"
    out = pseudo(text)
    assert out.startswith("⟦") and out.endswith("⟧")
    assert len(out) >= 1.4 * len(text) - 2
    for kept in ("`/game play`", "{p0}", "<@123>", "https://example.com/x"):
        assert kept in out
    assert t(PSEUDO, "Saved.") != "Saved." and "⟦" in t(PSEUDO, "Saved.")
    # Every line is marked, so a text cut at a line stays marked.
    assert all(line.startswith("⟦") for line in pseudo("one\ntwo").split("\n"))


def test_discord_locales_map_to_the_catalogs_languages() -> None:
    assert normalize("en-US") == "en"
    assert normalize("en-GB") == "en"
    assert normalize("hi") == "hi"
    assert normalize("qps") == PSEUDO
    assert normalize("xx-YY") == "en"
    assert normalize(None) == "en"


def test_a_missing_translation_falls_back_to_english() -> None:
    assert t("hi", "A sentence no catalog has {x}", x=1) == "A sentence no catalog has 1"
