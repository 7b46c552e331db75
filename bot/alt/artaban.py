"""Artaban's board in words (docs/rules/artaban.md): whose move, every die
by square with its value (the Leader marked once revealed), scores and dice
home, the last move.  During the set-up (R7) each player's own arrangement
is private: the public board says only who has committed."""

from __future__ import annotations

from typing import Final

from bot.alt import Parts, listing, name_of, ranking_sentence, said
from bot.engines.artaban_views import ArtabanView, LastMoveView
from bot.i18n import N_, t

KINDS: Final = {
    "tip": N_("Last move: {name} tipped the die on {frm} to {to}."),
    "turn": N_("Last move: {name} turned the die on {frm}."),
    "capture": N_("Last move: {name} captured on {to} with the die from {frm}."),
    "sacrifice": N_("Last move: {name} sacrificed the die on {frm} against {to}."),
}
TITLE: Final = N_("Artaban #{id}")


def board(view: ArtabanView, names: list[str], lang: str, waiting: tuple[int, ...] | None) -> Parts:
    parts = Parts(head=_head(view, names, lang, waiting))
    if view.phase == "setup":
        for p in view.players:
            parts.body.append(
                t(lang, "{name} has committed their set-up.", name=name_of(names, p.seat))
                if p.committed
                else t(lang, "{name} is still arranging their dice.", name=name_of(names, p.seat))
            )
        return parts
    for p in view.players:
        dice = [d for d in view.dice if d.owner == p.seat]
        where = listing(
            lang,
            (
                t(lang, "{square} {value} Leader", square=d.square, value=d.top)
                if d.leader
                else f"{d.square} {d.top}"
                for d in dice
            ),
        )
        parts.body.append(
            t(
                lang,
                "{name}: score {score}, {home} dice home; dice: {dice}.",
                name=name_of(names, p.seat),
                score=p.score,
                home=p.home,
                dice=where or "-",
            )
        )
    if view.final is None:
        parts.body.append(
            t(
                lang,
                "Moves without progress: {n} of {limit}.",
                n=view.quiet_plies,
                limit=view.quiet_limit,
            )
        )
    if view.last_move is not None:
        parts.tail.append(_last(view.last_move, names, lang))
    return parts


def _head(
    view: ArtabanView, names: list[str], lang: str, waiting: tuple[int, ...] | None
) -> list[str]:
    if view.final is not None:
        out = [t(lang, "Artaban, game over.")]
        out += ranking_sentence(lang, names, view.final.ranking, view.final.scores)
        if view.final.reason:
            out.append(said(view.final.reason, names, lang))
        return out
    if view.phase == "setup":
        seats = view.waiting_on if waiting is None else waiting
        return [
            t(
                lang,
                "Artaban, set-up: {names} to arrange their dice in secret.",
                names=listing(lang, (name_of(names, s) for s in seats)) or "-",
            )
        ]
    out = [
        t(
            lang,
            "Artaban, move {ply}: {name} to move.",
            ply=view.ply + 1,
            name=name_of(names, view.to_play),
        )
    ]
    if view.draw_offer is not None:
        out.append(t(lang, "{name} offers a draw.", name=name_of(names, view.draw_offer)))
    return out


def _last(move: LastMoveView, names: list[str], lang: str) -> str:
    template = KINDS.get(move.kind, KINDS["tip"])
    return t(lang, template, name=name_of(names, move.seat), frm=move.frm, to=move.to)


def private(view: ArtabanView, names: list[str], lang: str) -> Parts:
    me = view.me
    if me is None:
        parts = board(view, names, lang, None)
        return parts
    files = "abcdefgh"
    parts = Parts(
        head=[
            t(
                lang,
                "Your set-up in Artaban: values {total} of 28.",
                total=me.total,
            )
        ]
    )
    if me.values:
        parts.body.append(
            t(
                lang,
                "Your dice: {dice}.",
                dice=listing(
                    lang, (f"{files[i]} {v}" for i, v in enumerate(me.values) if i < len(files))
                ),
            )
        )
    if me.leader:
        parts.body.append(t(lang, "Your Leader is on file {file}.", file=me.leader))
    parts.body.append(
        t(lang, "You have committed it.") if me.committed else t(lang, "Not committed yet.")
    )
    return parts
