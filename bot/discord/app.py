"""The Bot class: extensions, command sync and the start-up line (its tree: command_tree.py)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

import discord
from discord.ext import commands

from bot import about
from bot.discord.clicks import Clicks
from bot.discord.command_tree import EuchreTree
from bot.discord.pace.gate import RequestGate
from bot.discord.pace.pacing import DISCORD_LIMITS, ChannelLimits, Pacers
from bot.discord.pace.permissions import BOT_PERMISSIONS, INVITE_SCOPES, invite_url
from bot.discord.replies import answer_first, send_ephemeral
from bot.heartbeat import Heartbeat
from bot.league import LeagueService
from bot.logs import GUILD_ID
from bot.render.faces import NO_FACES, CardFaces
from bot.search_pool import SearchPool
from bot.server.preference_sources import KeptPreferences, MemoryPreferences, PreferenceSource
from bot.services import database_tables, default_tables, search_pool
from bot.settings import Settings
from bot.tables import TableService
from bot.tables.scheduler import LoopScheduler, Scheduler
from bot.tournaments.repository import TournamentRepo
from bot.tournaments.round_tables import PlaceMaker
from bot.tournaments.runner import TournamentRunner
from bot.waits import answer_first_with

__all__ = [
    "BOT_PERMISSIONS",
    "EXTENSIONS",
    "INVITE_SCOPES",
    "EuchreBot",
    "EuchreTree",
    "Prepare",
    "database_tables",
    "default_tables",
    "intents",
    "invite_url",
    "search_pool",
    "without_voice",
]

log = logging.getLogger(__name__)

Prepare = Callable[
    [], Awaitable[tuple[TableService, LeagueService | None, PreferenceSource | None]]
]
"""Builds the bot's table service, league and preferences once logged in (:class:`EuchreBot`)."""

EXTENSIONS: tuple[str, ...] = ("cogs.euchre",)
"""Extensions loaded at start-up, as module names (``"cogs.euchre"``)."""

SYNC_HINT = (
    "run `python -m bot sync --global` once (or `python -m bot sync --guild SERVER_ID` "
    "for one server at once) if /euchre does not appear"
)

HANDLERS_GRACE: Final = 8.0
"""Seconds a stopping bot waits for the interactions it is handling and its timed calls.

Computers stop before their next move (``TableService.halt``), so a click in hand
ends after at most one computer move.
"""

FLUSH_GRACE: Final = 6.0
"""Seconds a stopping bot waits for the channel messages still to send.

One window of a channel's edit budget (5 edits per 5 s) and a second for the request:
a redraw queued behind a full window still goes out before the bot stops.
"""

STOPPING = "The bot is restarting: try again in a minute."


def _shards(settings: Settings) -> dict[str, Any]:
    """AutoShardedBot's shard options; none: Discord's recommended count, all shards here."""
    options: dict[str, Any] = {}
    if settings.shard_count:
        options["shard_count"] = settings.shard_count
    if settings.shard_ids:
        options["shard_ids"] = list(settings.shard_ids)
    return options


