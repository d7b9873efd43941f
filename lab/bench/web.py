"""Web pages benchmark: a big league in a store, and how fast and heavy its pages are.

Seeds a store (a temp SQLite file, or the empty database of ``database_url``) with one
public server whose running season has ``players`` rated players and ``games`` archived
games, real ones (:mod:`.web_seed`).

Then it serves the pages on loopback, at the settings people get (the rate limit of
120 pages a minute per address on), and measures:

- server time (inside the app, from the request to the answer, network left out) of
  the server page, a player page and a game replay page, each p50/p95 over
  ``samples`` requests: cold (the page made from the store: every request another
  player, another game, or the server page's address made new with a query the page
  ignores) and warm (the same address again: the process's page cache answers);
- each page's weight, all included: its HTML and the style sheet, script and pictures
  it loads (each once; a replay's steps' data too), in all and as sent gzipped;
- requests a second on the server page, cache warm: a fixed ``load`` of requests,
  ``concurrency`` at once, sent by a client in a process of its own;
- pages made fresh a second (every address one no cache holds), ``fresh_clients`` at
  once: the three kinds in turn, then each kind alone; with the processor time each
  page took in the serving processes (their threads included: SQLite's work) and each
  request in the client's, which do not change with the machine's load the way the
  rate does. A warm-up of ``WARM_UP`` such pages comes first, not counted: page
  processes just started read their code and data on their first pages.

The loads go to ``python -m bot web`` as people run it (:mod:`.page_server`), from its
default number of page processes (one per core) unless ``web_processes`` says another.

Every request comes from a loopback address of its own visitor, ten at most from each
(:class:`~lab.bench.load.Visitors`): the limit stays on and counts every request, and
the load is a crowd of visitors within their limits, not one client past it.

    report = asyncio.run(run(WebBenchOptions(players=50, games=200)))
    print(report.text())
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any, Final

import aiohttp
from aiohttp import web

import bot
from bot.store import Database
from bot.web import WebOptions, make_app

from .load import Visitors
from .page_server import PageServer
from .web_seed import GUILD, League, seed_store, user_id

__all__ = ["GOALS", "WebBenchOptions", "WebReport", "run"]


GOALS: Final = {"server": 50.0, "player": 50.0, "game": 100.0}
"""Goals of the cold pages' p95 server time, in ms."""
WEIGHT_GOAL: Final = 200 * 1024
LOAD_GOAL: Final = 500.0
FRESH_GOAL: Final = 200.0
"""Pages made fresh a second, with eight clients."""
FRESH_KINDS: Final = ("mixed", "server", "player", "game")
"""The fresh loads: the three kinds in turn, then each alone."""
WARM_UP: Final = 120
"""Pages of the three kinds in turn made before the fresh loads and not counted (as many
as a fresh load where that is fewer): 12 visitors' worth, so that each page process has
made each kind before the figures start."""
BASE_URL: Final = "https://euchre.example.org"


@dataclass(frozen=True, slots=True)
class WebBenchOptions:
    """What to seed and how much to measure."""

    players: int = 10_000
    games: int = 100_000
    records: int = 300
    """Distinct real game records the archived games reuse."""
    samples: int = 200
    """Requests timed per page kind, cold and warm each."""
    load: int = 5_000
    concurrency: int = 32
    fresh: int = 1_200
    """Requests of each fresh load (pages no cache holds), 0 for none."""
    fresh_clients: int = 8
    web_processes: int = 0
    """Page processes serving the loads (0: ``web_processes``' default, one per core)."""
    open_tables: int = 5
    database_url: str | None = None
    seed: int = 1


