"""Actions a seat takes, as immutable values: their constructors, text codes and JSON form.

One constructor per verb builds an action (``Action.play("10H")``,
``Action.call("S", alone=True)``); ``str(action)`` is its short code for button
ids and log lines (``play.10H``, ``call.S.alone``) and :meth:`Action.from_code`
its exact inverse; ``repr`` reads like the constructor call.

    >>> Action.from_code("call.S.alone")
    Action.call('S', alone=True)
    >>> str(Action.play("10H"))
    'play.10H'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from .cards import CARD_COUNT, Suit, card_label, parse_card, parse_suit
from .errors import ActionError, CardError

Verb = Literal[
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
    "bid",
    "shoot",
    "declare",
]
VERBS: Final[tuple[Verb, ...]] = get_args(Verb)

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
    "bid": frozenset({"tricks"}),
    "shoot": frozenset(),
    "declare": frozenset({"trump"}),
}

TRUMP_WORDS: Final = ("C", "D", "H", "S", "high", "low")
"""Bid Euchre's ``declare`` values by trump index: the four suits, No Trump High and Low."""


ACTION_CODE_PATTERN: Final = r"[a-z_]+(?:\.[A-Za-z0-9-]+){0,2}"
"""A regular expression matching every action code (for button-id templates)."""

