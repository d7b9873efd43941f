"""The table service on the store (SQLite or PostgreSQL): :class:`DatabaseTableStore`.

An adapter from the service's :class:`~bot.tables.persistence.TableStore` to the
repositories of :mod:`bot.store`. (Each server's settings come from
:class:`bot.store.server_settings.StoredSettings`.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, cast, get_args

from bot.store import ComputerLevel, Database, GameArchiveRepo, TableRepo
from bot.store import Seat as StoreSeat
from bot.store import StoredTable as StoreTable

from .persistence import NewTable, Place, SavedTable, TableStatus
from .seats import Seat

__all__ = ["DatabaseTableStore"]

_LEVELS: Final = get_args(ComputerLevel)


def _store_seats(seats: Sequence[Seat | None]) -> list[StoreSeat]:
    out = []
    for number, seat in enumerate(seats):
        if seat is None:
            continue
        if seat.user_id is None:
            level = cast(ComputerLevel, seat.level) if seat.level in _LEVELS else "basic"
            out.append(StoreSeat.computer(number, seat.name, level))
        else:
            out.append(StoreSeat.person(number, seat.user_id, seat.name, away=seat.away))
    return out


def _seats(stored: StoreTable) -> list[Seat | None]:
    seats: list[Seat | None] = [None] * stored.rules.players
    for s in stored.seats:
        seats[s.seat] = Seat(s.display_name, user_id=s.user_id, level=s.computer_level, away=s.away)
    return seats


def _saved(stored: StoreTable) -> SavedTable:
    return SavedTable(
        id=stored.id,
        place=Place(stored.guild_id, stored.channel_id, stored.thread_id),
        host_id=stored.host_id,
        status=stored.status,
        rules=stored.rules,
        seed=stored.seed,
        seats=_seats(stored),
        message_id=stored.message_id,
        actions=[dict(a.action) for a in stored.actions],
        actors=[None if a.actor is None else dict(a.actor) for a in stored.actions],
        rules_overridden=stored.rules_overridden,
        hinted=stored.hinted,
        number=stored.number,
    )


class DatabaseTableStore:
    """Tables in the database: one row per table, its seats, one row per action."""

    def __init__(self, db: Database) -> None:
        """Work on ``db``."""
        self._db = db
        self._tables = TableRepo(db)
        self._games = GameArchiveRepo(db)

    async def create_table(self, new: NewTable) -> SavedTable:
        """Save a new lobby and return it as saved (its id and its number)."""
        stored = await self._tables.create(
            guild_id=new.place.guild_id,
            channel_id=new.place.channel_id,
            thread_id=new.place.thread_id,
            host_id=new.host_id,
            rules=new.rules,
            seed=new.seed,
            seats=_store_seats(new.seats),
            rules_overridden=new.rules_overridden,
        )
        return _saved(stored)

    async def save_seats(self, table_id: int, seats: Sequence[Seat | None]) -> None:
        """Replace the table's seats."""
        await self._tables.set_seats(table_id, _store_seats(seats))

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus | None = None,
        host_id: int | None = None,
        message_id: int | None = None,
        hinted: bool | None = None,
    ) -> None:
        """Change the fields given (None: left as it is)."""
        async with self._db.transaction():
            if host_id is not None:
                await self._tables.set_host(table_id, host_id)
            if status is not None:
                await self._tables.set_status(table_id, status)
            if message_id is not None:
                await self._tables.set_message_ids(table_id, message_id=message_id)
            if hinted:
                await self._tables.set_hinted(table_id)

    async def append_action(
        self,
        table_id: int,
        idx: int,
        seat: int,
        action: dict[str, Any],
        actor: dict[str, Any] | None = None,
    ) -> None:
        """Save action ``idx`` of the table's game, with who made it."""
        await self._tables.append_action(table_id, idx, seat, action, actor)

    async def finish_table(
        self,
        table_id: int,
        status: TableStatus,
        record: dict[str, Any] | None,
        *,
        stopped: str | None = None,
    ) -> None:
        """Close the table; a finished game goes to the archive with its players.

        So does a ``stopped`` one (its finished deals, never rated).
        """
        async with self._db.transaction():
            stored = await self._tables.set_status(table_id, status)
            kept = status == "finished" or stopped is not None
            if kept and record is not None:
                await self._games.archive(
                    guild_id=stored.guild_id,
                    record=record,
                    players=list(stored.seats),
                    ranked=stopped is None
                    and not stored.hinted
                    and not any(s.is_computer or s.away for s in stored.seats),
                    table_id=table_id,
                    started_at=stored.created_at,
                    stopped=stopped,
                )

    async def load_table(self, table_id: int) -> SavedTable:
        """One table with its seats and actions, whatever its status."""
        return _saved(await self._tables.get(table_id))

    async def open_tables(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[SavedTable]:
        """Every table in its lobby or playing (of the guilds ``guild_filter`` accepts)."""
        return [_saved(t) for t in await self._tables.list_open_tables(guild_filter)]

    async def open_guilds(self) -> set[int]:
        """The guilds with a table in its lobby or playing."""
        return await self._tables.open_guild_ids()
