"""The search bench's positions: seeded, where they were asked for, and solvable."""

from __future__ import annotations

from bot.rules import HouseRules
from lab.bench.search import bid_games, positions, rollouts_per_second, solves_per_second


def test_positions_are_seeded_and_at_the_asked_point() -> None:
    rules = HouseRules.preset_rules("toronto")
    found = positions(rules, 5, 2, 1)
    again = positions(rules, 5, 2, 1)
    assert [(p.hands, p.trick, p.turn) for p in found] == [
        (p.hands, p.trick, p.turn) for p in again
    ]
    for pos in found:
        assert pos.tricks_left == 3 and len(pos.trick) == 1
        assert len(pos.hands[pos.turn]) == 3


def test_the_figures_come_from_real_solves_and_rollouts() -> None:
    rules = HouseRules.preset_rules("north_american")
    assert solves_per_second(rules, positions(rules, 3, 3, 0)) > 0
    assert rollouts_per_second(rules, bid_games(rules, 3)) > 0
