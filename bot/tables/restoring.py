"""Taking tables in from the store: at start-up, and after an opening whose answer was lost.

:meth:`Restorer.take_in` loads one stored table into the registry, its record replayed
(:meth:`~bot.tables.service.TableService.restore` does it for every open table of this
process's servers); a lobby whose opening failed is looked for at its place and taken
in (:meth:`Restorer.opening_failed`). A table out of step is reloaded by the
:class:`~bot.tables.saver.Saver`; a button of a table memory no longer knows is refused
as the store has it (:meth:`~bot.tables.registry.Registry.fetch`). The reading itself
is in :mod:`bot.tables.reload`.
"""

from __future__ import annotations

import logging

from bot.server.settings import ServerSettings

from .crew import Crew
from .errors import SaveFailedError, TableExistsError
from .events import TableReloaded
from .live import LiveTable
from .persistence import NewTable, SavedTable
from .registry import Registry
from .reload import answer_lost, is_the_new_table, place_taken, stored_open_at
from .saver import OPEN_UNSURE, SAVE_FAILED

__all__ = ["Restorer"]

log = logging.getLogger(__name__)


class Restorer:
    """Stored tables taken into memory: at start-up, and after a lost opening."""

    def __init__(self, registry: Registry, crew: Crew) -> None:
        """Tables kept in ``registry``, built with ``crew`` and read through its store."""
        self.registry = registry
        self.crew = crew
        self.saver = crew.saver

    async def take_in(
        self, row: SavedTable, settings: dict[int, ServerSettings]
    ) -> LiveTable | None:
        """Load a stored table into memory, its record replayed; None if it is not open.

        ``settings``: the servers' settings read so far (added to). A game the store has
        over (its last move saved, its archive not) is finished now.
        """
        guild = row.place.guild_id
        if guild not in settings:
            settings[guild] = await self.crew.server_settings.get(guild)
        try:
            table = LiveTable.of_saved(self.crew, row, settings[guild])
        except Exception:
            log.exception("table %d: its record does not replay; not restored", row.id)
            return None
        if not table.is_open:
            return None
        self.registry.add(table)
        if table.game is not None and table.game.over:
            table.status = "finished"
            await self.saver.finish(table)  # kept among the recently closed
            return None
        return table

    async def opening_failed(self, new: NewTable, exc: Exception) -> LiveTable:
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
        table = None if row is None else await self.take_in(row, {})
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
        raise TableExistsError.of(table.id, table.number) from exc
