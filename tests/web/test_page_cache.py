"""A page is made once for every request that asks for it while it is being made."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from aiohttp.test_utils import TestClient

from bot.store import Database
from bot.web import app as web_app
from bot.web.live import PublicViews
from bot.web.reading import ServerPage
from tests.web.conftest import Clock
from tests.web.util import League


def read_server_after(
    monkeypatch: pytest.MonkeyPatch, first: Callable[[], Awaitable[None]]
) -> None:
    """The app reads a server's page only once ``first()`` is done (and fails where it fails)."""
    real = web_app.read_server

    async def read(
        db: Database,
        guild_id: int,
        season_id: int | None = None,
        *,
        views: PublicViews | None = None,
    ) -> ServerPage:
        await first()
        return await real(db, guild_id, season_id, views=views)

    monkeypatch.setattr(web_app, "read_server", read)


async def test_requests_that_meet_an_expired_page_wait_for_one_making_of_it(
    client: TestClient, league: League, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = f"/s/{league.guild_id}"
    first = await client.get(path)
    assert first.status == 200
    made = 0
    gate = asyncio.Event()

    async def held() -> None:
        nonlocal made
        made += 1
        await gate.wait()

    read_server_after(monkeypatch, held)
    clock.now += 60  # the page (and the server's setting) expired
    waiting = [asyncio.ensure_future(client.get(path)) for _ in range(8)]
    async with asyncio.timeout(30):
        while made == 0:
            await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    gate.set()
    answers = await asyncio.gather(*waiting)
    assert made == 1
    assert {a.status for a in answers} == {200}
    assert {a.headers["ETag"] for a in answers} == {first.headers["ETag"]}


async def test_a_page_that_fails_fails_each_waiting_request_and_is_made_again(
    client: TestClient, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken() -> None:
        raise RuntimeError("the store went away")

    real = web_app.read_server
    read_server_after(monkeypatch, broken)
    path = f"/s/{league.guild_id}"
    statuses = await asyncio.gather(*(client.get(path) for _ in range(3)))
    assert [r.status for r in statuses] == [500] * 3
    monkeypatch.setattr(web_app, "read_server", real)
    assert (await client.get(path)).status == 200