_CODE: Final = re.compile(ACTION_CODE_PATTERN)
_CARD_VERBS: Final = ("discard", "give", "play")
_PLAIN_VERBS: Final = ("pass", "alone", "redeal", "shoot")
_ALONE_WORDS: Final = {True: "alone", False: "with"}


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does. Which fields are set depends on ``do`` (record-format.md).

    ``alone`` is None when not said, which differs from an explicit False.
    ``partner`` is the seat a six-handed loner asks for a card (``seat`` in JSON).
    Bid Euchre: ``tricks`` is a bid; ``trump`` what a ``declare`` names (0..3
    a suit, 4 No Trump High, 5 No Trump Low; ``TRUMP_WORDS``).
    """

    do: Verb
    card: int | None = None
    suit: int | None = None
    alone: bool | None = None
    partner: int | None = None
    cards: tuple[int, ...] | None = None
    tricks: int | None = None
    trump: int | None = None

    def __init__(
        self,
        do: Verb,
        card: int | None = None,
        suit: int | None = None,
        alone: bool | None = None,
        partner: int | None = None,
        cards: tuple[int, ...] | None = None,
        tricks: int | None = None,
        trump: int | None = None,
    ) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "do", do)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "alone", alone)
        object.__setattr__(self, "partner", partner)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "trump", trump)

    # ------------------------------------------------------------ constructors
    # Cards and suits are given as numbers or as record text ("10H", "S").

    @staticmethod
    def play(card: int | str) -> Action:
        """Play ``card`` to the trick."""
        return PLAY[_card(card)]

    @staticmethod
    def discard(card: int | str | None = None) -> Action:
        """Discard ``card``; without one, a discard whose card is hidden from this seat."""
        return _DISCARD_HIDDEN if card is None else DISCARD[_card(card)]

    @staticmethod
    def give(card: int | str | None = None) -> Action:
        """Pass ``card`` to the lone partner; without one, a passed card hidden from this seat."""
        return _GIVE_HIDDEN if card is None else GIVE[_card(card)]

    @staticmethod
    def pass_() -> Action:
        """Pass: a bidding turn, or declining to go (or defend) alone or to ask."""
        return PASS

    @staticmethod
    def order_up(*, alone: bool | None = None) -> Action:
        """Order the upcard up (the dealer: take it up); ``alone`` None when not said."""
        return ORDER_UP if alone is None else ORDER_UP_ALONE if alone else _ORDER_UP_WITH

    @staticmethod
    def call(suit: int | str, *, alone: bool | None = None) -> Action:
        """Name ``suit`` trump; ``alone`` None when not said."""
        s = int(parse_suit(suit)) if isinstance(suit, str) else Suit(suit)
        if alone is None:
            return CALL[s]
        return CALL_ALONE[s] if alone else Action("call", suit=s, alone=False)

    @staticmethod
    def go_alone() -> Action:
        """Go alone, or defend alone, in the alone round."""
        return ALONE

    @staticmethod
    def ask(partner: int) -> Action:
        """Six players: the lone player asks the seat ``partner`` for a card."""
        return Action("ask", partner=partner)

    @staticmethod
    def redeal() -> Action:
        """Ace-no-face: throw the hands in."""
        return REDEAL

    @staticmethod
    def swap(cards: Iterable[int | str] | None = None) -> Action:
        """Farmer's hand: exchange ``cards`` with the kitty; without them, a hidden swap."""
        if cards is None:
            return _SWAP_HIDDEN
        return Action("swap", cards=tuple(_card(c) for c in cards))

    @staticmethod
    def bid(tricks: int) -> Action:
        """Bid Euchre: bid ``tricks`` tricks for the team."""
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 < tricks <= MAX_BID:
            raise ActionError(f"a bid is a number of tricks from 1 to {MAX_BID}, not {tricks!r}")
        return BID[tricks]

    @staticmethod
    def shoot() -> Action:
        """Bid Euchre: shoot, taking every trick alone with the partners' best cards."""
        return SHOOT

    @staticmethod
    def declare(trump: int | str) -> Action:
        """Bid Euchre: name trump: a suit (number or ``"H"``), ``"high"`` or ``"low"``."""
        if isinstance(trump, str):
            word = trump.strip().lower()
            if word in ("high", "low"):
                return DECLARE[TRUMP_WORDS.index(word)]
            try:
                return DECLARE[int(parse_suit(trump))]
            except CardError:
                raise ActionError(
                    f"{trump!r} is not a trump to declare (C, D, H, S, high or low)"
                ) from None
        if isinstance(trump, bool) or not 0 <= trump < len(TRUMP_WORDS):
            raise ActionError(f"{trump!r} is not a trump number (0 to 5)")
        return DECLARE[trump]

    # ------------------------------------------------------------ text forms

    @staticmethod
    def from_code(code: str) -> Action:
        """The action a code (``play.10H``) stands for; ActionError when it is not a code."""
        if not _CODE.fullmatch(code):
            raise ActionError(f"{code!r} is not an action code")
        do, *args = code.split(".")
        try:
            action = _from_code(do, args)
        except CardError as exc:
            raise ActionError(f"{code!r}: {exc}") from None
        if str(action) != code:
            raise ActionError(f"{code!r} is not an action code")
        return action

    def __str__(self) -> str:
        """The short code: ``play.10H``, ``call.S.alone``, ``order_up.with``, ``ask.3``."""
        do = self.do
        if self.card is not None:
            return f"{do}.{card_label(self.card)}"
        if self.suit is not None:
            code = f"call.{Suit(self.suit).letter}"
            return code if self.alone is None else f"{code}.{_ALONE_WORDS[self.alone]}"
        if self.alone is not None:
            return f"{do}.{_ALONE_WORDS[self.alone]}"
        if self.partner is not None:
            return f"{do}.{self.partner}"
        if self.tricks is not None:
            return f"{do}.{self.tricks}"
        if self.trump is not None:
            return f"{do}.{TRUMP_WORDS[self.trump]}"
        if self.cards is not None:
            return f"{do}." + "-".join(card_label(c) for c in self.cards)
        return do

    def __repr__(self) -> str:
        """The constructor call that builds this action: ``Action.play('10H')``."""
        args: list[str] = []
        if self.card is not None:
            args.append(repr(card_label(self.card)))
        if self.suit is not None:
            args.append(repr(Suit(self.suit).letter))
        if self.partner is not None:
            args.append(str(self.partner))
        if self.cards is not None:
            args.append(repr([card_label(c) for c in self.cards]))
        if self.tricks is not None:
            args.append(str(self.tricks))
        if self.trump is not None:
            args.append(repr(TRUMP_WORDS[self.trump]))
        if self.alone is not None:
            args.append(f"alone={self.alone}")
        name = {"pass": "pass_", "alone": "go_alone"}.get(self.do, self.do)
        return f"Action.{name}({', '.join(args)})"

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
        if self.tricks is not None:
            out["tricks"] = self.tricks
        if self.trump is not None:
            out["trump"] = TRUMP_WORDS[self.trump]
        return out


