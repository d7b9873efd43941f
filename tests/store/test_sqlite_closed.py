"""A closed SQLite connection fails like any store failure: a StoreError saying so.

aiosqlite raises a plain ValueError for every call on a connection it closed; the
store turns exactly that case into a StoreError, and lets a ValueError of an open
connection (bad data: a bug) pass as it is. On a real SQLite file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.store import Database, GuildSettingsRepo, StoreError, TableRepo
from bot.store.sqlite import SqliteDatabase
from bot.tables import Place, Player, SaveFailedError, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.service import SAVE_FAILED

from .conftest import GUILD

CLOSED = "connection to the database file is closed, so nothing was read or saved"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    assert isinstance(database, SqliteDatabase)
    yield database
    await database.close()


async def close_underneath(db: SqliteDatabase) -> None:
    """Close aiosqlite's connection without the Database knowing (it stays open to it)."""
    await db._conn.close()
    assert not db.closed


async def test_every_kind_of_call_on_a_closed_connection_is_a_store_error(
    db: SqliteDatabase,
) -> None:
    await GuildSettingsRepo(db).update(GUILD, ping_after=0)
    await close_underneath(db)
    with pytest.raises(StoreError, match=CLOSED) as read:
        await db.fetch_all("SELECT * FROM guild_settings")
    assert isinstance(read.value.__cause__, ValueError)
    with pytest.raises(StoreError, match=CLOSED):
        await db.execute("DELETE FROM guild_settings")
    with pytest.raises(StoreError, match=CLOSED):
        await db.execute_many("DELETE FROM guild_settings WHERE guild_id = ?", [(GUILD,)])
    with pytest.raises(StoreError, match=CLOSED):
        await db.write_returning("DELETE FROM guild_settings RETURNING guild_id")
    with pytest.raises(StoreError, match=CLOSED):
        async with db.snapshot():
            pass
    with pytest.raises(StoreError, match=CLOSED):
        await TableRepo(db).list_open_tables()
    await db.close()  # closing it afterwards is quiet
    with pytest.raises(StoreError, match="the database is closed"):
        await db.fetch_all("SELECT 1")


async def test_a_connection_closed_inside_a_transaction_fails_it_with_a_store_error(
    db: SqliteDatabase,
) -> None:
    with pytest.raises(StoreError, match=CLOSED):
        async with db.transaction():
            await db.execute("DELETE FROM guild_settings")
            await close_underneath(db)
            await db.execute("DELETE FROM guild_settings")


async def test_a_value_error_on_an_open_connection_is_not_hidden(db: SqliteDatabase) -> None:
    with pytest.raises(ValueError, match="surrogates not allowed") as raised:
        await db.fetch_all("SELECT ?", ("bad \udc80",))
    assert not isinstance(raised.value, StoreError)
    assert [row["one"] for row in await db.fetch_all("SELECT 1 AS one")] == [1]  # works on


async def test_the_table_service_refuses_with_its_sentence_and_changes_nothing(
    db: SqliteDatabase,
) -> None:
    tables = TableService(DatabaseTableStore(db), make_player, seeds=lambda: 5)
    table = await tables.open(Place(GUILD, 10), Player(1, "Alice"))
    await close_underneath(db)
    with pytest.raises(SaveFailedError) as refused:
        await (await tables.fetch(table.id)).lobby.join(Player(2, "Bob"))
    assert str(refused.value) == SAVE_FAILED
    assert table.seat_of(2) is None and table.is_open
