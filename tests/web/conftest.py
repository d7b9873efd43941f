"""The web app over a filled store, and a client talking to it on loopback.

``db`` is the shared fixture: each test runs on SQLite, and on PostgreSQL with
``pytest -m postgresql``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.store import Database
from bot.web import WebOptions, make_app
from tests.web.util import BASE_URL, League, fill


class Clock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def league(db: Database) -> League:
    return await fill(db)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def make_client(db: Database, clock: Clock) -> AsyncIterator[Callable[..., object]]:
    clients: list[TestClient] = []

    async def make(**options: object) -> TestClient:
        options.setdefault("base_url", BASE_URL)
        client = TestClient(TestServer(make_app(db, WebOptions(clock=clock, **options))))  # type: ignore[arg-type]
        await client.start_server()
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


@pytest.fixture
async def client(make_client: Callable[..., object], league: League) -> TestClient:
    return await make_client()  # type: ignore[misc,no-any-return]
