"""Computer players: they decide from one seat's view, never from the game itself.

``make_player(level, seed)`` gives a built-in level (``random``, ``basic``) or
loads an outside ``module:Class``; every player follows the ``Player``
protocol (a ``name`` and ``choose(view) -> Action``). ``python -m lab
arena`` plays duplicate matches between two of them (see docs/players.md).
"""

from .basic import BasicPlayer, Tuning
from .protocol import LEVELS, SEARCH_BUDGET, Player, PlayerError, make_player
from .random_player import RandomPlayer

__all__ = [
    "LEVELS",
    "SEARCH_BUDGET",
    "BasicPlayer",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "Tuning",
    "make_player",
]
