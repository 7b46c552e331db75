"""The top of Sangram's board: the title and the banner.

The title band says the goal (army strength 18) and where the game stands
(round and phase, or who won); the banner under it, who the game waits for
and about what: the deciding seat, the choice's prompt and the card deciding
(a card a Sarthi drew, one a Yuvaraj copies), or while recruiting the recruit
order (R10), each seat done, choosing or to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import bot.i18n as i18n
from bot.engines.sangram_views import (
    PHASE_ACTIVATE,
    PHASE_COMMIT,
    PHASE_GROW,
    PHASE_OVER,
    PHASE_RECRUIT,
    PHASE_REFILL,
    PHASE_SETUP,
    CardView,
    ChoiceView,
    SangramView,
)
from bot.i18n import N_
from renderers.common import (
    Canvas,
    blend,
    board_title,
    safe_text,
    text_width,
    title_band,
)
from renderers.sangram_battlefield import shows_battlefield
from renderers.sangram_cards import MINI_CARD_H, draw_card
from renderers.sangram_layout import (
    GAME_END,
    GAP,
    MARGIN,
    SMALL,
    board_pill_width,
    board_seat_pill,
    fit_shares,
    origin_note,
    player_name,
    prompt_text,
    seat_label,
    seat_labels,
)


def goal_text(num_players: int, lang: str = "en") -> str:
    """The title's kicker: the goal, and what army strength is made of (the
    kingdoms' track is only the crown's part of it, 0-9)."""
    return i18n.tn(
        lang,
        "SANGRAM · {n} PLAYER · GOAL: ARMY STRENGTH {goal} (CROWN LEVEL + CARDS)",
        "SANGRAM · {n} PLAYERS · GOAL: ARMY STRENGTH {goal} (CROWN LEVEL + CARDS)",
        num_players,
        goal=GAME_END,
    )


def _phase_title(view: SangramView, names: Sequence[str], lang: str = "en") -> str:
    if view.round_limit > 0:
        rnd = i18n.t(lang, "Round {round} of {limit}", round=view.round, limit=view.round_limit)
    else:
        rnd = i18n.t(lang, "Round {round}", round=view.round)
    phase = view.phase
    if phase == PHASE_SETUP:
        return i18n.t(lang, "Setting up: dealing the cards")
    if phase == PHASE_COMMIT:
        done = sum(1 for p in view.players if p.committed)
        return i18n.t(
            lang,
            "{round} · Commit: {done} of {total} cards face down",
            round=rnd,
            done=done,
            total=len(view.players),
        )
    if phase == PHASE_ACTIVATE:
        return i18n.t(lang, "{round} · Activate: cards resolve", round=rnd)
    if phase == PHASE_RECRUIT:
        return i18n.t(lang, "{round} · Recruit", round=rnd)
    if phase == PHASE_REFILL:
        return i18n.t(lang, "{round} · Recruit: new volunteers", round=rnd)
    if phase == PHASE_GROW:
        return i18n.t(lang, "{round} · Train and Grow", round=rnd)
    if phase == PHASE_OVER:
        final = view.final
        if final is not None and final.ranking:
            top = final.ranking[0]
            if len(top) == 1:
                return i18n.t(
                    lang, "Game over · {name} wins", name=player_name(names, top[0], lang)
                )
            return i18n.t(lang, "Game over · a shared win")
        return i18n.t(lang, "Game over")
    return i18n.t(lang, "{round} · {phase}", round=rnd, phase=safe_text(phase))


TITLE_H: Final = 100


def draw_title(
    c: Canvas, view: SangramView, names: Sequence[str], y: int, lang: str = "en"
) -> None:
    """The title band: the goal, the round and the phase (or who won)."""
    title_band(c, TITLE_H)
    board_title(
        c,
        kicker=goal_text(view.num_players, lang),
        status=_phase_title(view, names, lang),
        y=52,
        size=34,
        margin=MARGIN,
    )


def _banner_card(view: SangramView, choice: ChoiceView) -> CardView | None:
    """The card deciding, when the battlefield does not show it already (a
    card a Sarthi drew, or one a Yuvaraj copies)."""
    if choice.origin == "draw" and view.drawn is not None:
        return view.drawn
    card = choice.card
    if card is None:
        return None
    if shows_battlefield(view) and any(r.card == card for r in view.revealed):
        return None
    return card


def _choice_panel(
    view: SangramView, choice: ChoiceView
) -> tuple[CardView | None, tuple[int, ...], int]:
    """The banner's deciding card (if any), recruit order and panel height.

    While recruiting the banner is the order alone: the message above names
    who chooses, the order shows whose turn comes next."""
    order = view.recruit_order if choice.kind == "recruit" else ()
    if order:
        return None, order, RECRUIT_BANNER_H
    card = _banner_card(view, choice)
    return card, (), MINI_CARD_H + 20 if card is not None else CHOICE_BANNER_H


CHOICE_BANNER_H: Final = 96
RECRUIT_BANNER_H: Final = 60
PHASE_NOTES: Final[dict[str, str]] = {
    PHASE_SETUP: N_("The cards are being dealt."),
    PHASE_REFILL: N_("New volunteers are being drawn."),
    PHASE_GROW: N_("Train done; Grow cards are being drawn."),
    PHASE_ACTIVATE: N_("Resolving the revealed cards."),
}
"""The banner's line in a phase nobody decides in."""


