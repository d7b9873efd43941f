"""Fixtures of the Activity's tests: the served Activity and an HTTP session."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from .util import Served, served_activity


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    found = await served_activity(tmp_path)
    try:
        yield found
    finally:
        await found.close()
        await found.db.close()


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s
