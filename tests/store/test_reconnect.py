"""A PostgreSQL connection that the server drops: the same Database carries on.

The server drops a connection when it restarts, fails over or an operator ends the
session. Here the session is ended with ``pg_terminate_backend`` (what a restart does
to every session), or the throwaway server itself is stopped and started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest

from bot.rules import game_record
from bot.store import (
    ConnectionLostError,
    Database,
    GameArchiveRepo,
    TableRepo,
    connect,
)
from bot.store.locks import open_guild_locks
from bot.store.postgres import PostgresDatabase
from tests.kit.games import random_game
from tests.kit.postgres_server import PostgresServer
from tests.kit.waiting import BOUND
from tests.league.util import RULES

from .conftest import FOUR_SEATS, GUILD, playing_table


async def backend_pid(db: Database) -> int:
    row = await db.fetch_one("SELECT pg_backend_pid() AS pid")
    assert row is not None
    return int(row["pid"])


async def terminate(url: str, pid: int) -> None:
    """End one session from another, as a server restart ends them all."""
    admin = await asyncpg.connect(url)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        async with asyncio.timeout(BOUND):  # until the session is gone
            while await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
                await asyncio.sleep(0.02)
    finally:
        await admin.close()


def terminate_unseen(url: str, pid: int) -> None:
    """End the session while this event loop stands still, so asyncpg has not seen it yet."""
    done = threading.Thread(target=lambda: asyncio.run(terminate(url, pid)))
    done.start()
    done.join()
    time.sleep(0.1)  # the server's goodbye is on the socket, unread


@contextlib.asynccontextmanager
async def scratch_database(url: str) -> AsyncIterator[Database]:
    """The database at ``url`` with an empty table ``scratch (n INTEGER)`` to write to."""
    async with await Database.open(url) as db:
        await db.execute("CREATE TABLE scratch (n INTEGER)")
        yield db


async def wait_until_waiting(url: str, pid: int, event_type: str) -> None:
    """Until the session waits on ``event_type`` (a lock, a sleep): its statement is running."""
    admin = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(BOUND):
            while (
                await admin.fetchval(
                    "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", pid
                )
                != event_type
            ):
                await asyncio.sleep(0.02)
    finally:
        await admin.close()


def messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("bot.store")]


@pytest.fixture
def store_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    with caplog.at_level(logging.INFO, logger="bot.store"):
        yield caplog


# --------------------------------------------------------------------------- dropped sessions


async def test_a_connection_dropped_while_idle_is_opened_again_by_the_next_call(
    postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    async with await Database.open(postgres_url) as db:
        table_id = await playing_table(db)
        before = await TableRepo(db).get(table_id)
        pid = await backend_pid(db)
        await terminate(postgres_url, pid)
        await asyncio.sleep(0.1)

        assert await TableRepo(db).get(table_id) == before
        assert await backend_pid(db) != pid
    said = messages(store_log)
    assert any("lost the connection to the database" in m for m in said), said
    assert any("connected to the database again" in m for m in said), said


async def test_a_connection_whose_protocol_is_out_of_step_is_given_up_for_a_new_one(
    postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    """asyncpg may find an operation still "in progress" on a connection the server is
    closing: the store says the connection was lost, and the next call connects again."""
    async with await Database.open(postgres_url) as db:
        assert isinstance(db, PostgresDatabase)
        pid = await backend_pid(db)
        out_of_step = "cannot switch to state 11; another operation (2) is in progress"
        with pytest.raises(ConnectionLostError), db._errors():
            raise asyncpg.InternalClientError(out_of_step)

        assert await backend_pid(db) != pid
    said = messages(store_log)
    assert any("lost the connection to the database" in m for m in said), said


async def test_a_drop_met_by_begin_begins_again_on_a_new_connection(postgres_url: str) -> None:
    async with await Database.open(postgres_url) as db:
        table_id = await playing_table(db)
        terminate_unseen(postgres_url, await backend_pid(db))

        await TableRepo(db).set_host(table_id, 42)  # a transaction of its own

        assert (await TableRepo(db).get(table_id)).host_id == 42


async def test_a_read_that_meets_the_drop_runs_again(
    postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    async with await Database.open(postgres_url) as db:
        pid = await backend_pid(db)
        reading = asyncio.create_task(db.fetch_one("SELECT pg_sleep(0.5), 7 AS n"))
        await wait_until_waiting(postgres_url, pid, "Timeout")
        await terminate(postgres_url, pid)

        row = await reading
        assert row is not None and row["n"] == 7
    assert any("lost the connection to the database" in m for m in messages(store_log))


async def test_a_write_that_meets_the_drop_before_commit_runs_again_once(
    postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    async with scratch_database(postgres_url) as db:
        pid = await backend_pid(db)
        writing = asyncio.create_task(db.execute("INSERT INTO scratch SELECT 1 FROM pg_sleep(0.5)"))
        await wait_until_waiting(postgres_url, pid, "Timeout")
        await terminate(postgres_url, pid)

        assert await writing == 1
        assert [r["n"] for r in await db.fetch_all("SELECT n FROM scratch")] == [1]
    assert any("the write runs again on a new connection" in m for m in messages(store_log))


async def test_a_transaction_that_meets_the_drop_saves_nothing_and_says_so(
    postgres_url: str,
) -> None:
    async with scratch_database(postgres_url) as db:
        with pytest.raises(ConnectionLostError) as lost:
            async with db.transaction():
                await db.execute("INSERT INTO scratch VALUES (1)")
                terminate_unseen(postgres_url, await backend_pid(db))
                await db.execute("INSERT INTO scratch VALUES (2)")
        assert not lost.value.unsure
        assert str(lost.value).startswith(f"{db.path}: the connection to the database was lost (")
        assert str(lost.value).endswith("nothing was saved, and the next call connects again")

        assert await db.fetch_all("SELECT n FROM scratch") == []
        await db.execute("INSERT INTO scratch VALUES (3)")
        assert [r["n"] for r in await db.fetch_all("SELECT n FROM scratch")] == [3]


async def test_a_block_that_swallows_the_drop_is_not_committed(postgres_url: str) -> None:
    async with scratch_database(postgres_url) as db:
        with pytest.raises(ConnectionLostError) as lost:
            async with db.transaction():
                await db.execute("INSERT INTO scratch VALUES (1)")
                terminate_unseen(postgres_url, await backend_pid(db))
                with pytest.raises(ConnectionLostError):
                    await db.execute("INSERT INTO scratch VALUES (2)")
        assert not lost.value.unsure  # COMMIT was never sent
        assert await db.fetch_all("SELECT n FROM scratch") == []


async def test_a_commit_whose_answer_was_lost_fails_unsure(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with scratch_database(postgres_url) as db:
        real_control = PostgresDatabase._control

        async def answer_lost(self: PostgresDatabase, sql: str) -> None:
            await real_control(self, sql)
            if sql == "COMMIT":
                self._conn.terminate()
                with self._errors():
                    raise asyncpg.ConnectionDoesNotExistError("connection was closed")

        monkeypatch.setattr(PostgresDatabase, "_control", answer_lost)
        with pytest.raises(ConnectionLostError) as lost:
            async with db.transaction():
                await db.execute("INSERT INTO scratch VALUES (1)")
        monkeypatch.undo()

        assert lost.value.unsure
        assert "lost while committing (connection was closed)" in str(lost.value)
        assert "may or may not have been saved" in str(lost.value)
        assert [r["n"] for r in await db.fetch_all("SELECT n FROM scratch")] == [1]


async def test_an_action_whose_insert_never_committed_is_saved_once(
    postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    async with await Database.open(postgres_url) as db:
        tables = TableRepo(db)
        table_id = await playing_table(db)
        await tables.append_action(table_id, 0, 1, {"do": "pass"})
        admin = await asyncpg.connect(postgres_url)
        try:
            blocker = admin.transaction()
            await blocker.start()
            await admin.execute("LOCK TABLE table_actions IN SHARE ROW EXCLUSIVE MODE")
            pid = await backend_pid(db)
            saving = asyncio.create_task(tables.append_action(table_id, 1, 2, {"do": "pass"}))
            await wait_until_waiting(postgres_url, pid, "Lock")
            await terminate(postgres_url, pid)  # the INSERT dies waiting: never committed
            await blocker.commit()
        finally:
            await admin.close()

        stored = await saving
        assert (stored.idx, stored.seat) == (1, 2)
        assert [(a.idx, a.seat) for a in await tables.load_actions(table_id)] == [(0, 1), (1, 2)]
    assert any("may or may not have been saved" in m for m in messages(store_log))


async def test_an_action_committed_before_its_answer_was_lost_is_not_saved_twice(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Database.open(postgres_url) as db:
        tables = TableRepo(db)
        table_id = await playing_table(db)
        assert isinstance(db, PostgresDatabase)
        real_fetch = PostgresDatabase._fetch

        async def answer_lost(self: PostgresDatabase, sql: str, params: Any) -> Any:
            rows = await real_fetch(self, sql, params)
            if sql.startswith("INSERT INTO table_actions"):
                # The server committed; the connection drops before the answer is read.
                self._conn.terminate()
                raise asyncpg.ConnectionDoesNotExistError("connection was closed")
            return rows

        monkeypatch.setattr(PostgresDatabase, "_fetch", answer_lost)
        stored = await tables.append_action(table_id, 0, 1, {"do": "pass"})
        monkeypatch.undo()

        assert (stored.idx, stored.seat) == (0, 1)
        assert [(a.idx, a.seat) for a in await tables.load_actions(table_id)] == [(0, 1)]


async def test_a_lock_connection_dropped_while_holding_no_lock_connects_again(
    postgres_url: str,
) -> None:
    lost: list[bool] = []
    locks = await open_guild_locks(postgres_url, on_lost=lambda: lost.append(True))
    try:
        admin = await asyncpg.connect(postgres_url)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'euchre-bot' AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        await asyncio.sleep(0.2)
        assert await locks.acquire(GUILD, timeout=0)
        assert locks.holds(GUILD)
        assert lost == []
    finally:
        await locks.close()


# --------------------------------------------------------------------------- a real restart


@pytest.mark.slow  # a server of its own, started and restarted: about 4 s
async def test_the_same_store_carries_on_across_a_server_restart(
    own_postgres_server: PostgresServer, store_log: pytest.LogCaptureFixture
) -> None:
    own_server = own_postgres_server
    url = own_server.url
    async with await Database.open(url) as db:
        tables, archive = TableRepo(db), GameArchiveRepo(db)
        table_id = await playing_table(db)
        await tables.append_action(table_id, 0, 1, {"do": "pass"})
        saved = await tables.get(table_id)

        await asyncio.to_thread(own_server.shut_down)
        await asyncio.to_thread(own_server.start)

        assert await tables.get(table_id) == saved
        record = game_record(random_game(RULES, seed=5, rng_seed=5))
        game = await archive.archive(guild_id=GUILD, record=record, players=FOUR_SEATS, ranked=True)
        assert await archive.record(game.id) == record

        # Down for a while: each call fails with a sentence, and works once it is back.
        await asyncio.to_thread(own_server.shut_down)
        with pytest.raises(ConnectionLostError) as down:
            await tables.get(table_id)
        assert "connecting again failed" in str(down.value)
        assert str(down.value).endswith("nothing was saved, and the next call tries again")
        with pytest.raises(ConnectionLostError):
            await tables.append_action(table_id, 1, 2, {"do": "pass"})
        await asyncio.to_thread(own_server.start)

        await tables.append_action(table_id, 1, 2, {"do": "pass"})
        assert [(a.idx, a.seat) for a in await tables.load_actions(table_id)] == [(0, 1), (1, 2)]
    async with await connect(url) as again:
        assert len(await GameArchiveRepo(again).list_by_guild(GUILD)) == 1
    said = messages(store_log)
    assert sum("connected to the database again" in m for m in said) == 2, said
