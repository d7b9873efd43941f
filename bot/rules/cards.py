"""Cards, suits and packs as small integers, with their names.

A card is an ``int``: ``suit * 8 + rank`` for the 32 suited cards (ranks 7, 8,
9, 10, J, Q, K, A are 0..7; suits clubs, diamonds, hearts, spades are 0..3),
and 32 and up for the jokers. Integers keep the engine fast; the functions
here turn them into the names of the record format (``"10H"``, ``"JK"``) and
into words a player reads ("the jack of diamonds").

Where two packs are used, both copies of a card share one integer.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .errors import CardError


class Suit(IntEnum):
    """The four suits; opposite colours alternate clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The record-format letter: C, D, H or S."""
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return SUIT_SYMBOLS[self]

    @property
    def plural(self) -> str:
        """The suit's name in a sentence: "clubs"."""
        return SUIT_NAMES[self]

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (where the left bower comes from)."""
        return Suit(3 - self)


SUIT_LETTERS: Final = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS: Final = frozenset((Suit.DIAMONDS, Suit.HEARTS))

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)
RANK_LABELS: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES: Final = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

JOKER: Final = 32
"""The Benny: a joker."""
TWO_SPADES: Final = 33
"""The two of spades standing in for the Benny, or the lowest Almonte joker."""
THREE_SPADES: Final = 34
"""The middle Almonte joker."""
FOUR_SPADES: Final = 35
"""The highest Almonte joker."""
RED_JOKER: Final = 36
"""A double pack's red Benny, where the two Bennies differ in colour."""
BLACK_JOKER: Final = 37
"""A double pack's black Benny, where the two Bennies differ in colour."""
CARD_COUNT: Final = 38
"""Card integers are 0 <= card < CARD_COUNT."""

JOKERS: Final = frozenset(range(JOKER, CARD_COUNT))

_JOKER_LABELS: Final = {
    JOKER: "JK",
    TWO_SPADES: "2S",
    THREE_SPADES: "3S",
    FOUR_SPADES: "4S",
    RED_JOKER: "JR",
    BLACK_JOKER: "JB",
}
_JOKER_SYMBOLS: Final = {
    JOKER: "🃏",
    TWO_SPADES: "2♠",
    THREE_SPADES: "3♠",
    FOUR_SPADES: "4♠",
    RED_JOKER: "🃏red",
    BLACK_JOKER: "🃏black",
}
_JOKER_WORDS: Final = {
    JOKER: "the Benny",
    TWO_SPADES: "the two of spades",
    THREE_SPADES: "the three of spades",
    FOUR_SPADES: "the four of spades",
    RED_JOKER: "the red Benny",
    BLACK_JOKER: "the black Benny",
}


def card(rank: int, suit: int) -> int:
    """The card of this rank (0 = seven ... 7 = ace) and suit."""
    return suit * 8 + rank


def suit_of(c: int) -> int:
    """The printed suit of a suited card; the jokers print as spades."""
    return c >> 3 if c < JOKER else Suit.SPADES


def rank_of(c: int) -> int:
    """The rank index (0 = seven ... 7 = ace) of a suited card; -1 for a joker."""
    return c & 7 if c < JOKER else -1


def is_joker(c: int) -> bool:
    """Whether the card is a Benny or an Almonte joker."""
    return c >= JOKER


def card_label(c: int) -> str:
    """The record-format name: ``"10H"``, ``"JD"``, ``"JK"``."""
    if c >= JOKER:
        return _JOKER_LABELS[c]
    return RANK_LABELS[c & 7] + SUIT_LETTERS[c >> 3]


def card_symbol(c: int) -> str:
    """A short name with the suit symbol for display: ``"10♥"``, ``"🃏"`` for the Benny."""
    if c >= JOKER:
        return _JOKER_SYMBOLS[c]
    return RANK_LABELS[c & 7] + SUIT_SYMBOLS[c >> 3]


def card_words(c: int) -> str:
    """The card in a sentence: "the jack of diamonds"."""
    if c >= JOKER:
        return _JOKER_WORDS[c]
    return f"the {RANK_NAMES[c & 7]} of {SUIT_NAMES[c >> 3]}"


_BY_LABEL: Final[dict[str, int]] = {}
for _c in range(JOKER):
    _BY_LABEL[card_label(_c)] = _c
    if _c & 7 == TEN:
        _BY_LABEL["T" + SUIT_LETTERS[_c >> 3]] = _c
for _c, _label in _JOKER_LABELS.items():
    _BY_LABEL[_label] = _c


def parse_card(text: str) -> int:
    """The card named ``text`` (``"10H"``, ``"TH"``, ``"JK"``; case-insensitive).

    ``2S`` always parses to TWO_SPADES; whether it is in play depends on the pack.
    """
    try:
        return _BY_LABEL[text.strip().upper()]
    except (KeyError, AttributeError):
        raise CardError(
            f"{text!r} is not a card (write rank then suit, like 10H, JD or JK)"
        ) from None


def parse_suit(text: str) -> Suit:
    """The suit named by a letter, a symbol or a word (``"H"``, ``"♥"``, ``"hearts"``)."""
    key = text.strip().lower()
    for s in Suit:
        if key in (s.letter.lower(), s.symbol, s.plural, s.plural[:-1]):
            return s
    raise CardError(f"{text!r} is not a suit (use C, D, H or S)")
