"""Command line: ``python -m bot [--config PATH] [run [--sync-global] | migrate]``.

``run`` (the default command) connects to Discord and serves until stopped;
``migrate`` brings the database to the newest schema without starting the bot. Every
command is a function taking :class:`~bot.settings.Settings` and returning an exit
code, registered in :func:`build_parser` with one ``_add_command(...)`` line.
Configuration problems print one ``error:`` line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import discord

from bot.app import EuchreBot, database_tables
from bot.league import LeagueService
from bot.runtime import tune_gc_after_start
from bot.settings import TOKEN_ENV, ConfigError, Settings, load_settings
from bot.store import Database, StoreError, migrate

__all__ = ["build_parser", "main", "migrate_database", "run"]

log = logging.getLogger("bot")

EXIT_CONFIG = 2

Handler = Callable[[Settings], int]


def run(settings: Settings) -> int:
    """Connect to Discord and serve until interrupted (Ctrl-C or SIGTERM)."""
    token = settings.require_token().get_secret_value()
    try:
        asyncio.run(_serve(settings, token))
    except discord.LoginFailure:
        raise ConfigError(
            f"Discord refused the token in {TOKEN_ENV}: copy a fresh one from the "
            "Developer Portal (Bot > Reset Token)"
        ) from None
    except StoreError as exc:
        raise ConfigError(f"database {settings.database_path}: {exc}") from None
    except (KeyboardInterrupt, asyncio.CancelledError):
        log.info("Stopped")
    return 0


def migrate_database(settings: Settings) -> int:
    """Apply the database migrations (creating the file if missing); the bot does not start."""
    path = settings.database_path
    try:
        before, after = asyncio.run(migrate(path))
    except StoreError as exc:
        raise ConfigError(f"database {path}: {exc}") from None
    if before == after:
        print(f"{path}: already at schema {after}; nothing to do")
    else:
        print(f"{path}: migrated from schema {before} to {after}")
    return 0


async def _serve(settings: Settings, token: str) -> None:
    main_task = asyncio.current_task()
    if main_task is not None:
        with contextlib.suppress(NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    async with await Database.open(settings.database_path) as db:
        tables = database_tables(settings, db)
        league = LeagueService(db)
        tables.listeners.append(league.on_table_event)
        restored = await tables.restore()
        log.info("Restored %d open table(s) from %s", len(restored), settings.database_path)
        tune_gc_after_start()
        async with EuchreBot(settings, tables=tables, league=league) as bot:
            await bot.start(token)


def build_parser() -> argparse.ArgumentParser:
    """Build the parser; each command sets ``handler``, and ``run`` is the default."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Euchre for Discord.",
        epilog=f"The bot token is read from the {TOKEN_ENV} environment variable.",
    )
    _add_config_option(parser, default=None)
    _add_run_options(parser, default=False)
    parser.set_defaults(handler=run)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    run_parser = _add_command(commands, "run", run, "connect to Discord and serve (the default)")
    _add_run_options(run_parser, default=argparse.SUPPRESS)
    _add_command(commands, "migrate", migrate_database, "apply the database migrations, then exit")
    return parser


def _add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    handler: Handler,
    help: str,
) -> argparse.ArgumentParser:
    command = commands.add_parser(name, help=help, description=help)
    # SUPPRESS: an option not repeated after the command name keeps its earlier value.
    _add_config_option(command, default=argparse.SUPPRESS)
    command.set_defaults(handler=handler)
    return command


def _add_config_option(parser: argparse.ArgumentParser, *, default: object) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=default,
        metavar="PATH",
        help="TOML config file (default: $EUCHRE_CONFIG, else ./config.toml if it exists)",
    )


def _add_run_options(parser: argparse.ArgumentParser, *, default: object) -> None:
    parser.add_argument(
        "--sync-global",
        action="store_true",
        default=default,
        help="also sync slash commands globally at start-up (they take up to an hour to spread)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, load the settings, set up logging and run the chosen command."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        settings = load_settings(args.config, sync_global=args.sync_global)
        discord.utils.setup_logging(
            level=logging.getLevelNamesMapping()[settings.log_level], root=True
        )
        return handler(settings)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG


if __name__ == "__main__":
    sys.exit(main())
