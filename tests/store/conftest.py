"""Fixtures for store tests: real SQLite files in tmp_path, never mocks."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.rules import Game, HouseRules
from bot.store import Database, Seat, TableRepo, migrate

GUILD = 1_000_000_000_000_001
CHANNEL = 2_000_000_000_000_002
HOST = 3_000_000_000_000_003

FOUR_SEATS = (
    Seat.person(0, HOST, "Ada"),
    Seat.computer(1, "Babbage", "expert"),
    Seat.person(2, HOST + 1, "Grace"),
    Seat.computer(3, "Turing"),
)

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
}


def write_rows(path: Path, rows: list[tuple[str, dict[str, Any]]]) -> None:
    """Insert rows with plain sqlite3, the way an older bot left them."""
    with sqlite3.connect(path) as conn:
        for table, row in rows:
            names = ", ".join(row)
            slots = ", ".join("?" for _ in row)
            conn.execute(f"INSERT INTO {table} ({names}) VALUES ({slots})", tuple(row.values()))
    conn.close()


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


async def build_at_version(path: Path, version: int) -> None:
    """A database as a bot knowing schemas 1..version left it, with that era's rows."""
    if version > 0:
        assert await migrate(path, target=version) == (0, version)
    for v in range(1, version + 1):
        write_rows(path, OLD_ROWS.get(v, []))


def random_game(rules: HouseRules, seed: int, rng_seed: int = 1) -> Game:
    """A finished game with random legal moves."""
    rng = random.Random(rng_seed)
    game = Game(rules, seed=seed)
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(list(game.legal())))
    return game


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
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "euchre.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()