PASS: Final = Action("pass")
ALONE: Final = Action("alone")
REDEAL: Final = Action("redeal")
ORDER_UP: Final = Action("order_up")
ORDER_UP_ALONE: Final = Action("order_up", alone=True)
_ORDER_UP_WITH: Final = Action("order_up", alone=False)
_DISCARD_HIDDEN: Final = Action("discard")
_GIVE_HIDDEN: Final = Action("give")
_SWAP_HIDDEN: Final = Action("swap")
PLAY: Final = tuple(Action("play", card=c) for c in range(CARD_COUNT))
DISCARD: Final = tuple(Action("discard", card=c) for c in range(CARD_COUNT))
GIVE: Final = tuple(Action("give", card=c) for c in range(CARD_COUNT))
CALL: Final = tuple(Action("call", suit=s) for s in Suit)
CALL_ALONE: Final = tuple(Action("call", suit=s, alone=True) for s in Suit)
MAX_BID: Final = 16
"""The largest bid an action may carry (a six-player hand holds eight cards; room to spare)."""
SHOOT: Final = Action("shoot")
BID: Final = {n: Action("bid", tricks=n) for n in range(1, MAX_BID + 1)}
DECLARE: Final = tuple(Action("declare", trump=t) for t in range(len(TRUMP_WORDS)))


def _card(card: int | str) -> int:
    if isinstance(card, str):
        return parse_card(card)
    if not 0 <= card < CARD_COUNT:
        raise CardError(f"{card!r} is not a card number")
    return card


def _from_code(do: str, args: list[str]) -> Action:
    if do in _PLAIN_VERBS and not args:
        return {"pass": PASS, "alone": ALONE, "redeal": REDEAL, "shoot": SHOOT}[do]
    if do == "bid" and len(args) == 1 and args[0].isdigit():
        return Action.bid(int(args[0]))
    if do == "declare" and len(args) == 1:
        return Action.declare(args[0])
    if do in _CARD_VERBS and len(args) == 1:
        return {"discard": DISCARD, "give": GIVE, "play": PLAY}[do][parse_card(args[0])]
    if do == "order_up" and len(args) <= 1:
        return Action.order_up(alone=_alone_word(args[0]) if args else None)
    if do == "call" and 1 <= len(args) <= 2:
        alone = _alone_word(args[1]) if len(args) == 2 else None
        return Action.call(parse_suit(args[0]), alone=alone)
    if do == "ask" and len(args) == 1 and args[0].isdigit():
        return Action.ask(int(args[0]))
    if do == "swap" and len(args) == 1:
        return Action.swap(args[0].split("-"))
    raise ActionError(f"{do!r} with {args!r} is not an action code")


def _alone_word(word: str) -> bool:
    for value, name in _ALONE_WORDS.items():
        if word == name:
            return value
    raise ActionError(f"{word!r} is neither 'alone' nor 'with'")


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
    seat: Any = obj.get("seat")
    partner: Any = obj.get("partner")
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
    if do == "bid":
        tricks = obj.get("tricks")
        if isinstance(tricks, bool) or not isinstance(tricks, int):
            raise ActionError('bid: needs a number of tricks, like "tricks": 4')
        return Action.bid(tricks)
    if do == "declare":
        trump = obj.get("trump")
        if not isinstance(trump, str):
            raise ActionError('declare: needs a trump, like "trump": "H", "high" or "low"')
        return Action.declare(trump)
    return Action(do)
