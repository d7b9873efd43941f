"""Load benchmark: N concurrent tables of four simulated people, stored in a real database.

The store is a temporary SQLite file, or the empty database of ``--database-url``
(PostgreSQL, to compare the two back ends).

Each table lives in a server of its own. Its four people open it, join, start and then
play ``clicks`` moves, each after thinking a random while, every move a real interaction
fed to the real bot through the interaction harness (the cog, the components, the table
service, rendering, the store). Printed:

- handler latency per click, p50 / p99 / max: from feeding the interaction until every
  task it started has finished (answer, table message edit, hand refresh), harness
  overhead included, so it is an upper bound of what Discord would see;
- actions stored per second during the run;
- memory per table: what the restored tables of a fresh process hold (tracemalloc);
- restore: the start-up's load and replay of every open table from the file, then the
  refresh of every table message (through the harness; Discord rate-limits this part).

The harness is the test kit's (``tests.kit.harness``, whose ``discord_internals`` module
is the one place allowed to touch discord.py's internals): the lab runs from a source
checkout and imports it from there, so no test machinery ships in the bot's package.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.discord.app import EuchreBot
from bot.players import make_player
from bot.runtime import tune_gc_after_start
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database, TableRepo
from bot.tables import Table, TableService
from bot.tables.database import DatabaseTableStore
from tests.kit.harness import Harness, MemberSpec

__all__ = ["BenchDatabaseError", "BenchOptions", "Report", "run"]

_ACTION = "euchre:a:"


class BenchDatabaseError(RuntimeError):
    """The database given is not empty."""


@dataclass(frozen=True, slots=True)
class BenchOptions:
    """What to run: tables, moves per table, mean thinking time, seed, database file."""

    tables: int = 100
    clicks: int = 30
    think: float = 5.0
    seed: int = 1
    db: Path | None = None
    database_url: str | None = None
    """An empty database to use instead of a temporary SQLite file (``postgresql://...``)."""


@dataclass
class Report:
    """The figures of one run."""

    options: BenchOptions
    latencies: list[float] = field(default_factory=list)
    """Seconds per click while the tables play (the setup's burst of clicks is apart)."""
    setup_latencies: list[float] = field(default_factory=list)
    """Seconds per click of the setup: every table opened, joined and started at once."""
    setup_seconds: float = 0.0
    drive_seconds: float = 0.0
    actions_stored: int = 0
    restored: int = 0
    restore_seconds: float = 0.0
    resume_seconds: float = 0.0
    memory_per_table: float = 0.0
    """Bytes held per restored table (tracemalloc)."""
    actions_per_table: float = 0.0
    dialect: str = "sqlite"

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the click latencies, in milliseconds."""
        ordered = sorted(self.latencies)
        if not ordered:
            return 0.0
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
        return ordered[index] * 1000

    def text(self) -> str:
        """The report as printed."""
        o = self.options
        rate = self.actions_stored / self.drive_seconds if self.drive_seconds else 0.0
        mean = statistics.fmean(self.latencies) * 1000 if self.latencies else 0.0
        store = "SQLite" if self.dialect == "sqlite" else "PostgreSQL"
        lines = [
            f"tables: {o.tables}, moves per table: {o.clicks}, mean think: {o.think:g} s, "
            f"store: {store}",
            f"setup: {o.tables} tables opened, joined and started at once, "
            f"{len(self.setup_latencies)} clicks in {self.setup_seconds:.1f} s",
            f"play: {len(self.latencies)} clicks in {self.drive_seconds:.1f} s",
            f"handler latency per click: p50 {self.percentile(50):.1f} ms, "
            f"p99 {self.percentile(99):.1f} ms, max {self.percentile(100):.1f} ms, "
            f"mean {mean:.1f} ms",
            f"actions stored: {self.actions_stored} ({rate:.0f} per second)",
            f"memory per table: {self.memory_per_table / 1024:.1f} KB "
            f"(restored tables, {self.actions_per_table:.0f} actions each on average)",
            f"restore at start-up: {self.restored} tables loaded and replayed in "
            f"{self.restore_seconds:.2f} s; messages refreshed in {self.resume_seconds:.2f} s",
        ]
        return "\n".join(lines)


def _service(db: Database) -> TableService:
    seeds = itertools.count(1)
    servers = FixedSettings(ServerSettings(ping_after=None))
    return TableService(
        DatabaseTableStore(db), make_player, server_settings=servers, seeds=lambda: next(seeds)
    )


def _bot(service: TableService) -> EuchreBot:
    return EuchreBot(Settings(computer_move_delay=0, log_level="WARNING"), tables=service)


@dataclass
class _Place:
    """One table's server, as the first harness made it (ids reused after the restart)."""

    guild_id: int
    channel_id: int
    members: list[tuple[str, int]]
    message: Any = None


class _Driver:
    """Four simulated people playing one table."""

    def __init__(
        self, h: Any, service: TableService, guild: Any, rng: random.Random, report: Report
    ) -> None:
        self.h, self.service, self.guild, self.rng, self.report = h, service, guild, rng, report
        self.people = list(guild.members.values())
        self.hands: dict[int, int] = {}

    async def _timed(self, click: Awaitable[Any], *, setup: bool = False) -> Any:
        start = time.perf_counter()
        result = await click
        into = self.report.setup_latencies if setup else self.report.latencies
        into.append(time.perf_counter() - start)
        return result

    async def setup(self) -> Table:
        h, people = self.h, self.people
        opened = await self._timed(h.slash(people[0], "euchre new"), setup=True)
        self.message_id = opened.message.id
        for person in people[1:]:
            join = h.click(person, h.message(self.message_id), label="Join")
            await self._timed(join, setup=True)
        start = h.click(people[0], h.message(self.message_id), label="Start")
        await self._timed(start, setup=True)
        table = self.service.at(self.guild.channel.id)
        assert table is not None
        return table

    def _buttons(self, message_id: int | None, stamp: tuple[int, int]) -> list[Any]:
        if message_id is None:
            return []
        wanted = f":{stamp[0]}:{stamp[1]}:"
        return [
            b
            for b in self.h.message(message_id).buttons
            if not b.disabled
            and (b.custom_id or "").startswith(_ACTION)
            and wanted in (b.custom_id or "")
        ]

    async def play(self, table: Table, moves: int, think: float) -> None:
        h = self.h
        for _ in range(moves):
            game = table.game
            if table.status != "playing" or game is None or game.turn is None:
                return
            if think > 0:
                await asyncio.sleep(self.rng.expovariate(1 / think))
            person = self.people[game.turn]
            buttons = self._buttons(self.hands.get(person.id), table.stamp)
            if not buttons:
                shown = await self._timed(
                    h.click(person, h.message(self.message_id), label="Your hand")
                )
                self.hands[person.id] = shown.message.id
                buttons = self._buttons(shown.message.id, table.stamp)
            choice = self.rng.choice(buttons)
            await self._timed(h.click(person, self.hands[person.id], custom_id=choice.custom_id))


async def _trim(h: Any) -> None:
    """Drop the harness' records every second (they are for tests).

    A heap of them would make the garbage collector's pauses the harness' cost, not the bot's.
    """
    while True:
        await asyncio.sleep(1.0)
        h.forget()


async def _drive(options: BenchOptions, db: Database, report: Report) -> list[_Place]:
    service = _service(db)
    places: list[_Place] = []
    async with Harness(_bot(service), settle_timeout=600.0) as h:
        drivers = []
        for n in range(options.tables):
            guild = h.guild(members=[f"p{n}-{seat}" for seat in range(4)], name=f"server {n}")
            rng = random.Random(options.seed * 1_000_003 + n)
            drivers.append(_Driver(h, service, guild, rng, report))
        trimming = asyncio.create_task(_trim(h))
        thresholds = gc.get_threshold()
        try:
            start = time.perf_counter()
            tables = await asyncio.gather(*(d.setup() for d in drivers))
            report.setup_seconds = time.perf_counter() - start
            h.forget()
            thresholds = tune_gc_after_start()  # as the bot does once its tables are restored
            before = sum(len(t.game.log) for t in tables if t.game is not None)
            played = time.perf_counter()
            await asyncio.gather(
                *(
                    d.play(t, options.clicks, options.think)
                    for d, t in zip(drivers, tables, strict=True)
                )
            )
            report.drive_seconds = time.perf_counter() - played
        finally:
            trimming.cancel()
            gc.unfreeze()
            gc.set_threshold(*thresholds)
        report.actions_stored = sum(len(t.game.log) for t in tables if t.game is not None) - before
        for d in drivers:
            g = d.guild
            members = [(m.name, m.id) for m in g.members.values()]
            places.append(_Place(g.id, g.channel.id, members, h.message(d.message_id)))
    return places


async def _restore(db: Database, report: Report) -> TableService:
    gc.collect()
    service = _service(db)
    start = time.perf_counter()
    restored = await service.restore()
    report.restore_seconds = time.perf_counter() - start
    report.restored = len(restored)
    actions = [len(t.game.log) for t in restored if t.game is not None]
    report.actions_per_table = statistics.fmean(actions) if actions else 0.0

    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        measured = _service(db)
        kept = await measured.restore()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    report.memory_per_table = held / max(1, len(kept))
    del measured, kept
    return service


async def _resume(db: Database, places: list[_Place], report: Report) -> None:
    """Show every restored table again, as a restart does once its servers are known.

    The bot's service is restored only once the harness knows the places' channels: a
    table whose channel Discord no longer knows is closed at the restart.
    """
    service = _service(db)
    bot = _bot(service)
    async with Harness(bot, settle_timeout=600.0) as h:
        for place in places:
            g = h.guild(
                members=[MemberSpec(name, id=uid) for name, uid in place.members],
                id=place.guild_id,
                channel_ids={"table": place.channel_id},
            )
            h.add_message(g.channel, like=place.message)
        await service.restore()
        keeping = bot.get_cog("Keeping")
        assert keeping is not None
        start = time.perf_counter()
        await keeping.resume_all()  # type: ignore[attr-defined]
        report.resume_seconds = time.perf_counter() - start


async def run(options: BenchOptions) -> Report:
    """Run the benchmark and return its figures."""
    report = Report(options)
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as folder:
        path = options.database_url or options.db or Path(folder) / "bench.sqlite3"
        async with await Database.open(path) as db:
            report.dialect = db.dialect
            if await TableRepo(db).open_guild_ids():
                raise BenchDatabaseError(f"{db.path} has open tables: give an empty database")
            places = await _drive(options, db, report)
        async with await Database.open(path) as db:
            await _restore(db, report)
            await _resume(db, places, report)
    return report
