"""The Activity's JSON of a table: the public part, and one seat's own part.

Drawn from the tables' public snapshot (:class:`~bot.tables.PublicTable`, all a public
message may show) and a seat's :class:`~bot.rules.SeatView`, never from a table itself:
:mod:`.feed` hands them over. Cards are labels (``"JD"``) with their words for readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from bot.render.cards import sort_hand
from bot.rules import SeatView, card_label
from bot.rules.cards import card_words
from bot.rules.ranking import NO_TRUMP_HIGH

from .words import CARD_VERBS, action_label, card_role, prompt, trump_name, whose_turn

if TYPE_CHECKING:
    from bot.tables import PublicTable

__all__ = ["Json", "names", "public_json", "seat_json"]

Json = dict[str, Any]

_TRUMP_WORDS: Final = ("C", "D", "H", "S", "high", "low")


def names(table: PublicTable) -> list[str]:
    """Each seat's name, "Seat N" where nobody sits."""
    return [s.name if s is not None else f"Seat {i + 1}" for i, s in enumerate(table.seats)]


def _play(seat: int, card: int) -> Json:
    return {"seat": seat, "card": card_label(card), "words": card_words(card)}


def _game_part(table: PublicTable, named: list[str]) -> Json:
    game = table.game
    if game is None:
        return {}
    view = game.view
    shown_up = table.rules.game != "bid_euchre" and view.phase == "bid1"
    last = game.last_trick
    deal = game.last_deal
    part: Json = {
        "deal": view.deal_number,
        "phase": view.phase,
        "dealer": view.dealer,
        "turn": view.turn,
        "out": list(view.out),
        "cards": list(view.hand_counts),
        "score": list(view.score),
        "tricks": list(view.tricks_won),
        "target": table.rules.target_score,
        "trump": None if view.trump is None else _TRUMP_WORDS[view.trump],
        "trump_name": None if view.trump is None else trump_name(view.trump),
        "maker": view.maker,
        "alone": list(view.alone),
        "upcard": card_label(view.upcard) if shown_up else None,
        "upcard_words": card_words(view.upcard) if shown_up else None,
        "turned_down": None if view.turned_down is None else card_label(view.turned_down),
        "trick": [_play(s, c) for s, c in view.trick],
        "last_trick": None
        if last is None
        else {
            "deal": last.deal_number,
            "plays": [_play(s, c) for s, c in zip(last.seats, last.cards, strict=True)],
            "winner": last.winner,
        },
        "contract": None
        if view.contract is None
        else {
            "seat": view.contract.seat,
            "tricks": view.contract.tricks,
            "shoot": view.contract.shoot,
        },
        "last_deal": None
        if deal is None
        else {"number": deal.number, "points": list(deal.points), "result": deal.result},
        "over": view.over,
        "winner": view.winner,
        "line": whose_turn(view, named),
    }
    return part


def public_json(table: PublicTable) -> Json:
    """Everything everyone at the table may see, as JSON."""
    named = names(table)
    seats = []
    for i, taken in enumerate(table.seats):
        seats.append(
            {
                "seat": i,
                "name": named[i],
                "user": None if taken is None or taken.user_id is None else str(taken.user_id),
                "computer": taken is not None and taken.is_computer,
                "away": taken is not None and taken.away,
                "team": i % 2,
            }
        )
    return {
        "table": table.id,
        "number": table.number,
        "status": table.status,
        "game": table.rules.game,
        "players": table.rules.players,
        "host": str(table.host_id),
        "seats": seats,
        "claim": None
        if table.claim is None
        else {"seat": table.claim.seat, "tricks": table.claim.tricks},
        **_game_part(table, named),
    }


def seat_json(
    view: SeatView,
    named: list[str],
    stamp: tuple[int, int],
    *,
    can_claim: bool,
    four_colour: bool = False,
) -> Json:
    """One seat's own part: its hand in reading order, the cards it may click, its buttons.

    ``four_colour``: the person draws the suits in four colours (their preference).
    """
    legal = view.legal if view.my_turn else ()
    cards = {a.card: a for a in legal if a.do in CARD_VERBS and a.card is not None}
    trump = view.trump if view.trump is not None and view.trump < NO_TRUMP_HIGH else None
    hand = [
        {
            "card": card_label(c),
            "words": card_words(c),
            "code": str(cards[c]) if c in cards else None,
            "role": card_role(c, trump),
        }
        for c in sort_hand(view.hand, view.trump)
    ]
    buttons = []
    for action in legal:
        if action.do in CARD_VERBS:
            continue
        label, kind = action_label(view, action, named)
        buttons.append({"code": str(action), "label": label, "kind": kind})
    verb = next((a.do for a in legal if a.do in CARD_VERBS), None)
    return {
        "seat": view.seat,
        "hand": hand,
        "verb": verb,
        "buttons": buttons,
        "claim": can_claim,
        "prompt": prompt(view, named),
        "stamp": list(stamp),
        "four_colour": four_colour,
    }
