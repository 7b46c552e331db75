"""Mahabharata's images in words (docs/rules/mahabharata.md): the leaders'
cards and the tokens on them, the dice, each player's counts (R14: the
screen's contents are private), the last pick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.alt import Parts, listing, name_of, ranking_sentence, said, who
from bot.engines.mahabharata_views import DieView, LastPickView, LeaderView, MahabharataView
from bot.i18n import N_, t, tn

KINDS: Final = {
    "chariot": N_("chariot"),
    "elephant": N_("elephant"),
    "cavalry": N_("cavalry"),
    "infantry": N_("infantry"),
    "cav1": N_("cavalry-1"),
    "cav2": N_("cavalry-2"),
    "cav3": N_("cavalry-3"),
    "inf1": N_("infantry-1"),
    "inf2": N_("infantry-2"),
    "inf3": N_("infantry-3"),
    "inf4": N_("infantry-4"),
    "inf5": N_("infantry-5"),
    "raja": N_("raja"),
}
ICONS: Final = {"C": "chariot", "E": "elephant", "H": "cavalry", "I": "infantry"}
LEADERS: Final = {
    "Virata": N_("Virata"),
    "Satyaki": N_("Satyaki"),
    "Dhrishtaketu": N_("Dhrishtaketu"),
    "Drupada": N_("Drupada"),
    "Shalya": N_("Shalya"),
    "Bhagadatta": N_("Bhagadatta"),
    "Jayadratha": N_("Jayadratha"),
    "Kritavarma": N_("Kritavarma"),
    "Drona": N_("Drona"),
    "Bhishma": N_("Bhishma"),
}
TITLE: Final = N_("Mahabharata #{id}")


def kind(lang: str, key: str) -> str:
    return t(lang, KINDS[key]) if key in KINDS else key


def leader_name(lang: str, leader: LeaderView) -> str:
    return t(lang, LEADERS[leader.name]) if leader.name in LEADERS else leader.name


def board(
    view: MahabharataView, names: list[str], lang: str, waiting: tuple[int, ...] | None
) -> Parts:
    parts = Parts()
    parts.head = _head(view, names, lang, waiting)
    body = parts.body
    if view.final is None:
        if view.elephant is not None:
            body.append(t(lang, "The elephant is with {name}.", name=name_of(names, view.elephant)))
        for p in view.players:
            body.append(
                tn(
                    lang,
                    "{name}: {n} token behind the screen, {supply} in supply, "
                    "{dice} of 2 dice taken.",
                    "{name}: {n} tokens behind the screen, {supply} in supply, "
                    "{dice} of 2 dice taken.",
                    p.screen_count,
                    name=name_of(names, p.seat),
                    supply=p.supply_count,
                    dice=p.dice_taken,
                )
            )
            if p.announced:
                body.append(t(lang, "{name} announced a Pati.", name=name_of(names, p.seat)))
        pool = [d for d in view.dice if d.taken_by is None]
        taken = [d for d in view.dice if d.taken_by is not None]
        if any(d.face is not None for d in view.dice):
            if pool:
                body.append(
                    t(
                        lang,
                        "Dice in the pool: {dice}.",
                        dice=listing(
                            lang, (f"d{d.index} {kind(lang, d.face or d.kind)}" for d in pool)
                        ),
                    )
                )
            if taken:
                body.append(
                    t(
                        lang,
                        "Dice taken: {dice}.",
                        dice=listing(lang, (_taken(lang, names, d) for d in taken)),
                    )
                )
    body.extend(_leaders(view, names, lang))
    last = _last(view.last_pick, view, names, lang)
    if last:
        parts.tail.append(last)
    return parts


def _taken(lang: str, names: list[str], die: DieView) -> str:
    return t(
        lang,
        "d{die} {face} by {name}",
        die=die.index,
        face=kind(lang, die.face or die.kind),
        name=name_of(names, die.taken_by),
    )


def _head(
    view: MahabharataView, names: list[str], lang: str, waiting: tuple[int, ...] | None
) -> list[str]:
    final = view.final
    if final is not None:
        out = [t(lang, "Mahabharata, game over.")]
        out += ranking_sentence(lang, names, final.ranking, final.scores)
        pati = [s for s, has in enumerate(final.pati) if has]
        if pati:
            out.append(t(lang, "Complete Pati: {names}.", names=who(lang, names, pati)))
        if final.reason:
            out.append(said(final.reason, names, lang))
        return out
    if view.phase == "setup":
        return [t(lang, "Mahabharata, setting up: the leaders are being drawn.")]
    if view.phase == "roll":
        return [t(lang, "Mahabharata, round {round}: the dice are being rolled.", round=view.round)]
    if view.phase == "announce":
        # Who is deciding would reveal a Pati: the public board never says.
        return [
            t(
                lang,
                "Mahabharata, round {round}: the players decide whether to announce a Pati.",
                round=view.round,
            )
        ]
    seats = view.waiting_on if waiting is None else waiting
    return [
        t(
            lang,
            "Mahabharata, round {round}, pick {pick} of {picks}: {name} to take a die.",
            round=view.round,
            pick=min(view.picks_made + 1, len(view.draft_order)),
            picks=len(view.draft_order),
            name=who(lang, names, seats),
        )
    ]


def _leaders(view: MahabharataView, names: list[str], lang: str) -> list[str]:
    out: list[str] = []
    winners = view.final.leader_winners if view.final is not None else ()
    for i, leader in enumerate(view.leaders):
        spaces = []
        for number, space in enumerate(leader.spaces, start=1):
            icon = kind(lang, ICONS.get(space.icon, space.icon))
            if space.owner is None or not space.tokens:
                spaces.append(t(lang, "{space} ({icon}): empty", space=number, icon=icon))
            else:
                spaces.append(
                    t(
                        lang,
                        "{space} ({icon}): {name}'s {tokens}",
                        space=number,
                        icon=icon,
                        name=name_of(names, space.owner),
                        tokens=listing(lang, (kind(lang, k) for k in space.tokens)),
                    )
                )
        sentence = tn(
            lang,
            "{leader}, {n} point: {spaces}.",
            "{leader}, {n} points: {spaces}.",
            leader.vp,
            leader=leader_name(lang, leader),
            spaces="; ".join(spaces),
        )
        if i < len(winners) and winners[i] is not None:
            sentence += " " + t(
                lang,
                "{name} wins {leader}.",
                name=name_of(names, winners[i]),
                leader=leader_name(lang, leader),
            )
        out.append(sentence)
    return out


def _last(pick: LastPickView | None, view: MahabharataView, names: Sequence[str], lang: str) -> str:
    if pick is None:
        return ""
    name = name_of(names, pick.seat)
    face = kind(lang, pick.face)
    if pick.placed == "screen":
        return t(
            lang,
            "Last move: {name} took d{die} ({face}) and put a token behind the screen.",
            name=name,
            die=pick.die,
            face=face,
        )
    if pick.placed == "leader" and pick.leader_index is not None:
        leader = view.leaders[pick.leader_index] if pick.leader_index < len(view.leaders) else None
        return t(
            lang,
            "Last move: {name} took d{die} ({face}) and put {token} on {leader}, space {space}.",
            name=name,
            die=pick.die,
            face=face,
            token=kind(lang, pick.token or ""),
            leader=leader_name(lang, leader) if leader is not None else "?",
            space=pick.space or 0,
        )
    return t(
        lang,
        "Last move: {name} took d{die} ({face}) and placed nothing.",
        name=name,
        die=pick.die,
        face=face,
    )


def private(view: MahabharataView, names: list[str], lang: str) -> Parts:
    me = view.me
    parts = Parts()
    if me is None:
        parts.head.append(t(lang, "Your view of Mahabharata: nothing of your own yet."))
        return parts
    parts.head.append(
        tn(
            lang,
            "Your screen in Mahabharata, {n} token.",
            "Your screen in Mahabharata, {n} tokens.",
            len(me.screen),
        )
    )
    if me.screen:
        parts.body.append(
            t(
                lang,
                "Behind it: {tokens}.",
                tokens=listing(lang, (kind(lang, k) for k in me.screen)),
            )
        )
    parts.body.append(
        t(
            lang,
            "Left in your supply: {tokens}.",
            tokens=listing(lang, (f"{kind(lang, k)} {n}" for k, n in me.supply)),
        )
    )
    if me.pati_complete:
        parts.body.append(t(lang, "Your Pati is complete."))
    else:
        parts.body.append(
            t(
                lang,
                "Your Pati still lacks: {missing}.",
                missing=listing(lang, (said(m, names, lang).rstrip(".") for m in me.pati_missing)),
            )
        )
    return parts
