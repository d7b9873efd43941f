"""Fixtures of the end-to-end tests: a fake Discord and bot processes that always get stopped.

Every test in this folder is marked ``e2e`` (deselect with ``-m "not e2e"``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord

MakeBot = Callable[..., BotProcess]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``e2e``."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on loopback with a guild, a channel and the members alice and bob."""
    async with FakeDiscord(members=("alice", "bob")) as discord:
        yield discord


@pytest.fixture
async def bots(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[MakeBot]:
    """``bots(name, data_dir=None) -> BotProcess`` in ``tmp_path/name``; all killed at the end."""
    made: list[BotProcess] = []

    def make(name: str, *, data_dir: Path | None = None) -> BotProcess:
        bot = BotProcess(fake, tmp_path / name, data_dir=data_dir)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        with contextlib.suppress(Exception):
            await bot.kill()
        # Shown by pytest when the test failed.
        print(bot.tail(200))
