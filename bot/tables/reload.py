"""Reading tables back from the store when memory may no longer match it.

After a write whose answer never came (``ConnectionLostError`` marked ``unsure``) the
store may hold the change or not: what it holds is read back and replaces what memory
has, as a restart would load it. A lobby whose creation got no answer, or one the
store refuses to open again because it has one at that place already, is found by
its place. The service registers what these return (:mod:`bot.tables.restoring`).
"""

from __future__ import annotations

import logging

from bot.store import ConnectionLostError, OpenTableExistsError, shown_number

from .errors import NoTableError, TableClosedError, TableError
from .persistence import NewTable, Place, SavedTable, TableStore
from .table import Table

__all__ = [
    "answer_lost",
    "forgotten",
    "is_the_new_table",
    "place_taken",
    "stored_open_at",
    "stored_table",
]

log = logging.getLogger("bot.tables.restoring")


def answer_lost(exc: BaseException) -> bool:
    """Whether ``exc`` is a write whose outcome is unknown: the store may hold it or not."""
    return isinstance(exc, ConnectionLostError) and exc.unsure


def place_taken(exc: BaseException) -> bool:
    """Whether ``exc`` is the store refusing a second open table at one place."""
    return isinstance(exc, OpenTableExistsError)


async def stored_table(store: TableStore, table_id: int) -> Table:
    """The table as the store holds it, its record replayed (the store's errors pass on)."""
    return Table.restore(await store.load_table(table_id))


async def stored_open_at(store: TableStore, place: Place) -> SavedTable | None:
    """The store's table in its lobby or playing at ``place``, if it has one."""
    rows = await store.open_tables(lambda guild_id: guild_id == place.guild_id)
    return next((row for row in rows if row.place.id == place.id), None)


def is_the_new_table(row: SavedTable, new: NewTable) -> bool:
    """Whether ``row`` is the lobby ``new`` asked for: its host and seed, untouched since."""
    return (
        row.host_id == new.host_id
        and row.seed == new.seed
        and row.status == "lobby"
        and row.message_id is None
        and not row.actions
    )


async def forgotten(store: TableStore, table_id: int) -> TableError:
    """The refusal of a table memory does not know, from its status in ``store``.

    A closed one's refusal carries its result, its record replayed, where it replays.
    """
    try:
        row = await store.load_table(table_id)
    except LookupError:
        return NoTableError.of()
    except Exception:
        log.warning("table %d: could not look it up in the store", table_id, exc_info=True)
        return NoTableError.of()
    number = shown_number(row.number, row.id)
    if row.status not in ("finished", "aborted"):
        # Another process's, or opened since this one started.
        return NoTableError.of(number)
    try:
        public = Table.restore(row).public()
    except Exception:
        log.warning("table %d: its record does not replay", table_id, exc_info=True)
        public = None
    return TableClosedError.of(number, row.status, public)
