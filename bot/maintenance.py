"""The command line's commands that need no Discord: migrate, copy-db, health and web.

Each takes the process's :class:`~bot.settings.Settings` and its parsed arguments and
returns an exit status; a problem an operator can fix is a :class:`ConfigError`, one
``error:`` line (``bot/__main__.py``).
"""

from __future__ import annotations

import argparse
import asyncio

from bot.heartbeat import Heartbeat
from bot.league import LeagueService
from bot.settings import ConfigError, Settings
from bot.store import Database, StoreError, check_writable, migrate
from bot.store.copy import copy_database
from bot.web.serve import DEFAULT_PORT, serve_forever

__all__ = ["EXIT_UNHEALTHY", "copy_db", "database_error", "health", "migrate_database", "web_pages"]

EXIT_UNHEALTHY = 1


def migrate_database(settings: Settings, args: argparse.Namespace) -> int:
    """Apply the database migrations (creating the file if missing); the bot does not start.

    The league's ladders that an upgrade left to rebuild are rebuilt too, so the next
    start has nothing to do before it connects.
    """
    path = settings.database_shown
    try:
        before, after = asyncio.run(migrate(settings.database_url))
        rebuilt = asyncio.run(_rebuild_ladders(settings.database_url))
    except StoreError as exc:
        raise database_error(path, exc) from None
    if before != after:
        print(f"{path}: migrated from schema {before} to {after}")
    if rebuilt:
        print(f"{path}: rebuilt the league ladders of {rebuilt} server(s) by family")
    if before == after and not rebuilt:
        print(f"{path}: already at schema {after}; nothing to do")
    return 0


def database_error(shown: str, exc: StoreError) -> ConfigError:
    """The store's error as one line that names the database once."""
    text = str(exc)
    return ConfigError(text if shown in text else f"database {shown}: {text}")


def web_pages(settings: Settings, args: argparse.Namespace) -> int:
    """Serve the web pages of the servers that made theirs public, until stopped."""
    host: str = args.host or settings.web_host
    port: int = args.port or settings.web_port or DEFAULT_PORT
    try:
        serve_forever(settings, host, port)
    except StoreError as exc:
        raise database_error(settings.database_shown, exc) from None
    except OSError as exc:
        raise ConfigError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return 0


async def _rebuild_ladders(url: str) -> int:
    async with await Database.open(url) as db:
        return await LeagueService(db).rebuild_due()


def health(settings: Settings, args: argparse.Namespace) -> int:
    """Print whether the bot is well: gateway connected lately, database writable; 0 or 1."""
    max_age: float = args.max_age
    heartbeat = Heartbeat.in_folder(settings.data_dir)
    problems = []
    age = heartbeat.age()
    if age is None:
        problems.append(f"no heartbeat yet ({heartbeat.path}): the bot has not connected")
    elif age > max_age:
        problems.append(f"the gateway has not been connected for {age:.0f} s")
    try:
        asyncio.run(check_writable(settings.database_url))
    except StoreError as exc:
        problems.append(f"the database does not accept a write: {exc}")
    if problems:
        print(f"unhealthy: {'; '.join(problems)}")
        return EXIT_UNHEALTHY
    print(f"healthy: gateway connected {age:.0f} s ago; {settings.database_shown} writable")
    return 0


def copy_db(settings: Settings, args: argparse.Namespace) -> int:
    """Copy every row of FROM_URL into the empty TO_URL, check the copy, print the counts."""
    try:
        report = asyncio.run(copy_database(args.source, args.target, progress=print))
    except StoreError as exc:
        raise ConfigError(f"copy-db: {exc}") from None
    print("copied and checked:")
    print("\n".join(report.lines()))
    return 0
