"""``python -m bot migrate``: the schema brought up to date without starting the bot."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

import bot.__main__ as cli
from bot.settings import Settings
from bot.store import StoreError, latest_version
from tests.bot_env import child_env

pytestmark = pytest.mark.usefixtures("clean_env", "quiet_logging")


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    conn.close()
    return version


def test_migrate_creates_and_upgrades_the_database_then_exits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "data" / "euchre.sqlite3"
    assert cli.main(["migrate"]) == 0
    assert user_version(path) == latest_version()
    assert f"migrated from schema 0 to {latest_version()}" in capsys.readouterr().out
    assert cli.main(["migrate"]) == 0
    assert "nothing to do" in capsys.readouterr().out


def test_a_database_migrate_cannot_use_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "data" / "euchre.sqlite3"
    path.parent.mkdir()
    path.write_text("not a database")
    assert cli.main(["migrate"]) == cli.EXIT_CONFIG
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {Path('data', 'euchre.sqlite3')} is not an SQLite database"]


def test_a_postgresql_server_that_cannot_be_reached_is_named_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on the port once the socket is closed: connections are refused.
    url = f"postgresql://euchre:secret@127.0.0.1:{port}/euchre"
    (tmp_path / "config.toml").write_text(f'database_url = "{url}"\n')
    assert cli.main(["migrate"]) == cli.EXIT_CONFIG
    [line] = capsys.readouterr().err.splitlines()
    shown = f"postgresql://euchre:***@127.0.0.1:{port}/euchre"
    assert line.startswith(f"error: cannot connect to the database {shown}: ")
    assert line.count("127.0.0.1") == 1 and "secret" not in line

    with sqlite3.connect(tmp_path / "newer.sqlite3") as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.close()
    (tmp_path / "config.toml").write_text('database = "newer.sqlite3"\ndata_dir = "."\n')
    assert cli.main(["migrate"]) == cli.EXIT_CONFIG
    assert "newer version of the bot" in capsys.readouterr().err
    assert user_version(tmp_path / "newer.sqlite3") == latest_version() + 1


def test_python_m_bot_migrate_runs_without_a_token(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        cwd=tmp_path,
        env=child_env(EUCHRE_DATA_DIR=str(tmp_path / "elsewhere")),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert user_version(tmp_path / "elsewhere" / "euchre.sqlite3") == latest_version()


def test_migrate_on_postgresql_and_copy_db_from_the_sqlite_file(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["migrate"]) == 0  # the default: the SQLite file in ./data
    capsys.readouterr()
    (tmp_path / "config.toml").write_text(f'database_url = "{postgres_url}"\n')
    assert cli.main(["migrate"]) == 0
    out = capsys.readouterr().out
    assert f"{postgres_url}: migrated from schema 0 to {latest_version()}" in out

    source = f"sqlite:///{tmp_path / 'data' / 'euchre.sqlite3'}"
    assert cli.main(["copy-db", source, postgres_url]) == 0
    out = capsys.readouterr().out
    assert "copied and checked:" in out and "every archived game replayed: 0" in out
    assert cli.main(["copy-db", source, "mysql://nowhere/db"]) == cli.EXIT_CONFIG
    err = capsys.readouterr().err.strip()
    assert err == (
        "error: copy-db: mysql: not a known database; use sqlite:///PATH "
        "or postgresql://user:password@host/database"
    )


def test_copy_db_from_a_missing_file_is_one_error_line_and_creates_nothing(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "path" / "that" / "does" / "not" / "exist.sqlite3"
    assert cli.main(["copy-db", f"sqlite:///{missing}", postgres_url]) == cli.EXIT_CONFIG
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"error: copy-db: FROM_URL: {missing} does not exist: name the database the bot ran on\n"
    )
    assert list(tmp_path.iterdir()) == []

    async def tables() -> list[str]:
        conn = await asyncpg.connect(postgres_url)
        try:
            rows = await conn.fetch(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
        finally:
            await conn.close()
        return [r["table_name"] for r in rows]

    assert asyncio.run(tables()) == [], "nothing in the target either"


async def test_losing_the_guild_locks_stops_the_process_with_an_error(postgres_url: str) -> None:
    settings = Settings(database_url=postgres_url)
    held = asyncio.Event()

    async def serve() -> None:
        async with cli._guild_locks(settings, asyncio.current_task()) as locks:
            assert await locks.acquire(42)
            held.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(serve())
    await asyncio.wait_for(held.wait(), 10)
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
        )
    finally:
        await admin.close()
    with pytest.raises(StoreError, match="lost the connection that holds"):
        await asyncio.wait_for(task, 10)
