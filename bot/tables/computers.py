"""Computer players as the tables use them: anything that picks an action from a seat's view.

A computer decides from ``seat_view(game, seat)`` only, never from other hands. The
table makes a fresh player for every decision, seeded from the table's seed, the seat
and the action number, so a decision depends on nothing but the game so far: a table
replayed after a restart makes the same moves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Protocol

from bot.rules import Action, SeatView

__all__ = ["ComputerPlayer", "PlayerFactory", "decision_seed"]


class ComputerPlayer(Protocol):
    """A computer player: ``choose`` returns one of ``view.legal``."""

    def choose(self, view: SeatView) -> Action:
        """The action to take from this view (it is the seat's turn)."""
        ...


PlayerFactory = Callable[[str, int], ComputerPlayer]
"""Builds a player from a level (``"basic"``) and a seed: ``bot.players.make_player``."""


def decision_seed(table_seed: int, seat: int, index: int) -> int:
    """The seed of the player deciding action ``index`` for ``seat`` (stable everywhere)."""
    digest = hashlib.blake2b(f"{table_seed}:{seat}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
