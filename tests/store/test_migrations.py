"""Migrations: from an empty file, from every earlier schema, and refusing newer ones."""

from __future__ import annotations

import asyncio
import sqlite3
from importlib.resources import files
from pathlib import Path

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
    StoreError,
    TableRepo,
    latest_version,
    migrate,
)
from bot.store.migrations import Migration, load_migrations, split_statements

from .conftest import CHANNEL, GUILD, OLD_ROWS, build_at_version, user_version

LATEST = latest_version()


def schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
        return [(t, n, s or "") for t, n, s in rows]
    finally:
        conn.close()


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


async def test_empty_file_is_migrated_to_the_newest_schema(db_path: Path) -> None:
    assert not db_path.parent.exists()
    async with await Database.open(db_path) as db:
        assert db.schema_version == LATEST
    assert user_version(db_path) == LATEST
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
    } <= {name for kind, name, _ in schema(db_path) if kind == "table"}


async def test_migrate_reports_from_and_to_and_is_idempotent(db_path: Path) -> None:
    assert await migrate(db_path) == (0, LATEST)
    assert await migrate(db_path) == (LATEST, LATEST)
    with pytest.raises(MigrationError, match="only go forward"):
        await migrate(db_path, target=1)
    with pytest.raises(MigrationError, match="does not exist"):
        await migrate(db_path, target=LATEST + 1)


@pytest.mark.parametrize("version", range(LATEST))
async def test_every_earlier_schema_upgrades_and_keeps_its_data(
    tmp_path: Path, version: int
) -> None:
    old = tmp_path / "old.sqlite3"
    await build_at_version(old, version)
    assert user_version(old) == version
    assert await migrate(old) == (version, LATEST)

    fresh = tmp_path / "fresh.sqlite3"
    await migrate(fresh)
    assert schema(old) == schema(fresh)
    conn = sqlite3.connect(old)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()

    async with await Database.open(old) as db:
        if version >= 1:
            settings = await GuildSettingsRepo(db).get(GUILD)
            assert settings.rules == HouseRules.preset_rules("toronto").with_changes(target_score=5)
            assert settings.turn_time_limit_seconds == 90
            assert settings.computer_default_level == "expert"
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
            assert await SeasonRepo(db).standings(1) == []
            assert await RatingRepo(db).season(1) == []
            assert (await LeagueSettingsRepo(db).get(GUILD)).updated_at is None


def test_every_schema_version_has_old_rows_to_upgrade() -> None:
    # A new migration should come with rows written at its version (conftest.OLD_ROWS)
    # whenever it changes tables that hold data; schema 3 changed seasons (from 2).
    assert {1, 2} <= set(OLD_ROWS)


async def test_upgrade_from_one_keeps_archived_games_outside_any_season(db_path: Path) -> None:
    await build_at_version(db_path, 1)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(
            "INSERT INTO games (guild_id, record, ranked, winner, score_0, score_1, finished_at) "
            "VALUES (?, '{}', TRUE, 0, 10, 4, '2025-01-03T00:00:00+00:00')",
            (GUILD,),
        )
    conn.close()
    await migrate(db_path)
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("SELECT score_0, season_id FROM games").fetchall() == [(10, None)]
    finally:
        conn.close()


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
    assert user_version(db_path) == LATEST + 2


async def test_a_failing_migration_is_rolled_back(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await migrate(db_path, target=1)
    shipped = load_migrations()
    broken = Migration(
        2, "broken", ("CREATE TABLE half_done (a INTEGER)", "INSERT INTO no_such_table VALUES (1)")
    )
    monkeypatch.setattr("bot.store.database.load_migrations", lambda: (shipped[0], broken))
    monkeypatch.setattr("bot.store.database.latest_version", lambda: 2)
    with pytest.raises(MigrationError, match=r"0002_broken failed, the database stays at schema 1"):
        await Database.open(db_path)
    assert user_version(db_path) == 1
    assert "half_done" not in {name for _, name, _ in schema(db_path)}


async def test_two_connections_opening_a_fresh_file_at_once_both_succeed(db_path: Path) -> None:
    first, second = await asyncio.gather(Database.open(db_path), Database.open(db_path))
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
