"""A PostgreSQL server that stops answering without closing the connection.

A host gone without a word (a network split, a frozen machine) leaves the store's
statement waiting; the store gives it up after its bound and carries on like after a
dropped connection. Here a loopback proxy (tests/kit/tcp_proxy.py) between the store and
the test server stops forwarding without closing anything, then forwards again.
The bound is small (0.3 s) to keep these tests quick. Each call meeting the split is
also watched (:func:`no_hang`), only so that a store that does hang fails the test
instead of holding up the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from bot.players import make_player
from bot.store import ConnectionLostError, Database, StoreError, TableRepo
from bot.store.locks import GuildLocks, open_guild_locks
from bot.tables import Place, Player, SaveFailedError, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.service import SAVE_UNSURE
from tests.kit.postgres_server import PostgresServer
from tests.kit.tcp_proxy import BlackHoleProxy

from .conftest import GUILD

pytestmark = pytest.mark.slow  # every test waits out its bound: about 9 s in all

BOUND = 0.3
"""The store's bound in these tests: seconds a statement, or connecting, may take."""

HANGS_AFTER = 5.0
"""A call still waiting this long hangs: the test fails rather than wait for the OS."""


@contextlib.asynccontextmanager
async def no_hang(proxy: BlackHoleProxy) -> AsyncIterator[None]:
    """Fail the block with TimeoutError if it still waits after :data:`HANGS_AFTER`.

    A cancelled statement is let finish by the store, so the proxy's connections are
    closed then too, for the waiting statement to end.
    """
    cut = asyncio.get_running_loop().call_later(HANGS_AFTER, proxy.cut)
    try:
        async with asyncio.timeout(HANGS_AFTER):
            yield
    finally:
        cut.cancel()


ALICE = Player(101, "Alice")


@pytest.fixture
async def proxy(postgres_server: PostgresServer) -> AsyncIterator[BlackHoleProxy]:
    """A proxy to the session's server, forwarding until told to stop."""
    black_hole = BlackHoleProxy(postgres_server.port)
    await black_hole.start()
    yield black_hole
    await black_hole.close()


@pytest.fixture
async def db(postgres_url: str, proxy: BlackHoleProxy) -> AsyncIterator[Database]:
    """The store, through the proxy, with the small bound."""
    database = await Database.open(proxy.url_of(postgres_url), timeout=BOUND)
    yield database
    proxy.resume()
    await database.close()


@pytest.fixture
def store_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    with caplog.at_level(logging.INFO, logger="bot.store"):
        yield caplog


def messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("bot.store")]


async def direct(url: str, sql: str) -> list[asyncpg.Record]:
    """Rows read straight from the server, not through the proxy."""
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql))
    finally:
        await conn.close()


async def session_of(db: Database) -> int:
    row = await db.fetch_one("SELECT pg_backend_pid() AS pid")
    assert row is not None
    return int(row["pid"])


# --------------------------------------------------------------------------- reads and writes


async def test_a_read_that_gets_no_answer_fails_within_the_bound_and_the_next_call_works(
    db: Database, proxy: BlackHoleProxy, store_log: pytest.LogCaptureFixture
) -> None:
    assert await db.fetch_one("SELECT 1 AS one") is not None
    proxy.stop()
    with pytest.raises(ConnectionLostError) as lost:
        async with no_hang(proxy):
            await db.fetch_one("SELECT 2 AS two")
    assert lost.value.timed_out and not lost.value.unsure
    assert str(lost.value) == (
        f"{db.path}: the connection to the database was lost (no answer within 0.3 s); "
        "nothing was saved, and the next call connects again"
    )
    # Still no answer: the next call's new connection gets none either, and says so.
    with pytest.raises(ConnectionLostError) as again:
        async with no_hang(proxy):
            await db.fetch_one("SELECT 3 AS three")
    assert again.value.timed_out
    assert "connecting again failed (no answer within 0.3 s)" in str(again.value)

    proxy.resume()
    row = await db.fetch_one("SELECT 4 AS four")
    assert row is not None and row["four"] == 4
    said = messages(store_log)
    assert any("lost the connection to the database (no answer within 0.3 s)" in m for m in said)
    assert any("connected to the database again" in m for m in said), said


async def test_a_transaction_that_gets_no_answer_saves_nothing(
    db: Database, proxy: BlackHoleProxy, postgres_url: str
) -> None:
    await db.execute("CREATE TABLE scratch (n INTEGER)")
    with pytest.raises(ConnectionLostError) as lost:
        async with no_hang(proxy), db.transaction():
            await db.execute("INSERT INTO scratch VALUES (1)")
            proxy.stop()
            await db.execute("INSERT INTO scratch VALUES (2)")
    assert lost.value.timed_out and not lost.value.unsure  # COMMIT was never sent

    proxy.resume()  # the held INSERT arrives late, then the closed connection
    assert await db.fetch_all("SELECT n FROM scratch") == []
    await db.execute("INSERT INTO scratch VALUES (3)")
    assert [r["n"] for r in await direct(postgres_url, "SELECT n FROM scratch")] == [3]


