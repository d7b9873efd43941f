"""Bid Euchre for the basic level: count likely tricks under each of the six choices, then play.

The estimate scores each card of the hand by how often a card like it takes a
trick under each choice (a suit as trump, No Trump High, No Trump Low), adds
what the partners may bring, and bids the cheapest legal number it expects to
make. Play is the simple euchre habit: win the trick as cheaply as possible
unless a partner already holds it, otherwise throw the weakest card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from bot.rules import Action, HouseRules, SeatView
from bot.rules.ranking import (
    NO_TRUMP_HIGH,
    NO_TRUMP_LOW,
    Ranking,
    build_ranking,
    trick_winner_index,
)

from .deck import deck_facts

CHOICES: Final = (0, 1, 2, 3, NO_TRUMP_HIGH, NO_TRUMP_LOW)
"""Every trump a bidder may declare: the four suits, No Trump High, No Trump Low."""

# How often a card takes a trick, by its place in its suit (0 = the top card).
_TRUMP_WORTH: Final = (1.0, 0.95, 0.8, 0.6, 0.45, 0.35, 0.3, 0.25)
_SIDE_WORTH: Final = (0.75, 0.35, 0.1, 0.0, 0.0, 0.0)
_SHOOT_MARGIN: Final = 0.3


def own_tricks(hand: Sequence[int], trump: int, rules: HouseRules) -> float:
    """The tricks this hand alone is likely to take with ``trump`` declared.

    Each card is worth more the fewer cards of its suit that beat it are
    outside the hand (copies of a double pack included).
    """
    return _own(hand, _hand_number(hand), trump, _tables(rules))


def all_own_tricks(hand: Sequence[int], rules: HouseRules) -> tuple[float, ...]:
    """``own_tricks`` for each of ``CHOICES``, in that order."""
    number = _hand_number(hand)
    tables = _tables(rules)
    return tuple(_own(hand, number, t, tables) for t in CHOICES)


def _own(hand: Sequence[int], number: int, trump: int, tables: _Tables) -> float:
    above = tables.above[trump]
    masks = tables.masks[trump]
    is_trump = tables.is_trump[trump]
    total = 0.0
    trumps = 0
    for c in hand:
        higher = above[c] - (number & masks[c]).bit_count()
        if is_trump[c]:
            trumps += 1
            total += _TRUMP_WORTH[min(higher, len(_TRUMP_WORTH) - 1)]
        else:
            total += _SIDE_WORTH[min(higher, len(_SIDE_WORTH) - 1)]
    if trumps >= 3:
        total += 0.2 * (trumps - 2)  # long trumps ruff the side suits
    return min(total, float(len(hand)))


def _hand_number(hand: Sequence[int]) -> int:
    """The hand as one number, two bits a card: 01 for one copy, 11 for two."""
    number = 0
    for c in hand:
        bit = 1 << (2 * c)
        number |= bit << 1 if number & bit else bit
    return number


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per trump and card: the pack's copies of its suit above it, those cards as a mask, trump."""

    above: tuple[tuple[int, ...], ...]
    masks: tuple[tuple[int, ...], ...]
    is_trump: tuple[tuple[bool, ...], ...]


@lru_cache(maxsize=16)
def _tables(rules: HouseRules) -> _Tables:
    ranking = build_ranking(rules)
    copies = deck_facts(rules).copies
    above, masks, is_trump = [], [], []
    for trump in range(NO_TRUMP_LOW + 1):
        suits = ranking.suit[trump]
        counts, bits = [], []
        for c in range(len(suits)):
            power = ranking.power[trump][suits[c]]
            beat = [o for o in copies if suits[o] == suits[c] and power[o] > power[c]]
            counts.append(sum(copies[o] for o in beat))
            bits.append(sum(3 << (2 * o) for o in beat))
        above.append(tuple(counts))
        masks.append(tuple(bits))
        is_trump.append(tuple(trump < NO_TRUMP_HIGH and s == trump for s in suits))
    return _Tables(tuple(above), tuple(masks), tuple(is_trump))


