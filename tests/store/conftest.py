"""Fixtures for store tests: real databases, never mocks.

Every test that takes ``db`` or ``db_url`` runs twice: on an SQLite file in tmp_path
and on a fresh database of a throwaway PostgreSQL server (tests/kit/postgres_server.py).
``db_path`` is an SQLite file, for the tests of what only SQLite has (files, pragmas).
"""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from bot.rules import HouseRules
from bot.store import Database, Seat, TableRepo, connect, migrate
from bot.store import migrations as migrations_module

GUILD = 1_000_000_000_000_001
CHANNEL = 2_000_000_000_000_002
HOST = 3_000_000_000_000_003

FOUR_SEATS = (
    Seat.person(0, HOST, "Ada"),
    Seat.computer(1, "Babbage", "expert"),
    Seat.person(2, HOST + 1, "Grace"),
    Seat.computer(3, "Turing"),
)
PEOPLE = tuple(Seat.person(s, HOST + s, f"P{s}") for s in range(4))
"""Four people at a table, no computer among them."""

# Rows an older bot wrote, per schema version: (table, row). Applied to a database
# built at that version, then read back through the current repositories.
OLD_ROWS: dict[int, list[tuple[str, dict[str, Any]]]] = {
    1: [
        (
            "guild_settings",
            {
                "guild_id": GUILD,
                "rules": '{"preset":"toronto","target_score":5}',
                "tables_in_threads": True,
                "turn_time_limit_seconds": 90,
                "allow_computers": False,
                "host_may_override_rules": False,
                "mention_on_turn": True,
                "computer_move_delay": 0.5,
                "rules_admin_role_id": 44,
                "computer_default_level": "expert",
                "created_at": "2025-01-01T00:00:00+00:00",
                "updated_at": "2025-01-02T00:00:00+00:00",
            },
        ),
        (
            "guild_settings",
            {
                "guild_id": GUILD + 1,
                "rules": "{}",
                "tables_in_threads": False,
                "turn_time_limit_seconds": None,
                "allow_computers": True,
                "host_may_override_rules": True,
                "mention_on_turn": False,
                "computer_move_delay": None,
                "rules_admin_role_id": None,
                "computer_default_level": "basic",
                "created_at": "2025-01-01T00:00:00+00:00",
                "updated_at": "2025-01-02T00:00:00+00:00",
            },
        ),
        (
            "tables",
            {
                "id": 7,
                "guild_id": GUILD,
                "channel_id": CHANNEL,
                "host_id": HOST,
                "status": "playing",
                "rules": '{"preset":"north_american"}',
                "seed": 7,
                "created_at": "2025-01-01T00:00:00+00:00",
                "updated_at": "2025-01-01T00:00:00+00:00",
            },
        ),
        *(
            (
                "table_seats",
                {
                    "table_id": 7,
                    "seat": s.seat,
                    "user_id": s.user_id,
                    "is_computer": s.is_computer,
                    "computer_level": s.computer_level,
                    "display_name": s.display_name,
                },
            )
            for s in FOUR_SEATS
        ),
        (
            "table_actions",
            {
                "table_id": 7,
                "idx": 0,
                "seat": 1,
                "action": '{"seat":1,"do":"pass"}',
                "created_at": "2025-01-01T00:00:01+00:00",
            },
        ),
    ],
    2: [
        (
            "seasons",
            {
                "id": 1,
                "guild_id": GUILD,
                "name": "Legacy",
                "started_at": "2025-02-01T00:00:00+00:00",
            },
        ),
        (
            "games",
            {
                "id": 11,
                "guild_id": GUILD,
                "record": "{}",
                "ranked": True,
                "winner": 1,
                "score_0": 6,
                "score_1": 10,
                "finished_at": "2025-02-02T00:00:00+00:00",
                "season_id": 1,
            },
        ),
        *(
            (
                "game_players",
                {
                    "game_id": 11,
                    "seat": s.seat,
                    "team": s.team,
                    "user_id": s.user_id,
                    "is_computer": s.is_computer,
                    "computer_level": s.computer_level,
                    "display_name": s.display_name,
                },
            )
            for s in FOUR_SEATS
        ),
    ],
    9: [
        (
            "league_ratings",
            {
                "season_id": 1,
                "guild_id": GUILD,
                "user_id": FOUR_SEATS[0].user_id,
                "display_name": FOUR_SEATS[0].display_name,
                "mu": 27.5,
                "sigma": 7.5,
                "games": 1,
                "wins": 0,
                "last_game_id": 11,
            },
        ),
        (
            "league_rating_points",
            {
                "game_id": 11,
                "user_id": FOUR_SEATS[0].user_id,
                "season_id": 1,
                "mu": 27.5,
                "sigma": 7.5,
            },
        ),
        (
            "season_standings",
            {
                "season_id": 1,
                "user_id": FOUR_SEATS[0].user_id,
                "place": 1,
                "display_name": FOUR_SEATS[0].display_name,
                "rating": 5.0,
                "mu": 27.5,
                "sigma": 7.5,
                "games": 1,
                "wins": 0,
            },
        ),
    ],
}


async def sql(url: str | Path, statement: str, params: tuple[Any, ...] = ()) -> list[Any]:
    """Run one statement on a raw connection (no migration, no repository); its rows."""
    db = await connect(url)
    try:
        async with db.transaction():
            return await db.fetch_all(statement, params)
    finally:
        await db.close()


async def write_rows(url: str | Path, rows: list[tuple[str, dict[str, Any]]]) -> None:
    """Insert rows without the repositories, the way an older bot left them."""
    db = await connect(url)
    try:
        async with db.transaction():
            for table, row in rows:
                names = ", ".join(row)
                slots = ", ".join("?" for _ in row)
                await db.execute(
                    f"INSERT INTO {table} ({names}) VALUES ({slots})", tuple(row.values())
                )
    finally:
        await db.close()


async def schema_version(url: str | Path) -> int:
    """The schema version the database says it is at (read without migrating)."""
    db = await connect(url)
    try:
        return db.schema_version
    finally:
        await db.close()


async def build_at_version(url: str | Path, version: int) -> None:
    """A database as bots knowing schemas 1..version left it: each era's rows written in it."""
    for v in range(1, version + 1):
        assert await migrate(url, target=v) == (v - 1, v)
        await write_rows(url, OLD_ROWS.get(v, []))


async def playing_table(
    db: Database, *, channel_id: int = CHANNEL, rules: HouseRules | None = None, seed: int = 7
) -> int:
    """A table in play with four seats taken; its id."""
    tables = TableRepo(db)
    table = await tables.create(
        guild_id=GUILD,
        channel_id=channel_id,
        host_id=HOST,
        rules=rules or HouseRules(),
        seed=seed,
        seats=FOUR_SEATS,
    )
    await tables.set_status(table.id, "playing")
    return table.id


@pytest.fixture
def other_url(request: pytest.FixtureRequest, db_url: str, tmp_path: Path) -> str:
    """A second empty database of the same back end as ``db_url``."""
    if db_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'other.sqlite3'}"
    url: str = request.getfixturevalue("second_postgres_url")
    return url


@pytest.fixture
def migration_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped migration sources, which the loader reads instead meanwhile."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for entry in files(migrations_module).iterdir():
        if entry.name.endswith(".sql"):
            shutil.copyfile(Path(str(entry)), folder / entry.name)
    monkeypatch.setattr(migrations_module, "SOURCES", folder)
    return folder
