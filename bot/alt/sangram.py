"""Sangram's table in words (docs/rules/sangram.md): the round and who must
decide what, each player's crown on the track, Britishers and hand size
(R14: the hand itself is private), the volunteers, the revealed cards, the
last event.  A seat's view adds its hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bot.alt import Parts, listing, name_of, ranking_sentence, said, who
from bot.engines.sangram_views import CardView, SangramView
from bot.i18n import N_, t

WARRIORS: Final = {
    "acharya": N_("Acharya"),
    "maharaja": N_("Maharaja"),
    "shoorveer": N_("Shoorveer"),
    "senapati": N_("Senapati"),
    "mantri": N_("Mantri"),
    "maharani": N_("Maharani"),
    "guptchar": N_("Guptchar"),
    "yuvaraj": N_("Yuvaraj"),
    "vyapari": N_("Vyapari"),
    "sarthi": N_("Sarthi"),
    "vaidik": N_("Vaidik"),
}
TITLE: Final = N_("Sangram #{id}")


def card(lang: str, c: CardView) -> str:
    name = t(lang, WARRIORS[c.kind]) if c.kind in WARRIORS else c.name
    return f"{name} {c.motivation}"


def cards(lang: str, shown: Iterable[CardView]) -> str:
    return listing(lang, (card(lang, c) for c in shown))


def board(view: SangramView, names: list[str], lang: str, waiting: tuple[int, ...] | None) -> Parts:
    parts = Parts(head=_head(view, names, lang, waiting))
    body = parts.body
    for p in view.players if view.final is None else ():
        sentence = t(
            lang,
            "{name}: crown at {level}, {britishers} Britishers, {hand} cards in hand.",
            name=name_of(names, p.seat),
            level=p.level,
            britishers=p.britishers,
            hand=p.hand_size,
        )
        if p.retreated:
            sentence += " " + t(lang, "Retreated this round.")
        body.append(sentence)
    if view.revealed and view.final is None:
        body.append(
            t(
                lang,
                "Revealed in round {round}: {cards}.",
                round=view.revealed_round,
                cards=listing(
                    lang,
                    (f"{card(lang, r.card)} ({name_of(names, r.seat)})" for r in view.revealed),
                ),
            )
        )
    for grown in view.grow_reveals if view.final is None else ():
        body.append(
            t(
                lang,
                "In round {round} {name} showed a hand of strength {strength}: {cards}.",
                round=grown.round,
                name=name_of(names, grown.seat),
                strength=grown.total_strength,
                cards=cards(lang, grown.cards),
            )
        )
    if view.drawn is not None:
        body.append(t(lang, "Drawn by a Sarthi: {card}.", card=card(lang, view.drawn)))
    if view.volunteers:
        body.append(t(lang, "Volunteers: {cards}.", cards=cards(lang, view.volunteers)))
    body.append(
        t(
            lang,
            "Deck {deck} cards, discard pile {discard}, Britishers in the supply {supply}.",
            deck=view.deck_size,
            discard=view.discard_size,
            supply=view.supply,
        )
    )
    if view.events:
        parts.tail.append(t(lang, "Last move: {move}", move=said(view.events[-1], names, lang)))
    return parts


def _head(
    view: SangramView, names: list[str], lang: str, waiting: tuple[int, ...] | None
) -> list[str]:
    final = view.final
    if final is not None:
        out = [t(lang, "Sangram, game over.")]
        out += ranking_sentence(lang, names, final.ranking, None)
        out += [
            t(
                lang,
                "{name}: Total Army Strength {strength}, {britishers} Britishers, hand {cards}.",
                name=name_of(names, seat),
                strength=final.total_strength[seat],
                britishers=final.britishers[seat],
                cards=cards(lang, final.hands[seat]) or "-",
            )
            for seat in range(len(final.hands))
        ]
        if final.reason:
            out.append(said(final.reason, names, lang))
        return out
    limit = (
        t(lang, "Sangram, round {round} of {limit}.", round=view.round, limit=view.round_limit)
        if view.round_limit
        else t(lang, "Sangram, round {round}.", round=view.round)
    )
    seats = view.waiting_on if waiting is None else waiting
    if view.phase == "commit":
        doing = t(lang, "{names} to choose a card face down.", names=who(lang, names, seats))
    elif view.choice is not None:
        doing = t(
            lang,
            "{name} decides: {prompt}",
            name=name_of(names, view.choice.seat),
            prompt=said(view.choice.prompt, names, lang),
        )
    elif view.phase in ("setup", "refill", "grow"):
        doing = t(lang, "Cards are being drawn.")
    else:
        doing = t(lang, "{names} to act.", names=who(lang, names, seats) or "-")
    return [limit, doing]


def _in_hand(lang: str, c: CardView) -> str:
    return t(
        lang,
        "{card} (strength {strength}, {britishers} Britishers)",
        card=card(lang, c),
        strength=c.strength,
        britishers=c.britishers,
    )


def private(view: SangramView, names: list[str], lang: str) -> Parts:
    me = view.me
    parts = Parts()
    if me is None:
        parts.head.append(t(lang, "Your hand in Sangram: nothing of your own to see."))
        return parts
    parts.head.append(
        t(
            lang,
            "Your hand in Sangram: {cards}.",
            cards=listing(lang, (_in_hand(lang, c) for c in me.hand)) or "-",
        )
    )
    if me.committed is not None:
        parts.body.append(t(lang, "Face down: {card}.", card=card(lang, me.committed)))
    parts.body.append(t(lang, "Your Total Army Strength: {total}.", total=me.total_strength))
    return parts
