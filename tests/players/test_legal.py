"""Basic and random never return an illegal action, over thousands of positions of every variant."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.players import make_player
from bot.rules import Game, HouseRules, seat_view

from .variants import RULES, label

GAMES = 25


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_choice_is_legal(rules: HouseRules) -> None:
    positions = 0
    verbs: Counter[str] = Counter()
    for g in range(GAMES):
        rng = random.Random(g)
        game = Game(rules, seed=1000 + g)
        basic = [make_player("basic", s) for s in range(rules.players)]
        rand = [make_player("random", 100 * g + s) for s in range(rules.players)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            a = basic[seat].choose(view)
            b = rand[seat].choose(view)
            assert a in view.legal, (view.phase, a, view.legal)
            assert b in view.legal, (view.phase, b, view.legal)
            verbs[a.do] += 1
            positions += 1
            # A mix of both keeps the positions varied: basic-only games rarely reach odd corners.
            game.apply(seat, a if rng.random() < 0.6 else b)
    assert positions > 2000
    assert verbs["play"] and verbs["discard"]


def test_benny_turned_dealer_names_trump_unseen() -> None:
    """The turned Benny (dealer names trump with an empty hand) across many British deals."""
    rules = HouseRules.preset_rules("british")
    named = 0
    for seed in range(400):
        game = Game(rules, seed=seed)
        if game.upcard < 32:
            continue
        view = seat_view(game, game.dealer)
        assert view.hand == () and view.phase == "bid2"
        action = make_player("basic").choose(view)
        assert action in view.legal and action.do == "call"
        named += 1
    assert named >= 5
