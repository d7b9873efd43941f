"""The Database object: pragmas, transactions, savepoints, cancellation, closing.

On both back ends (``db``, ``db_url``), except what only SQLite has (files, pragmas).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.store import ConstraintError, Database, GuildSettingsRepo, StoreError, check_writable

from .conftest import GUILD


async def count(db: Database) -> int:
    row = await db.fetch_one("SELECT COUNT(*) AS n FROM guild_settings")
    assert row is not None
    return int(row["n"])


async def insert(db: Database, guild_id: int) -> None:
    await GuildSettingsRepo(db).update(guild_id, ping_after=0)


async def test_open_creates_the_folder_and_sets_the_pragmas(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert db_path.is_file()
        pragmas = {}
        for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous"):
            row = await db.fetch_one(f"PRAGMA {name}")
            assert row is not None
            pragmas[name] = row[0]
        assert pragmas == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "busy_timeout": 5000,
            "synchronous": 1,  # NORMAL
        }
    assert db.closed


async def test_close_is_idempotent_and_a_closed_database_refuses_work(db_url: str) -> None:
    db = await Database.open(db_url)
    await db.close()
    await db.close()
    with pytest.raises(StoreError, match="closed"):
        await count(db)
    with pytest.raises(StoreError, match="closed"):
        async with db.transaction():
            pass


async def test_reopening_keeps_the_data(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        await insert(db, GUILD)
    async with await Database.open(db_url) as db:
        assert (await GuildSettingsRepo(db).get(GUILD)).ping_after == 0


async def test_a_failing_transaction_leaves_nothing(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await insert(db, 1)
            assert await count(db) == 1  # visible inside
            raise RuntimeError("boom")
    assert await count(db) == 0


async def test_a_nested_transaction_is_a_savepoint(db: Database) -> None:
    async with db.transaction():
        await insert(db, 1)
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await insert(db, 2)
                raise RuntimeError("inner")
        async with db.transaction():
            await insert(db, 3)
    rows = await db.fetch_all("SELECT guild_id FROM guild_settings ORDER BY guild_id")
    assert [r["guild_id"] for r in rows] == [1, 3]


async def test_constraint_failures_are_store_errors(db: Database) -> None:
    with pytest.raises(ConstraintError, match=r"(?i)unique"):
        async with db.transaction():
            for _ in range(2):
                await db.execute(
                    "INSERT INTO seasons (guild_id, name, started_at) VALUES (1, 'x', 'now')"
                )


async def test_a_read_waits_for_another_coroutines_transaction(db: Database) -> None:
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with db.transaction():
            await insert(db, 1)
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    reader = asyncio.create_task(count(db))
    await asyncio.sleep(0.05)
    assert not reader.done()  # never sees the uncommitted row
    release.set()
    await task
    assert await reader == 1


async def test_cancelling_inside_a_transaction_rolls_back_and_frees_the_database(
    db: Database,
) -> None:
    inside = asyncio.Event()

    async def stuck() -> None:
        async with db.transaction():
            await insert(db, 1)
            inside.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stuck())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await count(db) == 0
    await insert(db, 2)
    assert await count(db) == 1


async def test_cancelling_while_the_transaction_begins_does_not_leave_it_open(
    db: Database,
) -> None:
    # Cancel after 0, 1, 2... loop turns: during BEGIN, the statements, COMMIT.
    landed = 0
    for turns in range(40):
        task = asyncio.create_task(insert(db, 100 + turns))
        for _ in range(turns):
            await asyncio.sleep(0)
        task.cancel()
        outcome = (await asyncio.gather(task, return_exceptions=True))[0]
        assert outcome is None or isinstance(outcome, asyncio.CancelledError)
        assert not db._connection_in_transaction()
        landed = await count(db)
    # how many land depends on timing; what matters is that none is left half-open
    assert landed <= 40
    await insert(db, 1)
    assert await count(db) == landed + 1


async def test_the_clock_stamps_rows(db_url: str) -> None:
    moment = datetime(2030, 5, 6, 7, 8, 9, tzinfo=UTC)
    async with await Database.open(db_url, clock=lambda: moment) as db:
        settings = await GuildSettingsRepo(db).update(GUILD, allow_computers=False)
        assert settings.updated_at == moment
        assert (await GuildSettingsRepo(db).get(GUILD)).updated_at == moment


async def test_close_inside_a_transaction_is_refused(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(StoreError, match="inside a transaction"):
            await db.close()


async def test_an_in_memory_database_works_for_quick_tests() -> None:
    async with await Database.open(":memory:") as db:
        await insert(db, GUILD)
        assert await count(db) == 1


async def test_a_string_path_works_and_migrate_is_exported(tmp_path: Path) -> None:
    import bot.store

    path = str(tmp_path / "a" / "b" / "euchre.sqlite3")
    assert await bot.store.migrate(path) == (0, bot.store.latest_version())
    async with await Database.open(path) as db:
        assert db.path == path


async def test_a_snapshot_reads_one_state_and_refuses_writes(db_url: str) -> None:
    async with await Database.open(db_url) as db, await Database.open(db_url) as other:
        await insert(db, 1)
        async with db.snapshot():
            assert await count(db) == 1
            await insert(other, 2)  # another connection commits meanwhile
            assert await count(db) == 1
            with pytest.raises(StoreError, match="inside a snapshot"):
                async with db.transaction():
                    pass
        assert await count(db) == 2
        async with db.transaction(), db.snapshot():  # inside a transaction: that transaction
            await insert(db, 3)
            assert await count(db) == 3


async def test_a_sqlite_url_names_the_file_relative_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with await Database.open("sqlite:///data/euchre.sqlite3") as db:
        await insert(db, GUILD)
        assert db.path == "data/euchre.sqlite3"
    assert (tmp_path / "data" / "euchre.sqlite3").is_file()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://x@host/db", "mysql: not a known database"),
        ("sqlite:///", "name the SQLite file"),
        ("sqlite://relative.db", "an SQLite URL is sqlite:/// and the file's path, as in"),
        ("sqlite:relative.db", "or sqlite:////srv/euchre.sqlite3"),
        ("SQLite:///x.db", "an SQLite URL is sqlite:///"),
        ("postgresql:///euchre", "name the server"),
    ],
)
async def test_an_unusable_url_is_a_clear_error(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        await Database.open(url)


async def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot connect to the database") as caught:
        await Database.open("postgresql://bot:hunter2@127.0.0.1:1/euchre")
    assert "hunter2" not in str(caught.value)
    assert "bot:***@127.0.0.1:1" in str(caught.value)


def test_placeholders_are_numbered_for_postgresql_outside_quotes() -> None:
    from bot.store.postgres import numbered

    assert numbered("SELECT ? FROM t WHERE a = '?' AND b = ? AND c IN (?, ?)") == (
        "SELECT $1 FROM t WHERE a = '?' AND b = $2 AND c IN ($3, $4)"
    )


async def test_transactions_of_two_databases_nest_in_one_task(db_url: str, other_url: str) -> None:
    async with await Database.open(db_url) as one, await Database.open(other_url) as two:
        async with one.transaction(), two.snapshot():
            await insert(one, 1)
            assert await count(two) == 0
        with pytest.raises(RuntimeError):
            async with two.transaction(), one.transaction():
                await insert(two, 2)
                await insert(one, 3)
                raise RuntimeError("both roll back")
        assert (await count(one), await count(two)) == (1, 0)


async def test_the_health_check_commits_a_write_that_changes_nothing(db_url: str) -> None:
    with pytest.raises(StoreError, match=r"does not exist|has no schema yet"):
        await check_writable(db_url)
    async with await Database.open(db_url) as db:
        await insert(db, GUILD)
        version = db.schema_version
    await check_writable(db_url, wait_ms=100)
    async with await Database.open(db_url) as db:
        assert (db.schema_version, await count(db)) == (version, 1)