async def test_a_write_of_its_own_that_gets_no_answer_is_not_run_again(
    db: Database, proxy: BlackHoleProxy, postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    await db.execute("CREATE TABLE scratch (n INTEGER)")
    proxy.stop()
    with pytest.raises(ConnectionLostError) as lost:
        async with no_hang(proxy):
            await db.execute("INSERT INTO scratch VALUES (1)")
    assert lost.value.timed_out and not lost.value.unsure
    assert "lost (no answer within 0.3 s); nothing was saved" in str(lost.value)
    assert not any("runs again" in m for m in messages(store_log))

    proxy.resume(deliver=False)
    assert await direct(postgres_url, "SELECT n FROM scratch") == []
    assert await db.execute("INSERT INTO scratch VALUES (2)") == 1
    assert [r["n"] for r in await db.fetch_all("SELECT n FROM scratch")] == [2]


async def test_a_commit_whose_answer_never_came_is_unsure(
    db: Database, proxy: BlackHoleProxy, postgres_url: str
) -> None:
    await db.execute("CREATE TABLE scratch (n INTEGER)")
    with pytest.raises(ConnectionLostError) as lost:
        async with no_hang(proxy), db.transaction():
            await db.execute("INSERT INTO scratch VALUES (1)")
            proxy.stop(after_request=True)  # COMMIT reaches the server; its answer does not
    assert lost.value.unsure and lost.value.timed_out
    assert "lost while committing (no answer within 0.3 s)" in str(lost.value)
    assert "may or may not have been saved" in str(lost.value)

    proxy.resume(deliver=False)
    assert [r["n"] for r in await db.fetch_all("SELECT n FROM scratch")] == [1]


async def test_calls_waiting_their_turn_fail_with_the_one_that_got_no_answer(
    db: Database, proxy: BlackHoleProxy, store_log: pytest.LogCaptureFixture
) -> None:
    proxy.stop()
    async with no_hang(proxy):
        results = await asyncio.gather(
            *(db.fetch_one(f"SELECT {n} AS n") for n in range(4)), return_exceptions=True
        )
    first, *queued = results
    assert isinstance(first, ConnectionLostError) and first.timed_out
    for error in queued:  # none of them waited the bound again
        assert isinstance(error, ConnectionLostError) and error.timed_out
        assert str(error) == (
            f"{db.path}: the database did not answer another call (no answer within 0.3 s) "
            "while this one waited its turn; nothing was saved, and the next call tries again"
        )
    assert not any("connecting again failed" in m for m in messages(store_log))

    proxy.resume()
    row = await db.fetch_one("SELECT 5 AS n")
    assert row is not None and row["n"] == 5


async def test_a_call_cancelled_while_it_gets_no_answer_still_gives_the_connection_up(
    db: Database, proxy: BlackHoleProxy, store_log: pytest.LogCaptureFixture
) -> None:
    proxy.stop()
    reading = asyncio.create_task(db.fetch_one("SELECT 1 AS one"))
    await asyncio.sleep(0.05)
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        async with no_hang(proxy):
            await reading  # the store lets the statement end first: within the bound

    proxy.resume(deliver=False)
    row = await db.fetch_one("SELECT 2 AS two")
    assert row is not None and row["two"] == 2
    said = messages(store_log)
    assert any("SELECT 1 AS one failed while cancelled" in m for m in said), said


async def test_connecting_to_a_server_that_does_not_answer_fails_within_the_bound(
    postgres_url: str, proxy: BlackHoleProxy
) -> None:
    proxy.stop()
    with pytest.raises(StoreError) as refused:
        async with no_hang(proxy):
            await Database.open(proxy.url_of(postgres_url), timeout=BOUND)
    assert str(refused.value).endswith(": no answer within 0.3 s")
    assert str(refused.value).startswith("cannot connect to the database postgresql://")


# --------------------------------------------------------------------------- the session given up


async def test_the_session_given_up_is_ended_so_its_row_locks_do_not_block_the_next_write(
    db: Database, proxy: BlackHoleProxy, postgres_url: str, store_log: pytest.LogCaptureFixture
) -> None:
    await db.execute("CREATE TABLE scratch (n INTEGER PRIMARY KEY, v INTEGER)")
    await db.execute("INSERT INTO scratch VALUES (1, 0)")
    given_up = await session_of(db)
    with pytest.raises(ConnectionLostError):
        async with no_hang(proxy), db.transaction():
            await db.execute("UPDATE scratch SET v = 1 WHERE n = 1")  # the row is locked
            proxy.stop()
            await db.execute("UPDATE scratch SET v = 2 WHERE n = 1")
    # The split outlasts TCP: the server never hears that the client gave up, so its
    # session stays in the transaction, holding the row's lock.
    proxy.resume(deliver=False)
    waiting = await direct(
        postgres_url, f"SELECT state FROM pg_stat_activity WHERE pid = {given_up}"
    )
    assert [r["state"] for r in waiting] == ["idle in transaction"]

    # Unbounded (but guarded): on a loaded machine the old session may take longer than
    # the test's short bound to end; what matters is that it ends and frees the row.
    with db.unbounded():
        updated = await asyncio.wait_for(db.execute("UPDATE scratch SET v = 3 WHERE n = 1"), 5)
    assert updated == 1

    assert [r["v"] for r in await direct(postgres_url, "SELECT v FROM scratch")] == [3]
    gone = await direct(postgres_url, f"SELECT pid FROM pg_stat_activity WHERE pid = {given_up}")
    assert gone == []
    said = messages(store_log)
    assert any(f"ended session {given_up}, given up without an answer" in m for m in said), said


# --------------------------------------------------------------------------- a player's click


async def test_a_move_whose_save_gets_no_answer_is_unsure_and_the_table_reloads_next(
    db: Database, proxy: BlackHoleProxy
) -> None:
    tables = TableService(DatabaseTableStore(db), make_player, seeds=lambda: 5)
    table = await tables.open(Place(GUILD, 10), ALICE)
    for _ in range(3):
        await (await tables.fetch(table.id)).lobby.add_computer(ALICE.user_id)
    await (await tables.fetch(table.id)).lobby.start(ALICE.user_id)
    await tables.get_any(table.id).turns.run_computers()
    seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
    before = table.record()

    proxy.stop()
    with pytest.raises(SaveFailedError) as refused:
        async with no_hang(proxy):
            await (await tables.fetch(table.id)).turns.act(
                ALICE.user_id, seat, table.stamp, view.legal[0]
            )
    assert str(refused.value) == SAVE_UNSURE
    assert table.record() == before and table.out_of_step

    proxy.resume(deliver=False)  # the held INSERT never arrives: the store lacks the move
    # Connecting again (and ending the old session) may take longer than the small
    # bound on a busy machine: what is checked here is the reload, not the bound.
    with db.unbounded():
        await (await tables.fetch(table.id)).turns.act(
            ALICE.user_id, seat, table.stamp, view.legal[0]
        )
        await tables.settle()  # the computers play on after the move, each move saved
    assert table.record() != before and not table.out_of_step
    stored = await TableRepo(db).get(table.id)
    assert [a.action for a in stored.actions] == table.record()["actions"]


# --------------------------------------------------------------------------- guild locks


@pytest.fixture
async def watched_locks(
    postgres_url: str, proxy: BlackHoleProxy
) -> AsyncIterator[tuple[GuildLocks, list[bool]]]:
    """Guild locks through the proxy, and a True each time they told the process they are lost."""
    lost: list[bool] = []
    locks = await open_guild_locks(
        proxy.url_of(postgres_url), on_lost=lambda: lost.append(True), timeout=BOUND
    )
    try:
        yield locks, lost
    finally:
        await locks.close()


async def test_a_lock_whose_answer_never_came_is_freed_by_the_next_connection(
    proxy: BlackHoleProxy, watched_locks: tuple[GuildLocks, list[bool]]
) -> None:
    locks, lost = watched_locks
    # Once prepared, the lock statement is one request: the split comes after it.
    assert await locks.acquire(GUILD + 1, timeout=0)
    await locks.release(GUILD + 1)
    proxy.stop(after_request=True)  # the server grants the lock; the answer is lost
    with pytest.raises(StoreError) as failed:
        async with no_hang(proxy):
            await locks.acquire(GUILD, timeout=0)
    assert str(failed.value).endswith(f"cannot take guild {GUILD}'s lock: no answer within 0.3 s")
    assert not locks.holds(GUILD)

    proxy.resume(deliver=False)  # the session that holds it lives on, unheard of
    assert await locks.acquire(GUILD, timeout=0)
    assert locks.holds(GUILD)
    assert lost == []  # it held no lock when it gave the connection up


async def test_a_lock_connection_that_gets_no_answer_while_holding_locks_stops_the_process(
    proxy: BlackHoleProxy, watched_locks: tuple[GuildLocks, list[bool]]
) -> None:
    locks, lost = watched_locks
    try:
        assert await locks.acquire(GUILD, timeout=0)
        proxy.stop()
        with pytest.raises(StoreError):
            async with no_hang(proxy):
                await locks.acquire(GUILD + 1, timeout=0)
        await asyncio.sleep(0)  # the connection's termination is told on the next turn
        assert lost == [True]
        assert not locks.holds(GUILD)
    finally:
        proxy.resume()
