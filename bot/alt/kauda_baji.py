"""Kauda Baji's board in words (docs/rules/kauda_baji.md): whose turn, the
bank of throws, each player's pieces (at the start, on the board by square,
finished), the last move.  Nothing is hidden."""

from __future__ import annotations

from typing import Final

from bot.alt import Parts, listing, name_of, said
from bot.engines.kauda_baji_views import KaudaBajiView, MoveView
from bot.i18n import N_, t, tn

SIDES: Final = {
    "bottom": N_("bottom seat"),
    "right": N_("right seat"),
    "top": N_("top seat"),
    "left": N_("left seat"),
}
TITLE: Final = N_("Kauda Baji #{id}")


def side(lang: str, key: str) -> str:
    return t(lang, SIDES[key]) if key in SIDES else key


def board(
    view: KaudaBajiView, names: list[str], lang: str, waiting: tuple[int, ...] | None
) -> Parts:
    parts = Parts(head=_head(view, names, lang))
    for p in view.players:
        stacks = [s for s in view.stacks if s.player == p.player and s.square != p.start]
        sentence = t(
            lang,
            "{name} ({side}, start {start}): {home} at the start, {done} finished.",
            name=name_of(names, p.player),
            side=side(lang, p.seat),
            start=p.start,
            home=p.at_start,
            done=p.finished,
        )
        if stacks:
            sentence += " " + t(
                lang,
                "On the board: {stacks}.",
                stacks=listing(
                    lang,
                    (s.square if s.size == 1 else f"{s.square} ×{s.size}" for s in stacks),
                ),
            )
        if p.place:
            sentence += " " + t(lang, "Finished in place {place}.", place=p.place)
        parts.body.append(sentence)
    if view.last_move is not None:
        parts.tail += _move(view.last_move, names, lang)
    elif view.news:
        parts.tail.append(t(lang, "Last move: {move}", move=said(view.news, names, lang)))
    return parts


def _head(view: KaudaBajiView, names: list[str], lang: str) -> list[str]:
    if view.phase == "over":
        out = [t(lang, "Kauda Baji, game over.")]
        out += [
            t(lang, "Place {place}: {name}.", place=i, name=name_of(names, seat))
            for i, seat in enumerate(view.places, start=1)
        ]
        return out
    if view.phase == "first" or view.turn < 0:
        out = [t(lang, "Kauda Baji: everyone throws the cowries to find who starts.")]
        if view.first_throws:
            out.append(
                t(
                    lang,
                    "Throws so far: {throws}.",
                    throws=listing(
                        lang,
                        (f"{name_of(names, seat)} {value}" for seat, value in view.first_throws),
                    ),
                )
            )
        return out
    name = name_of(names, view.turn)
    if view.phase == "throw" or not view.bank:
        return [t(lang, "Kauda Baji, {name}'s turn: the cowries are thrown.", name=name)]
    return [
        t(
            lang,
            "Kauda Baji, {name}'s turn: move with the throws {bank}.",
            name=name,
            bank=listing(lang, (str(v) for v in view.bank)),
        )
    ]


def _move(move: MoveView, names: list[str], lang: str) -> list[str]:
    out = [
        tn(
            lang,
            "Last move: {name} moved {n} piece from {frm} to {to} with {values}.",
            "Last move: {name} moved a tuple of {n} from {frm} to {to} with {values}.",
            move.size,
            name=name_of(names, move.player),
            frm=move.frm,
            to=move.to,
            values=listing(lang, (str(v) for v in move.values)) or "-",
        )
    ]
    if move.killed:
        out.append(t(lang, "It killed on {squares}.", squares=listing(lang, move.killed)))
    return out


def private(view: KaudaBajiView, names: list[str], lang: str) -> Parts:
    """Nothing is hidden: a seat's view is the public board."""
    return board(view, names, lang, None)
