"""``python -m bot health`` and the heartbeat file: offline, on real files."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

import pytest

import bot.__main__ as cli
from bot.heartbeat import MAX_AGE_SECONDS, Heartbeat
from bot.store import StoreBusyError, StoreError, check_writable
from tests.kit.waiting import until

pytestmark = pytest.mark.usefixtures("clean_env", "quiet_logging")


def health(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = cli.main(["health", *args])
    out = capsys.readouterr().out
    assert out.count("\n") == 1, out
    return status, out.strip()


def test_healthy_when_the_heartbeat_is_fresh_and_the_database_writable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["migrate"]) == 0
    Heartbeat.in_folder(tmp_path / "data").beat()
    capsys.readouterr()
    status, out = health(capsys)
    assert status == 0
    assert out.startswith("healthy: gateway connected 0 s ago; data/euchre.sqlite3 writable")


def test_an_old_heartbeat_is_unhealthy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["migrate"]) == 0
    heartbeat = Heartbeat.in_folder(tmp_path / "data")
    heartbeat.beat()
    old = time.time() - MAX_AGE_SECONDS - 60
    os.utime(heartbeat.path, (old, old))
    capsys.readouterr()
    status, out = health(capsys)
    assert status == cli.EXIT_UNHEALTHY
    assert out == "unhealthy: the gateway has not been connected for 180 s"
    status, _ = health(capsys, "--max-age", "600")
    assert status == 0


def test_no_heartbeat_and_no_database_are_both_said(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = health(capsys)
    assert status == cli.EXIT_UNHEALTHY
    assert out == (
        "unhealthy: no heartbeat yet (data/heartbeat): the bot has not connected; "
        "the database does not accept a write: data/euchre.sqlite3 does not exist "
        "(the bot creates it when it starts)"
    )
    assert not Path("data/euchre.sqlite3").exists(), "health creates nothing"


def test_a_file_that_is_not_the_database_is_unhealthy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "euchre.sqlite3").write_text("not a database")
    Heartbeat.in_folder(data).beat()
    status, out = health(capsys)
    assert status == cli.EXIT_UNHEALTHY
    assert out == (
        "unhealthy: the database does not accept a write: "
        "data/euchre.sqlite3 is not an SQLite database"
    )


def test_check_writable_commits_a_write_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA user_version = 3")
        before = conn.total_changes
    conn.close()
    asyncio.run(check_writable(path))
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
        assert conn.total_changes == before == 0
    conn.close()


def test_check_writable_fails_on_a_database_locked_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = WAL")
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusyError):
            asyncio.run(check_writable(path, wait_ms=50))
    finally:
        holder.close()
    asyncio.run(check_writable(path, wait_ms=50))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_check_writable_refuses_a_read_only_database(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    path.chmod(0o444)
    with pytest.raises(StoreError, match="readonly"):
        asyncio.run(check_writable(path))


def test_heartbeat_age_and_a_failing_beat(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    heartbeat = Heartbeat(tmp_path / "beat")
    assert heartbeat.age() is None
    heartbeat.beat()
    age = heartbeat.age(now=time.time() + 5)
    assert age is not None and 4 < age < 6
    new_folder = Heartbeat.in_folder(tmp_path / "not-made-yet")
    new_folder.beat()
    assert new_folder.age() is not None
    (tmp_path / "a-file").write_text("not a folder")
    broken = Heartbeat(tmp_path / "a-file" / "beat")
    broken.beat()
    broken.beat()
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "Cannot write the heartbeat file" in warnings[0]


async def test_heartbeat_beats_only_while_connected(tmp_path: Path) -> None:
    heartbeat = Heartbeat(tmp_path / "beat", interval=0.01)
    connected = False
    task = asyncio.create_task(heartbeat.run(lambda: connected))
    await asyncio.sleep(0.05)
    assert heartbeat.age() is None
    connected = True
    await until(lambda: heartbeat.age() is not None, "a beat once connected")
    task.cancel()
    assert heartbeat.age() is not None
