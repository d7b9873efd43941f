"""Outside players for the loader and arena tests."""

from __future__ import annotations

from bot.rules import Action, SeatView


class LastLegal:
    """Always the last legal action: in the first round that orders up, so games end."""

    name = "last-legal"

    def choose(self, view: SeatView) -> Action:
        return view.legal[-1]


class Seeded:
    name = "seeded"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        return view.legal[self.seed % len(view.legal)]


class NotAPlayer:
    pass


class Passer:
    """Passes whenever it may: two of them never make trump."""

    name = "passer"

    def choose(self, view: SeatView) -> Action:
        return next((a for a in view.legal if a.do == "pass"), view.legal[0])
