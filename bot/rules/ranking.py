"""Which suit a card belongs to once trump is known, and how cards rank in a trick.

Both are looked up in tables built once per rule set, indexed by trump suit
(0..3), led suit and card integer, so the hot path of a deal is list indexing.
Bid Euchre's no-trump modes are two more rows of the same tables: index
``NO_TRUMP_HIGH`` (4: A K Q J 10 9 in every suit, jacks plain) and
``NO_TRUMP_LOW`` (5: 9 10 J Q K A).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .cards import (
    ACE,
    BLACK_JOKER,
    CARD_COUNT,
    FOUR_SPADES,
    JACK,
    JOKER,
    RED_JOKER,
    RED_SUITS,
    THREE_SPADES,
    TWO_SPADES,
    Suit,
)
from .house_rules import HouseRules

RIGHT_BOWER = 90
LEFT_BOWER = 89
TRUMP_BASE = 50
LED_BASE = 10
BENNY_BASE = 100

NO_TRUMP_HIGH: Final = 4
"""The trump index of Bid Euchre's No Trump High."""
NO_TRUMP_LOW: Final = 5
"""The trump index of Bid Euchre's No Trump Low."""


@dataclass(frozen=True, slots=True)
class Ranking:
    """Lookup tables for one rule set.

    ``suit[t][c]`` is the suit card ``c`` follows when ``t`` is trump (the left
    bower and the Bennies follow trump). ``power[t][led][c]`` orders the cards
    of a trick: higher wins, zero cannot win. ``t`` is a suit (0..3) or one of
    the no-trump modes (4, 5).
    """

    suit: tuple[tuple[int, ...], ...]
    power: tuple[tuple[tuple[int, ...], ...], ...]
    later_equal_wins: bool


def _effective_suit(c: int, trump: int) -> int:
    if trump >= NO_TRUMP_HIGH:
        return c >> 3 if c < JOKER else Suit.SPADES
    if c >= JOKER:
        return trump
    suit, rank = c >> 3, c & 7
    if rank == JACK and suit == 3 - trump:
        return trump
    return suit


def _benny_power(c: int, trump: int, rules: HouseRules) -> int:
    if c == RED_JOKER:
        return BENNY_BASE + (1 if trump in RED_SUITS else 0)
    if c == BLACK_JOKER:
        return BENNY_BASE + (0 if trump in RED_SUITS else 1)
    if rules.deck.startswith("almonte"):
        return BENNY_BASE + {TWO_SPADES: 1, THREE_SPADES: 2, FOUR_SPADES: 3}.get(c, 0)
    return BENNY_BASE


def _power(c: int, trump: int, led: int, rules: HouseRules) -> int:
    if trump >= NO_TRUMP_HIGH:
        if c >= JOKER or c >> 3 != led:
            return 0
        return LED_BASE + (c & 7 if trump == NO_TRUMP_HIGH else ACE - (c & 7))
    if c >= JOKER:
        return _benny_power(c, trump, rules)
    suit, rank = c >> 3, c & 7
    if rank == JACK and suit == trump:
        return RIGHT_BOWER
    if rank == JACK and suit == 3 - trump:
        return LEFT_BOWER
    if suit == trump:
        return TRUMP_BASE + rank
    if suit == led:
        return LED_BASE + rank
    return 0


@lru_cache(maxsize=64)
def build_ranking(rules: HouseRules) -> Ranking:
    """The tables for these rules."""
    modes = (*Suit, NO_TRUMP_HIGH, NO_TRUMP_LOW)
    suits = tuple(tuple(_effective_suit(c, t) for c in range(CARD_COUNT)) for t in modes)
    power = tuple(
        tuple(tuple(_power(c, t, led, rules) for c in range(CARD_COUNT)) for led in Suit)
        for t in modes
    )
    return Ranking(suits, power, rules.duplicate_card_wins == "second")


def trick_winner_index(cards: list[int], trump: int, ranking: Ranking) -> int:
    """Which position of the trick (in play order) wins it."""
    led = ranking.suit[trump][cards[0]]
    return best_card(cards, ranking.power[trump][led], ranking.later_equal_wins)


def best_card(cards: list[int], power: tuple[int, ...], later_equal_wins: bool) -> int:
    """Which position of ``cards`` (in play order) wins, ``power`` the led suit's ranking.

    Of two equal cards (a double pack) the later wins where ``later_equal_wins``.
    """
    best, best_power = 0, -1  # below every card's power: the first card leads
    for i, c in enumerate(cards):  # compiled, this reads the list without a bounds check
        p = power[c]
        if p > best_power or (later_equal_wins and p == best_power):
            best, best_power = i, p
    return best


def top_rank_word(c: int, trump: int) -> str:
    """What makes a trump special, for messages: "the left bower", "the Benny" or ""."""
    if trump >= NO_TRUMP_HIGH:
        return ""
    if c >= JOKER:
        return "the Benny" if c in (JOKER, RED_JOKER, BLACK_JOKER) else "a joker"
    if c & 7 == JACK and c >> 3 == trump:
        return "the right bower"
    if c & 7 == JACK and c >> 3 == 3 - trump:
        return "the left bower"
    return ""
