"""The Bot class: extensions, slash-command sync and the app-command error funnel."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.league import LeagueService
from bot.players import make_player
from bot.replies import report_error, send_ephemeral
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings, StoredSettings
from bot.settings import Settings
from bot.store import Database
from bot.tables import MemoryTableStore, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.scheduler import LoopScheduler, Scheduler

if TYPE_CHECKING:
    from cogs.euchre.routes import Clicks

__all__ = [
    "EXTENSIONS",
    "EuchreBot",
    "EuchreTree",
    "database_tables",
    "default_tables",
    "intents",
]

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.euchre",)
"""Extensions loaded at start-up, as module names (``"cogs.euchre"``)."""

STALE_COMMAND = "This command has changed. Wait a minute for Discord to update it, then retry."
CHECK_FAILED = "You can't use this command here."

# discord.py's own check failures whose messages are written for users.
_USER_READABLE_CHECKS = (
    app_commands.NoPrivateMessage,
    app_commands.MissingRole,
    app_commands.MissingAnyRole,
    app_commands.MissingPermissions,
    app_commands.BotMissingPermissions,
    app_commands.CommandOnCooldown,
)


def _server_defaults(settings: Settings) -> ServerSettings:
    return ServerSettings(tables_in_threads=settings.tables_in_threads)


def default_tables(settings: Settings) -> TableService:
    """Tables kept in memory only, with the configured defaults for every server."""
    servers = FixedSettings(_server_defaults(settings))
    return TableService(MemoryTableStore(), make_player, server_settings=servers)


def database_tables(settings: Settings, db: Database) -> TableService:
    """Tables saved in ``db``, each server's settings read from it (and changed there)."""
    servers = StoredSettings(db, _server_defaults(settings))
    return TableService(DatabaseTableStore(db), make_player, server_settings=servers)


def intents() -> discord.Intents:
    """Return the gateway intents the bot asks for: none privileged.

    Slash commands and buttons arrive without any intent; ``guilds`` keeps the guild
    and channel cache that discord.py expects to have.
    """
    return discord.Intents(guilds=True)


class EuchreTree(app_commands.CommandTree["EuchreBot"]):
    """The command tree, whose ``on_error`` is the funnel for every app-command error."""

    async def on_error(
        self, interaction: discord.Interaction[EuchreBot], error: app_commands.AppCommandError, /
    ) -> None:
        """Answer the user ephemerally; log what is not their doing."""
        if isinstance(error, app_commands.CommandInvokeError):
            name = error.command.qualified_name
            await report_error(interaction, error.original, context=f"command /{name}")
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            log.warning("Stale command used: %s", error)
            content = STALE_COMMAND
        elif isinstance(error, _USER_READABLE_CHECKS):
            content = str(error)
        elif isinstance(error, app_commands.CheckFailure):
            content = CHECK_FAILED
        else:
            command = interaction.command
            context = f"command /{command.qualified_name}" if command else "command tree"
            await report_error(interaction, error, context=context)
            return
        try:
            await send_ephemeral(interaction, content)
        except discord.HTTPException as exc:
            log.warning("Could not answer user %s: %s", interaction.user.id, exc)


class EuchreBot(commands.AutoShardedBot):
    """The euchre bot, built from :class:`Settings` and the dependencies passed in.

    ``tables`` is the table service the cogs use (default: :func:`default_tables`);
    ``scheduler`` times turn limits and idle tables (default: the event loop's clock);
    ``league`` keeps the server's standings (None: the league commands say it is off).
    ``clicks`` is where the euchre components send their clicks, set while the
    ``cogs.euchre`` extension is loaded.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        tables: TableService | None = None,
        scheduler: Scheduler | None = None,
        league: LeagueService | None = None,
    ) -> None:
        super().__init__(
            # Text commands are not used: without message intents none ever arrive.
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=EuchreTree,
            intents=intents(),
            owner_ids=set(settings.owner_ids),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.extension_names = tuple(extensions)
        self.tables = tables if tables is not None else default_tables(settings)
        self.scheduler: Scheduler = scheduler if scheduler is not None else LoopScheduler()
        self.league = league
        self.clicks: Clicks | None = None

    async def close(self) -> None:
        """Unload the extensions (their timers stop), drop pending calls, then disconnect."""
        try:
            await super().close()
        finally:
            self.scheduler.close()

    async def setup_hook(self) -> None:
        """Load the extensions, then sync slash commands as the settings ask."""
        for name in self.extension_names:
            await self.load_extension(name)
            log.info("Loaded extension %s", name)
        await self.sync_app_commands()

    async def sync_app_commands(self) -> None:
        """Sync slash commands to each dev guild, and globally if ``sync_global`` is set.

        A failed sync is logged and does not stop the bot: the commands already known
        to Discord keep working.
        """
        for guild_id in self.settings.dev_guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self._sync(guild)
        if self.settings.sync_global:
            await self._sync(None)

    async def _sync(self, guild: discord.abc.Snowflake | None) -> None:
        where = f"to guild {guild.id}" if guild else "globally"
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            hint = " (is the bot in that guild, invited with applications.commands?)"
            log.error("Could not sync slash commands %s: %s%s", where, exc, hint if guild else "")
            return
        log.info("Synced %d slash command(s) %s", len(synced), where)
