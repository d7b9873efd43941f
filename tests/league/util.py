"""League tests' store and finished games: scripted with the rules core, archived in the store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.rules import HouseRules, game_record
from bot.store import ArchivedGame, Database, GameArchiveRepo, GuildSettingsRepo, Seat
from tests.kit.games import random_game

GUILD = 1_000_000_000_000_001
OTHER_GUILD = 1_000_000_000_000_002
RULES = HouseRules().with_changes(target_score=5)
"""The test servers' house rules: short games."""

NAMES = ("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
USERS = {name: 5_000_000_000_000_000 + n for n, name in enumerate(NAMES)}


def finished_record(seed: int, rules: HouseRules = RULES) -> dict[str, Any]:
    """A finished game of random legal moves (the same for the same seed)."""
    return game_record(random_game(rules, seed=seed, rng_seed=seed))


def seats(*names: str | None) -> list[Seat]:
    """Seats in order: a name is that person, None a computer."""
    return [
        Seat.computer(n, f"Computer {n + 1}") if name is None else Seat.person(n, USERS[name], name)
        for n, name in enumerate(names)
    ]


async def use_rules(db: Database, guild_id: int = GUILD, rules: HouseRules = RULES) -> None:
    await GuildSettingsRepo(db).set_rules(guild_id, rules)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A new SQLite store whose test server plays :data:`RULES`, closed after the test: the
    ``db`` of the test files that import it (the conftest's runs on PostgreSQL too)."""
    database = await Database.open(tmp_path / "league.sqlite3")
    await use_rules(database)
    try:
        yield database
    finally:
        await database.close()


async def archive(
    db: Database,
    seed: int,
    players: Sequence[str | None],
    *,
    guild_id: int = GUILD,
    rules: HouseRules = RULES,
) -> ArchivedGame:
    """Archive a scripted game the way the table service does (ranked: no computer)."""
    return await GameArchiveRepo(db).archive(
        guild_id=guild_id,
        record=finished_record(seed, rules),
        players=seats(*players),
        ranked=all(p is not None for p in players),
    )


async def archive_elsewhere(db: Database, guild_id: int) -> None:
    """A finished game of another server, archived first: ``guild_id``'s games then have ids
    that are not their numbers (as on any server but a bot's first)."""
    await GameArchiveRepo(db).archive(
        guild_id=guild_id + 1,
        record=finished_record(1),
        players=[Seat.person(n, 10 + n, f"X{n}") for n in range(4)],
        ranked=True,
    )
