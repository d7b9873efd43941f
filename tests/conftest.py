"""Shared pytest fixtures. Keep each group under its own header."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import discord
import pytest

from bot.store import Database
from tests.bot_env import is_bot_variable
from tests.kit.harness import Harness
from tests.kit.postgres_server import PostgresMissingError, PostgresServer, start_server
from tests.kit.slow_database import SLOW_DB, slow_commits
from tests.kit.tcp_proxy import BlackHoleProxy

# pytest caches each test module with its asserts rewritten; with PYTHONDONTWRITEBYTECODE
# set (as container images often do) it would rewrite all of them on every run, several
# seconds of each worker's start. The cache is pytest's own, in __pycache__ (not tracked).
sys.dont_write_bytecode = False

# --------------------------------------------------------------------------- interaction harness
# tests/kit/harness: run a real bot offline. Usage in a cog test:
#
#     async def test_new_table(make_harness):
#         h = await make_harness(build_bot())
#         g = h.guild(members=["alice", "bob"])
#         r = await h.slash(g.member("alice"), "euchre new")
#
# Every harness made here is closed (bot closed, patches undone) when the test ends.

MakeHarness = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def make_harness() -> AsyncIterator[MakeHarness]:
    """An async factory ``await make_harness(bot, **harness_options) -> Harness``."""
    async with contextlib.AsyncExitStack() as stack:

        async def make(bot: discord.Client, **options: Any) -> Harness:
            return await stack.enter_async_context(Harness(bot, **options))

        yield make


# --------------------------------------------------------------------------- PostgreSQL
# tests/kit/postgres_server.py: one throwaway server for the session, started on first use;
# each test that asks for ``postgres_url`` gets a fresh database on it. Without
# PostgreSQL installed those tests fail with a message saying how to install it. They
# are marked ``postgresql`` and run by ``pytest -m postgresql`` and CI, not by default.


_SERVERS = frozenset({"postgres_server", "own_postgres_server"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``postgresql`` every test that needs a PostgreSQL server (left out of the default run)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_server = callspec is not None and callspec.params.get("db_url") == "postgresql"
        if on_server or _SERVERS & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgresql)


@contextlib.contextmanager
def _running_server() -> Iterator[PostgresServer]:
    """A new PostgreSQL server on loopback, stopped afterwards."""
    try:
        server = start_server()
    except PostgresMissingError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server on loopback for the whole session (stopped at the end)."""
    with _running_server() as server:
        yield server


_databases = itertools.count(1)
_templates: dict[str, str] = {}
"""Per server URL: a database the migrations have brought to the newest schema, to copy."""

NewPostgresDatabase = Callable[..., Awaitable[str]]


async def _migrated_template(server: PostgresServer) -> str:
    """The server's migrated template database, made by the real migrations on first use."""
    if server.url not in _templates:
        name = f"template_{os.getpid()}"
        admin = await asyncpg.connect(server.url)
        try:
            await admin.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        finally:
            await admin.close()
        await (await Database.open(server.url_of(name))).close()
        _templates[server.url] = name
    return _templates[server.url]


@pytest.fixture
async def new_postgres_database(
    postgres_server: PostgresServer,
) -> AsyncIterator[NewPostgresDatabase]:
    """``await new_postgres_database(migrated=False)``: the URL of a fresh database.

    Empty, or with ``migrated`` a copy of one the migrations brought to the newest
    schema (what ``Database.open`` would make of an empty one, some 0.15 s sooner).
    Dropped afterwards.
    """
    made: list[str] = []

    async def make(migrated: bool = False) -> str:
        name = f"test_{os.getpid()}_{next(_databases)}"
        template = f" TEMPLATE {await _migrated_template(postgres_server)}" if migrated else ""
        admin = await asyncpg.connect(postgres_server.url)
        try:
            await admin.execute(f"CREATE DATABASE {name}{template} STRATEGY FILE_COPY")
        finally:
            await admin.close()
        made.append(name)
        return postgres_server.url_of(name)

    yield make
    admin = await asyncpg.connect(postgres_server.url)
    try:
        for name in made:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture
async def postgres_url(new_postgres_database: NewPostgresDatabase) -> str:
    """The URL of a fresh, empty database on the session's server."""
    return await new_postgres_database()


@pytest.fixture
async def migrated_postgres_url(new_postgres_database: NewPostgresDatabase) -> str:
    """The URL of a fresh database at the newest schema, as ``Database.open`` leaves it."""
    return await new_postgres_database(migrated=True)


@pytest.fixture
async def second_postgres_url(new_postgres_database: NewPostgresDatabase) -> str:
    """Another fresh, empty database on the same server."""
    return await new_postgres_database()


@pytest.fixture
def own_postgres_server() -> Iterator[PostgresServer]:
    """A throwaway server of the test's own, to stop and start (the session's is shared)."""
    with _running_server() as server:
        yield server


# --------------------------------------------------------------------------- the build under test
# bot/compiled.py: the modules mypyc compiles run compiled, or as their pure-Python
# sources (EUCHRE_PURE=1, no compiler, or a stale build). Every run says which.


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line at the end of the run: which build of the compiled modules was tested."""
    import bot

    terminalreporter.write_line(f"euchre-bot build tested: {bot.BUILD.mode} ({bot.BUILD.reason})")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """An SQLite file (not created yet) in a folder that does not exist yet."""
    return tmp_path / "data" / "euchre.sqlite3"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    """The URL of an empty database: an SQLite file, then a fresh PostgreSQL database.

    Where the test also takes ``db`` the PostgreSQL one comes migrated, as ``db``
    would leave it anyway.
    """
    if request.param == "sqlite":
        return f"sqlite:///{db_path}"
    # A test that opens ``db`` finds it migrated either way; a migrated copy is quicker.
    wanted = "migrated_postgres_url" if "db" in request.fixturenames else "postgres_url"
    url: str = request.getfixturevalue(wanted)
    return url


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    """An open empty database of ``db_url``, closed after the test.

    With ``EUCHRE_TEST_SLOW_DB`` set, a PostgreSQL database is reached through a proxy
    that holds each request that long (tests/kit/slow_database.py).
    """
    proxy = None
    if SLOW_DB and db_url.startswith("postgresql"):
        port = urlsplit(db_url).port
        assert port is not None
        proxy = BlackHoleProxy(port, delay=SLOW_DB)
        await proxy.start()
        db_url = proxy.url_of(db_url)
    database = await Database.open(db_url)
    try:
        yield database
    finally:
        await database.close()
        if proxy is not None:
            await proxy.close()


@pytest.fixture(autouse=True)
def _slow_sqlite_commits() -> Iterator[None]:
    """With ``EUCHRE_TEST_SLOW_DB`` set, every SQLite commit waits that long first."""
    if not SLOW_DB:
        yield
        return
    with slow_commits(SLOW_DB):
        yield


# --------------------------------------------------------------------------- the bot's environment
# Tests of start-up, settings and logs: ``pytestmark = pytest.mark.usefixtures("clean_env")``.


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No ambient token, EUCHRE_* variables or ./config.toml leak into a test."""
    for name in list(os.environ):
        if is_bot_variable(name):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def quiet_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's logging set-up adds no handler to the test run's root logger."""
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
