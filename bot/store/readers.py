"""Connections that only read, lent one at a time: the web pages' way into the store.

A :class:`Database` has one connection, and its calls take turns on it: a page's dozen
reads wait behind every other page's and behind the bot's writes. :class:`Readers`
keeps a few more connections to the same store (:meth:`Database.reader`: an SQLite
connection that refuses to write, reading the WAL beside the writer; a PostgreSQL
session whose transactions are read-only), and lends one to each page for as long as it
reads. Pages then read side by side, and they see only what was committed.

    readers = await Readers.open(db, 4)
    async with readers.lend() as reading:
        page = await read_server(reading, guild_id)
    await readers.close()

A database in memory has no other connection to open: every page reads through ``db``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.store.database import Database

__all__ = ["Readers"]


class Readers:
    """Up to ``size`` read-only connections to one store, each lent to one reader at a time."""

    def __init__(self, db: Database, connections: list[Database]) -> None:
        """Use :meth:`open`."""
        self.db = db
        self._all = connections
        self._idle: asyncio.Queue[Database] = asyncio.Queue()
        for reader in connections:
            self._idle.put_nowait(reader)

    @classmethod
    async def open(cls, db: Database, size: int) -> Readers:
        """Open ``size`` reading connections to ``db``'s store (none for one in memory)."""
        if size < 1:
            raise ValueError("size must be 1 or more")
        connections: list[Database] = []
        try:
            for _ in range(size):
                reader = await db.reader()
                if reader is None:
                    break
                connections.append(reader)
        except BaseException:
            for reader in connections:
                await reader.close()
            raise
        return cls(db, connections)

    @property
    def size(self) -> int:
        """The reading connections kept (0: everything reads through the database itself)."""
        return len(self._all)

    @asynccontextmanager
    async def lend(self) -> AsyncIterator[Database]:
        """A connection to read with, once one is free; given back at the end of the block."""
        if not self._all:
            yield self.db
            return
        reader = await self._idle.get()
        try:
            yield reader
        finally:
            self._idle.put_nowait(reader)

    async def close(self) -> None:
        """Close every reading connection (each waits for the reads under way on it)."""
        for reader in self._all:
            await reader.close()
