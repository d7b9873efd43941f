"""Concurrent writers: two connections on one file, many coroutines on one connection."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.store import Database, GuildSettingsRepo, TableRepo

from .conftest import CHANNEL, GUILD, playing_table

REPO = Path(__file__).resolve().parents[2]
ACTIONS = 150


async def append_passes(db: Database, table_id: int, count: int) -> None:
    tables = TableRepo(db)
    for idx in range(count):
        await tables.append_action(table_id, idx, idx % 4, {"do": "pass"})


def expected(count: int) -> list[dict[str, object]]:
    return [{"seat": idx % 4, "do": "pass"} for idx in range(count)]


async def test_two_connections_append_to_different_tables_at_once(db_url: str) -> None:
    first = await Database.open(db_url)
    second = await Database.open(db_url)
    try:
        one = await playing_table(first, channel_id=CHANNEL)
        two = await playing_table(second, channel_id=CHANNEL + 1)
        await asyncio.gather(
            append_passes(first, one, ACTIONS), append_passes(second, two, ACTIONS)
        )
    finally:
        await first.close()
        await second.close()
    async with await Database.open(db_url) as db:
        tables = TableRepo(db)
        for table_id in (one, two):
            actions = await tables.load_actions(table_id)
            assert [a.action for a in actions] == expected(ACTIONS)
            assert [a.idx for a in actions] == list(range(ACTIONS))


async def test_another_process_appends_while_this_one_does(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        one = await playing_table(db, channel_id=CHANNEL)
        two = await playing_table(db, channel_id=CHANNEL + 1)
        script = (
            "import asyncio, sys\n"
            "from bot.store import Database, TableRepo\n"
            "async def main():\n"
            "    async with await Database.open(sys.argv[1]) as db:\n"
            "        print('ready', flush=True)\n"
            "        for i in range(int(sys.argv[3])):\n"
            "            await TableRepo(db).append_action(int(sys.argv[2]), i, i % 4, {'do': 'pass'})\n"
            "asyncio.run(main())\n"
        )
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            script,
            db_url,
            str(two),
            str(ACTIONS),
            cwd=REPO,
            stdout=asyncio.subprocess.PIPE,
        )
        assert child.stdout is not None
        assert await child.stdout.readline() == b"ready\n"
        await append_passes(db, one, ACTIONS)
        assert await child.wait() == 0
        tables = TableRepo(db)
        for table_id in (one, two):
            assert [a.action for a in await tables.load_actions(table_id)] == expected(ACTIONS)


async def test_coroutines_on_one_connection_never_interleave_transactions(db: Database) -> None:
    one = await playing_table(db, channel_id=CHANNEL)
    two = await playing_table(db, channel_id=CHANNEL + 1)
    await asyncio.gather(append_passes(db, one, ACTIONS), append_passes(db, two, ACTIONS))
    tables = TableRepo(db)
    for table_id in (one, two):
        assert [a.action for a in await tables.load_actions(table_id)] == expected(ACTIONS)


async def test_read_then_write_in_a_transaction_is_never_lost(db: Database) -> None:
    table_id = await playing_table(db)
    tables = TableRepo(db)

    async def append_next(seat: int) -> None:
        async with db.transaction():
            following = len(await tables.load_actions(table_id))
            await asyncio.sleep(0)  # let every other coroutine try to get in
            await tables.append_action(table_id, following, seat, {"do": "pass"})

    await asyncio.gather(*(append_next(n % 4) for n in range(40)))
    actions = await tables.load_actions(table_id)
    assert [a.idx for a in actions] == list(range(40))


async def test_concurrent_setting_changes_all_land(db: Database) -> None:
    repo = GuildSettingsRepo(db)
    await asyncio.gather(
        repo.update(GUILD, tables_in_threads=True),
        repo.update(GUILD, turn_time_limit_seconds=120),
        repo.update(GUILD, allow_computers=False),
        repo.update(GUILD, ping_after=0),
        repo.update(GUILD, computer_default_level="expert"),
    )
    settings = await repo.get(GUILD)
    assert settings.tables_in_threads is True
    assert settings.turn_time_limit_seconds == 120
    assert settings.allow_computers is False
    assert settings.ping_after == 0
    assert settings.computer_default_level == "expert"
