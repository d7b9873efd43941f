"""Actions a seat takes, as immutable values, and their JSON form in game records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from .cards import CARD_COUNT, CardError, Suit, card_label, parse_card, parse_suit

Verb = Literal[
    "pass", "order_up", "call", "discard", "alone", "give", "ask", "redeal", "swap", "play"
]
VERBS: Final[tuple[Verb, ...]] = (
    "pass",
    "order_up",
    "call",
    "discard",
    "alone",
    "give",
    "ask",
    "redeal",
    "swap",
    "play",
)

_FIELDS: Final[dict[str, frozenset[str]]] = {
    "pass": frozenset(),
    "order_up": frozenset({"alone"}),
    "call": frozenset({"suit", "alone"}),
    "discard": frozenset({"card"}),
    "alone": frozenset(),
    "give": frozenset({"card"}),
    "ask": frozenset({"partner"}),
    "redeal": frozenset(),
    "swap": frozenset({"cards"}),
    "play": frozenset({"card"}),
}


class ActionError(ValueError):
    """A JSON action that is not an action at all (unknown verb, missing or malformed field)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does. Which fields are set depends on ``do`` (record-format.md).

    ``alone`` is None when not said, which differs from an explicit False.
    ``partner`` is the seat a six-handed loner asks for a card (``seat`` in JSON).
    """

    do: Verb
    card: int | None = None
    suit: int | None = None
    alone: bool | None = None
    partner: int | None = None
    cards: tuple[int, ...] | None = None

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The record-format object; ``seat`` (the actor) first when given."""
        out: dict[str, Any] = {} if seat is None else {"seat": seat}
        out["do"] = self.do
        if self.card is not None:
            out["card"] = card_label(self.card)
        if self.suit is not None:
            out["suit"] = Suit(self.suit).letter
        if self.alone is not None and (self.alone or seat is not None):
            out["alone"] = self.alone
        if self.partner is not None:
            out["partner" if seat is not None else "seat"] = self.partner
        if self.cards is not None:
            out["cards"] = [card_label(c) for c in self.cards]
        return out


PASS: Final = Action("pass")
ALONE: Final = Action("alone")
REDEAL: Final = Action("redeal")
ORDER_UP: Final = Action("order_up")
ORDER_UP_ALONE: Final = Action("order_up", alone=True)
PLAY: Final = tuple(Action("play", card=c) for c in range(CARD_COUNT))
DISCARD: Final = tuple(Action("discard", card=c) for c in range(CARD_COUNT))
GIVE: Final = tuple(Action("give", card=c) for c in range(CARD_COUNT))
CALL: Final = tuple(Action("call", suit=s) for s in Suit)
CALL_ALONE: Final = tuple(Action("call", suit=s, alone=True) for s in Suit)


def action_from_json(obj: Any) -> tuple[int | None, Action]:
    """The acting seat (None when absent) and the action of a record-format object.

    For ``ask`` the asked partner is ``partner``; when only one seat is given the
    object is read as the legal-action form ``{"do": "ask", "seat": N}``.
    """
    if not isinstance(obj, dict):
        raise ActionError(f"an action must be a JSON object, not {obj!r}")
    do = obj.get("do")
    if do not in _FIELDS:
        raise ActionError(f"{do!r} is not an action (one of {', '.join(VERBS)})")
    seat = obj.get("seat")
    partner = obj.get("partner")
    if do == "ask" and partner is None:
        seat, partner = None, seat
    unknown = set(obj) - _FIELDS[do] - {"do", "seat"}
    if unknown:
        raise ActionError(f"{do}: unknown field {', '.join(sorted(unknown))}")
    for name, value in (("seat", seat), ("partner", partner)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ActionError(f"{do}: {name} must be a seat number, not {value!r}")
    try:
        if do == "ask" and partner is None:
            raise ActionError("ask: say which seat is asked")
        return seat, _build(do, obj, partner)
    except CardError as exc:
        raise ActionError(f"{do}: {exc}") from None


def _build(do: Verb, obj: dict[str, Any], partner: int | None) -> Action:
    alone = obj.get("alone")
    if alone is not None and not isinstance(alone, bool):
        raise ActionError(f"{do}: alone must be true or false, not {alone!r}")
    if do in ("discard", "give", "play"):
        text = obj.get("card")
        if not isinstance(text, str):
            raise ActionError(f'{do}: needs a card, like "card": "10H"')
        return Action(do, card=parse_card(text))
    if do == "call":
        text = obj.get("suit")
        if not isinstance(text, str):
            raise ActionError('call: needs a suit, like "suit": "H"')
        return Action(do, suit=int(parse_suit(text)), alone=alone)
    if do == "swap":
        cards = obj.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ActionError('swap: needs a list of cards, like "cards": ["9C", "9D", "9S"]')
        return Action(do, cards=tuple(parse_card(c) for c in cards))
    if do == "order_up":
        return Action(do, alone=alone)
    if do == "ask":
        return Action(do, partner=partner)
    return Action(do)
