"""The store's part of ``python -m bot health``: one write that changes nothing, committed."""

from __future__ import annotations

import os

from bot.store.database import BUSY_TIMEOUT_MS, connect
from bot.store.errors import StoreError
from bot.store.urls import parse_url, sqlite_file

__all__ = ["check_writable"]


async def check_writable(where: str | os.PathLike[str], *, wait_ms: int = BUSY_TIMEOUT_MS) -> None:
    """Commit one write that changes nothing (the schema version, written again) at ``where``.

    ``where`` is a database URL or an SQLite path. Raises :class:`StoreError` when the
    database is missing, is not a database of this bot, cannot be written, or stays
    locked by another connection for more than ``wait_ms``. A read-only file or a
    full disk fails here.
    """
    try:
        url = parse_url(where)
    except ValueError as exc:
        raise StoreError(str(exc)) from None
    if url.dialect == "sqlite":
        file = sqlite_file(url)
        if file is None or not file.is_file():
            raise StoreError(f"{url.shown} does not exist (the bot creates it when it starts)")
    db = await connect(where)
    try:
        await db.rewrite_version(wait_ms)
    finally:
        await db.close()
