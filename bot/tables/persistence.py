"""How tables are saved: the :class:`TableStore` protocol and an in-memory implementation.

A table is kept as its game record (record-format.md): the rules and seed it opened
with, its seats, and one entry per action in order. The service saves every change
inside the table's lock before it answers, so a restored table is the record
replayed. The repositories of :mod:`bot.store` implement the same protocol.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.rules import HouseRules
from bot.store import OpenTableExistsError

from .seats import Seat

__all__ = [
    "OPEN_STATUSES",
    "MemoryTableStore",
    "NewTable",
    "Place",
    "SavedTable",
    "TableStatus",
    "TableStore",
]

TableStatus = Literal["lobby", "playing", "finished", "aborted"]
OPEN_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table sits: a guild's channel, or a thread of that channel."""

    guild_id: int
    channel_id: int
    thread_id: int | None = None

    @property
    def id(self) -> int:
        """The channel or thread the table's messages go to (one open table per place)."""
        return self.thread_id if self.thread_id is not None else self.channel_id


@dataclass(frozen=True, slots=True)
class NewTable:
    """What the store needs to open a table."""

    place: Place
    host_id: int
    rules: HouseRules
    """Copied when the table opens: later changes to the server's rules never reach it."""
    seed: int
    seats: tuple[Seat | None, ...]
    rules_overridden: bool = False
    """The host changed the server's house rules for this table (casual for the league)."""


@dataclass(slots=True)
class SavedTable:
    """A table as the store keeps it; enough to rebuild it by replaying ``actions``."""

    id: int
    place: Place
    host_id: int
    status: TableStatus
    rules: HouseRules
    seed: int
    seats: list[Seat | None]
    message_id: int | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    """Record-format action objects, each with its ``seat``."""
    actors: list[dict[str, Any] | None] = field(default_factory=list)
    """Who made each of ``actions`` (:meth:`Seat.to_json`); None or missing: not noted."""
    record: dict[str, Any] | None = None
    """The finished game's record, once the table is finished."""
    rules_overridden: bool = False
    """The host changed the server's house rules for this table."""
    hinted: bool = False
    """Someone at the table asked for a hint: its game is casual."""
    number: int | None = None
    """The server's own count of its tables (1, 2, 3...); None: written without one."""

    @property
    def opened(self) -> NewTable:
        """What the store was asked to open: the lobby this table began as."""
        return NewTable(
            self.place,
            self.host_id,
            self.rules,
            self.seed,
            tuple(self.seats),
            self.rules_overridden,
        )


class TableStore(Protocol):
    """What the table service needs from storage. Every method may raise on failure."""

    async def create_table(self, new: NewTable) -> SavedTable:
        """Save a new lobby and return it as saved: its id (never reused) and its number."""
        ...

    async def save_seats(self, table_id: int, seats: Sequence[Seat | None]) -> None:
        """Replace the table's seats."""
        ...

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus | None = None,
        host_id: int | None = None,
        message_id: int | None = None,
        hinted: bool | None = None,
    ) -> None:
        """Change the fields given."""
        ...

    async def append_action(
        self,
        table_id: int,
        idx: int,
        seat: int,
        action: dict[str, Any],
        actor: dict[str, Any] | None = None,
    ) -> None:
        """Save action number ``idx`` (0-based, in order) of the table's game.

        ``actor``: who sat in the seat when it was made (:meth:`Seat.to_json`).
        """
        ...

    async def finish_table(
        self,
        table_id: int,
        status: TableStatus,
        record: dict[str, Any] | None,
        *,
        stopped: str | None = None,
    ) -> None:
        """Close the table as ``finished`` (with its game record) or ``aborted``.

        ``stopped``: an aborted game archived all the same, its ``record`` cut to its
        finished deals, with this reason (never rated).
        """
        ...

    async def load_table(self, table_id: int) -> SavedTable:
        """One table as it is stored, whatever its status (to bring memory back in step)."""
        ...

    async def open_tables(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[SavedTable]:
        """Every table still in its lobby or playing (of the guilds accepted), for a restart."""
        ...

    async def open_guilds(self) -> set[int]:
        """The guilds that have a table in its lobby or playing."""
        ...


class MemoryTableStore:
    """A :class:`TableStore` in a dict: for tests, and until a database is configured."""

    def __init__(self) -> None:
        """Start empty."""
        self.tables: dict[int, SavedTable] = {}
        self._next_id = 1

    def _get(self, table_id: int) -> SavedTable:
        try:
            return self.tables[table_id]
        except KeyError:
            raise LookupError(f"no table {table_id}") from None

    async def create_table(self, new: NewTable) -> SavedTable:
        """Save a new lobby and return it; OpenTableExistsError if the place has one.

        Tables are numbered per server, as the database numbers them.
        """
        for row in self.tables.values():
            if row.place.id == new.place.id and row.status in OPEN_STATUSES:
                raise OpenTableExistsError(f"place {new.place.id} already has open table {row.id}")
        table_id = self._next_id
        self._next_id += 1
        guild = new.place.guild_id
        number = 1 + sum(row.place.guild_id == guild for row in self.tables.values())
        self.tables[table_id] = SavedTable(
            id=table_id,
            place=new.place,
            host_id=new.host_id,
            status="lobby",
            rules=new.rules,
            seed=new.seed,
            seats=list(new.seats),
            rules_overridden=new.rules_overridden,
            number=number,
        )
        return copy.deepcopy(self.tables[table_id])

    async def save_seats(self, table_id: int, seats: Sequence[Seat | None]) -> None:
        """Replace the table's seats."""
        self._get(table_id).seats = list(seats)

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus | None = None,
        host_id: int | None = None,
        message_id: int | None = None,
        hinted: bool | None = None,
    ) -> None:
        """Change the fields given."""
        row = self._get(table_id)
        if hinted is not None:
            row.hinted = hinted
        if status is not None:
            row.status = status
        if host_id is not None:
            row.host_id = host_id
        if message_id is not None:
            row.message_id = message_id

    async def append_action(
        self,
        table_id: int,
        idx: int,
        seat: int,
        action: dict[str, Any],
        actor: dict[str, Any] | None = None,
    ) -> None:
        """Save action ``idx``; refuse a gap or a repeat, as the database does."""
        row = self._get(table_id)
        if idx != len(row.actions):
            raise ValueError(f"table {table_id}: action {idx} given, {len(row.actions)} expected")
        row.actions.append({**action, "seat": seat})
        row.actors.append(None if actor is None else dict(actor))

    async def finish_table(
        self,
        table_id: int,
        status: TableStatus,
        record: dict[str, Any] | None,
        *,
        stopped: str | None = None,
    ) -> None:
        """Close the table (a stopped game's record is kept as a finished one's)."""
        row = self._get(table_id)
        row.status = status
        row.record = copy.deepcopy(record)

    async def load_table(self, table_id: int) -> SavedTable:
        """One table (a copy)."""
        return copy.deepcopy(self._get(table_id))

    async def open_tables(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[SavedTable]:
        """Every open table, oldest first (copies)."""
        return [
            copy.deepcopy(row)
            for row in self.tables.values()
            if row.status in OPEN_STATUSES
            and (guild_filter is None or guild_filter(row.place.guild_id))
        ]

    async def open_guilds(self) -> set[int]:
        """The guilds with an open table."""
        return {row.place.guild_id for row in self.tables.values() if row.status in OPEN_STATUSES}
