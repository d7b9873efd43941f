"""Store benchmark: how many moves a second the database saves, without the bot around it.

Each of ``processes`` connections (one per bot process, as when the bot is split over
processes) saves moves of its own tables as fast as it can for ``seconds``: every move
is :meth:`~bot.store.TableRepo.append_action`, the one write a click makes. Printed:
moves saved a second in all, and per connection. This is the ceiling the table bench's
"actions stored" rate is measured against in docs/scaling.md.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from bot.rules import HouseRules
from bot.store import Database, Seat, TableRepo
from tests.kit.games import random_game

__all__ = ["WritesReport", "run_writes"]

_SEATS = tuple(Seat.person(n, 10 + n, f"p{n}") for n in range(4))
_SEED = 7


def _game_moves() -> list[tuple[int, dict[str, Any]]]:
    """The moves of one whole game with seed :data:`_SEED` (random legal choices)."""
    game = random_game(HouseRules(), _SEED, rng_seed=_SEED)
    return [(seat, action.to_json(seat)) for seat, action in game.log]


@dataclass
class WritesReport:
    """Moves saved by each connection in ``seconds``."""

    dialect: str
    seconds: float
    saved: list[int]

    def text(self) -> str:
        """The report as printed."""
        total = sum(self.saved)
        store = "SQLite" if self.dialect == "sqlite" else "PostgreSQL"
        each = total / len(self.saved) / self.seconds
        return (
            f"store: {store}, {len(self.saved)} connection(s), {self.seconds:.1f} s\n"
            f"moves saved: {total} ({total / self.seconds:.0f} per second; "
            f"{each:.0f} per second per connection, {1000 / each:.2f} ms each)"
        )


async def _writer(db: Database, place: int, seconds: float) -> int:
    tables = TableRepo(db)
    moves = _game_moves()
    saved = 0
    deadline = time.perf_counter() + seconds
    for n in itertools.count():
        table = await tables.create(
            guild_id=place,
            channel_id=place * 1000 + n,
            host_id=10,
            rules=HouseRules(),
            seed=_SEED,
            seats=_SEATS,
        )
        await tables.set_status(table.id, "playing")
        for idx, (seat, move) in enumerate(moves):
            await tables.append_action(table.id, idx, seat, move)
            saved += 1
            if time.perf_counter() >= deadline:
                return saved
    raise AssertionError("unreachable")


async def run_writes(
    target: str | os.PathLike[str] | None, *, processes: int = 1, seconds: float = 5.0
) -> WritesReport:
    """Save moves on ``processes`` connections for ``seconds`` (target None: a temp file)."""
    with TemporaryDirectory(prefix="euchre-writes-") as folder:
        where = target or Path(folder) / "writes.sqlite3"
        dbs = [await Database.open(where) for _ in range(processes)]
        try:
            base = int(time.time() * 1000)
            saved = await asyncio.gather(
                *(_writer(db, base + n, seconds) for n, db in enumerate(dbs))
            )
        finally:
            for db in dbs:
                await db.close()
        return WritesReport(dbs[0].dialect, seconds, list(saved))
