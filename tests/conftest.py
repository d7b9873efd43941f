"""Shared pytest fixtures. Keep each group under its own header."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from tests.harness import Harness

# --------------------------------------------------------------------------- interaction harness
# tests/harness: run a real bot offline. Usage in a cog test:
#
#     async def test_new_table(make_harness):
#         h = await make_harness(build_bot())
#         g = h.guild(members=["alice", "bob"])
#         r = await h.slash(g.member("alice"), "euchre new")
#
# Every harness made here is closed (bot closed, patches undone) when the test ends.

MakeHarness = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def make_harness() -> AsyncIterator[MakeHarness]:
    """An async factory ``await make_harness(bot, **harness_options) -> Harness``."""
    async with contextlib.AsyncExitStack() as stack:

        async def make(bot: discord.Client, **options: Any) -> Harness:
            return await stack.enter_async_context(Harness(bot, **options))

        yield make