@dataclass(frozen=True, slots=True)
class Timing:
    """Server times of one page kind, in ms."""

    cold: tuple[float, ...]
    warm: tuple[float, ...]

    @staticmethod
    def _p(values: tuple[float, ...], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def text(self) -> str:
        """``cold p50/p95 …, warm p50/p95 …``."""
        c, w = self.cold, self.warm
        return (
            f"cold p50 {self._p(c, 0.5):.1f} ms, p95 {self._p(c, 0.95):.1f} ms; "
            f"warm p50 {self._p(w, 0.5):.2f} ms, p95 {self._p(w, 0.95):.2f} ms"
        )

    @property
    def cold_p95(self) -> float:
        """The cold requests' 95th percentile."""
        return self._p(self.cold, 0.95)


@dataclass(slots=True)
class WebReport:
    """The figures of one run."""

    dialect: str
    players: int
    games: int
    seed_seconds: float
    timings: dict[str, Timing] = field(default_factory=dict)
    weights: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Per page kind: bytes sent (compressed where asked), bytes in all, and files."""
    load: dict[str, Any] = field(default_factory=dict)
    fresh: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per fresh load (mixed, server, player, game): its figures."""
    processes: int = 1
    """Page processes of ``python -m bot web`` that served the loads."""

    def text(self) -> str:
        """The report as printed, each figure against its goal."""
        store = "SQLite" if self.dialect == "sqlite" else "PostgreSQL"
        lines = [
            f"store: {store}; {self.players:,} rated players, {self.games:,} archived games "
            f"(seeded in {self.seed_seconds:.1f} s); build {bot.BUILD.mode}",
        ]
        for kind, timing in self.timings.items():
            goal = GOALS[kind]
            mark = "ok" if timing.cold_p95 <= goal else "MISSED"
            lines.append(f"{kind} page: {timing.text()} (goal p95 {goal:.0f} ms cold: {mark})")
        for kind, (sent, size, files) in self.weights.items():
            mark = "ok" if size < WEIGHT_GOAL else "MISSED"
            lines.append(
                f"{kind} page weight: {size / 1024:.1f} KB in {files} files, all included, "
                f"{sent / 1024:.1f} KB sent gzipped (goal under {WEIGHT_GOAL // 1024} KB: {mark})"
            )
        if self.load or self.fresh:
            lines.append(
                f"the loads: python -m bot web, {self.processes} page "
                f"{'process' if self.processes == 1 else 'processes'}"
            )
        if self.load:
            lines.append(
                f"server page, cache warm: {_rate_words(self.load, 'requests ')}"
                f" ({_load_words(self.load)}; goal {LOAD_GOAL:.0f}: "
                f"{_mark(self.load, LOAD_GOAL)})"
            )
        for kind, figures in self.fresh.items():
            what = "server, player and game pages in turn" if kind == "mixed" else f"{kind} pages"
            lines.append(
                f"pages made fresh, {what}: {_rate_words(figures)} "
                f"({_load_words(figures)}, "
                f"client p50 {figures['p50']:.0f} ms, p95 {figures['p95']:.0f} ms; "
                f"goal {FRESH_GOAL:.0f}: {_mark(figures, FRESH_GOAL)}); processor time a page: "
                f"{figures['server_cpu_ms']:.1f} ms in the serving processes"
                f"{'' if self.dialect == 'sqlite' else ' (the database server apart)'}, "
                f"{figures['client_cpu_ms']:.1f} ms in the client's"
            )
        return "\n".join(lines)


def _rate_words(figures: dict[str, Any], what: str = "") -> str:
    """A load's rate with its 95% interval (load.py's ``rate_interval``)."""
    low, high = figures["per_second_95"]
    interval = f"at least {low:.0f}" if high == float("inf") else f"{low:.0f}-{high:.0f}"
    return f"{float(figures['per_second']):.0f} {what}a second (95% interval {interval})"


def _mark(figures: dict[str, Any], goal: float) -> str:
    """Whether a rate meets ``goal``: only where its whole interval is on one side."""
    low, high = figures["per_second_95"]
    if low >= goal:
        return "ok"
    if high < goal:
        return "MISSED"
    return "not decided, the goal is inside the interval"


def _load_words(figures: dict[str, Any]) -> str:
    return (
        f"{figures['requests']} requests, {figures['concurrency']} at once, from "
        f"{figures['addresses']} addresses at the shipped rate limit, "
        f"statuses {figures['statuses']}"
    )


# ---------------------------------------------------------------------- measuring


class _Assets(HTMLParser):
    """The same-site files a page loads: style sheets, scripts, pictures."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and a.get("rel") in ("stylesheet", "icon"):
            self._add(a.get("href"))
        elif tag in ("script", "img"):
            self._add(a.get("src"))

    def _add(self, url: str | None) -> None:
        file = (url or "").split("#")[0]  # one file for every view of the card sprite
        if file.startswith("/") and file not in self.found:
            self.found.append(file)


def _percentile_input(times: list[float]) -> tuple[float, ...]:
    return tuple(t * 1000 for t in times)


class _Client:
    """The bench's own requests, from a new loopback address every few (see ``Visitors``)."""

    def __init__(self, base: str, visitors: Visitors) -> None:
        self.base = base
        self.visitors = visitors
        self._session: aiohttp.ClientSession | None = None
        self._left = 0

    async def get(self, path: str, **headers: str) -> tuple[bytes, dict[str, str]]:
        """The body (as sent) and headers of a 200 answer; RuntimeError for any other."""
        if self._session is None or self._left == 0:
            await self.close()
            self._session = self.visitors.session()
            self._left = self.visitors.per_address
        self._left -= 1
        async with self._session.get(path, headers=headers, auto_decompress=False) as response:
            body = await response.read()
            if response.status != 200:
                raise RuntimeError(f"GET {path} answered {response.status}: {body[:200]!r}")
            return body, dict(response.headers)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


@asynccontextmanager
async def _served(db: Database) -> AsyncIterator[tuple[str, list[float]]]:
    """The app at its shipped defaults on a loopback port, its handler time noted per request."""
    times: list[float] = []

    @web.middleware
    async def timed(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        start = time.perf_counter()
        try:
            return await handler(request)
        finally:
            times.append(time.perf_counter() - start)

    app = make_app(db, WebOptions(base_url=BASE_URL))
    app.middlewares.insert(0, timed)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}", times
    finally:
        await runner.cleanup()


async def _time(client: _Client, times: list[float], paths: Iterator[str], n: int) -> list[float]:
    times.clear()
    for _ in range(n):
        await client.get(next(paths))
    return list(times)


async def _weight(client: _Client, path: str, *extra: str) -> tuple[int, int, int]:
    """A page's bytes with everything it loads (and ``extra``): as sent gzipped, in all, files."""
    html, _ = await client.get(path, **{"Accept-Encoding": "gzip"})
    plain, _ = await client.get(path, **{"Accept-Encoding": "identity"})
    files = [*_Assets(plain.decode()).found, *extra]
    sent, size = len(html), len(plain)
    for url in files:
        body, _ = await client.get(url, **{"Accept-Encoding": "gzip"})
        sent += len(body)
        size += len((await client.get(url, **{"Accept-Encoding": "identity"}))[0])
    return sent, size, 1 + len(files)


def _fresh_paths(
    kind: str,
    n: int,
    players: list[int],
    games: list[int],
    rng: random.Random,
    word: str = "fresh",
) -> list[str]:
    """``n`` addresses no cache holds: each another player, game, or server page address.

    ``word`` names the query that makes each address new (the warm-up's differ).
    """
    home = f"/s/{GUILD}"
    out = []
    for i in range(n):
        which = kind if kind != "mixed" else ("server", "player", "game")[i % 3]
        if which == "server":
            out.append(f"{home}?{word}={i}")
        elif which == "player":
            out.append(f"{home}/players/{rng.choice(players)}?{word}={i}")
        else:
            step = rng.randrange(1, 20)
            out.append(f"{home}/games/{rng.choice(games)}?step={step}&{word}={i}")
    return out


async def measure(
    db: Database,
    options: WebBenchOptions,
    game_ids: list[int],
    report: WebReport,
    env: dict[str, str],
    folder: Path,
) -> None:
    """Time the pages, weigh them and load them (the figures go in ``report``).

    The loads go to ``python -m bot web`` run in ``folder`` with ``env``'s settings.
    """
    rng = random.Random(options.seed + 1)
    n = options.samples
    home = f"/s/{GUILD}"
    players = [user_id(p) for p in rng.sample(range(options.players), min(n, options.players))]
    games = rng.sample(game_ids, min(n, len(game_ids)))

    def cycle(items: list[str]) -> Iterator[str]:
        while True:
            yield from items

    async with _served(db) as (base, times):
        visitors = Visitors(base)
        client = _Client(base, visitors)
        try:
            await client.get(home)  # the templates compiled, the server's settings read
            kinds = {
                "server": ([f"{home}?n={i}" for i in range(n)], home),
                "player": (
                    [f"{home}/players/{u}" for u in players],
                    f"{home}/players/{players[0]}",
                ),
                "game": ([f"{home}/games/{g}" for g in games], f"{home}/games/{games[0]}"),
            }
            for kind, (cold_paths, warm_path) in kinds.items():
                cold = await _time(client, times, cycle(cold_paths), len(cold_paths))
                await client.get(warm_path)
                warm = await _time(client, times, cycle([warm_path]), n)
                report.timings[kind] = Timing(_percentile_input(cold), _percentile_input(warm))
                # a game's first step shows every hand: its heaviest step; its script loads
                # every step's data once the visitor steps
                if kind == "game":
                    steps = f"{warm_path}/steps.json"
                    report.weights[kind] = await _weight(client, f"{warm_path}?step=1", steps)
                else:
                    report.weights[kind] = await _weight(client, warm_path)
            await client.get(home)  # warm: the load measures pages served from the cache
        finally:
            await client.close()
        first = visitors.used + 1
    if not (options.load or options.fresh):
        return
    async with PageServer.running(env, folder, processes=options.web_processes) as server:
        report.processes = len(server.pids) - (len(server.pids) > 1)
        if options.load:
            paths = [home] * options.load
            report.load = await _load(server.base, paths, options.concurrency, first)
            first += report.load["addresses"]
        if options.fresh:  # page processes just started read their code and data first
            warm_up = _fresh_paths(
                "mixed", min(WARM_UP, options.fresh), players, game_ids, rng, "warm"
            )
            first += (await _load(server.base, warm_up, options.fresh_clients, first))["addresses"]
        for kind in FRESH_KINDS if options.fresh else ():
            paths = _fresh_paths(kind, options.fresh, players, game_ids, rng)
            cpu = server.cpu_seconds()
            figures = await _load(server.base, paths, options.fresh_clients, first)
            figures["server_cpu_ms"] = (server.cpu_seconds() - cpu) * 1000 / len(paths)
            first += figures["addresses"]
            report.fresh[kind] = figures


async def _load(base: str, paths: list[str], concurrency: int, first: int) -> dict[str, Any]:
    """The figures of a load client run in a process of its own."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "lab.bench.load",
        base,
        str(concurrency),
        str(first),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate("\n".join(paths).encode())
    if process.returncode != 0:
        raise RuntimeError(f"the load client failed (exit {process.returncode})")
    figures: dict[str, Any] = json.loads(out)
    figures["concurrency"] = concurrency
    return figures


async def run(options: WebBenchOptions) -> WebReport:
    """Seed the store, measure the pages; the figures."""
    with TemporaryDirectory(prefix="euchre-web-bench-") as folder:
        target = options.database_url or Path(folder) / "web.sqlite3"
        db = await Database.open(target)
        try:
            with db.unbounded():
                started = time.perf_counter()
                league = League(
                    options.players,
                    options.games,
                    min(options.records, options.games),
                    options.open_tables,
                    options.seed,
                )
                _, game_ids = await seed_store(db, league)
                seeded = time.perf_counter() - started
            report = WebReport(db.dialect, options.players, options.games, seeded)
            env = {"EUCHRE_WEB_BASE_URL": BASE_URL}
            if options.database_url:
                env["EUCHRE_DATABASE_URL"] = options.database_url
            else:
                env |= {"EUCHRE_DATA_DIR": folder, "EUCHRE_DATABASE": "web.sqlite3"}
            await measure(db, options, game_ids, report, env, Path(folder))
        finally:
            await db.close()
    return report
