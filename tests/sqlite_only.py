"""The ``db`` fixture of test files that run on SQLite only.

The conftest's ``db`` runs a test on SQLite and then on PostgreSQL; a file whose subject
is not the store takes this one instead, by ``from tests.sqlite_only import db`` (and
``__all__ = ["db"]``, so the import is seen as used).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """An open empty SQLite database in ``tmp_path``, closed after the test."""
    database = await Database.open(tmp_path / "euchre.sqlite3")
    try:
        yield database
    finally:
        await database.close()
