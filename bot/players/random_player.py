"""The weakest level: a uniformly random legal action, reproducible from its seed."""

from __future__ import annotations

import random

from bot.rules import Action, SeatView


class RandomPlayer:
    """Picks uniformly among ``view.legal`` with its own seeded generator."""

    name: str = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """Any legal action, uniformly."""
        return self._rng.choice(view.legal)