def without_voice() -> None:
    """Silence discord.py's warnings about missing voice libraries: this bot has no voice."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def intents() -> discord.Intents:
    """Return the gateway intents the bot asks for: none privileged.

    Slash commands and buttons arrive without any intent; ``guilds`` keeps the guild
    and channel cache that discord.py expects to have.
    """
    return discord.Intents(guilds=True)


class EuchreBot(commands.AutoShardedBot):
    """The euchre bot, built from :class:`Settings` and the dependencies passed in.

    ``tables`` is the table service the cogs use (default: :func:`default_tables`);
    ``scheduler`` times turn limits, idle tables and turn pings (default: the event
    loop's clock); the tables are handed it, and ``preferences``, so the process keeps one;
    ``league`` keeps the server's standings (None: the league commands say it is off).
    ``preferences`` keeps each person's (default: in memory, until the process ends).
    ``clicks`` is where the euchre components send their clicks, set while the
    ``cogs.euchre`` extension is loaded.
    ``sync_at_start`` False leaves the slash commands as they are (``python -m bot sync``
    syncs on its own); ``heartbeat`` is touched while the gateway is connected.
    ``prepare``, if given, builds ``tables``, ``league`` and ``preferences`` first thing in
    :meth:`setup_hook`: after the one login, which checks the token before the
    database is opened, and before the extensions load and the gateway connects.
    ``pool`` is the search pool of the searches the cogs ask for themselves, a lesson's
    or a review's without the league (default: the tables' pool).
    ``channel_limits`` is each channel's budget of posts, edits and deletes, which
    :attr:`pacers` (one per channel) spend: every public message goes through them.
    Every request passes the :attr:`gate`, which keeps Discord's other limits and reads
    its rate limit headers back (:mod:`bot.discord.pace.gate`).

    Stopping (:meth:`close`) refuses new interactions, waits a while for the ones being
    handled, sends what the pacers still hold, then disconnects.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        tables: TableService | None = None,
        scheduler: Scheduler | None = None,
        league: LeagueService | None = None,
        preferences: PreferenceSource | None = None,
        sync_at_start: bool = True,
        heartbeat: Heartbeat | None = None,
        channel_limits: ChannelLimits = DISCORD_LIMITS,
        prepare: Prepare | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        without_voice()
        self.scheduler: Scheduler = scheduler if scheduler is not None else LoopScheduler()
        self.pacers = Pacers(self.scheduler, channel_limits)
        self.gate = RequestGate.of(self.pacers, channel_limits)
        """Every request passes it (:mod:`bot.discord.pace.gate`): Discord's limits."""
        super().__init__(
            # Text commands are not used: without message intents none ever arrive.
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=EuchreTree,
            intents=intents(),
            owner_ids=set(settings.owner_ids),
            **_shards(settings),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            http_trace=self.gate.trace(),
        )
        self.settings = settings
        self.extension_names = tuple(extensions)
        self.tables = tables if tables is not None else default_tables(settings)
        self.pool = pool if pool is not None else self.tables.pool
        """The search pool of what the cogs search themselves (a lesson, a review)."""
        self.stopping = False
        """Set by :meth:`close`: new interactions are refused."""
        self._handling: set[asyncio.Task[object]] = set()
        self._stopped: asyncio.Task[None] | None = None
        self.league = league
        self.preferences: PreferenceSource = preferences or MemoryPreferences()
        self._hand_clock_to_tables()
        self.clicks: Clicks[EuchreBot] | None = None
        self.sync_at_start = sync_at_start
        self.heartbeat = heartbeat
        self.synced: list[str] = []
        """Where this process synced the slash commands ("to guild 1"), failures apart."""
        self.sync_failed: list[str] = []
        self.card_faces: CardFaces = NO_FACES
        """The card pictures uploaded as the application's emojis (none: cards as text)."""
        self._beating: asyncio.Task[None] | None = None
        self._announced = False
        self._prepare = prepare
        self.tournaments: TournamentRunner | None = None
        """Tournament events, run once :meth:`build_tournaments` was called (needs the league)."""

    def build_tournaments(self, places: PlaceMaker) -> TournamentRunner | None:
        """Run tournament events with the bot's tables, their tables opened where ``places`` says.

        Events are kept with the league's database: without one (``league`` None) there are
        none, and the tournament commands say so.
        """
        if self.tournaments is not None:
            self.tournaments.close()
            self.tournaments = None
        if self.league is None:
            return None
        self.tournaments = TournamentRunner(
            TournamentRepo(self.league.database), self.tables, self.scheduler, places
        )
        self.tournaments.listeners.append(self.league.on_tournament_change)
        return self.tournaments

    async def take(self, interaction: discord.Interaction[EuchreBot]) -> bool:
        """Whether to handle an interaction: not while stopping (the user is told why).

        The task handling it is kept, so that stopping can wait for it. Its answer is
        deferred before anything of it waits (:mod:`bot.waits`).
        """
        if self.stopping:
            try:
                await send_ephemeral(interaction, STOPPING)
            except discord.HTTPException as exc:
                log.info("Could not tell user %s the bot stops: %s", interaction.user.id, exc)
            return False
        GUILD_ID.set(interaction.guild_id)  # this interaction's task: its log lines
        answer_first_with(functools.partial(answer_first, interaction))  # before any wait
        task = asyncio.current_task()
        if task is not None:
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)
        return True

    def stop_soon(self) -> asyncio.Task[None]:
        """Start stopping (from a signal handler): :meth:`close` in a task of its own."""
        if self._stopped is None:
            self._stopped = asyncio.get_running_loop().create_task(self._stop(), name="stop")
        return self._stopped

    async def close(self) -> None:
        """Stop taking clicks, halt the computers, finish what is in hand, flush, disconnect."""
        if self._stopped is None:
            self._stopped = asyncio.get_running_loop().create_task(self._stop(), name="stop")
        await asyncio.shield(self._stopped)

    async def _stop(self) -> None:
        self.stopping = True
        if self.tournaments is not None:
            self.tournaments.close()
        self.tables.halt()
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + HANDLERS_GRACE
            handling = {t for t in self._handling if t is not asyncio.current_task()}
            if handling:
                log.info("Stopping: waiting for %d interaction(s) in hand", len(handling))
                _, late = await asyncio.wait(handling, timeout=HANDLERS_GRACE)
                if late:
                    log.warning("Stopping: %d interaction(s) still running", len(late))
            if running := await self.tables.settle(max(0.0, deadline - loop.time())):
                log.warning("Stopping: %d computer run(s) still going", running)
            if self.league is not None and (
                running := await self.league.settle(max(0.0, deadline - loop.time()))
            ):
                log.warning("Stopping: %d league take-in(s) still going", running)
            if running := await self.scheduler.settle(max(0.0, deadline - loop.time())):
                log.warning("Stopping: %d timed call(s) still running", running)
            if not await self.pacers.flush(FLUSH_GRACE):
                log.warning("Stopping: some table messages could not be sent in time")
            self.pacers.close()
            if self._beating is not None:
                self._beating.cancel()
            await super().close()
        finally:
            self.scheduler.close()

    def _hand_clock_to_tables(self) -> None:
        """One clock and one place for preferences in the process: the tables use the bot's.

        The preferences are kept as read (:class:`KeptPreferences`): the tables read those
        of everyone seated at each change, and the commands change them through it.
        """
        self.tables.crew.scheduler = self.scheduler
        self.preferences = KeptPreferences.around(self.preferences)
        self.tables.crew.preferences = self.preferences

    async def setup_hook(self) -> None:
        """Prepare the tables, load the extensions, sync slash commands, start the heartbeat.

        discord.py runs it inside :meth:`login`, once the token is accepted.
        """
        if self._prepare is not None:
            self.tables, self.league, preferences = await self._prepare()
            if preferences is not None:
                self.preferences = preferences
            self._hand_clock_to_tables()
        for name in self.extension_names:
            await self.load_extension(name)
            log.info("Loaded extension %s", name)
        if self.sync_at_start:
            await self.sync_app_commands()
        if self.heartbeat is not None:
            self._beating = asyncio.create_task(
                self.heartbeat.run(self.gateway_connected), name="heartbeat"
            )

    async def on_ready(self) -> None:
        """Once per process: touch the heartbeat and log :meth:`start_line`."""
        if self.heartbeat is not None:
            self.heartbeat.beat()
        if not self._announced:
            self._announced = True
            log.info("%s", self.start_line())

    def gateway_connected(self) -> bool:
        """Whether the bot is ready and every shard's gateway connection is open."""
        shards = self.shards.values()
        return self.is_ready() and bool(shards) and not any(s.is_closed() for s in shards)

    def start_line(self) -> str:
        """Who the bot is, in how many servers, which build, where its commands went, invite."""
        user = self.user
        who = f"{user} (id {user.id})" if user is not None else "an unknown user"
        if self.synced or self.sync_failed:
            parts = [f"synced {', '.join(self.synced)}"] if self.synced else []
            if self.sync_failed:
                parts.append(f"could not be synced {', '.join(self.sync_failed)} (see above)")
            commands_state = f"slash commands {'; '.join(parts)}"
        else:
            commands_state = (
                f"slash commands not synced at start-up (no dev_guild_ids): {SYNC_HINT}"
            )
        invite = invite_url(self.application_id) if self.application_id else "unknown"
        return (
            f"Logged in as {who} in {len(self.guilds)} server(s) ({about()}); "
            f"{commands_state}; invite link: {invite}"
        )

    async def sync_app_commands(self) -> None:
        """Sync slash commands to each dev guild, and globally if ``sync_global`` is set.

        A failed sync is logged and does not stop the bot: the commands already known
        to Discord keep working.
        """
        await self.sync_commands(self.settings.dev_guild_ids, globally=self.settings.sync_global)

    async def sync_commands(self, guild_ids: Sequence[int], *, globally: bool) -> bool:
        """Sync to each of ``guild_ids`` (instant) and globally if asked; False if one failed."""
        ok = True
        for guild_id in guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            ok = await self._sync(guild) and ok
        if globally:
            ok = await self._sync(None) and ok
        return ok

    async def _sync(self, guild: discord.abc.Snowflake | None) -> bool:
        where = f"to guild {guild.id}" if guild else "globally"
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            hint = " (is the bot in that guild, invited with applications.commands?)"
            log.error("Could not sync slash commands %s: %s%s", where, exc, hint if guild else "")
            self.sync_failed.append(where)
            return False
        spread = "" if guild else " (they take up to an hour to reach every server)"
        log.info("Synced %d slash command(s) %s%s", len(synced), where, spread)
        self.synced.append(where)
        return True
