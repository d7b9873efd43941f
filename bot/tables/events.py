"""Table events: one line each in the log at INFO (moves at DEBUG), and hooks for listeners."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .table import Move, Table

__all__ = ["EventKind", "Listener", "TableEvent", "log_event"]

log = logging.getLogger("bot.tables")

EventKind = Literal[
    "opened",
    "seated",
    "left",
    "host",
    "started",
    "move",
    "deal",
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
    move: Move | None = None

    def line(self) -> str:
        """The log line: table id, where, what."""
        where = f"guild {self.table.place.guild_id}, place {self.table.place.id}"
        return f"table {self.table.id} ({where}) {self.kind}: {self.text}"


Listener = Callable[[TableEvent], None]
"""Called with every event, inside the table's lock (keep it quick; it must not raise)."""


def log_event(event: TableEvent) -> None:
    """Log one event: moves at DEBUG, everything else at INFO."""
    log.log(logging.DEBUG if event.kind == "move" else logging.INFO, "%s", event.line())
