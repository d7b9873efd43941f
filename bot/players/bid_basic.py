"""Bid Euchre for the basic level: count likely tricks under each of the six choices, then play.

The estimate scores each card of the hand by how often a card like it takes a
trick under each choice (a suit as trump, No Trump High, No Trump Low), adds
what the partners may bring, and bids the cheapest legal number it expects to
make. Play is the simple euchre habit: win the trick as cheaply as possible
unless a partner already holds it, otherwise throw the weakest card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from bot.rules import Action, SeatView
from bot.rules.house_rules import deck_cards
from bot.rules.ranking import (
    NO_TRUMP_HIGH,
    NO_TRUMP_LOW,
    Ranking,
    build_ranking,
    trick_winner_index,
)

CHOICES: Final = (0, 1, 2, 3, NO_TRUMP_HIGH, NO_TRUMP_LOW)
"""Every trump a bidder may declare: the four suits, No Trump High, No Trump Low."""

# How often a card takes a trick, by its place in its suit (0 = the top card).
_TRUMP_WORTH: Final = (1.0, 0.95, 0.8, 0.6, 0.45, 0.35, 0.3, 0.25)
_SIDE_WORTH: Final = (0.75, 0.35, 0.1, 0.0, 0.0, 0.0)
_SHOOT_MARGIN: Final = 0.3


def own_tricks(hand: Sequence[int], trump: int, ranking: Ranking, pack: Sequence[int]) -> float:
    """The tricks this hand alone is likely to take with ``trump`` declared.

    Each card is worth more the fewer cards of its suit that beat it are
    outside the hand (``pack`` is the whole pack, copies included).
    """
    held = Counter(hand)
    outside = Counter(pack) - held
    suits = ranking.suit[trump]
    total = 0.0
    trumps = 0
    for c in hand:
        suit = suits[c]
        power = ranking.power[trump][suit]
        higher = sum(
            k for other, k in outside.items() if suits[other] == suit and power[other] > power[c]
        )
        if trump < NO_TRUMP_HIGH and suit == trump:
            trumps += 1
            total += _TRUMP_WORTH[min(higher, len(_TRUMP_WORTH) - 1)]
        else:
            total += _SIDE_WORTH[min(higher, len(_SIDE_WORTH) - 1)]
    if trump < NO_TRUMP_HIGH and trumps >= 3:
        total += 0.2 * (trumps - 2)  # long trumps ruff the side suits
    return min(total, float(len(hand)))


def team_tricks(view: SeatView, trump: int, ranking: Ranking) -> float:
    """This hand's tricks plus a share of what the partners are likely to take."""
    hand = view.hand
    mine = own_tricks(hand, trump, ranking, deck_cards(view.rules))
    partners = view.players // 2 - 1
    return min(float(len(hand)), mine + 0.35 * (len(hand) - mine) * partners / (partners + 1))


def best_choice(view: SeatView, ranking: Ranking) -> tuple[int, float]:
    """The declaration with the most expected tricks for the team, and that estimate."""
    return max(((t, team_tricks(view, t, ranking)) for t in CHOICES), key=lambda x: x[1])


def choose(view: SeatView) -> Action:
    """The basic Bid Euchre action for the phase in play; one of ``view.legal``."""
    legal = list(view.legal)
    if len(set(legal)) == 1:
        return legal[0]
    ranking = build_ranking(view.rules)
    phase = view.phase
    if phase == "bid":
        return _bid(view, legal, ranking)
    if phase == "declare":
        pack = deck_cards(view.rules)
        pick = max(CHOICES, key=lambda t: own_tricks(view.hand, t, ranking, pack))
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


def _bid(view: SeatView, legal: list[Action], ranking: Ranking) -> Action:
    trump, expected = best_choice(view, ranking)
    shoot = next((a for a in legal if a.do == "shoot"), None)
    mine = own_tricks(view.hand, trump, ranking, deck_cards(view.rules))
    if shoot is not None and mine >= len(view.hand) - _SHOOT_MARGIN:
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
