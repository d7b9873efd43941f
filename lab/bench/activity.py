"""The Activity's live table: how long a move takes to reach every socket, and with how many.

``python -m lab bench activity [--moves N] [--spectators S] [--buttons F]``: the bot's web
app with the Activity, at its shipped defaults (the page rate per address on, behind one
trusted proxy, every socket from an address of its own; the per-person request rate on),
over a SQLite store in a temporary folder, and a table of four people who each hold one
websocket, as the client does, plus ``S`` watchers. People play random legal moves as
soon as their socket shows their turn; a fraction ``F`` of the moves is made through
:meth:`TableService.act`, the call a hand's button makes, so the Activity and the buttons
play one table at once. Games follow one another until ``N`` moves were made.

A move's time runs from the moment it is sent (on the socket, or the button's call) to
the moment the last of the four players' sockets (then: the last watcher's) holds the
table at the move's new stamp. The sockets' clients run in the same process and loop
as the server, so the figures include their own work (parsing every message). Printed:
p50 and p95 with the 95% interval of the p95 (distribution-free, from the order
statistics), and whether every socket ends on the table as the service holds it.
Tickets are signed directly with the Activity's key: the sign-in is not what is timed.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.players import make_player
from bot.store import Database
from bot.tables import Place, Player, Table, TableService
from bot.tables.database import DatabaseTableStore
from bot.web import WebOptions, make_app
from bot.web.activity import Activity, ActivityOptions
from bot.web.activity.signin import Ticket

__all__ = ["ActivityBenchOptions", "ActivityReport", "free_port", "quantile", "run"]

_GUILD, _CHANNEL = 1_400_000_000_000_000_001, 1_400_000_000_000_000_002
_BOUND = 60.0


@dataclass(frozen=True, slots=True)
class ActivityBenchOptions:
    """What to run: how many moves, watchers, and the share of moves made by buttons."""

    moves: int = 400
    spectators: int = 100
    buttons: float = 0.25
    seed: int = 1


def quantile(values: list[float], q: float) -> tuple[float, float, float]:
    """The ``q`` quantile and its 95% interval from the order statistics."""
    ordered = sorted(values)
    n = len(ordered)
    spread = 1.96 * math.sqrt(n * q * (1 - q))
    low = max(0, math.floor(n * q - spread) - 1)
    high = min(n - 1, math.ceil(n * q + spread))
    return ordered[min(n - 1, int(q * n))], ordered[low], ordered[high]


@dataclass
class ActivityReport:
    """The times, in ms, and whether the sockets agree with the table."""

    to_players: list[float] = field(default_factory=list)
    to_everyone: list[float] = field(default_factory=list)
    games: int = 0
    by_buttons: int = 0
    refused: int = 0
    disagreeing: int = 0
    sockets: int = 0
    messages: int = 0

    def text(self) -> str:
        """The figures, one line each."""
        lines = [
            f"{len(self.to_players)} moves ({self.by_buttons} by buttons) over "
            f"{self.games} game(s), {self.sockets} sockets, {self.messages} messages"
        ]
        for what, values in (("four players", self.to_players), ("everyone", self.to_everyone)):
            p50, _, _ = quantile(values, 0.5)
            p95, low, high = quantile(values, 0.95)
            lines.append(
                f"a move reaches {what}: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
                f"(95% interval {low:.1f}-{high:.1f}), max {max(values):.1f} ms"
            )
        lines.append(
            f"refused clicks {self.refused}; sockets not on the table's state at a game's "
            f"end: {self.disagreeing}"
        )
        return "\n".join(lines)


class _Client:
    """One socket, as the client holds it: the newest table it got, and when."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, user: int | None) -> None:
        self.ws = ws
        self.user = user
        self.table: dict[str, Any] | None = None
        self.you: dict[str, Any] | None = None
        self.stamps: dict[tuple[int, int, int], float] = {}
        """When each (table, deal, action number) first reached this socket."""
        self.refused = 0
        self.messages = 0
        self.changed = asyncio.Event()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            self.messages += 1
            if data["type"] == "refused":
                self.refused += 1
            if data["type"] != "table":
                continue
            self.table, self.you = data["table"], data["you"]
            if self.table is not None and "stamp" in self.table:
                stamp = _stamp_of(self.table)
                self.stamps.setdefault(stamp, time.perf_counter())
            self.changed.set()


def _stamp_of(table: dict[str, Any]) -> tuple[int, int, int]:
    return (int(table["table"]), int(table["stamp"][0]), int(table["stamp"][1]))


def _key(table: Table) -> tuple[int, int, int]:
    return (table.id, *table.stamp)


async def _connect(
    session: aiohttp.ClientSession, url: str, ticket: str, n: int, user: int | None
) -> _Client:
    forwarded = f"198.18.{n // 250}.{n % 250 + 1}"
    ws = await session.ws_connect(f"{url}/activity/ws", headers={"X-Forwarded-For": forwarded})
    await ws.send_str(json.dumps({"ticket": ticket}))
    return _Client(ws, user)


