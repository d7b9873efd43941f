"""A small fake Discord on loopback for end-to-end tests: REST and the gateway websocket.

:class:`FakeDiscord` is an aiohttp server bound to 127.0.0.1 (a random free port) that
a real bot process talks to as if it were Discord. Point discord.py at it with
``discord.http.Route.BASE = fake.api_base`` (and, for reconnects,
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)``);
``GET /gateway/bot`` hands out :attr:`FakeDiscord.gateway_url` itself.

It plays one guild with one text channel and a few members, and serves:

* REST, the routes the euchre bot uses: ``users/@me``, ``oauth2/applications/@me``,
  ``gateway/bot``, command sync (``PUT`` guild or global commands), interaction
  callbacks, webhook follow-ups and original-response edits, the application's emojis
  (list, upload, delete), channel messages (send,
  edit, get, list, delete) and threads, members' roles (give, take back) and the
  guild's scheduled events (create). Every answer is JSON with a ``Content-Type`` of
  exactly ``application/json`` (discord.py compares it verbatim), errors in Discord's
  ``{"code", "message"}`` shape. REST routes check the ``Bot`` token.
* Discord's OAuth2 token, ``/users/@me`` with a person's Bearer token and Activity
  instances (:attr:`FakeDiscord.oauth`, :mod:`tests.kit.oauth`), for the Activity's
  sign-in; :meth:`FakeDiscord.turn_on_activities` gives the application its Entry Point
  command, so a launch-activity response is taken.
* the gateway: HELLO, heartbeat ACKs, IDENTIFY -> READY + GUILD_CREATE, RESUME (missed
  events replayed, then RESUMED; an unknown session gets INVALID_SESSION), every
  dispatch numbered, ``zlib-stream`` compression when asked for.

Tests act as members: :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click` build the
INTERACTION_CREATE payload Discord would send and deliver it on the gateway; the
returned :class:`Interaction` tells whether and how the bot answered. Everything the
bot sent is recorded: :attr:`FakeDiscord.requests` (every HTTP call),
:attr:`FakeDiscord.messages` (each message as it is now, with its history and who can
see it: ephemeral messages belong to one user) and :attr:`FakeDiscord.problems`
(anything Discord would have refused: unknown routes, bad tokens, a second or late
acknowledgement). An interaction created with ``hold=True`` has its callback request
held unanswered, so a test can kill the bot between receiving a click and answering it.

Like Discord, an interaction must be acknowledged within :attr:`callback_deadline`
seconds (3; 2.5, the bot's budget, when ``EUCHRE_TEST_SLOW_DB`` slows the database) of
its delivery, and its token takes follow-ups and edits for 15 minutes (then 401,
50027). Every wait is bounded (:meth:`FakeDiscord.wait_for`).

Like Discord, the whole bot takes 50 requests a second (an interaction's own apart),
thread creation, members' roles and scheduled events have route buckets, a channel
request the bot's permissions do not allow is refused (403), and every 401, 403 and 429
counts as invalid: one a test did not expect (``limits.expect``) is a problem
(tests/kit/fake_limits.py, tests/kit/discord_limits.py, tests/kit/discord_permissions.py).

Like Discord, each channel takes :attr:`FakeDiscord.rate_limit` message posts, as many
edits and as many deletes per :attr:`FakeDiscord.rate_period` seconds (5 per 5 s; a
thread is a channel of its own, as on Discord). Every answer to
those routes carries the ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``
headers; past the budget the answer is a 429 with a JSON ``retry_after`` and a ``Via``
header (discord.py takes a 429 without ``Via`` for a Cloudflare ban), recorded in
:attr:`FakeDiscord.rate_limited`. One interaction's webhook (its followups and the
edits and deletes of its messages) takes 5 requests per 2 s, as Discord's does.
``rate_limits=False`` turns both off.

Like Discord, every payload is held to Discord's contract (``tests/kit/contract.py``):
one past a documented limit is answered 400 with code 50035 and the JSON path in
``errors`` (a 413 for a file too large), recorded in :attr:`FakeDiscord.violations`
and :attr:`FakeDiscord.problems`, and leaving the fake then fails the test.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import inspect
import itertools
import json
import math
import re
import secrets
import socket
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import aiohttp
import discord
from aiohttp import web

from tests.kit import payloads
from tests.kit.contract import ContractError, Violation, check_request, describe, error_answer
from tests.kit.discord_permissions import channel_refusal
from tests.kit.fake_limits import FakeLimits
from tests.kit.harness.components import (
    ComponentData,
    find_component,
    find_components,
    visible_text,
)
from tests.kit.oauth import FakeOAuth
from tests.kit.payloads import (
    AUTOCOMPLETE,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DEFER,
    DEFER_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE,
    MODAL,
    PONG,
    UPDATE,
    ApiError,
)
from tests.kit.scheduled_events import ScheduledEvents
from tests.kit.slow_database import ANSWER_BUDGET, SLOW_DB, TOKEN_LIFETIME
from tests.kit.waiting import BOUND

__all__ = [
    "API_VERSION",
    "HOST",
    "ApiError",
    "FakeDiscord",
    "FakeDiscordError",
    "Interaction",
    "Message",
    "Request",
    "User",
]

JSON: TypeAlias = dict[str, Any]

HOST = "127.0.0.1"
API_VERSION = 10
API_PREFIX = f"/api/v{API_VERSION}"
GATEWAY_PATH = "/gateway"

# Gateway opcodes.
_DISPATCH, _HEARTBEAT, _IDENTIFY, _PRESENCE, _VOICE, _RESUME = 0, 1, 2, 3, 4, 6
_RECONNECT, _REQUEST_MEMBERS, _INVALID_SESSION, _HELLO, _HEARTBEAT_ACK = 7, 8, 9, 10, 11

_JOINED_AT = "2024-01-01T00:00:00+00:00"
"""When every member (and the bot) joined the guild."""

DISCORD_DEADLINE = 3.0
"""Seconds Discord gives an interaction's first answer."""

_MAX_REQUEST = 25 * 1024 * 1024
"""The largest request Discord reads (a message with its files): the contract judges the rest."""

_HELD_FOR = 120.0
"""Longest a held callback request waits for :meth:`FakeDiscord.release_held`."""


class FakeDiscordError(AssertionError):
    """The test asked the fake for something Discord would not do (or the fake broke)."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class User:
    """A Discord user the fake knows: a member of its guild, or the bot."""

    id: int
    name: str
    bot: bool = False

    def payload(self) -> JSON:
        """The user object Discord sends."""
        return payloads.user(self.id, self.name, bot=self.bot)

    def member_payload(self, permissions: int | None = None) -> JSON:
        """The guild member object (``permissions`` as in interaction payloads)."""
        return payloads.member(self.payload(), joined_at=_JOINED_AT, permissions=permissions)


class _Components:
    """Queries on a message payload's components."""

    @property
    def data(self) -> JSON:
        raise NotImplementedError

    @property
    def content(self) -> str:
        """The message text."""
        return str(self.data.get("content") or "")

    @property
    def components(self) -> list[JSON]:
        """The component rows."""
        return list(self.data.get("components") or [])

    @property
    def buttons(self) -> list[ComponentData]:
        """Every button, enabled or not."""
        return find_components(self.components, type=2)

    @property
    def custom_ids(self) -> list[str]:
        """The custom_id of every component that has one."""
        return [c.custom_id for c in find_components(self.components) if c.custom_id]

    @property
    def text(self) -> str:
        """What a user can read: content, embeds and labels."""
        return visible_text(self.data)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> ComponentData:
        """The only button with this label or custom_id; LookupError lists the others."""
        return find_component(self.components, label=label, custom_id=custom_id, type=2)


