"""Table events: what happened at a table, one typed event each, on one bus.

Every change the service makes is told to its listeners as a :class:`TableEvent`; four
kinds carry what a listener acts on: :class:`MoveMade` (a move saved: who made it, and
whether it should be shown at once), :class:`DealEnded`, :class:`TurnPassed` (the turn
rests with a person: whom, and whether to mention them) and :class:`TableClosed` (the
game over, or the table aborted); :class:`TableReloaded` says a table was read back from
the store. Each is logged in one line at INFO (moves at DEBUG) by :func:`log_event`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .public import DealSummary
    from .table import Move, Table

__all__ = [
    "DealEnded",
    "EventKind",
    "Listener",
    "MoveMade",
    "TableClosed",
    "TableEvent",
    "TableReloaded",
    "TurnPassed",
    "log_event",
]

log = logging.getLogger("bot.tables")

EventKind = Literal[
    "opened",
    "seated",
    "left",
    "host",
    "started",
    "move",
    "deal",
    "turn",
    "finished",
    "aborted",
    "timeout",
    "back",
    "hint",
    "reloaded",
]


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Something that happened at a table, said in one line."""

    table: Table
    kind: EventKind
    text: str

    @property
    def move(self) -> Move | None:
        """The move it was, for a :class:`MoveMade`."""
        return None

    def line(self) -> str:
        """The log line: table id, where, what."""
        where = f"guild {self.table.place.guild_id}, place {self.table.place.id}"
        return f"table {self.table.id} ({where}) {self.kind}: {self.text}"


@dataclass(frozen=True, slots=True)
class MoveMade(TableEvent):
    """A move was applied and saved (``kind`` ``"move"``)."""

    made: Move
    urgent: bool
    """A person waits to see it: their own move, shown before any computer's."""

    @property
    def move(self) -> Move:
        """The move."""
        return self.made

    @property
    def by_computer(self) -> bool:
        """Whether a computer made it (a computer's seat, or a person's turn timed out)."""
        return self.made.by_computer


@dataclass(frozen=True, slots=True)
class DealEnded(TableEvent):
    """A deal was scored (``kind`` ``"deal"``)."""

    summary: DealSummary


@dataclass(frozen=True, slots=True)
class TurnPassed(TableEvent):
    """After a request and the computer moves it led to, the turn rests with a person.

    ``kind`` ``"turn"``. Told once the computers stop, so listeners wake one person once.
    """

    user_id: int
    ping: bool
    """Mention them: the turn is newly theirs, they did not make the request, and their
    server mentions players on their turn."""
    requested_by: int | None
    """The person whose request it followed (a move, a start, a timed-out turn)."""
    computer_moves: int
    """Computer moves made since that request: the requester's own view changed too."""


@dataclass(frozen=True, slots=True)
class TableClosed(TableEvent):
    """The game is over and archived (``"finished"``), or the table aborted (``"aborted"``)."""

    place_gone: bool = False
    """Its channel or thread was deleted: there is nowhere left to show it."""


@dataclass(frozen=True, slots=True)
class TableReloaded(TableEvent):
    """The table was read back from the store (``kind`` ``"reloaded"``): show it as stored."""


Listener = Callable[[TableEvent], None]
"""Called with every event, inside the table's lock (keep it quick; it must not raise)."""


def log_event(event: TableEvent) -> None:
    """Log one event: moves at DEBUG, everything else at INFO."""
    log.log(logging.DEBUG if event.kind == "move" else logging.INFO, "%s", event.line())
