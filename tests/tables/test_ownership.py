"""Shards and guild locks: a process serves only its servers, and never one another holds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.players import make_player
from bot.store import Database
from bot.store.locks import GuildLocks, open_guild_locks
from bot.tables import Place, Player, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.errors import TableMovingError
from bot.tables.ownership import Ownership, shard_of
from tests.kit.waiting import until

pytestmark = pytest.mark.slow

# Guild ids whose shard of 2 is known: (id >> 22) % 2.
ON_SHARD_0 = 1 << 23
ON_SHARD_1 = (1 << 23) + (1 << 22)
ALICE, BOB = Player(101, "Alice"), Player(102, "Bob")


def test_a_guild_belongs_to_the_shard_discord_sends_it_to() -> None:
    assert (shard_of(ON_SHARD_0, 2), shard_of(ON_SHARD_1, 2)) == (0, 1)
    assert shard_of(81384788765712384, 1) == 0
    only_one = Ownership.of(2, [1])
    assert (only_one.owns(ON_SHARD_0), only_one.owns(ON_SHARD_1)) == (False, True)
    assert Ownership().owns(ON_SHARD_0) and Ownership.of(2, []).owns(ON_SHARD_0)


class Process:
    """What one bot process has: its database connection, guild locks and table service."""

    def __init__(self, db: Database, locks: GuildLocks, tables: TableService) -> None:
        self.db, self.locks, self.tables = db, locks, tables

    async def close(self) -> None:
        await self.locks.close()
        await self.db.close()


@pytest.fixture
async def processes(postgres_url: str) -> AsyncIterator[list[Process]]:
    made: list[Process] = []
    yield made
    for process in made:
        await process.close()


async def start(url: str, shards: list[int], made: list[Process]) -> Process:
    db = await Database.open(url)
    locks = await open_guild_locks(url)
    ownership = Ownership.of(2, shards, locks)
    process = Process(
        db, locks, TableService(DatabaseTableStore(db), make_player, ownership=ownership)
    )
    made.append(process)
    return process


async def test_each_process_restores_only_the_tables_of_its_shards(
    postgres_url: str, processes: list[Process]
) -> None:
    both = await start(postgres_url, [0, 1], processes)
    zero = await both.tables.open(Place(ON_SHARD_0, 10), ALICE)
    one = await both.tables.open(Place(ON_SHARD_1, 20), BOB)
    await both.close()
    processes.remove(both)

    first = await start(postgres_url, [0], processes)
    second = await start(postgres_url, [1], processes)
    assert [t.id for t in await first.tables.restore()] == [zero.id]
    assert [t.id for t in await second.tables.restore()] == [one.id]
    assert first.locks.holds(ON_SHARD_0) and not first.locks.holds(ON_SHARD_1)


async def test_a_restarted_process_waits_for_its_predecessor_then_takes_over(
    postgres_url: str, processes: list[Process]
) -> None:
    old = await start(postgres_url, [0], processes)
    table = await old.tables.open(Place(ON_SHARD_0, 10), ALICE)

    new = await start(postgres_url, [0], processes)
    restoring = asyncio.create_task(new.tables.restore())
    await asyncio.sleep(0.5)
    assert not restoring.done()  # the old process still holds the server
    await (await old.tables.fetch(table.id)).lobby.join(BOB)  # and keeps acting on it meanwhile
    with pytest.raises(TableMovingError, match="handed to another process"):
        await new.tables.open(Place(ON_SHARD_0, 11), BOB)

    await old.close()  # stopped (or killed: the same for PostgreSQL)
    processes.remove(old)
    (restored,) = await asyncio.wait_for(restoring, 5)
    assert restored.id == table.id
    assert [s.user_id if s else None for s in restored.seats][:2] == [ALICE.user_id, BOB.user_id]
    other = await new.tables.open(Place(ON_SHARD_0, 11), BOB)
    assert other.id > table.id


async def test_a_server_is_let_go_when_its_last_table_here_closes(
    postgres_url: str, processes: list[Process]
) -> None:
    first = await start(postgres_url, [0], processes)
    second = await start(postgres_url, [0], processes)
    one = await first.tables.open(Place(ON_SHARD_0, 10), ALICE)
    two = await first.tables.open(Place(ON_SHARD_0, 11), BOB)
    await (await first.tables.fetch(one.id)).lobby.abort(ALICE.user_id)
    await asyncio.sleep(0.1)
    assert first.locks.holds(ON_SHARD_0)  # table two is still open here
    with pytest.raises(TableMovingError):
        await second.tables.open(Place(ON_SHARD_0, 12), BOB)

    await (await first.tables.fetch(two.id)).lobby.abort(BOB.user_id)
    await until(lambda: not first.locks.holds(ON_SHARD_0), "the server let go")
    taken = await second.tables.open(Place(ON_SHARD_0, 12), BOB)
    assert second.locks.holds(ON_SHARD_0) and taken.id > two.id
