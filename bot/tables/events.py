"""Table events: what happened at a table, one typed event each, on one bus.

Every change the service makes is told to its listeners as a :class:`TableEvent`, which
carries the table as it was then, frozen (:class:`~.snapshots.TableSnapshot`); six
kinds carry what a listener acts on: :class:`MoveMade` (a move saved: who made it, and
whether it should be shown at once), :class:`ClaimMade` (a claim's plays all made),
:class:`DealEnded`, :class:`TurnPassed` (the turn
rests with a person: whom, and when to mention them), :class:`PingDue` (mention them
now) and :class:`TableClosed` (the game over, or the table aborted);
:class:`TableReloaded` says a table was read back from the store. An :class:`EventBus`
tells them to its listeners; each is logged in one line at INFO (moves at DEBUG) by
:func:`log_event`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .public import DealSummary
    from .snapshots import TableSnapshot
    from .table import Move

__all__ = [
    "ClaimMade",
    "DealEnded",
    "EventBus",
    "EventKind",
    "Listener",
    "MoveMade",
    "PingDue",
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
    "claim",
    "deal",
    "turn",
    "ping",
    "finished",
    "aborted",
    "timeout",
    "back",
    "hint",
    "reloaded",
]


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Something that happened at a table, said in one line, with the table as it was then."""

    snapshot: TableSnapshot
    kind: EventKind
    text: str

    @property
    def table_id(self) -> int:
        """The table's id."""
        return self.snapshot.id

    @property
    def move(self) -> Move | None:
        """The move it was, for a :class:`MoveMade`."""
        return None

    def line(self) -> str:
        """The log line: table id, where, what."""
        place = self.snapshot.place
        where = f"guild {place.guild_id}, place {place.id}"
        return f"table {self.snapshot.id} ({where}) {self.kind}: {self.text}"


@dataclass(frozen=True, slots=True)
class MoveMade(TableEvent):
    """A move was applied and saved (``kind`` ``"move"``)."""

    made: Move
    urgent: bool
    """A person waits to see it: their own move, shown before any computer's."""
    claimed: bool = False
    """One of a claim's plays: shown all at once with the claim (:class:`ClaimMade`)."""

    @property
    def move(self) -> Move:
        """The move."""
        return self.made

    @property
    def by_computer(self) -> bool:
        """Whether a computer made it (a computer's seat, or a person's turn timed out)."""
        return self.made.by_computer


@dataclass(frozen=True, slots=True)
class ClaimMade(TableEvent):
    """A seat claimed the rest of the deal and its plays were made (``kind`` ``"claim"``).

    Told once, after the last of those plays: show the table once, with the claim.
    """

    seat: int
    tricks: int
    user_id: int | None
    """The person who claimed from their hand (they wait to see it); None: a computer."""


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
    ping_in: float | None
    """Seconds until they are mentioned unless they act first (:class:`PingDue`; 0: at
    once), within their server's ``ping_after`` and their own ``pings``; None: they are
    not mentioned (they made the request, a computer plays their seat, or nobody wants it)."""
    requested_by: int | None
    """The person whose request it followed (a move, a start, a timed-out turn)."""
    computer_moves: int
    """Computer moves made since that request: the requester's own view changed too."""


@dataclass(frozen=True, slots=True)
class PingDue(TableEvent):
    """The person to act has not acted ``TurnPassed.ping_in`` seconds into their turn.

    ``kind`` ``"ping"``: mention them, once. Never told after they acted.
    """

    user_id: int


@dataclass(frozen=True, slots=True)
class TableClosed(TableEvent):
    """The game is over and archived (``"finished"``), or the table aborted (``"aborted"``)."""

    place_gone: bool = False
    """Its channel or thread was deleted: there is nowhere left to show it."""


@dataclass(frozen=True, slots=True)
class TableReloaded(TableEvent):
    """The table was read back from the store (``kind`` ``"reloaded"``): show it as stored."""


Listener = Callable[[TableEvent], None]
"""Called with every event, inside the table's lock (keep it quick; it must not raise).

An event carries a frozen :class:`~.snapshots.TableSnapshot`, never the table: what a
listener keeps of it stays as it was, whatever the table does next."""


class EventBus:
    """The listeners of a service's tables, each told every event in turn."""

    def __init__(self) -> None:
        """Start with the log (:func:`log_event`) as the only listener."""
        self.listeners: list[Listener] = [log_event]

    def emit(self, event: TableEvent) -> None:
        """Tell every listener; one that raises is logged and the others still hear it."""
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:
                log.exception("table event listener failed on %s", event.line())

    def tell(self, snapshot: TableSnapshot, kind: EventKind, text: str) -> None:
        """Tell every listener a plain event of the table of ``snapshot``."""
        self.emit(TableEvent(snapshot, kind, text))


def log_event(event: TableEvent) -> None:
    """Log one event: moves at DEBUG, everything else at INFO."""
    log.log(logging.DEBUG if event.kind == "move" else logging.INFO, "%s", event.line())
