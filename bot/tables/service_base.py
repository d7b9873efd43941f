"""What every piece of :class:`~bot.tables.service.TableService` may count on.

The service is one class made of pieces, each in its own module (playing in
:mod:`bot.tables.playing`, restarts in :mod:`bot.tables.restoring`, absent players in
:mod:`bot.tables.absence`, the rest in :mod:`bot.tables.service`). :class:`ServiceBase`
declares the attributes they share and the helpers one piece calls in another, so each
piece is type-checked on its own; the pieces implement them and ``TableService``
inherits them all. Also here: what a request hands back (:class:`Progress`) and the
sentences of a change the store did not save, which more than one piece says.
"""

from __future__ import annotations

import abc
import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.server.settings import ServerSettings
from bot.server.sources import SettingsSource
from bot.store import ConnectionLostError

from .computers import PlayerFactory
from .errors import SaveFailedError
from .events import EventKind, Listener, TableEvent
from .ownership import Ownership
from .persistence import NewTable, TableStore
from .seats import Player, Seat
from .table import Move, Table

__all__ = [
    "OPEN_UNSURE",
    "SAVE_FAILED",
    "SAVE_UNSURE",
    "Progress",
    "ServiceBase",
    "random_seed",
]

SAVE_FAILED = "Sorry, that couldn't be saved, so nothing changed. Please try again."
SAVE_UNSURE = (
    "Sorry, the database didn't answer, so that may or may not have been saved. "
    "The table will show which in a moment."
)
OPEN_UNSURE = (
    "Sorry, the database didn't answer, so the table may or may not have opened. "
    "Use /euchre new again: it opens one, or shows the one that did."
)

log = logging.getLogger("bot.tables.service")


def random_seed() -> int:
    """A fresh seed for a table's shuffles."""
    return secrets.randbits(31)


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


class ServiceBase(abc.ABC):
    """The attributes and cross-piece helpers of ``TableService`` (set in its ``__init__``)."""

    store: TableStore
    ownership: Ownership
    computers: PlayerFactory
    server_settings: SettingsSource
    listeners: list[Listener]
    computing: dict[int, int]
    halting: bool
    computer_move_delay: float
    play_on: bool
    _turns: set[asyncio.Task[None]]
    _seeds: Callable[[], int]
    _keep_closed: int
    _open: dict[int, Table]
    _by_place: dict[int, int]
    _closed: OrderedDict[int, Table]
    _opening: asyncio.Lock
    _releasing: set[asyncio.Task[None]]

    # Finding tables (service.py).

    @abc.abstractmethod
    async def settings_of(self, guild_id: int) -> ServerSettings:
        """The settings of a server."""

    @abc.abstractmethod
    def get(self, table_id: int) -> Table:
        """An open table; TableClosedError or NoTableError otherwise."""

    @abc.abstractmethod
    def get_any(self, table_id: int) -> Table:
        """An open table, or a recently closed one."""

    # Playing and inside the lock (service.py).

    @abc.abstractmethod
    async def _play_computer(self, table: Table, *, for_seat: int | None = None) -> Move:
        """A computer's move at ``table`` (whose lock the caller holds)."""

    @abc.abstractmethod
    async def _save_seats(self, table: Table, before: list[Seat | None]) -> None:
        """Save the table's seats; ``before`` put back and SaveFailedError if the store can't."""

    @abc.abstractmethod
    async def _save_move(self, table: Table, move: Move, *, urgent: bool) -> bool:
        """Save an applied move; False when the store had it already (the table reloaded)."""

    @abc.abstractmethod
    async def _finish(self, table: Table) -> None:
        """Archive a game that is over and close its table."""

    @abc.abstractmethod
    def _progress(self, table: Table, moves: Iterable[Move]) -> Progress:
        """What a request changed: ``moves`` and whom to mention."""

    @abc.abstractmethod
    def _close(self, table: Table) -> None:
        """Forget an open table (kept among the recently closed ones)."""

    @abc.abstractmethod
    def _has_open(self, guild_id: int) -> bool:
        """Whether a server has a table open."""

    @abc.abstractmethod
    async def _release_if_idle(self, guild_id: int) -> None:
        """Let the server's lock go unless a table of it opened meanwhile."""

    @abc.abstractmethod
    def _emit(self, event: TableEvent) -> None:
        """Tell every listener what happened."""

    def _tell(self, table: Table, kind: EventKind, text: str) -> None:
        """Tell every listener a plain event of ``table``."""
        self._emit(TableEvent(table, kind, text))

    @abc.abstractmethod
    async def _carry_on(self, table: Table, requested_by: int | None, *, tell_turn: bool) -> None:
        """After a request (the table's lock held): the computers play on, or a person is told."""

    @staticmethod
    def _save_failed(
        what: str, table: Table | None = None, exc: BaseException | None = None
    ) -> SaveFailedError:
        """The refusal of a change the store failed to save (called while handling ``exc``).

        When no answer came (``unsure``), the store may hold the change after all:
        ``table`` is marked out of step, and the person is told it may have been saved.
        """
        log.exception("Store failure while %s", what)
        if table is not None and isinstance(exc, ConnectionLostError) and exc.unsure:
            table.out_of_step = True
            log.warning("table %d: out of step with the store until it is reloaded", table.id)
            return SaveFailedError(SAVE_UNSURE)
        return SaveFailedError(SAVE_FAILED)

    # Restarts and reloads (restoring.py).

    @abc.abstractmethod
    async def fetch(self, table_id: int, *, closed: bool = False) -> Table:
        """The table of a button (open, or recently closed too); refused as the store has it."""

    @abc.abstractmethod
    async def fetch_in_step(self, table_id: int) -> Table:
        """The open table of a button, reloaded first where it is out of step with the store."""

    @abc.abstractmethod
    async def _opening_failed(self, new: NewTable, exc: Exception) -> Table:
        """The store's open table at the place after a failed opening (``_opening`` held)."""

    @abc.abstractmethod
    async def _bring_in_step(self, table: Table) -> None:
        """Reload a table out of step with the store (its lock held), as a restart would."""

    # Absent players (absence.py).

    @abc.abstractmethod
    async def _take_over(self, table: Table, player: Player, seat: int | None) -> Table:
        """A member takes over a computer's seat during a game."""
