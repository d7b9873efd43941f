"""The expert: legal over every variant, blind to hidden cards, and ahead of basic in small matches."""

from __future__ import annotations

import pytest

from bot.players import make_player
from bot.players.expert import ExpertPlayer
from bot.rules import Game, HouseRules, seat_view

from .test_hidden_information import view_pairs
from .variants import RULES, label


def _quick(seed: int) -> ExpertPlayer:
    """An expert with a fixed, small number of samples: fast and independent of the clock."""
    return ExpertPlayer(seed=seed, budget=0.0, min_samples=2, max_samples=2)


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_choice_is_legal(rules: HouseRules) -> None:
    positions = 0
    for g in range(2):
        game = Game(rules, seed=2000 + g)
        experts = [_quick(s) for s in range(rules.players)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            action = experts[seat].choose(view)
            assert action in view.legal, (view.phase, action, view.legal)
            game.apply(seat, action)
            positions += 1
    assert positions > 50


@pytest.mark.parametrize("rules", RULES[:6], ids=label)
def test_decisions_ignore_hidden_cards(rules: HouseRules) -> None:
    compared = 0
    for view, alt_view in view_pairs(rules, range(700, 702), every=3):
        if alt_view is None:
            continue
        assert alt_view == view
        assert _quick(5).choose(alt_view) == _quick(5).choose(view)
        compared += 1
    assert compared >= 3


def test_expert_is_a_level() -> None:
    assert make_player("expert", 1).name == "expert"
