"""A game, its views and actions cross to a worker process whole: pickled, they come back equal."""

from __future__ import annotations

import pickle
import random

import pytest

from bot.rules import PRESETS, HouseRules, new_game, seat_view


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_game_and_every_view_come_back_from_pickle_as_they_were(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    rng = random.Random(preset)
    game = new_game(rules, seed=rng.randrange(1000))
    steps = 0
    while not game.over and steps < 120:
        seat = game.turn
        assert seat is not None
        if steps % 7 == 0:
            again = pickle.loads(pickle.dumps(game))
            assert (again.log, again.turn, again.score) == (game.log, game.turn, game.score)
            assert again.legal() == game.legal() and again.results == game.results
            for each in range(rules.players):
                view = seat_view(game, each)
                assert pickle.loads(pickle.dumps(view)) == view
        game.apply(seat, rng.choice(list(game.legal())))
        steps += 1
    assert pickle.loads(pickle.dumps(game.log)) == game.log
