"""Martian Chaturaji's board in words (docs/rules/chaturaji.md): whose army
moves and with which dice, every army's pieces by square, the last turn's
moves.  Nothing is hidden: a seat's view is the board from their side."""

from __future__ import annotations

from typing import Final

from bot.alt import Parts, listing, name_of, ranking_sentence, said
from bot.engines.chaturaji_views import ChaturajiView, DieView, MoveView
from bot.i18n import N_, t

ARMIES: Final = {
    "blue": N_("Blue"),
    "red": N_("Red"),
    "green": N_("Green"),
    "yellow": N_("Yellow"),
}
PIECES: Final = {
    "monarch": N_("monarch"),
    "paladin": N_("paladin"),
    "raven": N_("raven"),
    "squire": N_("squire"),
}
TITLE: Final = N_("Martian Chaturaji #{id}")


def army(lang: str, key: str | None) -> str:
    return t(lang, ARMIES[key]) if key in ARMIES else str(key)


def piece(lang: str, key: str | None) -> str:
    return t(lang, PIECES[key]) if key in PIECES else str(key)


def _commander(view: ChaturajiView, names: list[str], key: str | None) -> str:
    for a in view.armies:
        if a.army == key:
            return name_of(names, a.commander)
    return "?"


def board(
    view: ChaturajiView, names: list[str], lang: str, waiting: tuple[int, ...] | None
) -> Parts:
    parts = Parts(head=_head(view, names, lang))
    body = parts.body
    if view.dice and view.final is None:
        body.append(
            t(lang, "Dice: {dice}.", dice=listing(lang, (_die(lang, d) for d in view.dice)))
        )
    for a in view.armies:
        mine = [p for p in view.pieces if p.army == a.army]
        where = listing(lang, (f"{piece(lang, p.kind)} {p.square}" for p in mine))
        sentence = t(
            lang,
            "{army} ({name}): {pieces}.",
            army=army(lang, a.army),
            name=name_of(names, a.commander),
            pieces=where or t(lang, "no pieces"),
        )
        if a.monarch is None and mine:
            sentence += " " + t(lang, "Its monarch is captured.")
        if a.controlled_by:
            sentence += " " + t(
                lang, "{by} commands it through its throne.", by=army(lang, a.controlled_by)
            )
        body.append(sentence)
    if view.quiet_round_limit and view.final is None:
        body.append(
            t(
                lang,
                "Quiet rounds: {n} of {limit}.",
                n=view.quiet_rounds,
                limit=view.quiet_round_limit,
            )
        )
    moves = view.turn_moves or view.last_moves
    if moves:
        parts.tail.append(
            t(lang, "Last turn: {moves}.", moves=listing(lang, (_move(lang, m) for m in moves)))
        )
    return parts


def _head(view: ChaturajiView, names: list[str], lang: str) -> list[str]:
    if view.final is not None:
        out = [t(lang, "Martian Chaturaji, game over.")]
        if view.final.winners:
            first, second = view.final.winners.split("-", 1)
            out.append(t(lang, "{a} and {b} win.", a=army(lang, first), b=army(lang, second)))
        out += ranking_sentence(lang, names, view.final.ranking, view.final.scores)
        if view.final.reason:
            out.append(said(view.final.reason, names, lang))
        return out
    mover = name_of(names, view.to_play) if view.to_play is not None else None
    turn = army(lang, view.turn)
    if view.phase == "start":
        out = [t(lang, "Martian Chaturaji: the dice are rolled to find who starts.")]
        if view.start_rolls:
            rolls = zip(view.armies, view.start_rolls, strict=False)
            out.append(
                t(
                    lang,
                    "Rolled so far: {rolls}.",
                    rolls=listing(lang, (f"{army(lang, a.army)} {n}" for a, n in rolls)),
                )
            )
        return out
    if view.phase == "choose":
        return [t(lang, "Martian Chaturaji: {name} chooses the army that starts.", name=mover)]
    if view.phase == "reenter":
        return [
            t(
                lang,
                "Martian Chaturaji, {army}'s turn: {name} decides on a monarch's re-entry.",
                army=turn,
                name=mover,
            )
        ]
    if view.phase == "place":
        return [
            t(
                lang,
                "Martian Chaturaji: {name} places the {army} monarch.",
                army=army(lang, view.placing),
                name=mover,
            )
        ]
    if view.phase == "roll" or mover is None:
        return [
            t(
                lang,
                "Martian Chaturaji, {army}'s turn ({name}): the dice are rolled.",
                army=turn,
                name=_commander(view, names, view.turn),
            )
        ]
    return [
        t(
            lang,
            "Martian Chaturaji, {army}'s turn: {name} moves with the dice.",
            army=listing(lang, (army(lang, a) for a in view.commanding)) or turn,
            name=mover,
        )
    ]


DIE_STATES: Final = {
    "void": N_("{army} {rolled} ({piece}, void)"),
    "used": N_("{army} {rolled} ({piece}, used)"),
    "open": N_("{army} {rolled} ({piece}, to use)"),
}


def _die(lang: str, die: DieView) -> str:
    state = "void" if die.void else "used" if die.used else "open"
    return t(
        lang,
        DIE_STATES[state],
        army=army(lang, die.army),
        rolled=die.rolled,
        piece=piece(lang, die.kind) if die.kind else "-",
    )


MOVES: Final = {
    (False, False): N_("{army} {piece} {frm} to {to}"),
    (True, False): N_("{army} {piece} {frm} to {to} capturing on {squares}"),
    (False, True): N_("{army} {piece} {frm} to {to} becoming a {promoted}"),
    (True, True): N_(
        "{army} {piece} {frm} to {to} capturing on {squares} and becoming a {promoted}"
    ),
}


def _move(lang: str, move: MoveView) -> str:
    if move.frm is None:
        return t(lang, "{army} monarch placed on {to}", army=army(lang, move.army), to=move.to)
    return t(
        lang,
        MOVES[bool(move.captured), bool(move.promoted)],
        army=army(lang, move.army),
        piece=piece(lang, move.kind),
        frm=move.frm,
        to=move.to,
        squares=listing(lang, move.captured),
        promoted=piece(lang, move.promoted) if move.promoted else "",
    )


def private(view: ChaturajiView, names: list[str], lang: str) -> Parts:
    """Nothing is hidden: the board, as the public one, and the armies the
    viewer commands."""
    parts = board(view, names, lang, None)
    if view.me:
        parts.head.append(
            t(
                lang,
                "Your armies: {armies}.",
                armies=listing(lang, (army(lang, a) for a in view.me)),
            )
        )
    return parts