@dataclass(eq=False)
class Message(_Components):
    """A message as the fake holds it now, after every edit."""

    id: int
    channel_id: int
    payload: JSON
    visible_to: int | None = None
    """None for a message everyone in the channel sees; else the one user who sees it."""
    interaction_id: int | None = None
    history: list[JSON] = field(default_factory=list)
    """Every earlier version of :attr:`payload`, oldest first."""
    deleted: bool = False
    version: int = 0
    """The fake's change counter when this message was last created or edited."""
    times: list[float] = field(default_factory=list)
    """When each version (:attr:`history`, then :attr:`payload`) was made, in loop time."""

    @property
    def data(self) -> JSON:
        """The payload (for the component queries)."""
        return self.payload

    @property
    def flags(self) -> int:
        """The message flags."""
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Only :attr:`visible_to` can see it."""
        return bool(self.flags & EPHEMERAL)

    def __repr__(self) -> str:
        vis = f" ephemeral to {self.visible_to}" if self.visible_to else ""
        return f"<Message {self.id}{vis} {self.content!r} {self.custom_ids}>"


@dataclass(eq=False)
class Request:
    """One HTTP request the bot made, and what the fake answered."""

    seq: int
    method: str
    path: str
    """The path after ``/api/v10``, with its real ids."""
    query: dict[str, str]
    body: Any
    route: str = ""
    """The route template, like ``PATCH /channels/{channel_id}/messages/{message_id}``."""
    status: int = 0
    answer: Any = None
    interaction_id: int | None = None
    message_id: int | None = None
    at: float = 0.0
    """When it arrived, in loop time."""
    files: bool = False
    """It uploads files (a multipart body: discord.py sends files so)."""

    def __repr__(self) -> str:
        return f"<Request #{self.seq} {self.method} {self.path} -> {self.status}>"


@dataclass(eq=False)
class Interaction:
    """An interaction the fake delivered, and the bot's answers to it."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    message_id: int | None
    what: str
    """``/euchre new`` or the custom_id clicked: for messages."""
    payload: JSON
    hold: bool = False
    """Hold the request carrying the bot's answer unanswered (until
    :meth:`FakeDiscord.release_held`): the callback, or after a deferral the follow-up or
    edit that fills it (the bot saves before it says)."""
    delivered_at: float | None = None
    seq: int | None = None
    """The gateway sequence number of its INTERACTION_CREATE."""
    response_type: int | None = None
    callback: JSON | None = None
    """The callback body the bot sent (``{"type", "data"}``)."""
    original_id: int | None = None
    """The message the response created or updated (the ``@original`` message)."""
    followup_ids: list[int] = field(default_factory=list)
    deferred_pending: bool = False
    error: str | None = None
    """Why a callback was refused."""
    callback_received: asyncio.Event = field(default_factory=asyncio.Event)
    """The callback request arrived (answered, refused or held)."""
    held_received: asyncio.Event = field(default_factory=asyncio.Event)
    """The request carrying the answer arrived and is held (``hold``)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """The callback was answered with success: the user saw the bot respond."""
    filled: asyncio.Event = field(default_factory=asyncio.Event)
    """The answer is there: the callback's own, or (deferred) the follow-up or edit after it."""
    answer: JSON | None = None
    """The message body of that answer, as the bot sent it: what the user was told, though
    the message may be edited again since (by another interaction's token, say)."""
    released: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acknowledged(self) -> bool:
        """Discord accepted the bot's response."""
        return self.answered.is_set()

    async def wait_answered(self, timeout: float = BOUND, *, filled: bool = True) -> Interaction:
        """Wait until the bot's response was accepted; TimeoutError says what happened.

        ``filled``: and, if it was deferred, until the follow-up or edit that fills it came.
        """
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
            if filled:
                await asyncio.wait_for(self.filled.wait(), timeout)
        except TimeoutError:
            state = (
                f"refused: {self.error}"
                if self.error
                else "deferred, never filled"
                if self.answered.is_set()
                else "held"
                if self.callback_received.is_set()
                else "no callback"
            )
            raise TimeoutError(f"{self!r} was not answered within {timeout}s ({state})") from None
        return self

    def __repr__(self) -> str:
        return f"<Interaction {self.id} {self.what!r} by {self.user.name}>"


@dataclass(eq=False)
class _Connection:
    ws: web.WebSocketResponse
    zlib_stream: bool
    compressor: Any = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    session: _Session | None = None

    @property
    def open(self) -> bool:
        return not self.ws.closed


@dataclass(eq=False)
class _Session:
    id: str
    seq: int = 0
    events: list[tuple[int, str, JSON]] = field(default_factory=list)
    conn: _Connection | None = None
    ready: bool = False
    """READY and GUILD_CREATE went out: interactions may follow."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


Handler: TypeAlias = Callable[[Request, dict[str, str]], Any]


@dataclass
class _Window:
    """A rate limit bucket's window: when it resets (loop time) and the requests in it."""

    resets_at: float = 0.0
    used: int = 0


_PACED_KINDS = {"POST": "post", "PATCH": "edit", "DELETE": "delete"}
_PACED_ROUTES = (
    "/channels/{channel_id}/messages",
    "/channels/{channel_id}/messages/{message_id}",
)
_WEBHOOK_ROUTES = (
    "/webhooks/{application_id}/{token}",
    "/webhooks/{application_id}/{token}/messages/{message_id}",
)


