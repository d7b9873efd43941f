"""Connections that only read, lent one at a time (the web pages' way into the store)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Database, GuildSettingsRepo, StoreError
from bot.store.readers import Readers

GUILD = 1_000_000_000_000_301


async def test_readers_see_what_was_committed_and_refuse_to_write(db: Database) -> None:
    readers = await Readers.open(db, 2)
    try:
        assert readers.size == 2
        await GuildSettingsRepo(db).update(GUILD, web_public=True)
        async with readers.lend() as reading:
            assert reading is not db
            assert (await GuildSettingsRepo(reading).get(GUILD)).web_public
            async with reading.snapshot():  # a read transaction works
                assert (await GuildSettingsRepo(reading).get(GUILD)).web_public
            with pytest.raises(StoreError):
                await GuildSettingsRepo(reading).update(GUILD, web_public=False)
        assert (await GuildSettingsRepo(db).get(GUILD)).web_public
    finally:
        await readers.close()


async def test_a_read_does_not_wait_for_a_write_under_way(db: Database) -> None:
    readers = await Readers.open(db, 1)
    await GuildSettingsRepo(db).update(GUILD, web_public=True)
    written = asyncio.Event()
    done = asyncio.Event()

    async def write() -> None:
        async with db.transaction():
            await GuildSettingsRepo(db).update(GUILD, web_public=False)
            written.set()
            await done.wait()  # the transaction stays open until the read is over

    try:
        writer = asyncio.create_task(write())
        await written.wait()
        async with readers.lend() as reading:
            # the committed state, not the write under way, and without waiting for it
            assert (await GuildSettingsRepo(reading).get(GUILD)).web_public
        done.set()
        await writer
        async with readers.lend() as reading:
            assert not (await GuildSettingsRepo(reading).get(GUILD)).web_public
    finally:
        done.set()
        await readers.close()


async def test_each_reader_is_lent_to_one_page_at_a_time(db: Database) -> None:
    readers = await Readers.open(db, 1)
    try:
        async with readers.lend() as first:
            waiting = asyncio.ensure_future(readers.lend().__aenter__())
            await asyncio.sleep(0)
            assert not waiting.done()
        assert await waiting is first
    finally:
        await readers.close()


async def test_a_database_in_memory_is_read_through_itself() -> None:
    async with await Database.open(":memory:") as db:
        readers = await Readers.open(db, 3)
        assert readers.size == 0
        async with readers.lend() as reading:
            assert reading is db
        await readers.close()
        with pytest.raises(ValueError, match="size"):
            await Readers.open(db, 0)