async def _reached(clients: list[_Client], stamp: tuple[int, int, int]) -> float:
    """When the last of ``clients`` got the table at ``stamp`` (perf_counter seconds)."""
    async with asyncio.timeout(_BOUND):
        while not all(stamp in c.stamps for c in clients):
            await asyncio.sleep(0.0005)
    return max(c.stamps[stamp] for c in clients)


@dataclass
class _Run:
    """One run: the service, the sockets (the four players' first), what is measured."""

    service: TableService
    players: list[_Client]
    everyone: list[_Client]
    report: ActivityReport
    options: ActivityBenchOptions
    rng: random.Random


async def _game(run: _Run) -> None:
    service, players, everyone, report = run.service, run.players, run.everyone, run.report
    host = players[0]
    assert host.user is not None
    table = await service.open(_place(), Player(host.user, "P0"))
    for i, c in enumerate(players[1:], 1):
        assert c.user is not None
        await (await service.fetch(table.id)).lobby.join(Player(c.user, f"P{i}"))
    await (await service.fetch(table.id)).lobby.start(host.user)
    while table.status == "playing" and len(report.to_players) < run.options.moves:
        await _move(run, table)
    report.games += 1
    assert table.game is not None
    final = (list(table.stamp), list(table.game.score), table.status)
    await _reached(everyone, _key(table))
    for c in everyone:
        shown = None if c.table is None else (c.table["stamp"], c.table["score"], c.table["status"])
        report.disagreeing += shown != final
    if table.status == "playing":
        await (await service.fetch(table.id)).lobby.abort(host.user)
    async with asyncio.timeout(_BOUND):  # a finished game is archived, then its place freed
        while service.at(_CHANNEL) is not None:
            await asyncio.sleep(0.001)


async def _move(run: _Run, table: Table) -> None:
    service, players, report, rng = run.service, run.players, run.report, run.rng
    assert table.game is not None and table.game.turn is not None
    seat = table.game.turn
    taken = table.seats[seat]
    assert taken is not None and taken.user_id is not None
    client = next(c for c in players if c.user == taken.user_id)
    stamp = table.stamp
    await _reached([client], _key(table))
    buttons = rng.random() < run.options.buttons
    sent = time.perf_counter()
    if buttons:
        _, view = service.get_any(table.id).view_for(taken.user_id)
        await (await service.fetch(table.id)).turns.act(
            taken.user_id, seat, stamp, rng.choice(view.legal)
        )
        report.by_buttons += 1
    else:
        you = client.you
        assert you is not None
        codes = [c["code"] for c in you["hand"] if c["code"]] + [b["code"] for b in you["buttons"]]
        message = {"do": "act", "code": rng.choice(codes), "stamp": list(stamp)}
        await client.ws.send_str(json.dumps(message))
    async with asyncio.timeout(_BOUND):
        while table.stamp == stamp and table.status == "playing":
            await asyncio.sleep(0.0005)
    new = _key(table)
    report.to_players.append((await _reached(players, new) - sent) * 1000)
    report.to_everyone.append((await _reached(run.everyone, new) - sent) * 1000)


def _place() -> Place:
    return Place(_GUILD, _CHANNEL)


async def run(options: ActivityBenchOptions) -> ActivityReport:
    """Serve the Activity on loopback, play, and measure (see the module docstring)."""
    rng = random.Random(options.seed)
    report = ActivityReport()
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        service = TableService(
            DatabaseTableStore(db), make_player, seeds=lambda: rng.randrange(2**31)
        )
        activity = Activity(
            service, ActivityOptions(client_id=1, client_secret="bench", bot_token="bench")
        )
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        app = make_app(db, WebOptions(base_url=url, trust_forwarded=1), activity=activity)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            # one connection a socket: the default pool holds 100
            unlimited = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=unlimited) as session:
                await _play(session, url, activity, service, options, report, rng)
        finally:
            await runner.cleanup()
            await db.close()
    return report


async def _play(
    session: aiohttp.ClientSession,
    url: str,
    activity: Activity,
    service: TableService,
    options: ActivityBenchOptions,
    report: ActivityReport,
    rng: random.Random,
) -> None:
    key = activity.oauth.key

    def ticket(user: int) -> str:
        t = Ticket(user, f"P{user}", None, _GUILD, _CHANNEL, "bench", time.time() + 3600)
        return t.sign(key)

    players = [await _connect(session, url, ticket(100 + i), i, 100 + i) for i in range(4)]
    watchers = [
        await _connect(session, url, ticket(1000 + i), 10 + i, None)
        for i in range(options.spectators)
    ]
    everyone = players + watchers
    run = _Run(service, players, everyone, report, options, rng)
    while len(report.to_players) < options.moves:
        await _game(run)
    for c in everyone:
        report.messages += c.messages
        report.refused += c.refused
        await c.ws.close()
    report.sockets = len(everyone)


def free_port() -> int:
    """A loopback port free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
