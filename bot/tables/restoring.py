"""Restarts and reloads: the part of :class:`~bot.tables.service.TableService` that reads the store.

At start-up :meth:`RestoringMixin.restore` loads every open table of this process's
servers. After a write whose answer never came a table is out of step: its next change
first reloads it from the store (:meth:`RestoringMixin._bring_in_step`), and a lobby
whose opening failed is looked for at its place and taken in
(:meth:`RestoringMixin._opening_failed`). The reading itself is in :mod:`bot.tables.reload`.
A button of a table memory no longer knows (closed long ago, or before a restart) is
refused as the store has it: a finished game says it finished, with its result
(:meth:`RestoringMixin.fetch`). What a private hand shows is reloaded first where it
is out of step (:meth:`RestoringMixin.fetch_in_step`).
"""

from __future__ import annotations

import logging

from bot.server.settings import ServerSettings

from .errors import NoTableError, SaveFailedError, TableClosedError, TableError, TableExistsError
from .events import TableReloaded
from .persistence import NewTable, SavedTable
from .reload import answer_lost, is_the_new_table, place_taken, stored_open_at, stored_table
from .service_base import OPEN_UNSURE, SAVE_FAILED, ServiceBase
from .table import Table

__all__ = ["RestoringMixin"]

log = logging.getLogger(__name__)


class RestoringMixin(ServiceBase):
    """Loading tables at start-up and bringing those out of step with the store back in step."""

    async def fetch(self, table_id: int, *, closed: bool = False) -> Table:
        """The table of a button: an open one, or with ``closed`` a recently closed one too.

        Refused as :meth:`get` refuses, except that a table memory does not know is
        looked up in the store: a game that finished says so, as one still in memory does.
        """
        try:
            return self.get_any(table_id) if closed else self.get(table_id)
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
                await self._bring_in_step(table)
        table.require_open()
        return table

    async def _forgotten(self, table_id: int) -> TableError:
        """The refusal of a table memory does not know, from its status in the store.

        A closed one's refusal carries its result, its record replayed, where it replays.
        """
        try:
            row = await self.store.load_table(table_id)
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
        table = self.get_any(table_id)
        async with table.lock:
            await self._bring_in_step(table)
        return table

    async def restore(self) -> list[Table]:
        """Load every open table of this process's servers (at start-up) by replaying its record.

        Each server's lock is taken first, waiting for a process that still holds it,
        and only then are its tables read. A table whose record no longer replays is
        logged and left out; the others load.
        """
        owner = self.ownership
        claimed = sorted(g for g in await self.store.open_guilds() if owner.owns(g))
        for guild in claimed:
            await owner.claim(guild, wait=True)
        restored = []
        settings: dict[int, ServerSettings] = {}
        # Only the servers claimed: one whose first table opened meanwhile is not ours yet.
        for row in await self.store.open_tables(set(claimed).__contains__):
            table = await self._take_in(row, settings)
            if table is not None:
                restored.append(table)
        for guild in claimed:  # none of its tables came back after all
            if not self._has_open(guild):
                await self._release_if_idle(guild)
        return restored

    async def _take_in(self, row: SavedTable, settings: dict[int, ServerSettings]) -> Table | None:
        """Load a stored table into memory, its record replayed; None if it is not open.

        ``settings``: the servers' settings read so far (added to). A game the store has
        over (its last move saved, its archive not) is finished now.
        """
        guild = row.place.guild_id
        if guild not in settings:
            settings[guild] = await self.settings_of(guild)
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
            await self._finish(table)
            return None
        self._open[table.id] = table
        self._by_place[table.place.id] = table.id
        return table

    async def _opening_failed(self, new: NewTable, exc: Exception) -> Table:
        """The store's open table at the place after a failed opening (``_opening`` held).

        When no answer came, or the store has a table there that memory does not know,
        its table there is taken in as a restart would: the lobby asked for (created
        after all) is returned, another table is refused as any existing one is.
        """
        if not (answer_lost(exc) or place_taken(exc)):
            raise self._save_failed(f"opening a table in place {new.place.id}") from exc
        log.warning("place %d: opening a table failed (%s); looking it up", new.place.id, exc)
        sorry = OPEN_UNSURE if answer_lost(exc) else SAVE_FAILED
        try:
            row = await stored_open_at(self.store, new.place)
        except Exception:
            log.exception("place %d: could not look up the store's open table", new.place.id)
            raise SaveFailedError(sorry) from exc
        table = None if row is None else await self._take_in(row, {})
        if table is None:
            raise SaveFailedError(sorry) from exc
        if answer_lost(exc) and row is not None and is_the_new_table(row, new):
            self._tell(table, "opened", "its unanswered opening went through")
            return table
        self._emit(TableReloaded(table, "reloaded", f"taken in from the store ({table.status})"))
        raise TableExistsError.of(table.id) from exc

    async def _bring_in_step(self, table: Table) -> None:
        """Reload a table out of step with the store (its lock held), as a restart would.

        The state the store holds replaces the table's in memory and the table's
        message is redrawn (the ``reloaded`` event); a game the store has over is
        finished, a table it has closed is closed. SaveFailedError if the store can't
        be read: the table stays out of step.
        """
        if not table.out_of_step:
            return
        try:
            stored = await stored_table(self.store, table.id)
        except Exception as exc:
            raise self._save_failed(f"table {table.id}: reloading it from the store") from exc
        table.adopt(stored)
        game = table.game
        # The store has the last move but not the archive: finished as that move would have.
        over = table.status == "playing" and game is not None and game.over
        if over:
            table.status = "finished"
        actions = 0 if game is None else len(game.log)
        self._emit(
            TableReloaded(table, "reloaded", f"from the store: {table.status}, {actions} actions")
        )
        if over:
            await self._finish(table)
        elif not table.is_open:
            self._close(table)
