"""Finished games of random legal moves, for the tests and benchmarks that need a real record."""

from __future__ import annotations

import random

from bot.rules import Game, HouseRules, new_game


def random_game(rules: HouseRules, seed: int, rng_seed: int = 1) -> Game:
    """A finished game with random legal moves (the same for the same seeds)."""
    rng = random.Random(rng_seed)
    game = new_game(rules, seed=seed)
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(list(game.legal())))
    return game