def team_tricks(hand: Sequence[int], trump: int, rules: HouseRules) -> float:
    """This hand's tricks plus a share of what the partners are likely to take."""
    return _with_partners(own_tricks(hand, trump, rules), len(hand), rules)


def _with_partners(mine: float, size: int, rules: HouseRules) -> float:
    partners = rules.players // 2 - 1
    return min(float(size), mine + 0.35 * (size - mine) * partners / (partners + 1))


def best_choice(hand: Sequence[int], rules: HouseRules) -> tuple[int, float]:
    """The declaration with the most expected tricks for the team, and that estimate."""
    return _best(all_own_tricks(hand, rules), len(hand), rules)


def _best(own: Sequence[float], size: int, rules: HouseRules) -> tuple[int, float]:
    team = [_with_partners(x, size, rules) for x in own]
    best = max(range(len(CHOICES)), key=team.__getitem__)
    return CHOICES[best], team[best]


def declare_choice(hand: Sequence[int], rules: HouseRules) -> int:
    """The trump basic declares: the choice its own hand takes most tricks with."""
    own = all_own_tricks(hand, rules)
    return CHOICES[max(range(len(CHOICES)), key=own.__getitem__)]


def choose(view: SeatView) -> Action:
    """The basic Bid Euchre action for the phase in play; one of ``view.legal``."""
    legal = list(view.legal)
    if len(set(legal)) == 1:
        return legal[0]
    ranking = build_ranking(view.rules)
    phase = view.phase
    if phase == "bid":
        return bid_action(view.hand, view.rules, legal)
    if phase == "declare":
        pick = declare_choice(view.hand, view.rules)
        return next(a for a in legal if a.trump == pick)
    assert view.trump is not None
    trump = view.trump
    cards = [a.card for a in legal if a.card is not None]
    if phase == "give":
        return next(
            a for a in legal if a.card == max(cards, key=lambda c: _strength(c, trump, ranking))
        )
    if phase == "discard":
        return next(
            a for a in legal if a.card == min(cards, key=lambda c: _strength(c, trump, ranking))
        )
    return next(a for a in legal if a.card == _play(view, cards, trump, ranking))


def bid_action(hand: Sequence[int], rules: HouseRules, legal: Sequence[Action]) -> Action:
    """Basic's bid from ``hand`` given the bidding actions ``legal`` now (pass, numbers, shoot).

    The cheapest number it expects its side to make, a shoot when the hand alone
    is nearly sure of every trick, else a pass (or the minimum when it must bid).
    """
    own = all_own_tricks(hand, rules)
    trump, expected = _best(own, len(hand), rules)
    shoot = next((a for a in legal if a.do == "shoot"), None)
    mine = own[CHOICES.index(trump)]
    if shoot is not None and mine >= len(hand) - _SHOOT_MARGIN:
        return shoot
    numbers = sorted((a for a in legal if a.tricks is not None), key=lambda a: a.tricks or 0)
    for action in numbers:
        if (action.tricks or 0) <= expected:
            return action
    if numbers and not any(a.do == "pass" for a in legal):
        return numbers[0]  # everyone passed: the dealer must bid the minimum
    return next((a for a in legal if a.do == "pass"), numbers[0] if numbers else legal[0])


def _strength(c: int, trump: int, ranking: Ranking) -> int:
    """How strong a card is on its own: trumps above every side card, then by rank."""
    suit = ranking.suit[trump][c]
    power = ranking.power[trump][suit][c]
    return power + (100 if trump < NO_TRUMP_HIGH and suit == trump else 0)


def _play(view: SeatView, cards: list[int], trump: int, ranking: Ranking) -> int:
    trick = view.trick
    if not trick:
        return max(cards, key=lambda c: _strength(c, trump, ranking))
    played = [c for _, c in trick]
    best = trick[trick_winner_index(played, trump, ranking)][0]
    if best % 2 == view.seat % 2:
        return min(cards, key=lambda c: _strength(c, trump, ranking))
    winners = [c for c in cards if trick_winner_index([*played, c], trump, ranking) == len(played)]
    if winners:
        return min(winners, key=lambda c: _strength(c, trump, ranking))
    return min(cards, key=lambda c: _strength(c, trump, ranking))
