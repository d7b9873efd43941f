"""The :class:`Harness` itself: its state, its life (start, close) and raw gateway events.

Each concern lives in the mixin of its own module; see the package docstring.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from tests.kit import payloads
from tests.kit.contract import Violation
from tests.kit.harness.commands import _Commands
from tests.kit.harness.contract import _Contract
from tests.kit.harness.discord_internals import _DiscordInternals
from tests.kit.harness.interactions import _Interactions
from tests.kit.harness.messages import _Messages
from tests.kit.harness.records import HarnessError, Sent, StoredMessage, _Dispatch
from tests.kit.harness.rest import HttpHandler, _Failure, _Rest
from tests.kit.harness.tasks import _LogCapture, _Tasks
from tests.kit.harness.timing import _Timing
from tests.kit.harness.webhooks import _InteractionState, _Webhooks
from tests.kit.harness.world import FakeGuild, FakeMember, _World
from tests.kit.payloads import JSON, clone
from tests.kit.scheduled_events import ScheduledEvents
from tests.kit.waiting import BOUND


class Harness(
    _DiscordInternals,
    _Tasks,
    _Timing,
    _World,
    _Messages,
    _Rest,
    _Webhooks,
    _Interactions,
    _Commands,
    _Contract,
):
    """Run a real discord.py bot against an offline fake Discord. See the package docstring.

    Parameters: ``settle_timeout`` bounds how long a dispatch may take (a hang fails
    the test with the pending tasks' stacks); ``background`` marks extra tasks that
    dispatches should not wait for (default: view timeouts and delete_after timers);
    ``strict`` makes ERROR log records and unexpected HTTP calls fail the call that
    caused them; ``tree`` is the command tree if the bot has no ``.tree``.
    """

    def __init__(
        self,
        bot: discord.Client,
        *,
        settle_timeout: float = BOUND,
        background: Callable[[asyncio.Task[Any]], bool] | None = None,
        strict: bool = True,
        tree: app_commands.CommandTree[Any] | None = None,
        bot_name: str = "EuchreBot",
        owner_id: int | None = None,
    ) -> None:
        self.bot = bot
        self.settle_timeout = settle_timeout
        self.strict = strict
        self._background_extra = background
        self._tree = tree if tree is not None else getattr(bot, "tree", None)
        self._last_snowflake = 0
        self.bot_id = self.next_id()
        self.application_id = self.bot_id
        self.owner_id = owner_id if owner_id is not None else self.next_id()
        self.bot_name = bot_name
        self.sent: list[Sent] = []
        """Every HTTP call discord.py made, in order."""
        self.messages: dict[int, StoredMessage] = {}
        """Every message the fake Discord holds, by id (sent, edited, deleted...)."""
        self.guilds: dict[int, FakeGuild] = {}
        self.errors: list[logging.LogRecord] = []
        self.violations: list[tuple[Sent, Violation]] = []
        """Every payload past Discord's contract, with the call that sent it."""
        """Every ERROR log record emitted while the harness was active."""
        self.synced_commands: dict[int | None, list[JSON]] = {}
        self.app_emojis: dict[int, JSON] = {}
        """The application's emojis by id, as uploaded (with ``image``, the data URI sent)."""
        """Commands the bot synced (``tree.sync``), by guild id (None = global)."""
        self.handlers: dict[tuple[str, str], HttpHandler] = {}
        self._nonces: dict[tuple[int, str], int] = {}
        """Messages posted with an enforced nonce: Discord answers a repeat with the first."""
        self.scheduled_events = ScheduledEvents()
        """The guilds' scheduled events (the bot's creations; a test may delete one by hand)."""
        self.invalid: list[Sent] = []
        """Every call answered 401, 403 or 429 (Discord counts them against the bot)."""
        self._expected_invalid: dict[int, int] = {}
        self._failures: list[_Failure] = []
        self._channels: dict[int, JSON] = {}
        self._deleted_channels: set[int] = set()
        """Deleted channels: their requests answer Unknown Channel; a click in flight still comes."""
        self._channel_guild: dict[int, FakeGuild | None] = {}
        self._dm_by_user: dict[int, int] = {}
        self._users: dict[int, FakeMember] = {}
        self._interactions: dict[str, _InteractionState] = {}
        self._interactions_by_id: dict[int, _InteractionState] = {}
        self._unchecked: list[_Dispatch] = []
        self._finished: list[_Dispatch] = []
        self._unforgotten: list[_Dispatch] = []
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self._owners: dict[asyncio.Task[Any], _Dispatch] = {}
        self._dispatching: _Dispatch | None = None
        self._root_dispatch = _Dispatch("harness")
        self._seq = itertools.count(1)
        self._started = False
        self._entered_bot = False
        self._restore: list[Callable[[], None]] = []
        self._adapter_token: contextvars.Token[Any] | None = None
        self._log_capture = _LogCapture(self)
        self._interaction_listener: Callable[[discord.Interaction[Any]], Awaitable[None]] | None
        self._interaction_listener = None

    async def __aenter__(self) -> Harness:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close(check=exc_type is None)

    async def start(self) -> None:
        """Patch the HTTP layers, enter the bot, log in (``setup_hook`` runs) and fake READY."""
        if self._started:
            raise HarnessError("harness already started")
        self._started = True
        try:
            self._install()
            self._install_timing()
            if not isinstance(self.bot.loop, asyncio.AbstractEventLoop):
                await self.bot.__aenter__()
                self._entered_bot = True
            if self.bot.user is not None:
                raise HarnessError("the bot is already logged in; give the harness a fresh bot")
            # login() runs setup_hook; tasks it starts belong to start-up (never awaited)
            login = _Dispatch("login")
            await self._run_owned(login, self.bot.login("harness-token"))
            self._check(login, allow_errors=False, what="login and setup_hook")
            ready = await self._ready()
            self._check(ready, allow_errors=False, what="READY")
            self._check(self._root_dispatch, allow_errors=False, what="start-up")
        except BaseException:
            await self.close(check=False)
            raise

    async def close(self, *, check: bool = True) -> None:
        """Settle pending work, close the bot (if the harness entered it) and undo every patch."""
        try:
            if check and self._started:
                await self.settle()
        finally:
            if self._interaction_listener is not None:
                remove = getattr(self.bot, "remove_listener", None)
                if remove is not None:
                    remove(self._interaction_listener, "on_interaction")
                self._interaction_listener = None
            if self._entered_bot:
                self._entered_bot = False
                await self.bot.__aexit__(None, None, None)
            leftovers = [t for t in self._owners if not t.done()]
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.gather(*leftovers, return_exceptions=True)
            for undo in reversed(self._restore):
                undo()
            self._restore.clear()
        if check:
            self._check(self._root_dispatch, allow_errors=False, what="the harness")

    def turn_on_activities(self) -> None:
        """Activities on in the Developer Portal: the Entry Point command Discord makes."""
        command = payloads.entry_point_command(
            command_id=self.next_id(), application_id=self.application_id, version=self.next_id()
        )
        self.synced_commands.setdefault(None, []).append(command)

    @property
    def activities(self) -> bool:
        """Whether the application has Activities on (an Entry Point command)."""
        return payloads.has_entry_point(self.synced_commands.get(None, []))

    def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """A moderator archives (and maybe locks) a thread, as Discord then announces it."""
        thread = self._channels[thread_id]
        thread["thread_metadata"].update(archived=True, locked=locked)
        self.gateway("THREAD_UPDATE", clone(thread))

    def thread_archived(self, thread_id: int) -> bool:
        """Whether the thread is archived now."""
        return bool(self._channels[thread_id]["thread_metadata"]["archived"])

    def delete_channel(self, channel_id: int, *, announce: bool = True) -> None:
        """A moderator deletes a channel or thread: requests to it answer Unknown Channel.

        ``announce=False``: the bot misses the gateway's word (it was away).
        """
        channel = self._channels[channel_id]
        self._deleted_channels.add(channel_id)
        guild_id = channel.get("guild_id")
        if not announce:
            return
        if "thread_metadata" in channel:
            self.gateway(
                "THREAD_DELETE",
                {
                    "id": channel["id"],
                    "guild_id": guild_id,
                    "parent_id": channel["parent_id"],
                    "type": channel["type"],
                },
            )
        else:
            self.gateway("CHANNEL_DELETE", clone(channel))

    def gateway(self, event: str, data: JSON) -> None:
        """Feed one raw gateway event (``"GUILD_CREATE"``, ``"CHANNEL_DELETE"``...) to the bot.

        Tasks it spawns are settled (and ERROR logs raised) by :meth:`settle`, which the
        harness also runs on exit.
        """
        if not self._started:
            raise HarnessError("start the harness (async with Harness(bot)) before feeding events")
        dispatch = _Dispatch(event)
        self._unchecked.append(dispatch)
        self._feed(dispatch, event, data)
