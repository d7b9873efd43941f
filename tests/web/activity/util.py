"""The Activity on loopback for the tests: the bot's web app over a table service, the fake OAuth.

:class:`Served` runs both (the bot's side can be stopped and started again over the same
store, as a restart does); :class:`Socket` is one person's websocket as the client holds
it: signed in with a fresh code, its messages kept in order.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.players import make_player
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.store import Database
from bot.tables import TableService
from bot.tables.database import DatabaseTableStore
from bot.web import WebOptions, make_app
from bot.web.activity import Activity, ActivityOptions
from tests.kit.oauth import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, FakeOAuth, Instance
from tests.kit.waiting import until

_ADDRESSES = itertools.count(1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def address() -> str:
    """An address of its own for a visitor (TEST-NET-3), sent as X-Forwarded-For."""
    n = next(_ADDRESSES)
    return f"203.0.{113 + n // 250}.{n % 250 + 1}"


@dataclass
class Served:
    """The fake OAuth and the bot's web app with the Activity, each on a loopback port."""

    db: Database
    fake: FakeOAuth = field(default_factory=FakeOAuth)
    port: int = field(default_factory=free_port)
    mock_sdk: bool = False
    server: ServerSettings = field(default_factory=ServerSettings)
    delay: float = 0.0
    service: TableService | None = None
    activity: Activity | None = None
    _fake_runner: web.AppRunner | None = None
    _runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start_fake(self) -> None:
        app = web.Application()
        self.fake.routes(app, "/api/v10")
        self._fake_runner = web.AppRunner(app)
        await self._fake_runner.setup()
        self.fake_port = free_port()
        await web.TCPSite(self._fake_runner, "127.0.0.1", self.fake_port).start()

    async def start(self) -> TableService:
        """Start the bot's side: a service restored from the store, the app on ``port``."""
        service = TableService(
            DatabaseTableStore(self.db),
            make_player,
            server_settings=FixedSettings(self.server),
            seeds=lambda: 11,
            computer_move_delay=self.delay,
        )
        await service.restore()
        options = ActivityOptions(
            client_id=CLIENT_ID,
            client_secret=CLIENT_SECRET,
            bot_token=BOT_TOKEN,
            api_url=f"http://127.0.0.1:{self.fake_port}/api/v10",
            mock_sdk=self.mock_sdk,
        )
        self.activity = Activity(service, options)
        app = make_app(
            self.db, WebOptions(base_url=self.url, trust_forwarded=1), activity=self.activity
        )
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self.service = service
        return service

    async def stop(self) -> None:
        """Stop the bot's side, as a process that ends (its sockets close)."""
        if self.service is not None:
            self.service.halt()
            await self.service.settle(10)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def close(self) -> None:
        await self.stop()
        if self._fake_runner is not None:
            await self._fake_runner.cleanup()


class Socket:
    """One person's websocket, as the client holds it."""

    def __init__(self, served: Served, session: aiohttp.ClientSession, ticket: str) -> None:
        self.served = served
        self.session = session
        self.ticket = ticket
        self.address = address()
        self.messages: list[dict[str, Any]] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.closed_with: int | None = None

    @classmethod
    async def sign_in(
        cls,
        served: Served,
        session: aiohttp.ClientSession,
        name: str,
        instance: Instance | None = None,
        user_id: int | None = None,
    ) -> tuple[Socket, int]:
        user, code = served.fake.person(name, instance, user_id)
        where = instance or served.fake.instance()
        async with session.post(
            f"{served.url}/activity/api/sign-in",
            json={"code": code, "instance_id": where.instance_id},
            headers={"X-Forwarded-For": address()},
        ) as answer:
            body = await answer.json()
            assert answer.status == 200, body
        return cls(served, session, body["ticket"]), user

    async def connect(self) -> None:
        self.ws = await self.session.ws_connect(
            f"{self.served.url}/activity/ws", headers={"X-Forwarded-For": self.address}
        )
        await self.ws.send_str(json.dumps({"ticket": self.ticket}))
        self.reader = asyncio.ensure_future(self._read(self.ws))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.messages.append(json.loads(message.data))
        self.closed_with = ws.close_code

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader

    def last(self, kind: str) -> dict[str, Any] | None:
        return next((m for m in reversed(self.messages) if m["type"] == kind), None)

    @property
    def table(self) -> dict[str, Any] | None:
        found = self.last("table")
        return None if found is None else found["table"]

    @property
    def you_id(self) -> str | None:
        """Who this socket signed in as (its hello), as the tables' JSON writes ids."""
        hello = self.last("hello")
        return None if hello is None else str(hello["me"]["id"])

    @property
    def you(self) -> dict[str, Any] | None:
        found = self.last("table")
        return None if found is None else found["you"]

    async def wait(self, condition: Any, what: str) -> None:
        await until(lambda: condition(self), what)


async def served_activity(tmp_path: Path, **kwargs: Any) -> Served:
    db = await Database.open(tmp_path / "activity.sqlite3")
    served = Served(db, **kwargs)
    await served.start_fake()
    await served.start()
    return served
