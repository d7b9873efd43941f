"""The bot process on PostgreSQL while the server restarts (maintenance, failover).

With no table open the process holds no server's lock, so it rides the restart out:
its next command saves on a new connection. With a table open it holds that server's
lock, which the restart ends; it stops, since another process could take the server
over, and started again (as its supervisor would) it restores the table and plays on.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord
from tests.kit.fake_players import EuchreTable
from tests.kit.postgres_server import PostgresServer
from tests.kit.waiting import BOUND

pytestmark = pytest.mark.slow


async def restart(server: PostgresServer) -> None:
    await asyncio.to_thread(server.shut_down)
    await asyncio.to_thread(server.start)


async def test_the_bot_carries_on_or_stops_cleanly_across_a_postgresql_restart(
    fake: FakeDiscord, own_postgres_server: PostgresServer, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path / "bot", options={"database_url": own_postgres_server.url})
    alice, bob = fake.member("alice"), fake.member("bob")
    async with bot.killed_at_the_end(show=100):
        await bot.start()
        await restart(own_postgres_server)

        table = await EuchreTable.open(fake, alice)  # saved on a new connection
        assert bot.running
        log = bot.log_text()
        assert "lost the connection for guild locks while holding none" in log
        assert "connected to the database again" in log
        assert not bot.faults(), bot.tail()

        await restart(own_postgres_server)  # now it holds the server's lock
        assert bot.proc is not None
        assert await asyncio.wait_for(bot.proc.wait(), 30) == 2
        assert "lost the connection that holds this process's server locks" in bot.log_text()

        await bot.start()
        assert "Restored 1 open table(s)" in bot.log_text()
        await table.press(bob, "Join")
        await fake.wait_for(lambda: "Bob" in table.message.text, timeout=BOUND, what="Bob seated")
        assert await bot.stop() == 0
    assert not fake.problems, fake.problems
