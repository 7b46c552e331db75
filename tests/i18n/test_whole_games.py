"""Issue 33's test of record: a whole game of every game through Discord's
dispatch, with every player's client and the server in Hindi, finds no
English a player would read (names, notation, mentions and links aside),
and every image described in Hindi; the same games in the pseudo-locale
find no text that skipped the catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engines.games import GAMES
from tests.i18n.reading import english_in, texts_of, unmarked_in
from tests.i18n.whole_games import Played, play_whole_game

DEVANAGARI = range(0x0900, 0x0980)


def _images(played: Played) -> list[tuple[str, int]]:
    """(alt text or "", index) of every image the bot sent."""
    out: list[tuple[str, int]] = []
    for index, sent in enumerate(played.sent):
        if not any(name.endswith((".png", ".gif")) for name, _ in sent.files):
            continue
        described = [text for where, text in texts_of(sent) if where == "alt text"]
        images = sum(1 for name, _ in sent.files if name.endswith((".png", ".gif")))
        out += [(described[i] if i < len(described) else "", index) for i in range(images)]
    return out


def _report(found: dict[str, dict[str, int]]) -> str:
    return "\n".join(
        f"{where}: {sorted(words.items(), key=lambda kv: -kv[1])[:30]}"
        for where, words in found.items()
    )


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_in_hindi_reads_in_hindi(tmp_path: Path, game: str) -> None:
    played = await play_whole_game(tmp_path, game, locale="hi", guild_locale="hi")
    try:
        found: dict[str, dict[str, int]] = {}
        for sent in played.sent:
            for where, text in texts_of(sent):
                for word in english_in(text, played.reading):
                    found.setdefault(where, {}).setdefault(word, 0)
                    found[where][word] += 1
        assert not found, f"English in a Hindi game of {game}:\n{_report(found)}"
        images = _images(played)
        assert images, "no image was sent"
        for alt, index in images:
            assert alt, f"image without a description: {played.sent[index]}"
            assert len(alt) <= 1024
            assert any(ord(c) in DEVANAGARI for c in alt), alt
    finally:
        await played.fake.close()


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_in_the_pseudo_locale_has_no_unmarked_text(
    tmp_path: Path, game: str
) -> None:
    played = await play_whole_game(tmp_path, game, locale="qps", guild_locale="qps")
    try:
        found: dict[str, dict[str, int]] = {}
        for sent in played.sent:
            for where, text in texts_of(sent):
                for word in unmarked_in(text, played.reading):
                    found.setdefault(where, {}).setdefault(word, 0)
                    found[where][word] += 1
        assert not found, f"Unmarked text in a pseudo-locale game of {game}:\n{_report(found)}"
        for alt, index in _images(played):
            assert alt and "⟦" in alt, (
                f"image not described in the pseudo-locale: {played.sent[index]}"
            )
    finally:
        await played.fake.close()