def banner_advance(view: SangramView) -> int:
    """How far :func:`draw_banner` moves down the board (the commit phase has no
    banner: the kingdoms say who has committed and who is choosing)."""
    if view.choice is not None:
        return _choice_panel(view, view.choice)[2] + GAP
    return 48 if view.phase in PHASE_NOTES else 0


def draw_banner(
    c: Canvas, view: SangramView, names: Sequence[str], y: int, lang: str = "en"
) -> None:
    """Who the game is waiting for, and about what."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    choice = view.choice
    if choice is None:
        note = PHASE_NOTES.get(view.phase)
        if note is not None:
            c.text(
                (x0, y + 4),
                i18n.t(lang, note),
                size=SMALL,
                fill=t.muted,
                anchor="lt",
                max_width=x1 - x0,
            )
        return
    card, order, h = _choice_panel(view, choice)
    c.panel((x0, y, x1, y + h), fill=blend(t.highlight, t.panel, 0.86), outline=t.highlight)
    if order:
        _recruit_progress(c, view, names, order, choice.seat, x0 + 18, y + h // 2, x1 - 18, lang)
        return
    right = x1 - 18
    if card is not None:
        mw = BANNER_CARD_W
        draw_card(
            c, (right - mw, y + 10), card, width=mw, height=MINI_CARD_H, style="mini", lang=lang
        )
        right -= mw + 18
    cy = y + 30
    prompt = prompt_text(choice, lang)
    # The prompt keeps what it needs; the name has the rest, and 300 at least.
    room = max(300, right - x0 - 18 - 14 - text_width(prompt, 30, True))
    _, pr = board_seat_pill(
        c, x0 + 18, cy, choice.seat, seat_labels(names, choice.seat, lang), max_width=room
    )
    c.text(
        (pr + 14, cy),
        prompt,
        size=30,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=right - pr - 14,
    )
    c.text(
        (x0 + 20, y + 72),
        origin_note(choice, lang),
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=right - x0 - 20,
    )


BANNER_CARD_W: Final = 150
"""The deciding card in the banner: wide enough for any warrior's name."""


def _shared_widths(wanted: Sequence[int], room: int, *, least: int) -> list[int]:
    """Widths for things in a row that want ``wanted`` and share ``room``:
    each its own when all fit; else every one up to the same cap, the
    largest that fits (so a short name stays whole beside a long one), and
    never under ``least``."""
    if sum(wanted) <= room:
        return list(wanted)
    cap = max(wanted)
    while cap > least and sum(min(w, cap) for w in wanted) > room:
        cap -= 2
    return [max(least, min(w, cap)) for w in wanted]


def _recruit_progress(
    c: Canvas,
    view: SangramView,
    names: Sequence[str],
    order: tuple[int, ...],
    current: int,
    x: int,
    cy: int,
    right: int,
    lang: str = "en",
) -> None:
    """R10: the recruit order, each seat marked as done (a tick: recruited; a
    cross: took none), choosing (outlined, with the word) or to come."""
    t = c.theme
    players = {p.seat: p for p in view.players}
    # The heading and the word keep half the row at most together; the
    # seats' pills have the rest.
    heading, word = fit_shares(
        [i18n.t(lang, "RECRUIT ORDER"), i18n.t(lang, "choosing")],
        SMALL,
        (right - x) // 2,
        extra=14,
    )
    box = c.text((x, cy), heading, size=SMALL, fill=t.muted, anchor="lm", bold=True)
    x = box[2] + 14
    word_w = text_width(word, SMALL, True)
    # Phone-sized words for every seat do not fit one row: marks for the
    # seats done, the word only for the seat choosing.
    mark_w = 34
    now = order.index(current) if current in order else len(order)
    after = [
        mark_w + 12 if i < now else 8 + word_w + 18 if i == now else 16 for i in range(len(order))
    ]
    # Each pill as wide as its whole label where the row has room; where it
    # has not, the widest share that fits (a short name stays whole).
    widths = _shared_widths(
        [board_pill_width(c, seat_label(names, seat, lang)) for seat in order],
        right - x - sum(after[:-1]) - (0 if now < len(order) - 1 else after[-1]),
        least=board_pill_width(c, ""),
    )
    for i, seat in enumerate(order):
        p = players.get(seat)
        _, pr = board_seat_pill(
            c,
            x,
            cy,
            seat,
            (*seat_labels(names, seat, lang), ""),
            max_width=widths[i],
            dimmed=i < now,
            outline=t.highlight if i == now else None,
        )
        if i < now:
            mark = (pr + 8, cy - 11, pr + 30, cy + 11)
            if p is not None and p.recruited:
                c.check(mark, t.good, width=4)
            else:
                c.cross(mark, t.muted, width=4)
            x = pr + mark_w + 12
        elif i == now:
            c.text((pr + 8, cy), word, size=SMALL, fill=t.highlight, anchor="lm", bold=True)
            x = pr + 8 + word_w + 18
        else:
            x = pr + 16
