"""Restarts and reloads: the piece of the table service that reads the store.

At start-up :meth:`Restorer.restore` loads every open table of this process's servers.
A lobby whose opening failed is looked for at its place and taken in
(:meth:`Restorer.opening_failed`); a table out of step is reloaded by the
:class:`~bot.tables.saver.Saver`. The reading itself is in :mod:`bot.tables.reload`.
A button of a table memory no longer knows (closed long ago, or before a restart) is
refused as the store has it: a finished game says it finished, with its result
(:meth:`Restorer.fetch`). What a private hand shows is reloaded first where it is out
of step (:meth:`Restorer.fetch_in_step`).
"""

from __future__ import annotations

import logging

from bot.server.settings import ServerSettings
from bot.server.sources import SettingsSource

from .errors import NoTableError, SaveFailedError, TableClosedError, TableError, TableExistsError
from .events import TableReloaded
from .persistence import NewTable, SavedTable
from .registry import Registry
from .reload import answer_lost, is_the_new_table, place_taken, stored_open_at
from .saver import OPEN_UNSURE, SAVE_FAILED, Saver
from .table import Table

__all__ = ["Restorer"]

log = logging.getLogger(__name__)


class Restorer:
    """Loading tables at start-up, and answering for tables memory does not hold."""

    def __init__(
        self,
        registry: Registry,
        saver: Saver,
        server_settings: SettingsSource,
        *,
        computer_move_delay: float,
    ) -> None:
        """Tables kept in ``registry`` and read through ``saver``'s store.

        Each is built with its server's settings and the service's ``computer_move_delay``.
        """
        self.registry = registry
        self.saver = saver
        self.server_settings = server_settings
        self.computer_move_delay = computer_move_delay

    async def fetch(self, table_id: int, *, closed: bool = False) -> Table:
        """The table of a button: an open one, or with ``closed`` a recently closed one too.

        Refused as :meth:`Registry.get` refuses, except that a table memory does not know
        is looked up in the store: a game that finished says so, as one in memory does.
        """
        try:
            return self.registry.get_any(table_id) if closed else self.registry.get(table_id)
        except NoTableError:
            raise await self._forgotten(table_id) from None

    async def fetch_in_step(self, table_id: int) -> Table:
        """The open table of a button, in step with the store: what a hand shows is stored.

        Refused as :meth:`fetch` refuses; a table out of step is reloaded first, and is
        refused if the store has it closed (a game it has over finishes now).
        SaveFailedError if the store can't be read: the table stays out of step.
        """
        table = await self.fetch(table_id)
        if table.out_of_step:
            async with table.lock:
                await self.saver.bring_in_step(table)
        table.require_open()
        return table

    async def _forgotten(self, table_id: int) -> TableError:
        """The refusal of a table memory does not know, from its status in the store.

        A closed one's refusal carries its result, its record replayed, where it replays.
        """
        try:
            row = await self.saver.store.load_table(table_id)
        except LookupError:
            return NoTableError.of(table_id)
        except Exception:
            log.warning("table %d: could not look it up in the store", table_id, exc_info=True)
            return NoTableError.of(table_id)
        if row.status not in ("finished", "aborted"):
            # Another process's, or opened since this one started.
            return NoTableError.of(table_id)
        try:
            public = Table.restore(row).public()
        except Exception:
            log.warning("table %d: its record does not replay", table_id, exc_info=True)
            public = None
        return TableClosedError.of(table_id, row.status, public)

    async def reload(self, table_id: int) -> Table:
        """Bring a table out of step with the store back in step now (else nothing happens).

        SaveFailedError if the store can't be read: the table stays out of step.
        """
        table = self.registry.get_any(table_id)
        async with table.lock:
            await self.saver.bring_in_step(table)
        return table

    async def restore(self) -> list[Table]:
        """Load every open table of this process's servers (at start-up) by replaying its record.

        Each server's lock is taken first, waiting for a process that still holds it,
        and only then are its tables read. A table whose record no longer replays is
        logged and left out; the others load.
        """
        owner = self.registry.ownership
        store = self.saver.store
        claimed = sorted(g for g in await store.open_guilds() if owner.owns(g))
        for guild in claimed:
            await owner.claim(guild, wait=True)
        restored = []
        settings: dict[int, ServerSettings] = {}
        # Only the servers claimed: one whose first table opened meanwhile is not ours yet.
        for row in await store.open_tables(set(claimed).__contains__):
            table = await self._take_in(row, settings)
            if table is not None:
                restored.append(table)
        for guild in claimed:  # none of its tables came back after all
            if not self.registry.has_open(guild):
                await self.registry.release_if_idle(guild)
        return restored

    async def _take_in(self, row: SavedTable, settings: dict[int, ServerSettings]) -> Table | None:
        """Load a stored table into memory, its record replayed; None if it is not open.

        ``settings``: the servers' settings read so far (added to). A game the store has
        over (its last move saved, its archive not) is finished now.
        """
        guild = row.place.guild_id
        if guild not in settings:
            settings[guild] = await self.server_settings.get(guild)
        try:
            table = Table.restore(
                row, settings=settings[guild], computer_move_delay=self.computer_move_delay
            )
        except Exception:
            log.exception("table %d: its record does not replay; not restored", row.id)
            return None
        if not table.is_open:
            return None
        if table.game is not None and table.game.over:
            table.status = "finished"
            await self.saver.finish(table)
            return None
        self.registry.add(table)
        return table

    async def opening_failed(self, new: NewTable, exc: Exception) -> Table:
        """The store's open table at the place after a failed opening (the opening lock held).

        When no answer came, or the store has a table there that memory does not know,
        its table there is taken in as a restart would: the lobby asked for (created
        after all) is returned, another table is refused as any existing one is.
        """
        if not (answer_lost(exc) or place_taken(exc)):
            raise self.saver.failed(f"opening a table in place {new.place.id}") from exc
        log.warning("place %d: opening a table failed (%s); looking it up", new.place.id, exc)
        sorry = OPEN_UNSURE if answer_lost(exc) else SAVE_FAILED
        try:
            row = await stored_open_at(self.saver.store, new.place)
        except Exception:
            log.exception("place %d: could not look up the store's open table", new.place.id)
            raise SaveFailedError(sorry) from exc
        table = None if row is None else await self._take_in(row, {})
        if table is None:
            raise SaveFailedError(sorry) from exc
        if answer_lost(exc) and row is not None and is_the_new_table(row, new):
            await self.saver.tell(table, "opened", "its unanswered opening went through")
            return table
        self.saver.events.emit(
            TableReloaded(
                await self.saver.snapshot(table),
                "reloaded",
                f"taken in from the store ({table.status})",
            )
        )
        raise TableExistsError.of(table.id) from exc
