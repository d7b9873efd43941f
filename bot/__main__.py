"""Command line: ``python -m bot [--config PATH] [run | sync | migrate | health | copy-db | web]``.

``run`` (the default command) connects to Discord and serves until stopped; ``sync``
logs in, syncs the slash commands and exits; ``migrate`` brings the database to the
newest schema; ``health`` says whether a running bot is well (for a container's health
check); ``copy-db FROM_URL TO_URL`` copies every row of one database into another,
empty one (SQLite to PostgreSQL) and checks the copy; ``web`` serves the read-only web
pages (``bot.web``) until stopped. Every command is a function
taking :class:`~bot.settings.Settings` and the parsed arguments and returning an exit
code, registered in :func:`build_parser` by an ``_add_command(...)`` call that
returns its own subparser for its options. Configuration problems, a refused token
and an unreachable Discord print one ``error:`` line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path

import aiohttp
import discord

from bot import about
from bot.cli import run_main
from bot.discord.app import EuchreBot, without_voice
from bot.heartbeat import MAX_AGE_SECONDS, Heartbeat
from bot.league import LeagueService
from bot.logs import formatter_for
from bot.maintenance import (
    EXIT_UNHEALTHY,
    copy_db,
    database_error,
    health,
    migrate_database,
    web_pages,
)
from bot.review.service import Reviewer
from bot.runtime import tune_gc_after_start
from bot.services import database_tables, search_pool
from bot.settings import (
    CONFIG_ENV,
    TOKEN_ENV,
    ConfigError,
    Settings,
    load_settings,
)
from bot.store import Database, PreferenceRepo, StoreError
from bot.store.locks import GuildLocks, open_guild_locks
from bot.tables import TableService
from bot.web.serve import start_site

__all__ = [
    "EXIT_CONFIG",
    "EXIT_UNHEALTHY",
    "build_parser",
    "copy_db",
    "health",
    "main",
    "migrate_database",
    "run",
    "sync",
    "web_pages",
]

log = logging.getLogger("bot")

EXIT_CONFIG = 2
REVIEWS_GRACE = 10.0
"""Seconds a stopping bot gives the reviews under way to end before the database closes."""

Handler = Callable[[Settings, argparse.Namespace], int]


def run(settings: Settings, args: argparse.Namespace) -> int:
    """Connect to Discord and serve until interrupted (Ctrl-C or SIGTERM).

    SIGTERM stops gracefully: new interactions are refused, those in hand finish (for
    a few seconds at most), the table messages still waiting are sent, then the bot
    disconnects and the database closes.
    """
    token = settings.require_token().get_secret_value()
    settings.require_activity_secret()  # now, not once logged in and the store migrated
    try:
        asyncio.run(_serve(settings, token))
    except StoreError as exc:
        raise database_error(settings.database_shown, exc) from None
    except (KeyboardInterrupt, asyncio.CancelledError):
        log.info("Stopped")
    return 0


def sync(settings: Settings, args: argparse.Namespace) -> int:
    """Log in, sync the slash commands where asked, log out; 1 if a sync failed."""
    token = settings.require_token().get_secret_value()
    globally: bool = args.globally
    guild_ids: list[int] = args.guilds or ([] if globally else list(settings.dev_guild_ids))
    if not guild_ids and not globally:
        raise ConfigError(
            "nothing to sync to: give --global (every server, up to an hour to appear) or "
            "--guild SERVER_ID (one server, at once), or list servers in dev_guild_ids"
        )
    return 0 if asyncio.run(_sync(settings, token, guild_ids, globally)) else 1


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65_536:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (1 to 65535)")
    return int(text)


START_AGAIN = "start the bot again"
SYNC_AGAIN = "run `python -m bot sync` again"


@contextlib.contextmanager
def _reaching_discord(again: str = START_AGAIN) -> Iterator[None]:
    """Turn a refused token or an unreachable Discord into one :class:`ConfigError` line.

    ``again`` says what to do once the cause is fixed: start the bot, or sync, again.
    """
    try:
        yield
    except discord.LoginFailure:
        raise ConfigError(
            f"Discord refused the token in {TOKEN_ENV}: copy a fresh one from the "
            "Developer Portal (Bot > Reset Token)"
        ) from None
    except (aiohttp.ClientConnectionError, OSError, TimeoutError) as exc:
        reason = str(exc) or type(exc).__name__
        raise ConfigError(
            f"could not reach Discord ({reason}): check this machine's network "
            "(is it online, can it resolve and reach discord.com, is a firewall or "
            f"proxy in the way?), then {again}"
        ) from None
    except discord.DiscordServerError as exc:
        raise ConfigError(
            f"Discord answered with a server error ({exc.status}): it may be down "
            f"(see discordstatus.com); {again} in a few minutes"
        ) from None


@contextlib.contextmanager
def _login_checked(again: str = START_AGAIN) -> Iterator[None]:
    """:func:`_reaching_discord`, without discord.py's "logging in using static token" line.

    A refused token or an unreachable Discord is then the only line printed.
    """
    client_log = logging.getLogger("discord.client")
    level = client_log.level
    client_log.setLevel(logging.WARNING)
    try:
        with _reaching_discord(again):
            yield
    finally:
        client_log.setLevel(level)


def _on_sigterm(stop: Callable[[], object]) -> None:
    """Call ``stop()`` on SIGTERM (where the platform lets a loop handle signals)."""
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)


async def _serve(settings: Settings, token: str) -> None:
    """Serve until SIGTERM: the bot stops first (see :func:`run`), then the database closes.

    The bot logs in once (:func:`_start`); the database is opened and the tables are
    restored in its setup hook, so a refused token or an unreachable Discord stops it
    before the database is touched.
    """
    main_task = asyncio.current_task()
    if main_task is not None:
        _on_sigterm(main_task.cancel)  # before the bot exists: nothing to wait for
    without_voice()
    async with contextlib.AsyncExitStack() as store:  # closed after the bot
        pool = search_pool(settings)
        store.callback(pool.close)  # last: the reviews stop first, the tables with the bot

        async def prepare() -> tuple[TableService, LeagueService, PreferenceRepo]:
            warming = asyncio.ensure_future(pool.start())  # the workers start as the store opens
            try:
                prepared = await open_store()
                await warming
                log.info("Search pool: %s", pool.shown)
            finally:
                warming.cancel()  # a failed start leaves no task behind; a done one stays done
            return prepared

        async def open_store() -> tuple[TableService, LeagueService, PreferenceRepo]:
            db = await store.enter_async_context(
                await Database.open(settings.database_url, timeout=settings.database_timeout)
            )
            locks = await store.enter_async_context(_guild_locks(settings, main_task))
            tables = database_tables(settings, db, locks, pool)
            league = LeagueService(db, reviewer=Reviewer(db, pool=pool))
            tables.listeners.append(league.on_table_event)
            tables.listeners.append(league.reviewer.on_table_event)
            reviewer = league.reviewer

            async def stop_reviews() -> None:  # after the bot, before the database
                reviewer.close()  # each review ends at its next decision
                pool.close()  # the reviews waiting for a worker end now
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reviewer.settle(), REVIEWS_GRACE)

            store.push_async_callback(stop_reviews)
            if settings.web_port:
                site = await start_site(
                    db, settings, settings.web_host, settings.web_port, tables=tables
                )
                store.push_async_callback(site.cleanup)  # before the database closes
            with db.unbounded():  # everything at once, before any click waits on it
                if rebuilt := await league.rebuild_due():
                    log.info("Rebuilt the league ladders of %d server(s) by family", rebuilt)
                restored = await tables.restore()
            log.info("Restored %d open table(s) from %s", len(restored), settings.database_shown)
            tune_gc_after_start()
            return tables, league, PreferenceRepo(db)

        heartbeat = Heartbeat.in_folder(settings.data_dir)
        async with EuchreBot(settings, heartbeat=heartbeat, prepare=prepare, pool=pool) as bot:
            serving = asyncio.ensure_future(_start(bot, token))

            def stop() -> None:
                # Once the bot has stopped, serving ends (if discord.py has not ended it).
                bot.stop_soon().add_done_callback(lambda _: serving.cancel())

            _on_sigterm(stop)
            try:
                await serving
            except asyncio.CancelledError:
                if not serving.cancelled() or not bot.stopping:
                    raise


async def _start(bot: EuchreBot, token: str) -> None:
    """``bot.start`` in its two steps: log in (the bot's setup hook runs there), connect."""
    with _login_checked():
        await bot.login(token)
    with _reaching_discord():
        await bot.connect()


async def _sync(settings: Settings, token: str, guild_ids: Sequence[int], globally: bool) -> bool:
    async with EuchreBot(settings, sync_at_start=False) as bot:
        with _login_checked(SYNC_AGAIN):
            await bot.login(token)
        with _reaching_discord(SYNC_AGAIN):
            return await bot.sync_commands(guild_ids, globally=globally)


@contextlib.asynccontextmanager
async def _guild_locks(
    settings: Settings, main_task: asyncio.Task[object] | None
) -> AsyncIterator[GuildLocks]:
    """The guild locks of a shared store; losing them stops the process with an error."""
    lost = False

    def stop() -> None:
        nonlocal lost
        lost = True
        if main_task is not None:
            main_task.cancel()

    locks = await open_guild_locks(
        settings.database_url, on_lost=stop, timeout=settings.database_timeout
    )
    try:
        yield locks
    except asyncio.CancelledError:
        if lost:
            raise StoreError(
                "lost the connection that holds this process's server locks; "
                "stopped, since another process may take them over"
            ) from None
        raise
    finally:
        await locks.close()


def build_parser() -> argparse.ArgumentParser:
    """Build the parser; each command sets ``handler``, and ``run`` is the default."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Euchre for Discord. Without a command, run the bot.",
        epilog=f"The bot token is read from the {TOKEN_ENV} environment variable.",
    )
    _add_config_option(parser, default=None)
    parser.add_argument(
        "--version",
        action=_Version,
        help="print the version and the build that runs (compiled, or pure Python and why)",
    )
    parser.set_defaults(handler=run)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_command(commands, "run", run, "connect to Discord and serve (the default)")
    sync_parser = _add_command(
        commands, "sync", sync, "sync the slash commands, then exit (the bot does not serve)"
    )
    where = sync_parser.add_mutually_exclusive_group()
    where.add_argument(
        "--global",
        dest="globally",
        action="store_true",
        help="sync to every server the bot is in (they take up to an hour to appear)",
    )
    where.add_argument(
        "--guild",
        dest="guilds",
        action="append",
        type=_server_id,
        metavar="SERVER_ID",
        help="sync to this server, at once (repeat for more); without --global or "
        "--guild: the servers in dev_guild_ids",
    )
    _add_command(commands, "migrate", migrate_database, "apply the database migrations, then exit")
    health_parser = _add_command(
        commands,
        "health",
        health,
        "exit 0 if the running bot's gateway connected lately and its database takes "
        "a write, else print why and exit 1 (a container's health check)",
    )
    health_parser.add_argument(
        "--max-age",
        type=float,
        default=MAX_AGE_SECONDS,
        metavar="SECONDS",
        help="longest time since the gateway was last seen connected (default: %(default)g)",
    )
    copy_parser = _add_command(
        commands,
        "copy-db",
        copy_db,
        "copy every row of one database into another, empty one, then check the copy",
    )
    copy_parser.add_argument(
        "source", metavar="FROM_URL", help="sqlite:///PATH or postgresql://user:password@host/db"
    )
    copy_parser.add_argument("target", metavar="TO_URL", help="an empty database, the same way")
    web_parser = _add_command(
        commands,
        "web",
        web_pages,
        "serve the read-only web pages of the servers that turned web_public on",
    )
    web_parser.add_argument(
        "--host", metavar="ADDRESS", help="address to listen on (default: web_host)"
    )
    web_parser.add_argument(
        "--port",
        type=_port,
        metavar="PORT",
        help="port to listen on (default: web_port, or 8080 when it is 0)",
    )
    return parser


class _Version(argparse.Action):
    """``--version``: print :func:`bot.about` on one line (argparse's own would wrap it)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(about())
        parser.exit()


def _server_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 0 < value < 2**64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a server id (a number like 123456)")
    return value


def _add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    handler: Handler,
    help: str,
) -> argparse.ArgumentParser:
    command = commands.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".")
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
        help=f"TOML config file (default: ${CONFIG_ENV}, else ./config.toml if it exists)",
    )


def _setup_logging(settings: Settings) -> None:
    """Log to stderr, in ``log_format``; discord.py's colours only on a terminal."""
    stream = logging.StreamHandler()
    formatter = formatter_for(settings.log_format, stream.stream)
    level = logging.getLevelNamesMapping()[settings.log_level]
    if formatter is None:  # discord.py colours a terminal's lines
        discord.utils.setup_logging(handler=stream, level=level, root=True)
    else:
        discord.utils.setup_logging(handler=stream, formatter=formatter, level=level, root=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, load the settings, set up logging and run the chosen command."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        settings = load_settings(args.config)
        _setup_logging(settings)
        return handler(settings, args)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG


if __name__ == "__main__":
    run_main(main)
