"""What a request hands back: the moves it made and whom to tell it's their turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .table import Move, Table

__all__ = ["Progress", "progress"]


@dataclass(frozen=True, slots=True)
class Progress:
    """What a request changed in a game: the moves applied and whom to tell it's their turn."""

    table: Table
    moves: tuple[Move, ...]
    mention: int | None
    """The person the turn just passed to, if it passed to a person."""

    @property
    def computer_moves(self) -> int:
        """How many of the moves computer players made."""
        return sum(move.by_computer for move in self.moves)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.table.status == "finished"


def progress(table: Table, moves: Iterable[Move]) -> Progress:
    """What a request changed at ``table``: ``moves`` and whom to mention."""
    done = tuple(moves)
    game = table.game
    mention = None
    if table.status == "playing" and game is not None and game.turn is not None:
        seat = table.seats[game.turn]
        last = game.log[-1][0] if game.log else None
        new_deal = bool(done) and done[-1].deal_number != game.deal_number
        if seat is not None and seat.user_id is not None and (last != game.turn or new_deal):
            mention = seat.user_id
    return Progress(table, done, mention)