@dataclass(frozen=True)
class _Route:
    method: str
    template: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    """Discord on loopback for one guild. ``async with FakeDiscord(...) as fake:``.

    ``members``: the names of the guild's members (besides the bot).
    ``callback_deadline``: seconds an interaction may wait for its first response.
    """

    def __init__(
        self,
        *,
        members: Sequence[str] = ("alice", "bob"),
        token: str | None = None,
        callback_deadline: float | None = DISCORD_DEADLINE,
        heartbeat_interval: float = 41.25,
        guild_name: str = "E2E Guild",
        channel_name: str = "table",
        shard: tuple[int, int] | None = None,
        rate_limits: bool = True,
        rate_limit: int = 5,
        rate_period: float = 5.0,
        managers: Sequence[str] = (),
        bot_permissions: int | None = None,
    ) -> None:
        """Build the world; nothing listens until :meth:`start`.

        ``managers``: the members (of ``members``) who have the Manage Server permission.
        ``bot_permissions``: those of the bot's role (default ``DEFAULT_BOT_PERMISSIONS``).

        ``shard`` = (id, count): the guild's id falls on that shard, as Discord routes it.
        """
        self.rate_limits = rate_limits
        """Answer channel message posts, edits and deletes, and an interaction's webhook
        requests, past the budget with a 429."""
        self.rate_limit = rate_limit
        self.rate_period = rate_period
        self.rate_limited: list[Request] = []
        """Every request answered with a 429."""
        self.webhook_limit = 5
        """Requests one interaction's webhook takes (followups, edits, deletes) a period."""
        self.webhook_period = 2.0
        self.clock: Callable[[], float] = time.monotonic
        """The clock of the rate limit windows (a test may turn it by hand)."""
        self.limits = FakeLimits(lambda: self.clock(), enforced=rate_limits)
        """The global limit, route buckets and invalid requests (tests/kit/fake_limits.py);
        ``limits.expect(status)`` says a test expects an invalid answer."""
        self.invalid: list[Request] = []
        """Every answer Discord counts as invalid (401, 403, 429 but of shared scope)."""
        self._windows: dict[tuple[int | str, str], _Window] = {}
        self.token = token or f"e2e.{secrets.token_urlsafe(24)}"
        self.callback_deadline = callback_deadline
        if SLOW_DB and callback_deadline == DISCORD_DEADLINE:
            self.callback_deadline = ANSWER_BUDGET  # a slowed run holds the bot to its budget
        self.heartbeat_interval = heartbeat_interval
        self._last_id = 0
        self.bot_user = User(self.next_id(), "EuchreBot", bot=True)
        self.application_id = self.next_id()
        self.owner = User(self.next_id(), "app-owner")
        self.guild_id = self.next_id()
        while shard is not None and (self.guild_id >> 22) % shard[1] != shard[0]:
            self._last_id += 1 << 22  # a millisecond later
            self.guild_id = self.next_id()
        self.guild_name = guild_name
        self.channel_id = self.next_id()
        self.members: dict[str, User] = {name: User(self.next_id(), name) for name in members}
        self.managers = frozenset(managers)
        self.bot_permissions = (
            DEFAULT_BOT_PERMISSIONS.value if bot_permissions is None else bot_permissions
        )
        self.roles: dict[int, JSON] = {}
        """Roles added with :meth:`add_role` (below the bot's own), by id."""
        self.member_roles: dict[int, list[int]] = {}
        """The roles each member holds (beyond @everyone), by user id."""
        self.nonces: dict[tuple[int, str], int] = {}
        """Messages posted with an enforced nonce, by channel and nonce."""
        self.scheduled: ScheduledEvents = ScheduledEvents()
        """The guild's scheduled events as Discord keeps them (a test may delete one by hand)."""
        self.channels: dict[int, JSON] = {
            self.channel_id: payloads.text_channel(self.channel_id, self.guild_id, channel_name)
        }
        self.deleted_channels: set[int] = set()
        """Deleted channels and threads: their requests answer Unknown Channel."""
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.requests: list[Request] = []
        self.problems: list[str] = []
        """What Discord would have refused or the fake does not know: should stay empty."""
        self.violations: list[tuple[Request, Violation]] = []
        """Every payload past Discord's contract (:mod:`tests.kit.contract`), with its
        request; the fake fails its test on leaving unless the test emptied it."""
        self.commands: dict[int | None, list[JSON]] = {}
        self.app_emojis: dict[int, JSON] = {}
        """The application's emojis by id (``image``: the data URI uploaded)."""
        """The synced application commands, by guild id (None: global)."""
        self.command_syncs: list[int | None] = []
        self.identifies: list[JSON] = []
        self.resumes: list[JSON] = []
        self.readies = 0
        """Sessions that got READY and their guild: a bot that may be used."""
        self.gateway_connections = 0
        self.heartbeats = 0
        self.version = 0
        """A counter bumped by everything recorded."""
        self._seq = itertools.count(1)
        self._change = asyncio.Event()
        self._sessions: dict[str, _Session] = {}
        self._session: _Session | None = None
        self._connections: set[_Connection] = set()
        self._gateway_open = asyncio.Event()
        self._gateway_open.set()
        self.replayed: list[int] = []
        """Sequence numbers of events sent again on a RESUME."""
        self._routes = self._build_routes()
        self.oauth = FakeOAuth(
            client_id=self.application_id,
            bot_token=self.token,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
        )
        """Discord's OAuth2 and Activity-instance endpoints, for the Activity's sign-in."""
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ life

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"http://{HOST}:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket URL (handed out by ``GET /gateway/bot``)."""
        return f"ws://{HOST}:{self.port}{GATEWAY_PATH}"

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(client_max_size=_MAX_REQUEST)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._stray)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def close(self) -> None:
        """Release held requests, close the gateway connections and stop listening."""
        self.release_held()
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=1001), 2.0)
        if self._runner is not None:
            await asyncio.wait_for(self._runner.cleanup(), 10.0)
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
        if self.violations and exc[0] is None:
            found = [v for _, v in self.violations]
            requests = ", ".join(dict.fromkeys(f"{r.method} {r.route}" for r, _ in self.violations))
            raise ContractError(requests, found)

    # ------------------------------------------------------------------ ids, world

    def next_id(self) -> int:
        """A fresh snowflake, increasing, near the current time."""
        self._last_id = payloads.next_snowflake(self._last_id)
        return self._last_id

    def member(self, name: str) -> User:
        """A member of the guild by name."""
        try:
            return self.members[name]
        except KeyError:
            raise LookupError(f"no member {name!r}: {sorted(self.members)}") from None

    def user(self, user_id: int) -> User:
        """A user by id (a member or the bot)."""
        for user in (*self.members.values(), self.bot_user, self.owner):
            if user.id == user_id:
                return user
        raise LookupError(f"no user {user_id}")

    def add_role(self, name: str) -> int:
        """A role just below the bot's own; its id. Before the bot connects."""
        role_id = self.next_id()
        self.roles[role_id] = payloads.role(role_id, name, 0, position=len(self.roles) + 1)
        return role_id

    def _member_payload(self, user: User) -> JSON:
        payload = user.member_payload()
        payload["roles"] = [str(r) for r in self.member_roles.get(user.id, [])]
        return payload

    def guild_payload(self) -> JSON:
        """The GUILD_CREATE payload: the guild, its channels and members (the bot too)."""
        bot_role = self.guild_id + 1
        bot_member = self.bot_user.member_payload()
        bot_member["roles"] = [str(bot_role)]
        members = [self._member_payload(m) for m in self.members.values()] + [bot_member]
        roles = [
            payloads.role(
                self.guild_id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS.value, position=0
            ),
            *self.roles.values(),
            payloads.role(
                bot_role,
                self.bot_user.name,
                self.bot_permissions,
                position=len(self.roles) + 1,
                managed=True,
            ),
        ]
        return payloads.guild(
            self.guild_id,
            self.guild_name,
            owner_id=self.owner.id,
            roles=roles,
            members=members,
            channels=self.channels.values(),
            joined_at=_JOINED_AT,
        )

    def _application_payload(self) -> JSON:
        return payloads.application(
            self.application_id,
            self.bot_user.name,
            owner=self.owner.payload(),
            bot=self.bot_user.payload(),
        )

    # ------------------------------------------------------------------ waiting

    def _touch(self) -> None:
        self.version += 1
        change, self._change = self._change, asyncio.Event()
        change.set()

    async def wait_for(
        self,
        predicate: Callable[[], bool],
        *,
        timeout: float,
        what: str,
        poll: float | None = None,
    ) -> None:
        """Wait until ``predicate()`` holds, checking it after every recorded change.

        ``poll`` also re-checks that often (for conditions outside the fake, like a
        process exit). TimeoutError after ``timeout`` seconds, naming ``what``.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            change = self._change
            if predicate():
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            wait = remaining if poll is None else min(poll, remaining)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(change.wait(), wait)

    async def wait_change(self, timeout: float) -> bool:
        """Wait for the next recorded change; False when none came within ``timeout``."""
        try:
            await asyncio.wait_for(self._change.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # ------------------------------------------------------------------ what users see

    def public_messages(self) -> list[Message]:
        """The channel messages everyone sees, oldest first."""
        return [m for m in self.messages.values() if m.visible_to is None and not m.deleted]

    def private_messages(self, user: User) -> list[Message]:
        """The ephemeral messages only ``user`` sees, oldest first."""
        return [m for m in self.messages.values() if m.visible_to == user.id and not m.deleted]

    def payloads(self) -> Iterator[tuple[Message, JSON]]:
        """Every version of every message, with the message it belongs to."""
        for message in self.messages.values():
            for version in (*message.history, message.payload):
                yield message, version

    def snapshot(self) -> JSON:
        """The messages and channels as they are now, for :meth:`restore`."""
        return copy.deepcopy({"messages": self.messages, "channels": self.channels})

    def restore(self, snapshot: JSON) -> None:
        """Put back the messages and channels of a :meth:`snapshot` (no bot may be connected).

        With a copy of the bot's data directory taken at the same moment, this forks
        the world: two runs can go on from the same table, seed included.
        """
        if self.connected:
            raise FakeDiscordError("stop the bot before restoring a snapshot")
        copied = copy.deepcopy(snapshot)
        self.messages, self.channels = copied["messages"], copied["channels"]
        self._touch()

    # ------------------------------------------------------------------ interactions

    @property
    def connected(self) -> bool:
        """A bot is identified on an open gateway connection."""
        session = self._session
        return (
            session is not None and session.ready and session.conn is not None and session.conn.open
        )

    async def slash(
        self,
        user: User,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        hold: bool = False,
        queue: bool = False,
    ) -> Interaction:
        """Deliver ``/command`` (``"euchre new"``) used by ``user`` in the channel.

        The command must have been synced to the guild: Discord shows no other.
        ``hold``: hold the bot's callback request unanswered. ``queue``: the bot's
        session may be disconnected (the event waits for its RESUME).
        """
        names = command.split()
        synced = self.commands.get(self.guild_id, []) + self.commands.get(None, [])
        root = next((c for c in synced if c["name"] == names[0]), None)
        if root is None:
            raise FakeDiscordError(f"/{names[0]} was not synced: {[c['name'] for c in synced]}")
        definition: JSON = root
        chain: list[JSON] = []
        for name in names[1:]:
            found = next((o for o in definition.get("options") or [] if o["name"] == name), None)
            if found is None or found.get("type") not in (1, 2):
                raise FakeDiscordError(f"/{command}: {name!r} is not a synced subcommand")
            chain.append(found)
            definition = found
        given = dict(options or {})
        encoded = []
        resolved: JSON = {}
        for option in definition.get("options") or []:
            if option["name"] in given:
                value = given.pop(option["name"])
                self._resolve(resolved, option["type"], value)
                encoded.append({"name": option["name"], "type": option["type"], "value": value})
            elif option.get("required"):
                raise FakeDiscordError(f"/{command} requires option {option['name']!r}")
        if given:
            raise FakeDiscordError(f"/{command} has no options {sorted(given)}")
        nested: list[JSON] = encoded
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: JSON = {
            "id": root["id"],
            "name": root["name"],
            "type": 1,
            "options": nested,
        }
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return await self._deliver(2, user, data, what=f"/{command}", hold=hold, queue=queue)

    def _resolve(self, resolved: JSON, option_type: int, value: object) -> None:
        """Put the member (option type 6) or role (8) an option names in ``resolved``."""
        if option_type == 6:
            member = self.user(int(str(value)))
            payload = self._member_payload(member)
            resolved.setdefault("users", {})[str(member.id)] = payload.pop("user")
            resolved.setdefault("members", {})[str(member.id)] = payload
        elif option_type == 8:
            role = self.roles.get(int(str(value)))
            if role is None:
                raise FakeDiscordError(f"no role {value} to resolve: add_role() it first")
            resolved.setdefault("roles", {})[str(value)] = role

    async def click(
        self,
        user: User,
        message: Message,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        hold: bool = False,
        queue: bool = False,
    ) -> Interaction:
        """Deliver a click of ``user`` on a button of ``message`` (as it is now)."""
        self._check_visible(user, message)
        button = message.button(label, custom_id=custom_id)
        if button.disabled:
            raise FakeDiscordError(f"{button!r} is disabled: Discord would not send the click")
        data = {"custom_id": button.custom_id, "component_type": 2}
        return await self._deliver(
            3, user, data, message=message, what=str(button.custom_id), hold=hold, queue=queue
        )

    async def select(
        self,
        user: User,
        message: Message,
        values: Sequence[str],
        *,
        custom_id: str | None = None,
        hold: bool = False,
    ) -> Interaction:
        """Deliver a choice of ``values`` in a string select of ``message``."""
        self._check_visible(user, message)
        menu = find_component(message.components, custom_id=custom_id, type=3)
        allowed = [o["value"] for o in menu.options]
        if any(v not in allowed for v in values):
            raise FakeDiscordError(f"{values} are not options of {menu!r}: {allowed}")
        data = {"custom_id": menu.custom_id, "component_type": 3, "values": list(values)}
        return await self._deliver(
            3, user, data, message=message, what=str(menu.custom_id), hold=hold
        )

    def _check_visible(self, user: User, message: Message) -> None:
        if message.deleted:
            raise FakeDiscordError(f"{message!r} was deleted")
        if message.visible_to is not None and message.visible_to != user.id:
            raise FakeDiscordError(f"{user.name} cannot see {message!r}")

    def release_held(self) -> None:
        """Answer every held callback request (as Unknown interaction: nobody waits for it)."""
        for interaction in self.interactions.values():
            interaction.released.set()

    async def _deliver(
        self,
        itype: int,
        user: User,
        data: JSON,
        *,
        what: str,
        message: Message | None = None,
        hold: bool = False,
        queue: bool = False,
    ) -> Interaction:
        resumable = queue and self._session is not None and self._session.ready
        if not (self.connected or resumable):
            raise FakeDiscordError("no bot is connected to the gateway")
        iid = self.next_id()
        channel = copy.deepcopy(self.channels[self.channel_id])
        permissions = DEFAULT_EVERYONE_PERMISSIONS.value
        if user.name in self.managers:
            permissions |= discord.Permissions(manage_guild=True).value
        channel["permissions"] = str(permissions)
        payload = payloads.interaction(
            iid,
            application_id=self.application_id,
            itype=itype,
            data=data,
            guild_id=self.guild_id,
            channel=channel,
            member_data=user.member_payload(permissions),
            token=f"e2e-interaction-{iid}-{secrets.token_hex(8)}",
            app_permissions=DEFAULT_BOT_PERMISSIONS.value,
            message_data=message.payload if message is not None else None,
        )
        interaction = Interaction(
            iid,
            payload["token"],
            itype,
            user,
            self.channel_id,
            message.id if message is not None else None,
            what,
            payload,
            hold=hold,
        )
        self.interactions[iid] = interaction
        interaction.delivered_at = asyncio.get_running_loop().time()
        interaction.seq = await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    # ------------------------------------------------------------------ gateway

    async def dispatch(self, event: str, data: JSON) -> int:
        """Send a gateway event to the bot's session; returns its sequence number.

        Sent at once on a live connection, else kept for a RESUME.
        """
        session = self._session
        if session is None:
            raise FakeDiscordError(f"no gateway session to dispatch {event} to")
        async with session.lock:
            session.seq += 1
            seq = session.seq
            session.events.append((seq, event, data))
            conn = session.conn
            if conn is not None and conn.open:
                await self._send(conn, {"op": _DISPATCH, "t": event, "s": seq, "d": data})
        self._touch()
        return seq

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway connection from Discord's side (it may RESUME)."""
        session = self._session
        if session is None or session.conn is None:
            raise FakeDiscordError("no gateway connection to drop")
        conn, session.conn = session.conn, None
        await conn.ws.close(code=code, message=b"dropped by the test")

    @contextlib.asynccontextmanager
    async def gateway_down(self, code: int = 4000) -> AsyncIterator[None]:
        """Drop the bot's connection and make new ones wait (before HELLO) until the end.

        Events dispatched inside (with ``queue=True``) are kept for the session and
        replayed when the bot RESUMEs.
        """
        self._gateway_open.clear()
        try:
            await self.drop_gateway(code)
            yield
        finally:
            self._gateway_open.set()

    async def _send(self, conn: _Connection, message: JSON) -> None:
        text = json.dumps(message, separators=(",", ":"))
        async with conn.lock:
            if not conn.open:
                return
            try:
                if conn.zlib_stream:
                    data = conn.compressor.compress(text.encode())
                    await conn.ws.send_bytes(data + conn.compressor.flush(zlib.Z_SYNC_FLUSH))
                else:
                    await conn.ws.send_str(text)
            except (ConnectionError, aiohttp.ClientConnectionError):
                pass  # the bot went away: a RESUME replays the event, if it comes back

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        query = request.query
        if query.get("encoding", "json") != "json" or query.get("v") != str(API_VERSION):
            self.problems.append(f"gateway connection with query {dict(query)}")
        ws = web.WebSocketResponse(receive_timeout=max(3 * self.heartbeat_interval, 10.0))
        await ws.prepare(request)
        compress = query.get("compress")
        conn = _Connection(ws, zlib_stream=compress == "zlib-stream")
        if conn.zlib_stream:
            conn.compressor = zlib.compressobj()
        self._connections.add(conn)
        self.gateway_connections += 1
        self._touch()
        try:
            try:
                await asyncio.wait_for(self._gateway_open.wait(), 30.0)
            except TimeoutError:
                self.problems.append("gateway: kept down for 30s")
                await ws.close(code=1001)
                return ws
            hello = {"heartbeat_interval": int(self.heartbeat_interval * 1000)}
            await self._send(conn, {"op": _HELLO, "d": hello})
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    self.problems.append(f"gateway: unexpected {msg.type!r} frame")
                    continue
                await self._on_op(conn, json.loads(msg.data))
        except TimeoutError:
            self.problems.append("gateway: the bot stopped heartbeating")
        finally:
            self._connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
            self._touch()
        return ws

    async def _on_op(self, conn: _Connection, message: JSON) -> None:
        op, data = message.get("op"), message.get("d")
        if op == _HEARTBEAT:
            self.heartbeats += 1
            await self._send(conn, {"op": _HEARTBEAT_ACK})
        elif op == _IDENTIFY:
            await self._identify(conn, data or {})
        elif op == _RESUME:
            await self._resume(conn, data or {})
        elif op in (_PRESENCE, _VOICE, _REQUEST_MEMBERS):
            pass
        else:
            self.problems.append(f"gateway: unexpected op {op}: {message}")
        self._touch()

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        self.identifies.append(data)
        if data.get("token") != self.token:
            self.problems.append("gateway: IDENTIFY with a wrong token")
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = _Session(secrets.token_hex(16))
        self._sessions[session.id] = session
        if self._session is not None and self._session.conn is not None:
            old = self._session.conn
            self._session.conn = None
            await old.ws.close(code=4000, message=b"replaced by a new session")
        conn.session, session.conn, self._session = session, conn, session
        ready = {
            "v": API_VERSION,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": data.get("shard") or [0, 1],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
        }
        await self.dispatch("READY", ready)
        await self.dispatch("GUILD_CREATE", self.guild_payload())
        session.ready = True
        self.readies += 1

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        self.resumes.append(data)
        session = self._sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token or session is None or session is not self._session:
            await self._send(conn, {"op": _INVALID_SESSION, "d": False})
            return
        after = int(data.get("seq") or 0)
        async with session.lock:
            for seq, event, payload in list(session.events):
                if seq > after:
                    await self._send(conn, {"op": _DISPATCH, "t": event, "s": seq, "d": payload})
                    self.replayed.append(seq)
            conn.session, session.conn = session, conn
        await self.dispatch("RESUMED", {})

    # ------------------------------------------------------------------ REST

    def _build_routes(self) -> list[_Route]:
        routes: list[tuple[str, str, Handler, bool]] = [
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/users/@me", self._get_me, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("PUT", "/applications/{application_id}/commands", self._put_commands, True),
            ("GET", "/applications/{application_id}/commands", self._get_commands, True),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
                True,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._get_commands,
                True,
            ),
            ("GET", "/applications/{application_id}/emojis", self._list_emojis, True),
            ("POST", "/applications/{application_id}/emojis", self._create_emoji, True),
            (
                "DELETE",
                "/applications/{application_id}/emojis/{emoji_id}",
                self._delete_emoji,
                True,
            ),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, False),
            ("POST", "/webhooks/{application_id}/{token}", self._followup, False),
            (
                "GET",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._webhook_message,
                False,
            ),
            (
                "PATCH",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._webhook_message,
                False,
            ),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._webhook_message,
                False,
            ),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("PATCH", "/channels/{channel_id}", self._patch_channel, True),
            ("POST", "/channels/{channel_id}/messages", self._send_message, True),
            ("GET", "/channels/{channel_id}/messages", self._list_messages, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._channel_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._channel_message, True),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}",
                self._channel_message,
                True,
            ),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._create_thread,
                True,
            ),
            ("POST", "/channels/{channel_id}/threads", self._create_thread, True),
            ("PUT", "/channels/{channel_id}/thread-members/@me", self._no_content, True),
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._role, True),
            ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._role, True),
            ("POST", "/guilds/{guild_id}/scheduled-events", self._scheduled_event, True),
            (
                "PATCH",
                "/guilds/{guild_id}/scheduled-events/{event_id}",
                self._edit_scheduled_event,
                True,
            ),
        ]
        compiled = []
        for method, template, handler, auth in routes:
            pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            compiled.append(_Route(method, template, re.compile(pattern + "$"), handler, auth))
        return compiled

    async def _stray(self, request: web.Request) -> web.Response:
        self.problems.append(f"request outside the API: {request.method} {request.path}")
        self._touch()
        return _json(404, {"code": 0, "message": "404: Not Found"})

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        signing_in = await self.oauth.answer(request, path)
        if signing_in is not None:
            return signing_in
        record = Request(
            next(self._seq), request.method, path, dict(request.query), await _read_body(request)
        )
        files = await _file_sizes(request)
        record.at = asyncio.get_running_loop().time()
        record.files = request.content_type.startswith("multipart/")
        self.requests.append(record)
        self._touch()
        headers: dict[str, str] | None = None
        try:
            route, params = self._match(request.method, path)
            record.route = f"{route.method} {route.template}"
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                self.problems.append(f"{record!r}: missing or wrong bot token")
                raise ApiError(401, 0, "401: Unauthorized")
            admitted = self.limits.admit(route.method, route.template, params)
            if admitted.refusal is not None:
                self.rate_limited.append(record)
                raise _RateLimitedError(admitted.refusal, admitted.headers or {})
            headers = self._rate_limit(record, route, params) or admitted.headers
            self._keep_contract(record, files)
            self._check_permissions(record, route, params)
            result = route.handler(record, params)
            if inspect.isawaitable(result):
                result = await result
            status = 204 if result is None else 200
        except _RateLimitedError as exc:
            status, result, headers = 429, exc.body, exc.headers
        except ApiError as exc:
            status, result = exc.status, {"code": exc.code, "message": exc.message}
        except _RefusedError as exc:
            status, result = exc.status, exc.body
        record.status, record.answer = status, copy.deepcopy(result)
        scope = (headers or {}).get("X-RateLimit-Scope")
        if self.limits.invalid.counts(status, scope):
            self.invalid.append(record)
            problem = self.limits.answered(status, headers, repr(record))
            if problem is not None:
                self.problems.append(problem)
        self._touch()
        return _json(status, result, headers)

    def _check_permissions(self, record: Request, route: _Route, params: Mapping[str, str]) -> None:
        """Refuse a channel request the bot's permissions do not allow, as Discord does."""
        channel = self.channels.get(int(params.get("channel_id") or 0))
        body = record.body if isinstance(record.body, dict) else None
        held = discord.Permissions(self.bot_permissions)
        in_thread = channel is not None and "thread_metadata" in channel
        refused = channel_refusal(
            held, record.method, route.template, body, in_thread=in_thread, files=record.files
        )
        if refused is not None:
            raise ApiError(*refused)

    def windows_left_open(self) -> list[float]:
        """When each channel or webhook window that has requests in it resets (clock time).

        A process started while they are open cannot know them: its first request there
        may be answered 429, as on Discord.
        """
        now = self.clock()
        return [w.resets_at for w in self._windows.values() if w.resets_at > now and w.used]

    def _rate_limit(
        self, record: Request, route: _Route, params: Mapping[str, str]
    ) -> dict[str, str] | None:
        """The rate limit headers of a paced request; a 429 past the budget.

        A channel's message posts, edits and deletes (each :attr:`rate_limit` per
        :attr:`rate_period`), and the requests on one interaction's webhook (followups
        and edits of its messages, :attr:`webhook_limit` per :attr:`webhook_period`).
        """
        if not self.rate_limits or route.method not in _PACED_KINDS:
            return None
        if route.template in _WEBHOOK_ROUTES:
            key: tuple[int | str, str] = (params["token"], "webhook")
            limit, period = self.webhook_limit, self.webhook_period
        elif route.template in _PACED_ROUTES:
            if route.method == "POST" and route.template != _PACED_ROUTES[0]:
                return None
            channel = int(params["channel_id"]) if params["channel_id"].isdigit() else 0
            key = (channel, _PACED_KINDS[route.method])
            limit, period = self.rate_limit, self.rate_period
        else:
            return None
        now = self.clock()
        window = self._windows.setdefault(key, _Window())
        if now >= window.resets_at:
            window.resets_at, window.used = now + period, 0
        after = window.resets_at - now
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(0, limit - window.used - 1)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": f"{key[1]}-{str(key[0])[:32]}",
        }
        if window.used >= limit:
            self.rate_limited.append(record)
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"  # the bot's own limit, not a shared one
            headers["Retry-After"] = str(math.ceil(after))
            headers["Via"] = "1.1 google"
            body = {"message": "You are being rate limited.", "retry_after": after, "global": False}
            raise _RateLimitedError(body, headers)
        window.used += 1
        return headers

    def _keep_contract(self, record: Request, files: list[tuple[str, int]]) -> None:
        """Check a request against Discord's contract; refuse it as Discord would."""
        found = check_request(record.method, record.path, record.body, files)
        if not found:
            return
        self.violations.extend((record, v) for v in found)
        self.problems.append(f"{record!r} breaks Discord's contract: {describe(found)}")
        answer = error_answer(found)
        if answer is not None:
            raise _RefusedError(*answer)

    def _match(self, method: str, path: str) -> tuple[_Route, dict[str, str]]:
        for route in self._routes:
            found = route.pattern.match(path)
            if found and route.method == method:
                return route, found.groupdict()
        self.problems.append(f"unknown route {method} {path}")
        raise ApiError(404, 0, "404: Not Found")

    # gateway, login, commands

    def _get_gateway_bot(self, record: Request, p: dict[str, str]) -> JSON:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _get_gateway(self, record: Request, p: dict[str, str]) -> JSON:
        return {"url": self.gateway_url}

    def _get_me(self, record: Request, p: dict[str, str]) -> JSON:
        return {**self.bot_user.payload(), "verified": True, "mfa_enabled": False}

    def _get_application(self, record: Request, p: dict[str, str]) -> JSON:
        return self._application_payload()

    def _check_application(self, p: Mapping[str, str]) -> None:
        if p.get("application_id") != str(self.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    def _guild_key(self, p: Mapping[str, str]) -> int | None:
        if "guild_id" not in p:
            return None
        if p["guild_id"] != str(self.guild_id):
            raise ApiError(403, 50001, "Missing Access")
        return self.guild_id

    def turn_on_activities(self) -> None:
        """Activities on in the Developer Portal: the Entry Point command Discord makes."""
        command = payloads.entry_point_command(
            command_id=self.next_id(), application_id=self.application_id, version=self.next_id()
        )
        self.commands.setdefault(None, []).append(command)

    @property
    def activities(self) -> bool:
        """Whether the application has Activities on (an Entry Point command)."""
        return payloads.has_entry_point(self.commands.get(None, []))

    def _put_commands(self, record: Request, p: dict[str, str]) -> list[JSON]:
        self._check_application(p)
        guild = self._guild_key(p)
        body = record.body or []
        if guild is None and payloads.drops_entry_point(self.commands.get(None, []), body):
            raise ApiError(400, *payloads.ENTRY_POINT_DROPPED)
        known = {c["name"]: c["id"] for c in self.commands.get(guild, [])}
        answered = []
        for command in record.body or []:
            answered.append(
                payloads.synced_command(
                    command,
                    command_id=known.get(command["name"]) or self.next_id(),
                    application_id=self.application_id,
                    version=self.next_id(),
                    guild_id=guild,
                )
            )
        self.commands[guild] = answered
        self.command_syncs.append(guild)
        return answered

    def _get_commands(self, record: Request, p: dict[str, str]) -> list[JSON]:
        self._check_application(p)
        return self.commands.get(self._guild_key(p), [])

    # application emojis

    def _list_emojis(self, record: Request, p: dict[str, str]) -> JSON:
        self._check_application(p)
        shown = [{k: v for k, v in e.items() if k != "image"} for e in self.app_emojis.values()]
        return {"items": shown}

    def _create_emoji(self, record: Request, p: dict[str, str]) -> JSON:
        """Upload one: a name of 2-32 letters, digits or _, unused; a PNG up to 256 KiB."""
        self._check_application(p)
        body = record.body if isinstance(record.body, dict) else {}
        name, image = str(body.get("name", "")), str(body.get("image", ""))
        prefix = "data:image/png;base64,"
        taken = any(e["name"] == name for e in self.app_emojis.values())
        if not re.fullmatch(r"\w{2,32}", name) or taken or not image.startswith(prefix):
            raise ApiError(400, 50035, "Invalid Form Body")
        if len(base64.b64decode(image[len(prefix) :])) > 256 * 1024:
            raise ApiError(400, 50138, "Asset exceeds maximum size: 262144")
        emoji_id = self.next_id()
        emoji = payloads.application_emoji(emoji_id, name, owner=self.bot_user.payload())
        self.app_emojis[emoji_id] = {**emoji, "image": image}
        return emoji

    def _delete_emoji(self, record: Request, p: dict[str, str]) -> None:
        self._check_application(p)
        if self.app_emojis.pop(int(p["emoji_id"]), None) is None:
            raise ApiError(404, 10014, "Unknown Emoji")

    # interactions

    def _interaction(self, p: Mapping[str, str], key: str) -> Interaction:
        token = p["token"]
        if key == "interaction_id":
            found = self.interactions.get(int(p[key])) if p[key].isdigit() else None
        else:
            self._check_application(p)
            found = next((i for i in self.interactions.values() if i.token == token), None)
        if found is None or found.token != token:
            raise ApiError(404, 10062 if key == "interaction_id" else 10015, "Unknown interaction")
        return found

    async def _callback(self, record: Request, p: dict[str, str]) -> JSON | None:
        interaction = self._interaction(p, "interaction_id")
        record.interaction_id = interaction.id
        interaction.callback_received.set()
        self._touch()
        deferral = int((record.body or {}).get("type") or 0) in (DEFER, DEFER_UPDATE)
        if interaction.hold and not deferral:
            await self._hold(interaction, 10062)
        assert interaction.delivered_at is not None
        age = asyncio.get_running_loop().time() - interaction.delivered_at
        if self.callback_deadline is not None and age > self.callback_deadline:
            interaction.error = f"answered after {age:.2f}s"
            self.problems.append(f"{interaction!r}: first response after {age:.2f}s")
            raise ApiError(404, 10062, "Unknown interaction")
        if interaction.response_type is not None:
            interaction.error = "acknowledged twice"
            self.problems.append(f"{interaction!r}: acknowledged twice")
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        answer = self._respond(interaction, record.body or {})
        record.message_id = interaction.original_id
        interaction.answered.set()
        if interaction.response_type not in (DEFER, DEFER_UPDATE):
            interaction.answer = copy.deepcopy((record.body or {}).get("data") or {})
            interaction.filled.set()
        return answer if record.query.get("with_response") in ("1", "true", "True") else None

    def _respond(self, interaction: Interaction, body: JSON) -> JSON:
        rtype = int(body.get("type") or 0)
        data: JSON = body.get("data") or {}
        interaction.callback = copy.deepcopy(body)
        answer: JSON = {"interaction": {"id": str(interaction.id), "type": interaction.type}}
        resource: JSON = {"type": rtype}
        if rtype in (MESSAGE, DEFER):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                data,
                visible_to=interaction.user.id if ephemeral else None,
                loading=rtype == DEFER,
                interaction=interaction,
            )
            interaction.original_id = message.id
            interaction.deferred_pending = rtype == DEFER
            answer["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=rtype == DEFER,
                response_message_ephemeral=ephemeral,
            )
            resource["message"] = copy.deepcopy(message.payload)
        elif rtype in (DEFER_UPDATE, UPDATE):
            target = self.messages.get(interaction.message_id or 0)
            if target is None or target.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            interaction.original_id = target.id
            if rtype == UPDATE:
                self._edit(target, data)
                resource["message"] = copy.deepcopy(target.payload)
            answer["interaction"].update(
                response_message_id=str(target.id),
                response_message_loading=False,
                response_message_ephemeral=target.ephemeral,
            )
        elif rtype == payloads.LAUNCH_ACTIVITY:
            if not self.activities:
                raise ApiError(400, 50035, "Invalid Form Body: this application has no Activity")
        elif rtype not in (PONG, AUTOCOMPLETE, MODAL):
            raise ApiError(400, 50035, f"Invalid Form Body: callback type {rtype}")
        interaction.response_type = rtype
        answer["resource"] = resource
        return answer

    def _token_alive(self, interaction: Interaction) -> None:
        """An interaction's token takes follow-ups and edits for 15 minutes, as on Discord."""
        delivered = interaction.delivered_at
        if delivered is not None and self._loop_time() - delivered > TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")

    @staticmethod
    def _loop_time() -> float:
        return asyncio.get_running_loop().time()

    async def _hold(self, interaction: Interaction, code: int) -> None:
        """Hold the request that carries the answer until released, then drop it."""
        interaction.held_received.set()
        self._touch()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(interaction.released.wait(), _HELD_FOR)
        interaction.error = "held, then dropped"
        raise ApiError(404, code, "Unknown interaction")

    async def _followup(self, record: Request, p: dict[str, str]) -> JSON:
        interaction = self._interaction(p, "token")
        record.interaction_id = interaction.id
        if interaction.response_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        self._token_alive(interaction)
        if interaction.hold and not interaction.filled.is_set():
            await self._hold(interaction, 10015)
        body: JSON = record.body or {}
        _fill(interaction, body)
        if interaction.deferred_pending and interaction.original_id is not None:
            interaction.deferred_pending = False
            original = self.messages[interaction.original_id]
            self._edit(original, body)
            record.message_id = original.id
            return original.payload
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        message = self._new_message(
            body, visible_to=interaction.user.id if ephemeral else None, interaction=interaction
        )
        interaction.followup_ids.append(message.id)
        record.message_id = message.id
        return message.payload

    async def _webhook_message(self, record: Request, p: dict[str, str]) -> JSON | None:
        interaction = self._interaction(p, "token")
        record.interaction_id = interaction.id
        if interaction.response_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        self._token_alive(interaction)
        filling = record.method == "PATCH" and p["message_id"] == "@original"
        if interaction.hold and filling and not interaction.filled.is_set():
            await self._hold(interaction, 10015)
        key = p["message_id"]
        if key == "@original":
            mid = interaction.original_id
        elif key.isdigit() and int(key) in interaction.followup_ids:
            mid = int(key)
        else:
            mid = None
        message = self.messages.get(mid or 0)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        record.message_id = message.id
        if record.method == "GET":
            return message.payload
        if key == "@original":  # deleted or edited, a deferral waits no more
            interaction.deferred_pending = False
        if record.method == "DELETE":
            message.deleted = True
            return None
        if key == "@original":
            interaction.deferred_pending = False
            _fill(interaction, record.body or {})
        self._edit(message, record.body or {})
        return message.payload

    # channels and messages

    def _channel(self, p: Mapping[str, str]) -> int:
        cid = int(p["channel_id"]) if p["channel_id"].isdigit() else 0
        if cid not in self.channels or cid in self.deleted_channels:
            raise ApiError(404, 10003, "Unknown Channel")
        return cid

    def _get_channel(self, record: Request, p: dict[str, str]) -> JSON:
        return self.channels[self._channel(p)]

    async def _patch_channel(self, record: Request, p: dict[str, str]) -> JSON:
        """Reopen (or archive) a thread; reopening a locked one takes Manage Threads."""
        cid = self._channel(p)
        channel, body = self.channels[cid], record.body or {}
        meta = channel.get("thread_metadata")
        if meta is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if meta["locked"] and body.get("archived") is False and body.get("locked") is not False:
            raise ApiError(403, 50013, "Missing Permissions")
        for key in ("archived", "locked"):
            if key in body:
                meta[key] = bool(body[key])
        await self.dispatch("THREAD_UPDATE", copy.deepcopy(channel))
        return channel

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """A moderator archives (and maybe locks) a thread, as Discord then announces it."""
        thread = self.channels[thread_id]
        thread["thread_metadata"].update(archived=True, locked=locked)
        self._touch()
        await self.dispatch("THREAD_UPDATE", copy.deepcopy(thread))

    async def delete_channel(self, channel_id: int) -> None:
        """A moderator deletes a thread (or channel): its requests answer Unknown Channel."""
        channel = self.channels[channel_id]
        self.deleted_channels.add(channel_id)
        self._touch()
        if "thread_metadata" in channel:
            gone = {k: channel[k] for k in ("id", "guild_id", "parent_id", "type")}
            await self.dispatch("THREAD_DELETE", gone)
        else:
            await self.dispatch("CHANNEL_DELETE", copy.deepcopy(channel))

    def thread_archived(self, thread_id: int) -> bool:
        """Whether the thread is archived now."""
        return bool(self.channels[thread_id]["thread_metadata"]["archived"])

    def _check_thread_open(self, cid: int, method: str) -> None:
        """Refuse what Discord refuses in an archived thread; a post reopens an unlocked one.

        Editing or deleting a message there is ``50083 Thread is archived``; so is a post
        in a locked thread.
        """
        meta = self.channels[cid].get("thread_metadata")
        if meta is None or not meta["archived"]:
            return
        if method == "POST" and not meta["locked"]:
            meta["archived"] = False
            return
        if method in ("POST", "PATCH", "DELETE"):
            raise ApiError(400, 50083, "Thread is archived")

    def _send_message(self, record: Request, p: dict[str, str]) -> JSON:
        cid = self._channel(p)
        self._check_thread_open(cid, "POST")
        body = record.body if isinstance(record.body, dict) else {}
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None and (cid, str(nonce)) in self.nonces:
            first = self.messages[self.nonces[cid, str(nonce)]]
            record.message_id = first.id  # Discord answers a repeat with the message it has
            return first.payload
        message = self._new_message(record.body or {}, channel_id=cid)
        if nonce is not None:
            self.nonces[cid, str(nonce)] = message.id
        self.channels[cid]["last_message_id"] = str(message.id)
        record.message_id = message.id
        return message.payload

    def _list_messages(self, record: Request, p: dict[str, str]) -> list[JSON]:
        cid = self._channel(p)
        limit = max(1, min(100, int(record.query.get("limit", "50"))))
        found = [m for m in self.public_messages() if m.channel_id == cid]
        return [m.payload for m in sorted(found, key=lambda m: -m.id)[:limit]]

    def _public_message(self, p: Mapping[str, str]) -> Message:
        cid = self._channel(p)
        mid = int(p["message_id"]) if p["message_id"].isdigit() else 0
        message = self.messages.get(mid)
        # Ephemeral messages are reachable only through the interaction's webhook.
        if message is None or message.deleted or message.channel_id != cid or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _channel_message(self, record: Request, p: dict[str, str]) -> JSON | None:
        message = self._public_message(p)
        record.message_id = message.id
        if record.method == "GET":
            return message.payload
        self._check_thread_open(message.channel_id, record.method)
        if record.method == "DELETE":
            message.deleted = True
            return None
        self._edit(message, record.body or {})
        return message.payload

    async def _create_thread(self, record: Request, p: dict[str, str]) -> JSON:
        parent = self._channel(p)
        body: JSON = record.body or {}
        tid = self._public_message(p).id if "message_id" in p else self.next_id()
        thread = payloads.thread(tid, self.guild_id, parent, self.bot_user.id, body)
        self.channels[tid] = thread
        if self._session is not None:
            await self.dispatch("THREAD_CREATE", {**copy.deepcopy(thread), "newly_created": True})
        return thread

    async def _role(self, record: Request, p: dict[str, str]) -> None:
        """Give (PUT) or take back (DELETE) a member's role, refused as Discord refuses."""
        if int(p["guild_id"]) != self.guild_id:
            raise ApiError(404, 10004, "Unknown Guild")
        if not self.bot_permissions & discord.Permissions(manage_roles=True).value:
            raise ApiError(403, 50013, "Missing Permissions")
        role_id = int(p["role_id"])
        if role_id not in self.roles:  # @everyone and the bot's own can't be given either
            raise ApiError(404 if role_id != self.guild_id + 1 else 403, 10011, "Unknown Role")
        user_id = int(p["user_id"])
        user = next((m for m in self.members.values() if m.id == user_id), None)
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        held = self.member_roles.setdefault(user_id, [])
        if record.method == "PUT" and role_id not in held:
            held.append(role_id)
        elif record.method == "DELETE" and role_id in held:
            held.remove(role_id)
        else:
            return
        update = self._member_payload(user)
        update["guild_id"] = str(self.guild_id)
        if self._session is not None:
            await self.dispatch("GUILD_MEMBER_UPDATE", update)

    def _scheduled_event(self, record: Request, p: dict[str, str]) -> JSON:
        """Create a guild's scheduled event; refused without Manage or Create Events."""
        if int(p["guild_id"]) != self.guild_id:
            raise ApiError(404, 10004, "Unknown Guild")
        allowed = discord.Permissions(manage_events=True, create_events=True).value
        if not self.bot_permissions & allowed:
            raise ApiError(403, 50013, "Missing Permissions")
        body = record.body if isinstance(record.body, dict) else {}
        return self.scheduled.create(self.next_id(), self.guild_id, self.bot_user.payload(), body)

    @property
    def scheduled_events(self) -> list[JSON]:
        """The guild's scheduled events (not those deleted by hand), oldest first."""
        return list(self.scheduled.events.values())

    def _edit_scheduled_event(self, record: Request, p: dict[str, str]) -> JSON:
        """Edit a scheduled event as Discord allows (its time, its status)."""
        body = record.body if isinstance(record.body, dict) else {}
        return self.scheduled.edit(int(p["guild_id"]), int(p["event_id"]), body)

    def _no_content(self, record: Request, p: dict[str, str]) -> None:
        return None

    def _new_message(
        self,
        body: Mapping[str, Any],
        *,
        channel_id: int | None = None,
        visible_to: int | None = None,
        loading: bool = False,
        interaction: Interaction | None = None,
    ) -> Message:
        mid = self.next_id()
        cid = channel_id if channel_id is not None else self.channel_id
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)
        flags |= (EPHEMERAL if visible_to is not None else 0) | (LOADING if loading else 0)
        payload = payloads.message(
            mid,
            channel_id=cid,
            guild_id=self.guild_id,
            author=self.bot_user.payload(),
            body=body,
            flags=flags,
        )
        if interaction is not None:
            payloads.answer_to_interaction(
                payload,
                application_id=self.application_id,
                interaction_id=interaction.id,
                itype=interaction.type,
                user_data=interaction.user.payload(),
                guild_id=self.guild_id,
            )
        message = Message(
            mid,
            cid,
            payload,
            visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            version=self.version + 1,
            times=[asyncio.get_running_loop().time()],
        )
        self.messages[mid] = message
        self._touch()
        return message

    def _edit(self, message: Message, body: Mapping[str, Any]) -> None:
        message.history.append(copy.deepcopy(message.payload))
        payloads.edit_message(message.payload, body)
        message.times.append(asyncio.get_running_loop().time())
        message.version = self.version + 1
        self._touch()


