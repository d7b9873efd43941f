"""The open tables of the process: by id and by place, and the recently closed ones.

:class:`Registry` is what the :class:`~bot.tables.service.TableService` is: every table
looked up by id, place or person. It refuses a table it does not have as a button should
be answered (:meth:`Registry.get`; :meth:`Registry.fetch` asks the store about one memory
no longer holds), keeps ``keep_closed`` closed tables so their buttons answer sensibly
and "Play again" works, and lets a server's lock go once its last table closes
(:class:`~bot.tables.ownership.Ownership`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from bot.store import shown_number

from .errors import NoTableError, TableClosedError
from .live import LiveTable
from .ownership import Ownership
from .persistence import TableStore
from .reload import forgotten
from .table import Table

__all__ = ["Registry"]

log = logging.getLogger(__name__)


class Registry:
    """Every open table by id and by place; the last ``keep_closed`` closed ones."""

    def __init__(self, store: TableStore, ownership: Ownership, *, keep_closed: int = 256) -> None:
        """Tables of the servers ``ownership`` gives this process, saved in ``store``."""
        self.store = store
        self.ownership = ownership
        self.keep_closed = keep_closed
        self.opening = asyncio.Lock()
        """Held while a table opens (and while a server's lock is let go)."""
        self._open: dict[int, LiveTable] = {}
        self._by_place: dict[int, int] = {}
        self._closed: OrderedDict[int, LiveTable] = OrderedDict()
        self._releasing: set[asyncio.Task[None]] = set()

    @property
    def open_tables(self) -> list[LiveTable]:
        """Every table in its lobby or playing."""
        return list(self._open.values())

    def open_one(self, table_id: int) -> LiveTable | None:
        """The open table of that id, if there is one."""
        return self._open.get(table_id)

    def get(self, table_id: int) -> LiveTable:
        """An open table; TableClosedError or NoTableError otherwise."""
        table = self._open.get(table_id)
        if table is not None:
            return table
        closed = self._closed.get(table_id)
        if closed is not None:
            raise TableClosedError.of(closed.number, closed.status, closed.public())
        raise NoTableError.of()

    def get_any(self, table_id: int) -> LiveTable:
        """An open table, or a recently closed one."""
        table = self._open.get(table_id) or self._closed.get(table_id)
        if table is None:
            self.get(table_id)  # raises the right refusal
        assert table is not None
        return table

    async def number_of(self, table_id: int) -> int | None:
        """The number people see of table ``table_id``, from memory or else from the store.

        None when neither has the table.
        """
        table = self._open.get(table_id) or self._closed.get(table_id)
        if table is not None:
            return table.number
        try:
            row = await self.store.load_table(table_id)
        except LookupError:
            return None
        return shown_number(row.number, row.id)

    def at(self, place_id: int) -> LiveTable | None:
        """The open table of a channel or thread."""
        table_id = self._by_place.get(place_id)
        return None if table_id is None else self._open[table_id]

    def tables_of(self, user_id: int) -> list[LiveTable]:
        """The open tables where a user sits."""
        return [t for t in self._open.values() if t.seat_of(user_id) is not None]

    def hosted_by(self, user_id: int) -> list[LiveTable]:
        """The open tables a user sits at and hosts."""
        return [t for t in self.tables_of(user_id) if t.host_id == user_id]

    def find(self, place_id: int, user_id: int) -> LiveTable:
        """The table of this place, else the only table the user sits at."""
        table = self.at(place_id)
        if table is not None:
            return table
        mine = self.tables_of(user_id)
        if len(mine) == 1:
            return mine[0]
        if mine:
            raise NoTableError(
                "There's no table here, and you sit at several: use this in a table's channel."
            )
        raise NoTableError("There's no table here: start one with /euchre new.")

    async def fetch(self, table_id: int, *, closed: bool = False) -> LiveTable:
        """The table of a button: an open one, or with ``closed`` a recently closed one too.

        Refused as :meth:`get` refuses, except that a table memory does not know is
        looked up in the store: a game that finished says so, as one in memory does.
        """
        try:
            return self.get_any(table_id) if closed else self.get(table_id)
        except NoTableError:
            raise await forgotten(self.store, table_id) from None

    async def fetch_in_step(self, table_id: int) -> LiveTable:
        """The open table of a button, in step with the store: what a hand shows is stored.

        Refused as :meth:`fetch` refuses; a table out of step is reloaded first, and is
        refused if the store has it closed (a game it has over finishes now).
        SaveFailedError if the store can't be read: the table stays out of step.
        """
        table = await self.fetch(table_id)
        if table.out_of_step:
            await table.reload()
        table.require_open()
        return table

    def add(self, table: LiveTable) -> None:
        """Keep an open table, at its place."""
        self._open[table.id] = table
        self._by_place[table.place.id] = table.id

    def close(self, table: Table) -> None:
        """Forget an open table (kept among the recently closed ones)."""
        live = self._open.pop(table.id, None)
        if self._by_place.get(table.place.id) == table.id:
            del self._by_place[table.place.id]
        guild = table.place.guild_id
        if self.ownership.locks is not None and not self.has_open(guild):
            release = asyncio.get_running_loop().create_task(self.release_if_idle(guild))
            self._releasing.add(release)
            release.add_done_callback(self._releasing.discard)
        if live is not None:
            self._closed[table.id] = live
        while len(self._closed) > self.keep_closed:
            self._closed.popitem(last=False)

    def has_open(self, guild_id: int) -> bool:
        """Whether a server has a table open."""
        return any(t.place.guild_id == guild_id for t in self._open.values())

    async def release_if_idle(self, guild_id: int) -> None:
        """Let the server's lock go unless a table of it opened meanwhile (opening holds it)."""
        async with self.opening:
            if not self.has_open(guild_id):
                try:
                    await self.ownership.release(guild_id)
                except Exception:
                    log.exception("guild %d: could not let its lock go", guild_id)
