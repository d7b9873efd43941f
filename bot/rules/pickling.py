"""How the rules' objects cross to another process: pickled as records, codes and fields.

The search runs in worker processes (``bot.search_pool``), so what it is handed and
what it answers are pickled. The rules' classes are compiled and write their own
``__init__``, which pickle's defaults cannot call; :func:`register` teaches
``copyreg`` to send a game as its record (record-format.md), which the other side
replays, and an action, a view and its parts (:data:`BY_FIELDS`) as their fields, in
the order their ``__init__`` takes them. A replayed game is the game: the
same deals, log and turn (its ``push``/``pop`` stack is not carried: it is a search's
scratch, never a game's). Importing ``bot.rules`` registers them, so both sides of a
pool always can.
"""

from __future__ import annotations

import copyreg
import dataclasses
from typing import Any, Final

from .actions import Action
from .dealing import Deal
from .game import Game
from .record import game_record, replay
from .results import Contract, DealResult, Trick
from .view import PastDeal, SeatView

__all__ = ["BY_FIELDS", "game_of", "register"]

BY_FIELDS: Final = (Action, SeatView, PastDeal, DealResult, Trick, Contract, Deal)
"""The dataclasses pickled as their fields: each ``__init__`` takes them all, in order."""


def game_of(record: dict[str, Any]) -> Game:
    """The game a record replays to (what a game is pickled as)."""
    replayed = replay(record)
    if replayed.error is not None:
        raise replayed.error
    return replayed.game


def _reduce_game(game: Game) -> tuple[Any, tuple[dict[str, Any]]]:
    return game_of, (game_record(game),)


def _reduce_fields(value: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value))


def register() -> None:
    """Let ``pickle`` carry the rules' objects (done once, at import of ``bot.rules``)."""
    copyreg.pickle(Game, _reduce_game)
    for kind in BY_FIELDS:
        copyreg.pickle(kind, _reduce_fields)