class _RefusedError(Exception):
    """A payload Discord refuses: the status and JSON body of its answer."""

    def __init__(self, status: int, body: JSON) -> None:
        super().__init__(str(status))
        self.status = status
        self.body = body


class _RateLimitedError(Exception):
    """A 429: its JSON body and headers."""

    def __init__(self, body: JSON, headers: dict[str, str]) -> None:
        super().__init__("429")
        self.body = body
        self.headers = headers


def _json(status: int, data: Any, headers: Mapping[str, str] | None = None) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json``."""
    if status == 204:
        return web.Response(status=204, headers=dict(headers or {}))
    body = json.dumps(data).encode()
    all_headers = {**(headers or {}), "Content-Type": "application/json"}
    return web.Response(status=status, body=body, headers=all_headers)


async def _file_sizes(request: web.Request) -> list[tuple[str, int]]:
    """The name and size of each file a multipart request uploads."""
    if not request.content_type.startswith("multipart/"):
        return []
    sizes = []
    for value in (await request.post()).values():
        if isinstance(value, web.FileField):
            value.file.seek(0, 2)
            sizes.append((value.filename, value.file.tell()))
    return sizes


async def _read_body(request: web.Request) -> Any:
    """The JSON body of a request; for a multipart one, its ``payload_json`` part."""
    if not request.can_read_body:
        return None
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        return json.loads(str(raw)) if raw is not None else None
    text = await request.text()
    return json.loads(text) if text else None


def _fill(interaction: Interaction, body: JSON) -> None:
    """A deferred interaction's answer came (a follow-up or an edit of ``@original``)."""
    if not interaction.filled.is_set():
        interaction.answer = copy.deepcopy(body)
    interaction.filled.set()
