"""Facts about the pack of one rule set that players look up often, built once per rule set.

Wraps the rules core's ranking tables: which suit a card follows once trump
is known, how it ranks in a trick, and every trump of each suit from the
highest down. Nothing here depends on a deal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from bot.rules import HouseRules, Suit
from bot.rules.house_rules import deck_cards
from bot.rules.ranking import Ranking, build_ranking


@dataclass(frozen=True, slots=True)
class DeckFacts:
    """The pack of a rule set: copies of each card, suit and power lookups, trumps in order."""

    rules: HouseRules
    ranking: Ranking
    copies: dict[int, int]
    trumps: tuple[tuple[int, ...], ...]
    """``trumps[t]``: each distinct card that is trump when ``t`` is, highest first."""
    suits: tuple[tuple[tuple[int, ...], ...], ...]
    """``suits[t][s]``: each distinct card following ``s`` when ``t`` is trump, highest first."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def later_equal_wins(self) -> bool:
        """Whether, of two equal cards (double pack), the one played later wins."""
        return self.ranking.later_equal_wins

    def suit(self, card: int, trump: int) -> int:
        """The suit ``card`` follows when ``trump`` is trump (bowers and Bennies follow trump)."""
        return self.ranking.suit[trump][card]

    def is_trump(self, card: int, trump: int) -> bool:
        """Whether ``card`` is a trump."""
        return self.ranking.suit[trump][card] == trump

    def power(self, card: int, trump: int, led: int) -> int:
        """How ``card`` ranks in a trick led in suit ``led``; 0 cannot win."""
        return self.ranking.power[trump][led][card]

    def beats(self, card: int, best: int, trump: int, led: int) -> bool:
        """Whether ``card``, played after ``best``, takes the trick from it."""
        power = self.ranking.power[trump][led]
        return power[card] > power[best] or (
            power[card] == power[best] != 0 and self.ranking.later_equal_wins
        )


_RECENT: list[tuple[HouseRules, DeckFacts]] = []
"""The rule set last asked about and its facts: a game asks about one object over and over,
and hashing a rule set for the cache below costs more than the look-up it saves."""


def deck_facts(rules: HouseRules) -> DeckFacts:
    """The facts of ``rules``' pack (cached per rule set)."""
    recent = _RECENT[0] if _RECENT else None
    if recent is not None and recent[0] is rules:
        return recent[1]
    facts = _build(rules)
    _RECENT[:] = [(rules, facts)]
    return facts


@lru_cache(maxsize=64)
def _build(rules: HouseRules) -> DeckFacts:
    ranking = build_ranking(rules)
    copies = dict(Counter(deck_cards(rules)))
    distinct = sorted(copies)
    trumps: list[tuple[int, ...]] = []
    suits: list[tuple[tuple[int, ...], ...]] = []
    for t in Suit:
        power = ranking.power[t][t]
        trumps.append(
            tuple(sorted((c for c in distinct if ranking.suit[t][c] == t), key=lambda c: -power[c]))
        )
        by_suit: list[tuple[int, ...]] = []
        for s in Suit:
            led_power = ranking.power[t][s]
            members = (c for c in distinct if ranking.suit[t][c] == s)
            by_suit.append(tuple(sorted(members, key=lambda c: -led_power[c])))
        suits.append(tuple(by_suit))
    return DeckFacts(rules, ranking, copies, tuple(trumps), tuple(suits))
