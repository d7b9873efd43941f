"""Migrations: from an empty database, from every earlier schema, and refusing newer ones.

One numbered history for both dialects, run on both back ends (how a source becomes
each dialect's SQL: test_migration_sources.py; that both schemas agree, and that the
databases today's releases made go on: test_schema_agreement.py).
"""

from __future__ import annotations

import asyncio
import sqlite3
from importlib.resources import files
from pathlib import Path

import asyncpg
import pytest

from bot.rules import HouseRules
from bot.store import (
    Database,
    GameArchiveRepo,
    GuildSettingsRepo,
    LeagueSettingsRepo,
    MigrationError,
    RatingRepo,
    SchemaTooNewError,
    SeasonRepo,
    Seat,
    StoreError,
    TableRepo,
    latest_version,
    migrate,
)
from bot.store.migrations import Migration, load_migrations, split_statements

from .conftest import CHANNEL, GUILD, OLD_ROWS, build_at_version, schema_version, sql
from .schemas import schema

LATEST = latest_version()


async def table_names(url: str) -> set[str]:
    if url.startswith("postgresql"):
        rows = await sql(
            url,
            "SELECT table_name AS name FROM information_schema.tables "
            "WHERE table_schema = current_schema()",
        )
    else:
        rows = await sql(url, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {r["name"] for r in rows}


def test_migrations_ship_as_package_data_numbered_without_gaps() -> None:
    names = sorted(
        e.name for e in files("bot.store.migrations").iterdir() if e.name.endswith(".sql")
    )
    assert names[0] == "0001_initial.sql"
    assert [m.version for m in load_migrations()] == list(range(1, len(names) + 1))
    assert LATEST == len(names) >= 2


def test_split_statements_keeps_semicolons_in_strings_and_drops_comments() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (a TEXT DEFAULT 'x;y');
    INSERT INTO t VALUES ('1;2');  -- trailing
    -- the end
    """
    assert split_statements(script) == (
        "-- a comment; with a semicolon\n    CREATE TABLE t (a TEXT DEFAULT 'x;y');",
        "INSERT INTO t VALUES ('1;2');",
    )
    with pytest.raises(MigrationError, match="unterminated"):
        split_statements("CREATE TABLE t (a INT)")


async def test_empty_database_is_migrated_to_the_newest_schema(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        assert db.schema_version == LATEST
    assert await schema_version(db_url) == LATEST
    assert {
        "guild_settings",
        "tables",
        "table_seats",
        "table_actions",
        "games",
        "seasons",
        "league_settings",
        "league_ratings",
        "league_rating_points",
        "season_standings",
    } <= await table_names(db_url)


async def test_sqlite_file_and_folder_are_created(db_path: Path) -> None:
    assert not db_path.parent.exists()
    async with await Database.open(db_path):
        pass
    assert db_path.is_file()


async def test_migrate_reports_from_and_to_and_is_idempotent(db_url: str) -> None:
    assert await migrate(db_url) == (0, LATEST)
    assert await migrate(db_url) == (LATEST, LATEST)
    with pytest.raises(MigrationError, match="only go forward"):
        await migrate(db_url, target=1)
    with pytest.raises(MigrationError, match="does not exist"):
        await migrate(db_url, target=LATEST + 1)


# The default run upgrades from the first and the last two schemas; every other one is slow.
@pytest.mark.parametrize(
    "version",
    [
        pytest.param(v, marks=() if v in (0, LATEST - 2, LATEST - 1) else pytest.mark.slow)
        for v in range(LATEST)
    ],
)
async def test_every_earlier_schema_upgrades_and_keeps_its_data(
    db_url: str, other_url: str, version: int
) -> None:
    old = db_url
    await build_at_version(old, version)
    assert await schema_version(old) == version
    assert await migrate(old) == (version, LATEST)

    fresh = other_url
    await migrate(fresh)
    assert await schema(old) == await schema(fresh)
    if old.startswith("sqlite"):
        assert (await sql(old, "PRAGMA integrity_check"))[0][0] == "ok"
        assert await sql(old, "PRAGMA foreign_key_check") == []

    async with await Database.open(old) as db:
        if version >= 1:
            settings = await GuildSettingsRepo(db).get(GUILD)
            assert settings.rules == HouseRules.preset_rules("toronto").with_changes(target_score=5)
            assert settings.turn_time_limit_seconds == 90
            assert settings.computer_default_level == "expert"
            # Mentioning players on their turn became a ping after the default wait.
            assert settings.ping_after == 8
            assert (await GuildSettingsRepo(db).get(GUILD + 1)).ping_after is None
            table = await TableRepo(db).get(7)
            assert table.channel_id == CHANNEL
            assert [a.action for a in table.actions] == [{"seat": 1, "do": "pass"}]
            assert len(table.seats) == 4
        if version >= 2:
            season = await SeasonRepo(db).get(1)
            assert (season.name, season.open_ended, season.rating_model) == ("Legacy", False, None)
            assert season.running and season.min_games is None
            game = await GameArchiveRepo(db).get(11)
            assert (game.season_id, game.score, len(game.players)) == (1, (6, 10), 4)
            assert (await LeagueSettingsRepo(db).get(GUILD)).updated_at is None
        if 2 <= version < 9:
            assert await SeasonRepo(db).standings(1) == []
            assert await RatingRepo(db).season(1) == []
        if version >= 9:
            # Ratings from before families are four-hand euchre's (schema 10), and their
            # server's ladders are due to be rebuilt by family (schema 11).
            due = await sql(old, "SELECT guild_id FROM league_rebuilds")
            assert [r["guild_id"] for r in due] == [GUILD]
            (rating,) = await RatingRepo(db).season(1, "euchre4")
            assert (rating.family, rating.mu, rating.last_game_id) == ("euchre4", 27.5, 11)
            assert await RatingRepo(db).season(1, "euchre6") == []
            (point,) = await RatingRepo(db).points(1, rating.user_id, "euchre4")
            assert (point.family, point.game_id) == ("euchre4", 11)
            (standing,) = await SeasonRepo(db).standings(1, "euchre4")
            assert (standing.family, standing.place) == ("euchre4", 1)
            assert await SeasonRepo(db).standings(1, "bid_euchre") == []


def test_every_schema_version_has_old_rows_to_upgrade() -> None:
    # A new migration should come with rows written at its version (conftest.OLD_ROWS)
    # whenever it changes tables that hold data; schema 3 changed seasons (from 2).
    assert {1, 2, 9} <= set(OLD_ROWS)


async def test_upgrade_from_one_keeps_archived_games_outside_any_season(db_url: str) -> None:
    await build_at_version(db_url, 1)
    await sql(
        db_url,
        "INSERT INTO games (guild_id, record, ranked, winner, score_0, score_1, finished_at) "
        "VALUES (?, '{}', TRUE, 0, 10, 4, '2025-01-03T00:00:00+00:00')",
        (GUILD,),
    )
    await migrate(db_url)
    rows = await sql(db_url, "SELECT score_0, season_id FROM games")
    assert [(r["score_0"], r["season_id"]) for r in rows] == [(10, None)]


@pytest.mark.parametrize("journal_mode", ["wal", "delete"])
async def test_a_newer_database_is_refused_and_left_untouched(
    db_path: Path, journal_mode: str
) -> None:
    await migrate(db_path)
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA journal_mode = {journal_mode}")
    conn.execute(f"PRAGMA user_version = {LATEST + 2}")
    conn.close()
    before = db_path.read_bytes()
    files_before = sorted(p.name for p in db_path.parent.iterdir())

    message = (
        f"this database was written by a newer version of the bot (schema {LATEST + 2}, "
        f"this bot knows up to {LATEST}); upgrade the bot or use another data directory"
    )
    with pytest.raises(SchemaTooNewError) as caught:
        await Database.open(db_path)
    assert str(caught.value) == message
    assert (caught.value.found, caught.value.known) == (LATEST + 2, LATEST)
    with pytest.raises(SchemaTooNewError):
        await migrate(db_path)

    assert db_path.read_bytes() == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == files_before
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST + 2
    finally:
        conn.close()


async def test_a_newer_postgresql_database_is_refused_and_left_untouched(
    postgres_url: str,
) -> None:
    await migrate(postgres_url)
    await sql(postgres_url, "UPDATE schema_version SET version = ?", (LATEST + 2,))
    before = await schema(postgres_url)
    with pytest.raises(SchemaTooNewError) as caught:
        await Database.open(postgres_url)
    assert (caught.value.found, caught.value.known) == (LATEST + 2, LATEST)
    with pytest.raises(SchemaTooNewError):
        await migrate(postgres_url)
    assert await schema(postgres_url) == before
    admin = await asyncpg.connect(postgres_url)
    try:
        assert await admin.fetchval("SELECT version FROM schema_version") == LATEST + 2
    finally:
        await admin.close()


async def test_a_failing_migration_is_rolled_back(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await migrate(db_url, target=1)
    broken = Migration(
        2, "broken", ("CREATE TABLE half_done (a INTEGER)", "INSERT INTO no_such_table VALUES (1)")
    )
    monkeypatch.setattr(
        "bot.store.database.load_migrations", lambda dialect: (load_migrations(dialect)[0], broken)
    )
    monkeypatch.setattr("bot.store.database.latest_version", lambda: 2)
    with pytest.raises(MigrationError, match=r"0002_broken failed, the database stays at schema 1"):
        await Database.open(db_url)
    assert await schema_version(db_url) == 1
    assert "half_done" not in await table_names(db_url)


async def test_two_connections_opening_a_fresh_database_at_once_both_succeed(db_url: str) -> None:
    first, second = await asyncio.gather(Database.open(db_url), Database.open(db_url))
    try:
        assert first.schema_version == second.schema_version == LATEST
    finally:
        await first.close()
        await second.close()


async def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"hello, this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        await Database.open(path)


async def test_the_beginner_level_is_stored_for_servers_and_seats(tmp_path: Path) -> None:
    path = tmp_path / "levels.sqlite3"
    await migrate(path)
    async with await Database.open(path) as db:
        settings = await GuildSettingsRepo(db).update(GUILD, computer_default_level="beginner")
        assert settings.computer_default_level == "beginner"
        seats = [Seat.computer(n, f"cpu{n}", "beginner") for n in range(4)]
        table = await TableRepo(db).create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=1,
            rules=HouseRules(),
            seed=3,
            seats=seats,
        )
        stored = await TableRepo(db).get(table.id)
        assert [s.computer_level for s in stored.seats] == ["beginner"] * 4
