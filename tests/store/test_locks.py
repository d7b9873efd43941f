"""Guild locks: one process at a time acts on a server (PostgreSQL advisory locks)."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.store.locks import LocalGuildLocks, PostgresGuildLocks, open_guild_locks

from .conftest import GUILD

REPO = Path(__file__).resolve().parents[2]


async def test_sqlite_has_one_process_so_every_lock_is_granted(db_path: Path) -> None:
    locks = await open_guild_locks(f"sqlite:///{db_path}")
    assert isinstance(locks, LocalGuildLocks)
    assert await locks.acquire(GUILD, timeout=0)
    assert locks.holds(GUILD)
    await locks.close()


async def test_a_held_guild_waits_until_its_holder_lets_go(postgres_url: str) -> None:
    first = await open_guild_locks(postgres_url)
    second = await open_guild_locks(postgres_url)
    try:
        assert isinstance(first, PostgresGuildLocks)
        assert await first.acquire(GUILD)
        assert await first.acquire(GUILD, timeout=0)  # held already: at once
        assert await second.acquire(GUILD + 1, timeout=0)  # other guilds are free
        assert not await second.acquire(GUILD, timeout=0.3)
        assert not second.holds(GUILD)
        waiting = asyncio.create_task(second.acquire(GUILD))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        await first.close()
        assert await asyncio.wait_for(waiting, 5)
        assert second.holds(GUILD)
    finally:
        await first.close()
        await second.close()


async def test_a_process_killed_with_sigkill_lets_its_guilds_go(postgres_url: str) -> None:
    script = (
        "import asyncio, sys\n"
        "from bot.store.locks import open_guild_locks\n"
        "async def main():\n"
        "    locks = await open_guild_locks(sys.argv[1])\n"
        "    assert await locks.acquire(int(sys.argv[2]))\n"
        "    print('held', flush=True)\n"
        "    await asyncio.sleep(600)\n"
        "asyncio.run(main())\n"
    )
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        postgres_url,
        str(GUILD),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    assert await child.stdout.readline() == b"held\n"
    locks = await open_guild_locks(postgres_url)
    try:
        assert not await locks.acquire(GUILD, timeout=0.2)
        child.send_signal(signal.SIGKILL)
        await child.wait()
        assert await locks.acquire(GUILD, timeout=5)
    finally:
        await locks.close()


async def test_losing_the_lock_connection_is_reported_at_once(postgres_url: str) -> None:
    lost = asyncio.Event()
    locks = await open_guild_locks(postgres_url, on_lost=lost.set)
    try:
        assert await locks.acquire(GUILD)
        admin = await asyncpg.connect(postgres_url)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks "
                "WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        await asyncio.wait_for(lost.wait(), 5)
        assert not locks.holds(GUILD)
    finally:
        await locks.close()


@pytest.mark.parametrize("timeout", [0, 0.2])
async def test_closing_twice_is_harmless(postgres_url: str, timeout: float) -> None:
    locks = await open_guild_locks(postgres_url)
    assert await locks.acquire(GUILD, timeout=timeout)
    await locks.close()
    await locks.close()
