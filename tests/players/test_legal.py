"""Basic, beginner and random never return an illegal action, over thousands of positions of every variant."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.players import make_player
from bot.rules import Game, HouseRules, seat_view

from .variants import RULES, label

GAMES = 25
"""Games a variant in the slow sweep; the default run plays the first :data:`QUICK_GAMES`."""
QUICK_GAMES = 5


def _sweep(rules: HouseRules, games: int) -> tuple[int, Counter[str]]:
    """Play ``games`` games of basic and random players mixed; every choice must be legal.

    Returns the positions played and how often basic chose each verb.
    """
    positions = 0
    verbs: Counter[str] = Counter()
    for g in range(games):
        rng = random.Random(g)
        game = Game(rules, seed=1000 + g)
        basic = [make_player("basic", s) for s in range(rules.players)]
        rand = [make_player("random", 100 * g + s) for s in range(rules.players)]
        learner = [make_player("beginner", 100 * g + s) for s in range(rules.players)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            a = basic[seat].choose(view)
            b = rand[seat].choose(view)
            assert a in view.legal, (view.phase, a, view.legal)
            assert b in view.legal, (view.phase, b, view.legal)
            c = learner[seat].choose(view)
            assert c in view.legal, (view.phase, c, view.legal)
            verbs[a.do] += 1
            positions += 1
            # A mix of both keeps the positions varied: basic-only games rarely reach odd corners.
            game.apply(seat, a if rng.random() < 0.6 else b)
    return positions, verbs


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_choice_is_legal(rules: HouseRules) -> None:
    positions, verbs = _sweep(rules, QUICK_GAMES)
    assert positions > 400
    assert verbs["play"] and verbs["discard"]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_choice_is_legal_over_thousands_of_positions(rules: HouseRules) -> None:
    positions, verbs = _sweep(rules, GAMES)
    assert positions > 2000
    assert verbs["play"] and verbs["discard"]
