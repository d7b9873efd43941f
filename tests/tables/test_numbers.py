"""A table carries its server's number from the store to what people see, in both stores.

The number is the server's own count of its tables; a table stored before numbers were
kept (number NULL) is shown by its id, on Discord as on the web pages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.store import Database, TableRepo
from bot.tables import MemoryTableStore, Place, TableService, TableStore
from bot.tables.database import DatabaseTableStore
from bot.web.live import live_table

from .util import ALICE

ONE, TWO = Place(1, 10), Place(2, 20)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


@pytest.mark.parametrize("kind", ["memory", "database"])
async def test_each_server_counts_its_own_tables(db: Database, kind: str) -> None:
    store: TableStore = MemoryTableStore() if kind == "memory" else DatabaseTableStore(db)
    tables = TableService(store, make_player)
    numbered = []
    for place in (ONE, Place(1, 11), TWO):
        table = await tables.open(place, ALICE)
        numbered.append((table.id, table.number, (await table.snapshot()).public.number))
    assert numbered == [(1, 1, 1), (2, 2, 2), (3, 1, 1)]
    (restored,) = [t for t in await TableService(store, make_player).restore() if t.id == 3]
    assert restored.number == 1
    assert await tables.number_of(3) == 1 and await tables.number_of(404) is None


async def test_a_table_stored_without_a_number_is_shown_by_its_id(db: Database) -> None:
    tables = TableService(DatabaseTableStore(db), make_player)
    await tables.open(ONE, ALICE)
    table = await tables.open(TWO, ALICE)
    await db.execute("UPDATE tables SET number = NULL WHERE id = ?", (table.id,))
    restored = {t.id: t for t in await TableService(DatabaseTableStore(db), make_player).restore()}
    assert restored[table.id].number == table.id == 2
    assert (await restored[table.id].snapshot()).public.number == 2
    assert live_table(await TableRepo(db).get(table.id)).number == 2  # the web page's
