"""Bid Euchre's tricks played out fast by the basic player's card play, on plain lists.

The expert values a choice by playing the rest of a sampled deal out many
times. Stepping a ``Game`` and building a seat view for every card would
cost most of its budget, so ``PlayOut`` plays the same policy as
``bid_basic`` (lead the strongest card; follow low under a partner who holds
the trick, else win as cheaply as possible, else throw the weakest card)
straight from the hands: the rollouts model every seat as the basic player
does, about twenty times faster.

It is given sampled hands only: it knows nothing of what any seat may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.rules import HouseRules
from bot.rules.cards import CARD_COUNT
from bot.rules.ranking import NO_TRUMP_HIGH, build_ranking

TRUMP_BONUS = 100
"""What a trump adds to a card's strength: every trump is stronger than every side card."""


@dataclass(frozen=True, slots=True)
class PlayOut:
    """The basic player's card play for one rule set and declared trump, on plain lists."""

    eff: tuple[int, ...]
    """The suit each card follows."""
    power: tuple[tuple[int, ...], ...]
    """``power[led][card]``: how a card ranks in a trick led in ``led``."""
    strength: tuple[int, ...]
    """How strong a card is on its own (``bid_basic``'s order): trumps first, then rank."""
    later_equal_wins: bool

    def finish(
        self,
        hands: list[list[int]],
        next_seat: Sequence[int],
        turn: int,
        trick: Sequence[tuple[int, int]] = (),
        won: Sequence[int] = (0, 0),
    ) -> list[int]:
        """Each team's tricks at the end of the deal, every seat playing like basic.

        ``hands`` (consumed) are the cards each seat holds now, ``next_seat`` who
        plays after each seat (seats sitting out skipped), ``turn`` the seat to
        play to ``trick`` (the (seat, card) pairs played to it so far; when it is
        complete, its winner leads next) and ``won`` the tricks each team has
        taken already.
        """
        eff = self.eff
        power = self.power
        strength = self.strength.__getitem__
        later = self.later_equal_wins
        active = 1
        seat = next_seat[turn]
        while seat != turn:
            seat = next_seat[seat]
            active += 1
        tricks = [won[0], won[1]]
        played = len(trick)
        led = best_seat = best_power = -1
        if trick:
            led = eff[trick[0][1]]
            row = power[led]
            best_seat, first = trick[0]
            best_power = row[first]
            for seat, card in trick[1:]:
                p = row[card]
                if p > best_power or (later and p == best_power):
                    best_seat, best_power = seat, p
        seat = turn
        if played == active:  # the trick given is complete: its winner leads next
            tricks[best_seat & 1] += 1
            seat = best_seat
            played = 0
        while hands[seat]:
            hand = hands[seat]
            if not played:
                card = max(hand, key=strength)
                led = eff[card]
                row = power[led]
                best_seat, best_power = seat, row[card]
            else:
                row = power[led]
                legal = [c for c in hand if eff[c] == led] or hand
                if best_seat & 1 == seat & 1:
                    card = min(legal, key=strength)
                else:
                    winners = [
                        c for c in legal if row[c] > best_power or (later and row[c] == best_power)
                    ]
                    card = min(winners or legal, key=strength)
                p = row[card]
                if p > best_power or (later and p == best_power):
                    best_seat, best_power = seat, p
            hand.remove(card)
            played += 1
            if played == active:
                tricks[best_seat & 1] += 1
                seat = best_seat
                played = 0
            else:
                seat = next_seat[seat]
        return tricks


@lru_cache(maxsize=64)
def play_out(rules: HouseRules, trump: int) -> PlayOut:
    """The play-out of ``rules`` with ``trump`` declared (built once)."""
    ranking = build_ranking(rules)
    eff = ranking.suit[trump]
    power = ranking.power[trump]
    strength = tuple(
        power[eff[c]][c] + (TRUMP_BONUS if trump < NO_TRUMP_HIGH and eff[c] == trump else 0)
        for c in range(CARD_COUNT)
    )
    return PlayOut(eff, power, strength, ranking.later_equal_wins)
