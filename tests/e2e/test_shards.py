"""Two bot processes, shards 0 and 1 of 2, sharing one PostgreSQL: one killed, the other plays on.

Discord sends a guild's events to the gateway connection of its shard only, so here
each shard's guild lives in a fake Discord of its own (one guild per fake), and each
process connects to the fake of its shard; what they share is the store. A game is
played in each guild; the process of shard 0 is killed with ``kill -9`` in the middle
of its game while shard 1's game goes on, then restarted. Both games end; every
acknowledged move is in the shared archive; each process acted only on its own
table, under its guild's advisory lock.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.rules import replay
from tests.e2e.test_real_process import (
    archived_records,
    assert_acknowledged_kept,
    assert_clean,
    seat_and_start,
)
from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord
from tests.kit.fake_players import EuchreTable, Players

pytestmark = pytest.mark.slow


@pytest.fixture
async def fakes() -> AsyncIterator[tuple[FakeDiscord, FakeDiscord]]:
    async with (
        FakeDiscord(members=("alice", "bob"), shard=(0, 2)) as zero,
        FakeDiscord(members=("carol", "dave"), shard=(1, 2)) as one,
    ):
        yield zero, one


async def guild_locks(url: str) -> dict[int, int]:
    """The guild locks held now: guild id -> the PostgreSQL backend holding it."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pid, (classid::bigint << 32) | objid::bigint AS key FROM pg_locks "
            "WHERE locktype = 'advisory' AND granted AND objsubid = 1"
        )
    finally:
        await conn.close()
    return {int(r["key"]): int(r["pid"]) for r in rows}


def tables_acted_on(bot: BotProcess) -> set[int]:
    """The tables this process logged an event of (opened, seated, started, deal...)."""
    return {int(m) for m in re.findall(r"\btable (\d+) \(guild", bot.log_text())}


async def play_some(players: Players, clicks: int) -> None:
    target = len(players.clicks) + clicks
    assert await players.play(stop=lambda choice: len(players.clicks) >= target) is not None


async def test_two_shards_share_postgresql_and_survive_kill_9_of_one(
    fakes: tuple[FakeDiscord, FakeDiscord], postgres_url: str, tmp_path: Path
) -> None:
    zero_fake, one_fake = fakes
    bots = [
        BotProcess(
            fake,
            tmp_path / f"shard-{shard}",
            options={"database_url": postgres_url, "shard_count": 2, "shard_ids": [shard]},
        )
        for shard, fake in enumerate(fakes)
    ]
    zero, one = bots
    try:
        await asyncio.gather(zero.start(), one.start())
        assert [f.identifies[-1]["shard"] for f in fakes] == [[0, 2], [1, 2]]

        alice, bob = zero_fake.member("alice"), zero_fake.member("bob")
        carol, dave = one_fake.member("carol"), one_fake.member("dave")
        table_zero = await EuchreTable.open(zero_fake, alice)
        table_one = await EuchreTable.open(one_fake, carol)
        await seat_and_start(table_zero, alice, bob)
        await seat_and_start(table_one, carol, dave)
        players_zero = Players(table_zero, [alice, bob])
        players_one = Players(table_one, [carol, dave])
        await asyncio.gather(players_zero.open_hands(), players_one.open_hands())

        locks = await guild_locks(postgres_url)
        assert set(locks) == {zero_fake.guild_id, one_fake.guild_id}
        assert locks[zero_fake.guild_id] != locks[one_fake.guild_id]

        await asyncio.gather(play_some(players_zero, 4), play_some(players_one, 4))
        await zero.kill()
        await play_some(players_one, 6)  # shard 1 plays on while shard 0 is down
        await zero.start()
        await players_zero.open_hands()
        assert await guild_locks(postgres_url) != locks  # shard 0 holds its guild anew

        assert await asyncio.gather(players_zero.play(), players_one.play()) == [None, None]
        assert (table_zero.status, table_one.status) == ("finished", "finished")
        assert await asyncio.gather(zero.stop(), one.stop()) == [0, 0]
    finally:
        for bot in bots:
            await bot.kill()
            print(bot.tail(100))

    for fake, players in ((zero_fake, players_zero), (one_fake, players_one)):
        (record,) = await archived_records(zero, fake.guild_id)  # one shared store
        result = replay(record)
        assert result.error is None and result.game.over
        assert_acknowledged_kept(record, players)
    restored = re.findall(r"Restored (\d+) open table\(s\)", zero.log_text())
    assert restored == ["0", "1"]  # the restarted shard 0 took its table back
    assert tables_acted_on(zero) == {table_zero.id}
    assert tables_acted_on(one) == {table_one.id}
    assert (zero.starts, zero.kills, one.starts, one.kills) == (2, 1, 1, 0)
    assert_clean(zero_fake, zero)
    assert_clean(one_fake, one)
