"""Layer-2 test harness: run the real discord.py machinery offline.

The harness takes a real ``discord.ext.commands.Bot`` (or any ``discord.Client``),
logs it in against a fake Discord that lives in this module, fakes the gateway
READY, builds guilds/channels/members from GUILD_CREATE payloads, and feeds raw
INTERACTION_CREATE payloads to the connection state's parser exactly as the
gateway does. The real command tree, checks, views, dynamic items, modals and
error handlers run. Every HTTP call discord.py makes is recorded in
:attr:`Harness.sent` and answered offline with realistic JSON; an unknown route
fails the test loudly. Each interaction call waits until every task the
dispatch spawned (and their children) has finished, so tests need no sleeps.

Quick tour::

    async with Harness(bot) as h:                     # enters the bot, logs in, READY
        g = h.guild(members=[("alice", {"manage_guild": True}), "bob"])
        alice, bob = g.member("alice"), g.member("bob")
        r = await h.slash(alice, "euchre new", {"points": 10}, channel=g.channel)
        r.ephemeral, r.content, r.embeds, r.components, r.button("Join")
        msg = h.last_public_message(g.channel)
        r2 = await h.click(bob, msg, label="Join")
        h.sent                                        # every recorded HTTP call
        h.public_payloads()                           # every body others could see

Also: ``h.autocomplete(...)`` (``r.choices``), ``h.select(...)``,
``h.submit_modal(...)``, ``h.dispatch(raw_payload)`` with ``h.build_slash`` /
``h.build_component`` / ``h.build_modal_submit``, ``h.gateway(event, data)``,
``h.add_message(...)`` (a message from before a restart), ``h.route(...)`` and
``h.fail_http(...)`` to answer or fail a route, ``h.settle()``.

Each interaction call raises (a :class:`HarnessError` subclass) when the bot logged
an ERROR (unless ``allow_errors=True``), called a route the fake Discord does not
know, never acknowledged the interaction (unless ``expect_response=False``) or did
not finish within ``settle_timeout``. It also refuses what Discord would refuse:
clicking a disabled or missing component, someone else's ephemeral message, an
option out of range, a command hidden by ``default_permissions``.

Private discord.py surface touched (all of it is in this file; written against
discord.py 2.7.1, and the import fails unless discord.py is 2.7.x):

* ``bot._connection`` (the ConnectionState): its ``parsers`` table is how gateway
  events are fed; ``guild_ready_timeout`` is set to 0 while READY is processed;
  for an ``AutoShardedClient``, ``shard_ids`` / ``shard_count`` are set (normally
  done by ``launch_shards``).
* ``discord.webhook.async_.async_context`` (ContextVar holding the webhook
  adapter every interaction response goes through) is set to a recording
  adapter; the default adapter instance's ``request`` is also redirected, so a
  context that does not see the variable still cannot reach the network.
* instance attributes on ``bot.http`` (``request``, ``get_from_cdn``,
  ``ws_connect``, ``connector``) are replaced for the harness' lifetime and
  restored afterwards.
* the event loop's task factory is wrapped to know which tasks a dispatch spawned.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import enum
import itertools
import json
import logging
import re
import traceback
import urllib.parse
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, TypeAlias, cast

import aiohttp
import discord
from discord import app_commands
from discord.http import Route
from discord.webhook import async_ as webhook_async

if (discord.version_info.major, discord.version_info.minor) != (2, 7):  # pragma: no cover
    raise RuntimeError(
        f"tests/harness.py was written against discord.py 2.7 and touches its internals; "
        f"found discord.py {discord.__version__}. Re-check every private access listed in "
        f"the module docstring against the new source, then update this guard."
    )

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "EPHEMERAL",
    "ComponentData",
    "FakeGuild",
    "FakeMember",
    "Harness",
    "HarnessError",
    "HarnessTimeoutError",
    "MemberSpec",
    "NoResponseError",
    "Result",
    "Sent",
    "StoredMessage",
    "UnexpectedRequestError",
    "find_component",
    "find_components",
    "is_ephemeral",
    "visible_text",
    "walk_components",
]

JSON: TypeAlias = dict[str, Any]
log = logging.getLogger(__name__)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

DEFAULT_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    create_instant_invite=True,
    change_nickname=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_external_stickers=True,
    read_message_history=True,
    use_application_commands=True,
    connect=True,
    speak=True,
    stream=True,
    use_voice_activation=True,
)
"""What @everyone may do in a fresh Discord server (the harness' default)."""

DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    DEFAULT_EVERYONE_PERMISSIONS.value
    | discord.Permissions(manage_messages=True, manage_threads=True).value
)
"""The bot's own permissions unless ``h.guild(bot_permissions=...)`` says otherwise."""

# Interaction callback types (discord.InteractionResponseType values).
_PONG, _MESSAGE, _DEFER, _DEFER_UPDATE, _UPDATE, _AUTOCOMPLETE, _MODAL = 1, 4, 5, 6, 7, 8, 9

_MESSAGE_KINDS = frozenset(
    {
        "response",
        "update",
        "followup",
        "edit_original",
        "edit_followup",
        "channel_send",
        "channel_edit",
    }
)
_INTERACTION_KINDS = frozenset(
    {
        "response",
        "defer",
        "defer_update",
        "update",
        "autocomplete",
        "modal",
        "pong",
        "followup",
        "edit_original",
        "edit_followup",
        "get_original",
        "get_followup",
        "delete_original",
        "delete_followup",
    }
)


# --------------------------------------------------------------------------- errors


class HarnessError(AssertionError):
    """Something a test should fail on: the bot misbehaved or the test asked the impossible."""


class UnexpectedRequestError(HarnessError):
    """discord.py made an HTTP call the fake Discord does not know (nothing reaches the network)."""


class NoResponseError(HarnessError):
    """An interaction was never acknowledged (Discord would show "This interaction failed")."""


class HarnessTimeoutError(HarnessError):
    """Tasks spawned by a dispatch did not finish within the settle timeout."""


# --------------------------------------------------------------------------- payload helpers


def is_ephemeral(obj: int | Mapping[str, Any] | Sent | StoredMessage | None) -> bool:
    """Whether ``flags & 64`` is set: accepts an int, a message/response dict, Sent or message."""
    if obj is None:
        return False
    if isinstance(obj, Sent | StoredMessage):
        return obj.ephemeral
    if isinstance(obj, int):
        return bool(obj & EPHEMERAL)
    data = obj.get("data") if "type" in obj and isinstance(obj.get("data"), Mapping) else obj
    return bool(int((data or {}).get("flags") or 0) & EPHEMERAL)


def walk_components(components: Iterable[Mapping[str, Any]] | None) -> Iterator[JSON]:
    """Yield every component dict, depth first, including rows/containers and accessories."""
    for comp in components or ():
        yield cast(JSON, comp)
        yield from walk_components(comp.get("components"))
        for key in ("component", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, Mapping):
                yield from walk_components([inner])


def find_components(
    components: Iterable[Mapping[str, Any]] | None,
    *,
    custom_id: str | None = None,
    label: str | None = None,
    type: int | Iterable[int] | None = None,
) -> list[ComponentData]:
    """Every component matching all of the given criteria (``label`` also matches placeholders)."""
    types = {type} if isinstance(type, int) else set(type) if type is not None else None
    found: list[ComponentData] = []
    for comp in walk_components(components):
        if types is not None and comp.get("type") not in types:
            continue
        if custom_id is not None and comp.get("custom_id") != custom_id:
            continue
        if label is not None and label not in (comp.get("label"), comp.get("placeholder")):
            continue
        if comp.get("type") in (1, 17, 9, 18) and custom_id is None and label is None:
            continue  # layout components only match on an explicit type
        found.append(ComponentData(comp))
    return found


def find_component(
    components: Iterable[Mapping[str, Any]] | None,
    *,
    custom_id: str | None = None,
    label: str | None = None,
    type: int | Iterable[int] | None = None,
) -> ComponentData:
    """The single matching component; raises :class:`LookupError` listing what exists."""
    comps = list(components or ())
    found = find_components(comps, custom_id=custom_id, label=label, type=type)
    if len(found) == 1:
        return found[0]
    available = [
        f"type={c.get('type')} label={c.get('label')!r} custom_id={c.get('custom_id')!r}"
        for c in walk_components(comps)
        if c.get("type") not in (1, 17)
    ]
    what = f"custom_id={custom_id!r} label={label!r} type={type!r}"
    problem = "no component" if not found else f"{len(found)} components"
    raise LookupError(f"{problem} matching {what}; available: {available}")


def visible_text(data: Mapping[str, Any] | None) -> str:
    """All text a user could read in a message payload: content, embeds and component labels."""
    if not data:
        return ""
    parts: list[str] = []

    def add(value: Any) -> None:
        if isinstance(value, str) and value:
            parts.append(value)

    add(data.get("content"))
    add(data.get("name"))  # thread / channel names
    for embed in data.get("embeds") or ():
        for key in ("title", "description", "url"):
            add(embed.get(key))
        for key in ("author", "footer", "provider"):
            sub = embed.get(key) or {}
            add(sub.get("name"))
            add(sub.get("text"))
        for fld in embed.get("fields") or ():
            add(fld.get("name"))
            add(fld.get("value"))
    for comp in walk_components(data.get("components")):
        for key in ("label", "placeholder", "content", "value", "title", "description"):
            add(comp.get(key))
        emoji = comp.get("emoji") or {}
        add(emoji.get("name"))
        for opt in comp.get("options") or ():
            add(opt.get("label"))
            add(opt.get("description"))
            add((opt.get("emoji") or {}).get("name"))
    for choice in data.get("choices") or ():
        add(choice.get("name"))
    add(data.get("title"))
    return "\n".join(parts)


class ComponentData(Mapping[str, Any]):
    """A component dict from a payload, with attribute access for the common keys."""

    __slots__ = ("raw",)

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw: JSON = cast(JSON, raw)

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)

    def __repr__(self) -> str:
        return f"ComponentData({self.raw!r})"

    @property
    def type(self) -> int:
        return int(self.raw["type"])

    @property
    def custom_id(self) -> str | None:
        return self.raw.get("custom_id")

    @property
    def label(self) -> str | None:
        return self.raw.get("label")

    @property
    def disabled(self) -> bool:
        return bool(self.raw.get("disabled", False))

    @property
    def style(self) -> int | None:
        return self.raw.get("style")

    @property
    def url(self) -> str | None:
        return self.raw.get("url")

    @property
    def emoji(self) -> str | None:
        return (self.raw.get("emoji") or {}).get("name")

    @property
    def placeholder(self) -> str | None:
        return self.raw.get("placeholder")

    @property
    def options(self) -> list[JSON]:
        return list(self.raw.get("options") or [])


class _HasComponents:
    """Query helpers shared by recorded payloads and stored messages."""

    @property
    def data(self) -> JSON:
        raise NotImplementedError

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def embed_objects(self) -> list[discord.Embed]:
        return [discord.Embed.from_dict(e) for e in self.embeds]

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def text(self) -> str:
        """All user-readable text (content, embeds, labels): see :func:`visible_text`."""
        return visible_text(self.data)

    def dump(self) -> str:
        """The payload as JSON text, for scanning everything that was sent (custom_ids too)."""
        return json.dumps(self.data, sort_keys=True, default=str)

    @property
    def buttons(self) -> list[ComponentData]:
        return find_components(self.components, type=2)

    def component(
        self,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        type: int | Iterable[int] | None = None,
    ) -> ComponentData:
        return find_component(self.components, custom_id=custom_id, label=label, type=type)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> ComponentData:
        """The button with this label (or custom_id); raises LookupError listing the others."""
        return find_component(self.components, custom_id=custom_id, label=label, type=2)

    def select(
        self, placeholder: str | None = None, *, custom_id: str | None = None
    ) -> ComponentData:
        return find_component(
            self.components, custom_id=custom_id, label=placeholder, type=(3, 5, 6, 7, 8)
        )


# --------------------------------------------------------------------------- records


@dataclass(eq=False)
class Sent(_HasComponents):
    """One recorded HTTP call discord.py made (REST or webhook), with what was answered.

    ``kind`` is one of: ``response`` (callback 4), ``defer`` (5), ``defer_update`` (6),
    ``update`` (7), ``autocomplete`` (8), ``modal`` (9), ``pong``, ``followup``,
    ``edit_original``, ``edit_followup``, ``get_original``, ``get_followup``,
    ``delete_original``, ``delete_followup``, ``channel_send``, ``channel_edit``,
    ``channel_delete``, ``fetch_message``, ``thread_create``, ``sync_commands``, ``login``,
    or ``rest`` (any other known route). ``body`` is the JSON sent (for callbacks the
    whole ``{"type", "data"}``); :attr:`data` is the message part of it.
    """

    seq: int
    kind: str
    method: str
    path: str
    url: str
    body: JSON | list[Any] | None
    params: JSON = field(default_factory=dict)
    path_params: dict[str, str] = field(default_factory=dict)
    channel_id: int | None = None
    message_id: int | None = None
    interaction_id: int | None = None
    user_id: int | None = None
    response_type: int | None = None
    visible_to: int | None = None
    """None when everyone in the channel can see it; else the only user who can."""
    files: list[tuple[str, bytes]] = field(default_factory=list)
    answer: Any = None
    status: int = 200

    @property
    def data(self) -> JSON:
        body = self.body
        if not isinstance(body, dict):
            return {}
        if self.kind in ("response", "defer", "update", "autocomplete", "modal"):
            return cast(JSON, body.get("data") or {})
        return body

    @property
    def public(self) -> bool:
        """Everyone in the channel can see this (not ephemeral, not a DM, not a modal)."""
        return self.visible_to is None

    @property
    def ephemeral(self) -> bool:
        """Only the interaction user can see it (ephemeral flag, inherited from a defer)."""
        return self.visible_to is not None and self.kind in _INTERACTION_KINDS

    @property
    def is_message(self) -> bool:
        """Carries message content (a response, update, follow-up or channel message)."""
        return self.kind in _MESSAGE_KINDS

    def __repr__(self) -> str:
        where = f" channel={self.channel_id}" if self.channel_id else ""
        vis = " ephemeral" if self.ephemeral else "" if self.public else " private"
        return (
            f"<Sent #{self.seq} {self.kind} {self.method} {self.path}{where}{vis}"
            f" content={self.content!r}>"
        )


@dataclass(eq=False)
class StoredMessage(_HasComponents):
    """A message as the fake Discord holds it now (after every edit)."""

    id: int
    channel_id: int
    guild_id: int | None
    payload: JSON
    visible_to: int | None = None
    interaction_id: int | None = None
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)
    """Every earlier version of :attr:`payload`, oldest first."""
    updated_seq: int = 0

    @property
    def data(self) -> JSON:
        return self.payload

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def public(self) -> bool:
        return self.visible_to is None

    @property
    def edited(self) -> bool:
        return bool(self.history)

    def __repr__(self) -> str:
        vis = " ephemeral" if self.ephemeral else ""
        dead = " deleted" if self.deleted else ""
        return f"<StoredMessage id={self.id} channel={self.channel_id}{vis}{dead} {self.content!r}>"


class Result:
    """What one dispatched interaction produced, once all of its handlers finished."""

    def __init__(self, dispatch: _Dispatch, harness: Harness) -> None:
        self._d = dispatch
        self._h = harness
        self.interaction_id: int = dispatch.interaction_id or 0
        self.payload: JSON = dispatch.payload or {}
        self.interaction: discord.Interaction[Any] | None = dispatch.interaction
        """The real ``discord.Interaction`` (when the bot supports ``add_listener``)."""
        self.sent: list[Sent] = list(dispatch.sent)
        """Every HTTP call made while handling it (interaction replies and REST calls)."""
        self.errors: list[logging.LogRecord] = list(dispatch.errors)
        """ERROR log records emitted while handling it (raised unless ``allow_errors``)."""

    @property
    def replies(self) -> list[Sent]:
        """Message-bearing answers bound to this interaction, in order."""
        return [
            s
            for s in self.sent
            if s.interaction_id == self.interaction_id and s.is_message and s.status < 300
        ]

    @property
    def response(self) -> Sent | None:
        """The interaction callback (the initial response), if any."""
        kinds = ("response", "defer", "defer_update", "update", "autocomplete", "modal", "pong")
        for s in self.sent:
            if s.interaction_id == self.interaction_id and s.kind in kinds and s.status < 300:
                return s
        return None

    @property
    def response_type(self) -> discord.InteractionResponseType | None:
        resp = self.response
        if resp is None or resp.response_type is None:
            return None
        return discord.InteractionResponseType(resp.response_type)

    @property
    def responded(self) -> bool:
        return self.response is not None

    @property
    def deferred(self) -> bool:
        return self.response_type in (
            discord.InteractionResponseType.deferred_channel_message,
            discord.InteractionResponseType.deferred_message_update,
        )

    @property
    def reply(self) -> Sent:
        """The first message-bearing answer; AssertionError when there is none."""
        replies = self.replies
        if not replies:
            raise HarnessError(f"interaction got no message reply; recorded: {self.sent!r}")
        return replies[0]

    @property
    def last_reply(self) -> Sent:
        replies = self.replies
        if not replies:
            raise HarnessError(f"interaction got no message reply; recorded: {self.sent!r}")
        return replies[-1]

    @property
    def followups(self) -> list[Sent]:
        return [s for s in self.replies if s.kind == "followup"]

    @property
    def channel_messages(self) -> list[Sent]:
        """Messages sent or edited through the REST API (``channel.send``, ``message.edit``)."""
        return [s for s in self.sent if s.kind in ("channel_send", "channel_edit")]

    @property
    def content(self) -> str:
        return self.reply.content

    @property
    def embeds(self) -> list[JSON]:
        return self.reply.embeds

    @property
    def components(self) -> list[JSON]:
        return self.reply.components

    @property
    def ephemeral(self) -> bool:
        return self.reply.ephemeral

    @property
    def text(self) -> str:
        return self.reply.text

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> ComponentData:
        return self.reply.button(label, custom_id=custom_id)

    @property
    def message(self) -> StoredMessage:
        """The current state of the reply's message."""
        mid = self.reply.message_id
        if mid is None:
            raise HarnessError(f"reply {self.reply!r} is not bound to a message")
        return self._h.message(mid)

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices answered (``[{"name", "value"}, ...]``)."""
        resp = self.response
        if resp is None or resp.kind != "autocomplete":
            raise HarnessError(f"no autocomplete answer; recorded: {self.sent!r}")
        return list(resp.data.get("choices") or [])

    @property
    def modal(self) -> Sent:
        """The modal sent in response (use with :meth:`Harness.submit_modal`)."""
        resp = self.response
        if resp is None or resp.kind != "modal":
            raise HarnessError(f"no modal was sent; recorded: {self.sent!r}")
        return resp

    def __repr__(self) -> str:
        return f"<Result interaction={self.interaction_id} sent={self.sent!r}>"


# --------------------------------------------------------------------------- world


@dataclass(frozen=True)
class MemberSpec:
    """How to create a member: name, extra permissions (on top of @everyone), optional id."""

    name: str
    permissions: Mapping[str, bool] | discord.Permissions | None = None
    id: int | None = None
    bot: bool = False
    nick: str | None = None


MemberLike: TypeAlias = (
    str | MemberSpec | tuple[str, Mapping[str, bool] | discord.Permissions | None]
)


@dataclass(eq=False)
class FakeMember:
    """A member of a :class:`FakeGuild`, known to the fake Discord."""

    id: int
    name: str
    guild: FakeGuild
    role_ids: list[int]
    bot: bool = False
    nick: str | None = None
    joined_at: str = ""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.nick or self.name

    @property
    def permissions(self) -> discord.Permissions:
        """Guild-level permissions: owner and administrator get everything."""
        return self.guild.permissions_for(self)

    def user_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, permissions: bool = False, user: bool = True) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": self.nick,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if user:
            data["user"] = self.user_payload()
        if permissions:
            data["permissions"] = str(self.permissions.value)
        return data

    def discord_member(self) -> discord.Member:
        """A real ``discord.Member`` bound to the bot's guild object."""
        guild = self.guild.guild
        cached = guild.get_member(self.id)
        if cached is not None:
            return cached
        state = self.guild.harness._state
        return discord.Member(data=cast(Any, self.member_payload()), guild=guild, state=state)

    def __repr__(self) -> str:
        return f"<FakeMember {self.name} id={self.id} guild={self.guild.name!r}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild the harness created (and announced to the bot with GUILD_CREATE)."""

    harness: Harness
    id: int
    name: str
    owner_id: int
    everyone: discord.Permissions
    roles: list[JSON] = field(default_factory=list)
    channel_ids: dict[str, int] = field(default_factory=dict)
    members: dict[str, FakeMember] = field(default_factory=dict)
    me: FakeMember | None = None

    @property
    def guild(self) -> discord.Guild:
        """The bot's real ``discord.Guild`` object."""
        guild = self.harness.bot.get_guild(self.id)
        if guild is None:
            raise HarnessError(f"the bot does not know guild {self.id}")
        return guild

    @property
    def channels(self) -> dict[str, discord.TextChannel]:
        """The bot's real text channels, by name."""
        return {name: self._text_channel(cid) for name, cid in self.channel_ids.items()}

    @property
    def channel(self) -> discord.TextChannel:
        """The first text channel."""
        return self._text_channel(next(iter(self.channel_ids.values())))

    def _text_channel(self, channel_id: int) -> discord.TextChannel:
        channel = self.guild.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise HarnessError(f"channel {channel_id} is not a text channel the bot knows")
        return channel

    def member(self, name: str) -> FakeMember:
        try:
            return self.members[name]
        except KeyError:
            raise LookupError(f"no member {name!r}; members: {sorted(self.members)}") from None

    def role_permissions(self, role_id: int) -> int:
        for role in self.roles:
            if int(role["id"]) == role_id:
                return int(role["permissions"])
        return 0

    def permissions_for(self, member: FakeMember) -> discord.Permissions:
        if member.id == self.owner_id:
            return discord.Permissions.all()
        value = self.everyone.value
        for rid in member.role_ids:
            value |= self.role_permissions(rid)
        perms = discord.Permissions(value)
        return discord.Permissions.all() if perms.administrator else perms

    def add_member(self, spec: MemberLike) -> FakeMember:
        """Add a member and feed GUILD_MEMBER_ADD to the bot."""
        member = self.harness._make_member(self, spec)
        payload = member.member_payload()
        payload["guild_id"] = str(self.id)
        self.harness.gateway("GUILD_MEMBER_ADD", payload)
        return member

    def add_channel(self, name: str) -> discord.TextChannel:
        """Add a text channel and feed CHANNEL_CREATE to the bot."""
        payload = self.harness._make_channel(self, name)
        self.harness.gateway("CHANNEL_CREATE", payload)
        return self._text_channel(int(payload["id"]))

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id} members={sorted(self.members)}>"


# --------------------------------------------------------------------------- machinery


@dataclass(eq=False)
class _Dispatch:
    """One unit of work whose spawned tasks the harness tracks (an interaction, READY...)."""

    label: str
    interaction_id: int | None = None
    payload: JSON | None = None
    interaction: discord.Interaction[Any] | None = None
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    errors: list[logging.LogRecord] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)


@dataclass(eq=False)
class _InteractionState:
    """What the fake Discord knows about one interaction token."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    dispatch: _Dispatch
    message_id: int | None = None  # the message a component/modal came from
    response_type: int | None = None
    original_id: int | None = None
    deferred_pending: bool = False
    deferred_ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)


class _OfflineConnector(aiohttp.BaseConnector):
    """An aiohttp connector that refuses to open any connection."""

    attempts = 0

    async def connect(self, req: Any, traces: Any, timeout: Any) -> Any:
        type(self).attempts += 1
        raise UnexpectedRequestError(f"network access attempted: {req.method} {req.url}")


class _RecordingAdapter(webhook_async.AsyncWebhookAdapter):
    """The webhook adapter every interaction response goes through, answered offline."""

    def __init__(self, harness: Harness) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._harness = harness

    async def request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: JSON | None = None,
        multipart: list[JSON] | None = None,
        proxy: Any = None,
        proxy_auth: Any = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: JSON | None = None,
    ) -> Any:
        return await self._harness._handle_http(
            route, payload=payload, multipart=multipart, files=files, params=params, webhook=True
        )


class _LogCapture(logging.Handler):
    def __init__(self, harness: Harness) -> None:
        super().__init__(level=logging.ERROR)
        self._harness = harness

    def emit(self, record: logging.LogRecord) -> None:
        self._harness._on_log_error(record)


_BACKGROUND_QUALNAMES = (
    "BaseView.__timeout_task_impl",  # a view's timeout timer
    ".<locals>.inner_call",  # delete_after= timers on interaction responses
    "Message.delete.<locals>.delete",  # message.delete(delay=...)
)


def default_background(task: asyncio.Task[Any]) -> bool:
    """Tasks that wait on a timer by design; dispatches do not wait for them."""
    qualname = getattr(task.get_coro(), "__qualname__", "")
    return any(qualname.endswith(q) for q in _BACKGROUND_QUALNAMES)


def _describe_task(task: asyncio.Task[Any]) -> str:
    """Name a task and where it is waiting (the innermost awaited coroutine)."""
    coro: Any = task.get_coro()
    where: list[str] = []
    while coro is not None and hasattr(coro, "cr_frame"):
        frame = coro.cr_frame
        if frame is not None:
            where.append(f"{frame.f_code.co_name} ({frame.f_code.co_filename}:{frame.f_lineno})")
        coro = getattr(coro, "cr_await", None)
    chain = " -> ".join(where[-3:])
    return f"{task.get_name()}: {chain or task.get_coro()!r}"


def _clone(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than deepcopy.

    Anything else is handed to ``copy.deepcopy``.
    """
    kind = type(value)
    if kind is dict:
        return {k: _clone(v) for k, v in value.items()}
    if kind is list:
        return [_clone(v) for v in value]
    if kind in (str, int, float, bool, type(None)):
        return value
    if kind is tuple:
        return tuple(_clone(v) for v in value)
    return copy.deepcopy(value)


def _now_iso() -> str:
    return discord.utils.utcnow().isoformat()


def _snowflake_str(value: Any) -> str:
    return str(getattr(value, "id", value))


def _merge_message(payload: JSON, body: Mapping[str, Any]) -> None:
    """Apply an edit body to a stored message payload, the way Discord does."""
    for key in ("content", "embeds", "components", "attachments", "allowed_mentions"):
        if key in body:
            value = body[key]
            if key == "content":
                value = value or ""
            elif key != "allowed_mentions":
                value = _clone(value) if value is not None else []
            payload[key] = value
    if "flags" in body and body["flags"] is not None:
        keep = int(payload.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2)
        payload["flags"] = (int(body["flags"]) & ~(LOADING | EPHEMERAL)) | keep
    payload["flags"] = int(payload.get("flags") or 0) & ~LOADING
    payload["edited_timestamp"] = _now_iso()


def _error(status: int, code: int, message: str) -> discord.HTTPException:
    response = cast(Any, SimpleNamespace(status=status, reason=message))
    body = {"code": code, "message": message}
    if status == 403:
        return discord.Forbidden(response, body)
    if status == 404:
        return discord.NotFound(response, body)
    if status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)


_PATH_PARAM = re.compile(r"\{(\w+)\}")


def _match_path(template: str, url: str) -> dict[str, str]:
    pattern = "".join(
        f"(?P<{part}>[^/]+)" if i % 2 else re.escape(part)
        for i, part in enumerate(_PATH_PARAM.split(template))
    )
    path = urllib.parse.urlsplit(url).path
    found = re.search(pattern + "$", path)
    return {k: urllib.parse.unquote(v) for k, v in found.groupdict().items()} if found else {}


HttpHandler: TypeAlias = Callable[[Sent], Any]


@dataclass
class _Failure:
    method: str
    path: str
    status: int
    code: int
    message: str
    times: int


# --------------------------------------------------------------------------- the harness

_ACTIVE: list[Harness] = []


class Harness:
    """Run a real discord.py bot against an offline fake Discord. See the module docstring.

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
        settle_timeout: float = 5.0,
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
        """Every ERROR log record emitted while the harness was active."""
        self.synced_commands: dict[int | None, list[JSON]] = {}
        """Commands the bot synced (``tree.sync``), by guild id (None = global)."""
        self.handlers: dict[tuple[str, str], HttpHandler] = {}
        self._failures: list[_Failure] = []
        self._channels: dict[int, JSON] = {}
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
        self._adapter = _RecordingAdapter(self)
        self._adapter_token: contextvars.Token[webhook_async.AsyncWebhookAdapter] | None = None
        self._log_capture = _LogCapture(self)
        self._interaction_listener: Callable[[discord.Interaction[Any]], Awaitable[None]] | None
        self._interaction_listener = None

    # ------------------------------------------------------------------ lifecycle

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

    async def _run_owned(self, owner: _Dispatch, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run a coroutine in a task owned by ``owner`` (its logs and calls are attributed)."""
        self._dispatching = owner
        try:
            task = asyncio.ensure_future(coro)
        finally:
            self._dispatching = None
        return await task

    async def _ready(self) -> _Dispatch:
        state = self._state
        saved_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = 0.0
        shard_count = 1
        if hasattr(state, "shard_ids"):  # AutoShardedConnectionState (launch_shards does this)
            client = cast(Any, self.bot)
            shard_count = client.shard_count or 1
            client.shard_count = shard_count
            state.shard_count = shard_count
            cast(Any, state).shard_ids = list(client.shard_ids or range(shard_count))
            shard_ids = list(cast(Any, state).shard_ids)
        else:
            shard_ids = [0]
        ready = _Dispatch("READY")
        try:
            for shard_id in shard_ids:
                self._feed(
                    ready,
                    "READY",
                    {
                        "v": 10,
                        "user": {**self.bot_user_payload(), "verified": True, "mfa_enabled": False},
                        "guilds": [],
                        "session_id": "harness-session",
                        "resume_gateway_url": "wss://gateway.invalid",
                        "shard": [shard_id, shard_count],
                        "application": {"id": str(self.application_id), "flags": 0},
                    },
                )
            await asyncio.wait_for(self.bot.wait_until_ready(), self.settle_timeout)
            await self._settle([ready])
        finally:
            state.guild_ready_timeout = saved_timeout
        return ready

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

    def _install(self) -> None:
        loop = asyncio.get_running_loop()
        # 1. know which tasks each dispatch spawns
        previous_factory = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
            task: asyncio.Task[Any]
            if previous_factory is not None:
                task = cast(asyncio.Task[Any], previous_factory(loop, coro, **kwargs))
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            owner = self._dispatching
            if owner is None:
                parent = asyncio.current_task(loop)
                owner = self._owners.get(parent) if parent is not None else None
            if owner is not None:
                self._owners[task] = owner
                owner.tasks.append(task)
            return task

        loop.set_task_factory(factory)
        self._restore.append(lambda: loop.set_task_factory(previous_factory))

        # 2. capture ERROR logs
        root = logging.getLogger()
        root.addHandler(self._log_capture)
        self._restore.append(lambda: root.removeHandler(self._log_capture))
        _ACTIVE.append(self)
        self._restore.append(lambda: _ACTIVE.remove(self))

        # 3. REST: every bot.http call is answered here; the session cannot connect
        http = cast(Any, self.bot.http)
        saved_connector = http.connector

        async def request(route: Route, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
            return await self._handle_http(route, files=files, form=form, **kw)

        async def no_network(*args: Any, **kwargs: Any) -> Any:
            raise UnexpectedRequestError(f"network access attempted: {args!r}")

        http.request = request
        http.get_from_cdn = no_network
        http.ws_connect = no_network
        http.connector = _OfflineConnector()

        def undo_http() -> None:
            for name in ("request", "get_from_cdn", "ws_connect"):
                http.__dict__.pop(name, None)
            http.connector = saved_connector

        self._restore.append(undo_http)

        # 4. webhooks: the adapter every interaction response goes through
        self._adapter_token = webhook_async.async_context.set(self._adapter)
        default_adapter = contextvars.Context().run(webhook_async.async_context.get)
        saved_request = default_adapter.__dict__.get("request")  # set by an enclosing harness
        cast(Any, default_adapter).request = self._adapter.request

        def undo_adapter() -> None:
            if saved_request is None:
                cast(Any, default_adapter).__dict__.pop("request", None)
            else:
                cast(Any, default_adapter).request = saved_request
            token, self._adapter_token = self._adapter_token, None
            if token is not None:
                try:
                    webhook_async.async_context.reset(token)
                except ValueError:  # closed from another context (e.g. a fixture teardown)
                    old = token.old_value
                    missing = old is contextvars.Token.MISSING
                    webhook_async.async_context.set(default_adapter if missing else old)

        self._restore.append(undo_adapter)

        # 5. see the real Interaction objects
        add_listener = getattr(self.bot, "add_listener", None)
        if add_listener is not None:

            async def on_interaction(interaction: discord.Interaction[Any]) -> None:
                state = self._interactions_by_id.get(interaction.id)
                if state is not None:
                    state.dispatch.interaction = interaction

            self._interaction_listener = on_interaction
            add_listener(on_interaction, "on_interaction")

    @property
    def _state(self) -> Any:
        """The bot's ConnectionState (private in discord.py 2.7: ``Client._connection``)."""
        return self.bot._connection

    # ------------------------------------------------------------------ ids and payloads

    def next_id(self) -> int:
        """A fresh snowflake (monotonic, near the current time)."""
        now = discord.utils.time_snowflake(discord.utils.utcnow())
        self._last_snowflake = max(self._last_snowflake + 1, now)
        return self._last_snowflake

    def bot_user_payload(self) -> JSON:
        return {
            "id": str(self.bot_id),
            "username": self.bot_name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "public_flags": 0,
            "flags": 0,
        }

    def _owner_payload(self) -> JSON:
        return {
            "id": str(self.owner_id),
            "username": "app-owner",
            "global_name": "App Owner",
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }

    # ------------------------------------------------------------------ world building

    def guild(
        self,
        members: Iterable[MemberLike] = (),
        *,
        name: str = "Test Guild",
        channels: Sequence[str] = ("table",),
        owner: str | None = None,
        everyone: discord.Permissions | Mapping[str, bool] | None = None,
        bot_permissions: discord.Permissions | Mapping[str, bool] | None = None,
        id: int | None = None,
        channel_ids: Mapping[str, int] | None = None,
    ) -> FakeGuild:
        """Create a guild with text channels and members, and feed its GUILD_CREATE.

        ``members``: names, ``(name, {"manage_guild": True})`` pairs or :class:`MemberSpec`;
        permissions are granted through a role on top of ``everyone`` (default
        :data:`DEFAULT_EVERYONE_PERMISSIONS`). ``owner`` names the member who owns the
        guild (all permissions); by default nobody listed does. ``channel_ids`` gives
        some channels known ids (the same guild in a second harness, after a restart).
        """
        if not channels:
            raise ValueError("a guild needs at least one channel")
        gid = id if id is not None else self.next_id()
        everyone_perms = self._perms(everyone, DEFAULT_EVERYONE_PERMISSIONS)
        fake = FakeGuild(self, gid, name, owner_id=self.next_id(), everyone=everyone_perms)
        fake.roles.append(self._role_payload(gid, "@everyone", everyone_perms, position=0))
        bot_perms = self._perms(bot_permissions, DEFAULT_BOT_PERMISSIONS)
        fake.me = self._make_member(
            fake, MemberSpec(self.bot_name, bot_perms, id=self.bot_id, bot=True), register=False
        )
        for member in members:
            self._make_member(fake, member)
        if owner is not None:
            fake.owner_id = fake.member(owner).id
        for channel_name in channels:
            self._make_channel(fake, channel_name, (channel_ids or {}).get(channel_name))
        self.guilds[gid] = fake
        all_members = [*fake.members.values(), fake.me]
        payload: JSON = {
            "id": str(gid),
            "name": name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(fake.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": fake.roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(all_members),
            "voice_states": [],
            "members": [m.member_payload() for m in all_members],
            "channels": [
                {k: v for k, v in self._channels[cid].items() if k != "guild_id"}
                for cid in fake.channel_ids.values()
            ],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
        self.gateway("GUILD_CREATE", payload)
        return fake

    @staticmethod
    def _perms(
        value: discord.Permissions | Mapping[str, bool] | None, default: discord.Permissions
    ) -> discord.Permissions:
        if value is None:
            return discord.Permissions(default.value)
        if isinstance(value, discord.Permissions):
            return value
        if not all(value.values()):
            raise ValueError(
                "permissions are granted through roles and cannot deny @everyone's; "
                "pass everyone=... to change the base"
            )
        return discord.Permissions(**value)

    def _role_payload(
        self, role_id: int, name: str, perms: discord.Permissions, *, position: int
    ) -> JSON:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(perms.value),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def _make_member(
        self, guild: FakeGuild, spec: MemberLike, *, register: bool = True
    ) -> FakeMember:
        if isinstance(spec, str):
            spec = MemberSpec(spec)
        elif isinstance(spec, tuple):
            spec = MemberSpec(spec[0], spec[1])
        if spec.name in guild.members:
            raise ValueError(f"member {spec.name!r} already exists in {guild.name!r}")
        member_id = spec.id if spec.id is not None else self.next_id()
        role_ids: list[int] = []
        if spec.permissions is not None:
            perms = self._perms(spec.permissions, discord.Permissions.none())
            if perms.value:
                role_id = self.next_id()
                guild.roles.append(
                    self._role_payload(
                        role_id, f"{spec.name}-role", perms, position=len(guild.roles)
                    )
                )
                role_ids.append(role_id)
        member = FakeMember(
            member_id,
            spec.name,
            guild,
            role_ids,
            bot=spec.bot,
            nick=spec.nick,
            joined_at=_now_iso(),
        )
        if register:
            guild.members[spec.name] = member
        self._users[member_id] = member
        return member

    def _make_channel(self, guild: FakeGuild, name: str, cid: int | None = None) -> JSON:
        if name in guild.channel_ids:
            raise ValueError(f"channel {name!r} already exists in {guild.name!r}")
        cid = cid if cid is not None else self.next_id()
        payload: JSON = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(guild.id),
            "name": name,
            "position": len(guild.channel_ids),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        guild.channel_ids[name] = cid
        self._channels[cid] = payload
        self._channel_guild[cid] = guild
        return payload

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

    def _feed(self, dispatch: _Dispatch, event: str, data: JSON) -> None:
        parser = self._state.parsers[event]
        self._dispatching = dispatch
        try:
            parser(data)
        finally:
            self._dispatching = None

    # ------------------------------------------------------------------ messages

    def message(self, message: int | StoredMessage | Sent | discord.abc.Snowflake) -> StoredMessage:
        """The stored message with this id (or the one a Sent produced)."""
        if isinstance(message, StoredMessage):
            mid = message.id
        elif isinstance(message, Sent):
            if message.message_id is None:
                raise HarnessError(f"{message!r} did not produce a message")
            mid = message.message_id
        else:
            mid = int(_snowflake_str(message))
        try:
            return self.messages[mid]
        except KeyError:
            raise LookupError(f"the fake Discord has no message {mid}") from None

    def public_messages(self, channel: Any = None) -> list[StoredMessage]:
        """Non-ephemeral, non-deleted messages (of one channel), oldest first."""
        cid = None if channel is None else int(_snowflake_str(channel))
        return [
            m
            for m in self.messages.values()
            if m.public and not m.deleted and (cid is None or m.channel_id == cid)
        ]

    def last_public_message(self, channel: Any = None) -> StoredMessage:
        """The public message (of one channel) most recently sent or edited."""
        found = self.public_messages(channel)
        if not found:
            raise LookupError(f"no public message in channel {channel!r}")
        return max(found, key=lambda m: m.updated_seq)

    def ephemeral_messages(self, user: Any) -> list[StoredMessage]:
        """Messages only ``user`` can see (ephemeral replies, DMs), oldest first."""
        uid = int(_snowflake_str(user))
        return [m for m in self.messages.values() if m.visible_to == uid and not m.deleted]

    def last_ephemeral(self, user: Any) -> StoredMessage:
        """The private message most recently sent to or edited for ``user``."""
        found = self.ephemeral_messages(user)
        if not found:
            raise LookupError(f"no ephemeral message for user {user!r}")
        return max(found, key=lambda m: m.updated_seq)

    def public_payloads(self) -> Iterator[Sent]:
        """Every recorded outgoing body that people other than one user could see."""
        return (s for s in self.sent if s.public and s.body is not None and s.status < 300)

    def ephemeral_payloads(self, user: Any = None) -> Iterator[Sent]:
        """Every recorded body only one user could see (of ``user`` if given)."""
        uid = None if user is None else int(_snowflake_str(user))
        return (
            s
            for s in self.sent
            if not s.public and s.body is not None and (uid is None or s.visible_to == uid)
        )

    def add_message(
        self,
        channel: Any,
        *,
        content: str = "",
        embeds: Sequence[JSON] = (),
        components: Sequence[JSON] = (),
        like: StoredMessage | None = None,
        id: int | None = None,
    ) -> StoredMessage:
        """Put a bot message into a channel as if sent earlier (e.g. before a restart).

        ``like`` copies a message from another harness (same id unless ``id`` is given).
        """
        cid = int(_snowflake_str(channel))
        guild = self._channel_guild.get(cid)
        body: JSON = {"content": content, "embeds": list(embeds), "components": list(components)}
        if like is not None:
            body = _clone(like.payload)
            id = like.id if id is None else id
        stored = self._new_message(cid, guild.id if guild else None, body, message_id=id)
        return stored

    def _new_message(
        self,
        channel_id: int,
        guild_id: int | None,
        body: Mapping[str, Any],
        *,
        visible_to: int | None = None,
        ephemeral: bool = False,
        loading: bool = False,
        interaction: _InteractionState | None = None,
        files: Sequence[tuple[str, bytes]] = (),
        message_id: int | None = None,
    ) -> StoredMessage:
        mid = message_id if message_id is not None else self.next_id()
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)
        if ephemeral:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        payload: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": self.bot_user_payload(),
            "content": body.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(self.next_id()),
                    "filename": name,
                    "size": len(data),
                    "url": f"https://cdn.invalid/attachments/{channel_id}/{name}",
                    "proxy_url": f"https://media.invalid/attachments/{channel_id}/{name}",
                }
                for name, data in files
            ],
            "embeds": _clone(body.get("embeds") or []),
            "components": _clone(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": flags,
        }
        if guild_id is not None:
            payload["guild_id"] = str(guild_id)
        if body.get("message_reference"):
            payload["type"] = 19
            payload["message_reference"] = body["message_reference"]
        if interaction is not None:
            payload["webhook_id"] = str(self.application_id)
            payload["application_id"] = str(self.application_id)
            if interaction.type == 2:
                payload["type"] = 20
            user = self._users.get(interaction.user_id)
            meta: JSON = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user.user_payload() if user else {"id": str(interaction.user_id)},
                "authorizing_integration_owners": (
                    {"0": str(guild_id)} if guild_id else {"1": str(interaction.user_id)}
                ),
            }
            if interaction.message_id is not None:
                meta["interacted_message_id"] = str(interaction.message_id)
            payload["interaction_metadata"] = meta
        stored = StoredMessage(
            mid,
            channel_id,
            guild_id,
            payload,
            visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            updated_seq=next(self._seq),
        )
        self.messages[mid] = stored
        return stored

    def _edit_message(self, stored: StoredMessage, body: Mapping[str, Any]) -> None:
        stored.history.append(_clone(stored.payload))
        _merge_message(stored.payload, body)
        stored.updated_seq = next(self._seq)

    # ------------------------------------------------------------------ HTTP (fake Discord)

    def route(self, method: str, path: str, handler: HttpHandler) -> None:
        """Answer ``method path`` (a discord.py route template) with ``handler(sent)``."""
        self.handlers[(method.upper(), path)] = handler

    def fail_http(
        self,
        method: str,
        path: str,
        *,
        status: int = 403,
        code: int = 50013,
        message: str = "Missing Permissions",
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls to ``method path`` fail with an HTTP error.

        ``path`` is the discord.py route template, e.g. ``/channels/{channel_id}/messages``
        or ``/interactions/{webhook_id}/{webhook_token}/callback``.
        """
        self._failures.append(_Failure(method.upper(), path, status, code, message, times))

    def _current_owner(self) -> _Dispatch:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        owner = self._owners.get(task) if task is not None else None
        return owner or self._root_dispatch

    def _owns_current_task(self) -> bool:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return False
        return task is not None and task in self._owners

    def _on_log_error(self, record: logging.LogRecord) -> None:
        owner = self._current_owner()
        if owner is self._root_dispatch and any(
            other is not self and other._owns_current_task() for other in _ACTIVE
        ):
            return  # another (nested) harness' bot logged it: that harness reports it
        self.errors.append(record)
        owner.errors.append(record)

    async def _handle_http(
        self,
        route: Route,
        *,
        payload: JSON | None = None,
        multipart: list[JSON] | None = None,
        files: Sequence[discord.File] | None = None,
        form: Iterable[JSON] | None = None,
        params: JSON | None = None,
        webhook: bool = False,
        **kwargs: Any,
    ) -> Any:
        body: Any = payload if payload is not None else kwargs.get("json")
        for part in list(multipart or ()) + list(form or ()):
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        recorded_files: list[tuple[str, bytes]] = []
        for f in files or ():
            f.reset()
            raw = f.fp.read()
            f.reset()
            recorded_files.append((f.filename or "file", raw if isinstance(raw, bytes) else b""))
        owner = self._current_owner()
        sent = Sent(
            seq=next(self._seq),
            kind="rest",
            method=route.method,
            path=route.path,
            url=route.url,
            body=_clone(body),
            params=dict(params or kwargs.get("params") or {}),
            path_params=_match_path(route.path, route.url),
            files=recorded_files,
        )
        self.sent.append(sent)
        owner.sent.append(sent)
        for failure in self._failures:
            if failure.times > 0 and (failure.method, failure.path) == (route.method, route.path):
                failure.times -= 1
                sent.status = failure.status
                raise _error(failure.status, failure.code, failure.message)
        try:
            sent.answer = self._answer(sent, webhook=webhook)
        except discord.HTTPException as exc:
            sent.status = exc.status
            raise
        except UnexpectedRequestError as exc:
            sent.status = 599
            owner.unexpected.append(str(exc))
            raise
        await asyncio.sleep(0)  # a real request yields to the loop
        return _clone(sent.answer)

    def _answer(self, sent: Sent, *, webhook: bool) -> Any:
        key = (sent.method, sent.path)
        if key in self.handlers:
            return self.handlers[key](sent)
        p = sent.path_params
        if webhook:
            return self._answer_webhook(sent, p)
        method, path = key
        if key == ("GET", "/users/@me"):
            sent.kind = "login"
            return {**self.bot_user_payload(), "verified": True, "mfa_enabled": False}
        if key == ("GET", "/oauth2/applications/@me"):
            sent.kind = "login"
            return self._application_payload()
        if path.startswith("/channels/{channel_id}"):
            return self._answer_channel(sent, p)
        if path in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            gid = int(p["guild_id"]) if "guild_id" in p else None
            if method == "PUT":
                return self._sync_commands(sent, gid)
            if method == "GET":
                return self.synced_commands.get(gid, [])
        if key == ("POST", "/users/@me/channels"):
            return self._open_dm(sent)
        if key == ("GET", "/users/{user_id}"):
            user = self._users.get(int(p["user_id"]))
            if user is None:
                raise _error(404, 10013, "Unknown User")
            return user.user_payload()
        if key == ("GET", "/guilds/{guild_id}/members/{user_id}"):
            fake_guild = self.guilds.get(int(p["guild_id"]))
            member = self._users.get(int(p["user_id"]))
            if fake_guild is None or member is None or member.guild is not fake_guild:
                raise _error(404, 10007, "Unknown Member")
            return member.member_payload()
        raise UnexpectedRequestError(
            f"the fake Discord has no answer for {method} {path} ({sent.url}); "
            f"add one with harness.route({method!r}, {path!r}, handler)"
        )

    def _application_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot_name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self._owner_payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "interactions_endpoint_url": None,
            "bot": self.bot_user_payload(),
        }

    def _sync_commands(self, sent: Sent, guild_id: int | None) -> list[JSON]:
        sent.kind = "sync_commands"
        answered: list[JSON] = []
        for cmd in cast(list[JSON], sent.body or []):
            cmd_id = self._command_ids.setdefault((guild_id, cmd["name"]), self.next_id())
            data = {
                **cmd,
                "id": str(cmd_id),
                "application_id": str(self.application_id),
                "version": str(self.next_id()),
                "type": cmd.get("type", 1),
                "description": cmd.get("description", ""),
            }
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            answered.append(data)
        self.synced_commands[guild_id] = answered
        return answered

    def _open_dm(self, sent: Sent) -> JSON:
        body = cast(JSON, sent.body or {})
        user_id = int(body["recipient_id"])
        user = self._users.get(user_id)
        if user is None:
            raise _error(400, 50007, "Cannot send messages to this user")
        cid = self._dm_by_user.get(user_id)
        if cid is None:
            cid = self.next_id()
            self._dm_by_user[user_id] = cid
            self._channels[cid] = {
                "id": str(cid),
                "type": 1,
                "last_message_id": None,
                "recipients": [user.user_payload()],
                "flags": 0,
            }
            self._channel_guild[cid] = None
        return _clone(self._channels[cid])

    def _dm_recipient(self, channel_id: int) -> int | None:
        for uid, cid in self._dm_by_user.items():
            if cid == channel_id:
                return uid
        return None

    def _channel_message(self, p: Mapping[str, str]) -> StoredMessage:
        stored = self.messages.get(int(p["message_id"]))
        if stored is None or stored.deleted or stored.channel_id != int(p["channel_id"]):
            raise _error(404, 10008, "Unknown Message")
        if stored.ephemeral:  # ephemeral messages are reachable only through the webhook
            raise _error(404, 10008, "Unknown Message")
        return stored

    def _answer_channel(self, sent: Sent, p: Mapping[str, str]) -> Any:
        cid = int(p["channel_id"])
        sent.channel_id = cid
        if cid not in self._channels:
            raise _error(404, 10003, "Unknown Channel")
        guild = self._channel_guild.get(cid)
        gid = guild.id if guild else None
        sent.visible_to = self._dm_recipient(cid)
        body = cast(JSON, sent.body or {})
        key = (sent.method, sent.path)
        if key == ("POST", "/channels/{channel_id}/messages"):
            sent.kind = "channel_send"
            stored = self._new_message(cid, gid, body, visible_to=sent.visible_to, files=sent.files)
            sent.message_id = stored.id
            self._channels[cid]["last_message_id"] = str(stored.id)
            return stored.payload
        if key == ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
            sent.kind = "channel_edit"
            stored = self._channel_message(p)
            sent.message_id = stored.id
            self._edit_message(stored, body)
            return stored.payload
        if key == ("DELETE", "/channels/{channel_id}/messages/{message_id}"):
            sent.kind = "channel_delete"
            stored = self._channel_message(p)
            sent.message_id = stored.id
            stored.deleted = True
            return None
        if key == ("GET", "/channels/{channel_id}/messages/{message_id}"):
            sent.kind = "fetch_message"
            stored = self._channel_message(p)
            sent.message_id = stored.id
            return stored.payload
        if key == ("GET", "/channels/{channel_id}/messages"):
            limit = int(sent.params.get("limit", 50))
            found = sorted(self.public_messages(cid), key=lambda m: -m.id)
            return [m.payload for m in found[:limit]]
        if key in (
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads"),
            ("POST", "/channels/{channel_id}/threads"),
        ):
            return self._create_thread(sent, cid, guild, body, p.get("message_id"))
        if key == ("GET", "/channels/{channel_id}"):
            return self._channels[cid]
        if key == ("PATCH", "/channels/{channel_id}"):
            channel = self._channels[cid]
            for k, v in body.items():
                if k in ("archived", "locked", "auto_archive_duration", "invitable") and (
                    "thread_metadata" in channel
                ):
                    channel["thread_metadata"][k] = v
                else:
                    channel[k] = v
            return channel
        if key == ("DELETE", "/channels/{channel_id}"):
            return self._channels[cid]
        if key in (
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}"),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}"),
            ("PUT", "/channels/{channel_id}/thread-members/@me"),
            ("DELETE", "/channels/{channel_id}/thread-members/@me"),
            ("POST", "/channels/{channel_id}/typing"),
        ):
            return None
        if sent.path.startswith("/channels/{channel_id}/messages/{message_id}/reactions"):
            return None
        raise UnexpectedRequestError(
            f"the fake Discord has no answer for {sent.method} {sent.path} ({sent.url}); "
            f"add one with harness.route({sent.method!r}, {sent.path!r}, handler)"
        )

    def _create_thread(
        self,
        sent: Sent,
        parent_id: int,
        guild: FakeGuild | None,
        body: JSON,
        message_id: str | None,
    ) -> JSON:
        sent.kind = "thread_create"
        if guild is None:
            raise _error(400, 50024, "Cannot execute action on this channel type")
        if message_id is not None:
            stored = self._channel_message({"channel_id": str(parent_id), "message_id": message_id})
            tid = stored.id  # a thread started from a message shares its id
        else:
            tid = self.next_id()
        now = _now_iso()
        thread: JSON = {
            "id": str(tid),
            "guild_id": str(guild.id),
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_id),
            "name": body.get("name", "thread"),
            "type": int(body.get("type") or 11),
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": int(body.get("rate_limit_per_user") or 0),
            "flags": 0,
            "total_message_sent": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 1440),
                "archive_timestamp": now,
                "locked": False,
                "invitable": bool(body.get("invitable", True)),
                "create_timestamp": now,
            },
        }
        self._channels[tid] = thread
        self._channel_guild[tid] = guild
        sent.channel_id = tid
        # Discord also announces the thread on the gateway; discord.py caches it from that.
        self._feed(
            self._current_owner(), "THREAD_CREATE", {**_clone(thread), "newly_created": True}
        )
        return _clone(thread)

    def _answer_webhook(self, sent: Sent, p: Mapping[str, str]) -> Any:
        token = p.get("webhook_token", "")
        state = self._interactions.get(token)
        if state is None:
            raise UnexpectedRequestError(
                f"webhook call {sent.method} {sent.path} for an unknown token {token!r}"
            )
        sent.interaction_id = state.id
        sent.user_id = state.user_id
        sent.channel_id = state.channel_id
        body = cast(JSON, sent.body or {})
        path = sent.path
        if path == "/interactions/{webhook_id}/{webhook_token}/callback":
            return self._callback(sent, state, body)
        if state.response_type is None:
            raise _error(404, 10015, "Unknown Webhook")  # not acknowledged yet
        if path == "/webhooks/{webhook_id}/{webhook_token}" and sent.method == "POST":
            return self._followup(sent, state, body)
        if path.startswith("/webhooks/{webhook_id}/{webhook_token}/messages/"):
            mid_text = p.get("message_id", "@original")
            original = mid_text == "@original"
            if original:
                if state.original_id is None:
                    raise _error(404, 10008, "Unknown Message")
                mid = state.original_id
            else:
                mid = int(mid_text)
                if mid not in state.followup_ids and mid != state.original_id:
                    raise _error(404, 10008, "Unknown Message")
            stored = self.messages.get(mid)
            if stored is None or stored.deleted:
                raise _error(404, 10008, "Unknown Message")
            sent.message_id = mid
            sent.visible_to = stored.visible_to
            suffix = "original" if original else "followup"
            if sent.method == "GET":
                sent.kind = f"get_{suffix}"
                return stored.payload
            if sent.method == "PATCH":
                sent.kind = f"edit_{suffix}"
                if original and state.deferred_pending:
                    state.deferred_pending = False
                self._edit_message(stored, body)
                return stored.payload
            if sent.method == "DELETE":
                sent.kind = f"delete_{suffix}"
                stored.deleted = True
                return None
        raise UnexpectedRequestError(
            f"the fake Discord has no answer for webhook {sent.method} {path}"
        )

    def _callback(self, sent: Sent, state: _InteractionState, body: JSON) -> JSON:
        rtype = int(body.get("type", 0))
        data = cast(JSON, body.get("data") or {})
        sent.response_type = rtype
        if state.response_type is not None:
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        answer: JSON = {"interaction": {"id": str(state.id), "type": state.type}}
        resource: JSON | None = None
        private = state.user_id
        if rtype == _PONG:
            sent.kind = "pong"
        elif rtype in (_MESSAGE, _DEFER):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            sent.kind = "response" if rtype == _MESSAGE else "defer"
            sent.visible_to = private if ephemeral else None
            stored = self._new_message(
                state.channel_id,
                state.guild_id,
                data,
                visible_to=sent.visible_to,
                ephemeral=ephemeral,
                loading=rtype == _DEFER,
                interaction=state,
                files=sent.files,
            )
            state.original_id = stored.id
            sent.message_id = stored.id
            if rtype == _DEFER:
                state.deferred_pending = True
                state.deferred_ephemeral = ephemeral
            answer["interaction"].update(
                response_message_id=str(stored.id),
                response_message_loading=rtype == _DEFER,
                response_message_ephemeral=ephemeral,
            )
            resource = {"type": rtype, "message": stored.payload}
        elif rtype in (_DEFER_UPDATE, _UPDATE):
            if state.message_id is None:
                raise _error(400, 50035, "Invalid Form Body: this interaction has no message")
            target = self.messages.get(state.message_id)
            if target is None or target.deleted:
                raise _error(404, 10008, "Unknown Message")
            stored = target
            sent.kind = "defer_update" if rtype == _DEFER_UPDATE else "update"
            sent.visible_to = stored.visible_to
            sent.message_id = stored.id
            state.original_id = stored.id
            if rtype == _UPDATE:
                self._edit_message(stored, data)
                answer["interaction"].update(
                    response_message_id=str(stored.id),
                    response_message_loading=False,
                    response_message_ephemeral=stored.ephemeral,
                )
                resource = {"type": rtype, "message": stored.payload}
        elif rtype == _AUTOCOMPLETE:
            sent.kind = "autocomplete"
            sent.visible_to = private
        elif rtype == _MODAL:
            sent.kind = "modal"
            sent.visible_to = private
        else:
            raise UnexpectedRequestError(f"interaction callback type {rtype} is not supported")
        state.response_type = rtype
        if resource is not None:
            answer["resource"] = _clone(resource)
        return answer

    def _followup(self, sent: Sent, state: _InteractionState, body: JSON) -> JSON:
        sent.kind = "followup"
        if state.deferred_pending and state.original_id is not None:
            # The first follow-up after a deferred response replaces the "thinking"
            # message and keeps the defer's visibility, whatever its own flags say.
            state.deferred_pending = False
            stored = self.messages[state.original_id]
            self._edit_message(stored, {**body, "flags": body.get("flags") or 0})
            sent.visible_to = stored.visible_to
            sent.message_id = stored.id
            return stored.payload
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        sent.visible_to = state.user_id if ephemeral else None
        stored = self._new_message(
            state.channel_id,
            state.guild_id,
            body,
            visible_to=sent.visible_to,
            ephemeral=ephemeral,
            interaction=state,
            files=sent.files,
        )
        state.followup_ids.append(stored.id)
        sent.message_id = stored.id
        return stored.payload

    # ------------------------------------------------------------------ interactions

    def _resolve_channel(self, user: FakeMember, channel: Any) -> int:
        if channel is None:
            return next(iter(user.guild.channel_ids.values()))
        cid = int(_snowflake_str(channel))
        if cid not in self._channels:
            raise LookupError(f"the fake Discord has no channel {cid}")
        if self._channel_guild.get(cid) is not user.guild:
            raise HarnessError(f"{user!r} is not in the guild of channel {cid}")
        return cid

    def _resolve_user(self, user: FakeMember | discord.abc.Snowflake | int) -> FakeMember:
        if isinstance(user, FakeMember):
            return user
        uid = int(_snowflake_str(user))
        try:
            return self._users[uid]
        except KeyError:
            raise LookupError(f"the fake Discord has no user {uid}") from None

    def _interaction_payload(
        self,
        itype: int,
        user: FakeMember,
        channel_id: int,
        data: JSON,
        *,
        message: StoredMessage | None = None,
        locale: str = "en-US",
    ) -> JSON:
        guild = user.guild
        iid = self.next_id()
        channel = _clone(self._channels[channel_id])
        perms = user.permissions
        channel["permissions"] = str(perms.value)
        bot_perms = guild.permissions_for(guild.me) if guild.me else DEFAULT_BOT_PERMISSIONS
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_id": str(guild.id),
            "channel": channel,
            "channel_id": str(channel_id),
            "member": user.member_payload(permissions=True),
            "token": f"harness-interaction-token-{iid}",
            "version": 1,
            "app_permissions": str(bot_perms.value),
            "locale": locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = _clone(message.payload)
        return payload

    async def dispatch(
        self,
        payload: JSON,
        *,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Feed a raw INTERACTION_CREATE payload and wait until its handlers finish.

        Raises :class:`HarnessError` subclasses when the bot logged an ERROR (unless
        ``allow_errors``), called an unknown route, never acknowledged the interaction
        (unless ``expect_response=False``) or did not finish within ``settle_timeout``.
        """
        iid = int(payload["id"])
        user_data = payload.get("member", {}).get("user") or payload.get("user") or {}
        message_id = (payload.get("message") or {}).get("id")
        dispatch = _Dispatch(f"interaction {iid}", interaction_id=iid, payload=payload)
        state = _InteractionState(
            id=iid,
            token=payload["token"],
            type=int(payload["type"]),
            user_id=int(user_data.get("id", 0)),
            channel_id=int(payload.get("channel_id") or payload.get("channel", {}).get("id", 0)),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            dispatch=dispatch,
            message_id=int(message_id) if message_id else None,
        )
        self._interactions[state.token] = state
        self._unforgotten.append(state.dispatch)
        self._interactions_by_id[iid] = state
        self._feed(dispatch, "INTERACTION_CREATE", payload)
        await self._settle([dispatch])
        result = Result(dispatch, self)
        self._check(dispatch, allow_errors=allow_errors, what=f"interaction {iid}")
        if expect_response and state.response_type is None:
            raise NoResponseError(
                f"the bot never acknowledged interaction {iid} "
                f"({json.dumps(payload.get('data'))[:200]}); recorded: {dispatch.sent!r}"
            )
        return result

    def _check(self, dispatch: _Dispatch, *, allow_errors: bool, what: str) -> None:
        if dispatch.unexpected:
            problems, dispatch.unexpected = dispatch.unexpected, []
            raise UnexpectedRequestError(f"during {what}: " + "; ".join(problems))
        if self.strict and not allow_errors and dispatch.errors:
            lines = []
            for record in dispatch.errors:
                lines.append(f"[{record.name}] {record.getMessage()}")
                if record.exc_info and record.exc_info[1] is not None:
                    lines.append("".join(traceback.format_exception(*record.exc_info)))
            dispatch.errors = [] if dispatch is self._root_dispatch else dispatch.errors
            raise HarnessError(
                f"the bot logged errors during {what} (pass allow_errors=True if expected):\n"
                + "\n".join(lines)
            )

    async def _settle(self, dispatches: Sequence[_Dispatch] | None) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settle_timeout
        me = asyncio.current_task()

        def owned() -> list[tuple[asyncio.Task[Any], _Dispatch]]:
            # Each dispatch lists the tasks it owns: no need to scan every task of the run.
            if dispatches is None:
                return list(self._owners.items())
            return [(t, d) for d in dispatches for t in list(d.tasks)]

        while True:
            pending = [
                t
                for t, owner in owned()
                if not t.done()
                and t is not me
                and not self._is_background(t)
                and owner.label != "login"
            ]
            if not pending:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                message = (
                    f"tasks still running after {self.settle_timeout}s (now cancelled):\n  "
                    + "\n  ".join(_describe_task(t) for t in pending)
                )
                for task in pending:  # so the harness stays usable after the failure
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                raise HarnessTimeoutError(message)
            await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        for task, owner in owned():
            if task.done():
                # Settled: forget the task, so later settles don't rescan a long history.
                self._owners.pop(task, None)
            if task.done() and not task.cancelled():
                exc = task.exception()  # retrieve it, so asyncio does not warn later
                if exc is not None and not getattr(task, "_harness_seen", False):
                    cast(Any, task)._harness_seen = True
                    record = logging.LogRecord(
                        "tests.harness",
                        logging.ERROR,
                        __file__,
                        0,
                        "task %s raised",
                        (task.get_name(),),
                        (type(exc), exc, exc.__traceback__),
                    )
                    owner.errors.append(record)
                    self.errors.append(record)

    def _is_background(self, task: asyncio.Task[Any]) -> bool:
        if default_background(task):
            return True
        return self._background_extra is not None and self._background_extra(task)

    def forget(self) -> None:
        """Drop the records of what already happened, keeping every message as it is now.

        The harness keeps each HTTP call, each message's earlier versions and each
        interaction's calls for assertions; a long run (a benchmark) does not need them.
        Interactions stay answerable (their tokens are kept); one whose handlers are still
        running, or finished since the previous call, keeps its records until the next.
        """
        self.sent.clear()
        for message in self.messages.values():
            message.history.clear()
        for dispatch in self._finished:
            dispatch.sent.clear()
            dispatch.tasks.clear()
            dispatch.payload = None
            dispatch.interaction = None
        waiting, self._unforgotten, self._finished = self._unforgotten, [], []
        for dispatch in waiting:
            done = dispatch.tasks and all(t.done() for t in dispatch.tasks)
            (self._finished if done else self._unforgotten).append(dispatch)

    async def settle(self) -> None:
        """Wait for every task any dispatch or gateway event spawned (not view timers).

        Raises like a dispatch would for errors logged while handling gateway events.
        """
        await self._settle(None)
        unchecked, self._unchecked = self._unchecked, []
        for dispatch in unchecked:
            self._check(dispatch, allow_errors=False, what=f"gateway event {dispatch.label}")

    # ---------------------------------------------------------------- slash commands

    def _find_command(
        self, command: str, guild_id: int
    ) -> tuple[list[str], app_commands.Command[Any, ..., Any], bool]:
        if self._tree is None:
            raise HarnessError("the bot has no command tree; pass Harness(bot, tree=...)")
        names = command.strip().lstrip("/").split()
        if not names:
            raise ValueError("empty command name")
        found: Any = self._tree.get_command(names[0], guild=discord.Object(guild_id))
        is_guild = found is not None
        if found is None:
            found = self._tree.get_command(names[0])
        for name in names[1:]:
            if not isinstance(found, app_commands.Group):
                found = None
                break
            found = found.get_command(name)
        if not isinstance(found, app_commands.Command):
            available = sorted(
                c.qualified_name for c in self._tree.walk_commands(guild=discord.Object(guild_id))
            ) + sorted(c.qualified_name for c in self._tree.walk_commands())
            raise LookupError(f"no slash command /{' '.join(names)}; known: {available}")
        return names, found, is_guild

    def _encode_option(
        self,
        param: app_commands.Parameter,
        value: Any,
        user: FakeMember,
        resolved: JSON,
    ) -> Any:
        kind = param.type
        if isinstance(value, app_commands.Choice | enum.Enum):
            value = value.value
        t = discord.AppCommandOptionType
        if kind is t.string:
            return str(value)
        if kind is t.integer:
            return int(value)
        if kind is t.number:
            return float(value)
        if kind is t.boolean:
            return bool(value)
        if kind in (t.user, t.mentionable) and not isinstance(value, discord.Role):
            target = self._resolve_user(value)
            resolved.setdefault("users", {})[str(target.id)] = target.user_payload()
            if target.guild is user.guild:
                resolved.setdefault("members", {})[str(target.id)] = target.member_payload(
                    permissions=True, user=False
                )
            return str(target.id)
        if kind is t.channel:
            cid = int(_snowflake_str(value))
            channel = _clone(self._channels[cid])
            channel["permissions"] = str(user.permissions.value)
            resolved.setdefault("channels", {})[str(cid)] = channel
            return str(cid)
        if kind in (t.role, t.mentionable):
            rid = int(_snowflake_str(value))
            for role in user.guild.roles:
                if int(role["id"]) == rid:
                    resolved.setdefault("roles", {})[str(rid)] = role
                    return str(rid)
            raise LookupError(f"no role {rid} in {user.guild!r}")
        if kind is t.attachment:
            if not isinstance(value, Mapping) or "id" not in value:
                raise TypeError("attachment options take an attachment payload dict with an id")
            resolved.setdefault("attachments", {})[str(value["id"])] = dict(value)
            return str(value["id"])
        raise TypeError(f"unsupported option type {kind!r}")

    @staticmethod
    def _check_range(param: app_commands.Parameter, value: Any) -> None:
        """Discord (not discord.py) enforces min/max values and lengths: so does the harness."""
        low, high = param.min_value, param.max_value
        measured = len(value) if isinstance(value, str) else value
        if not isinstance(measured, int | float) or isinstance(measured, bool):
            return
        if (low is not None and measured < low) or (high is not None and measured > high):
            what = "length" if isinstance(value, str) else "value"
            raise ValueError(
                f"option {param.display_name!r}: {what} {measured} is not between "
                f"{low} and {high}; Discord would refuse it"
            )

    def build_slash(
        self,
        user: FakeMember,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Any = None,
        focused: str | None = None,
        locale: str = "en-US",
        check_permissions: bool = True,
    ) -> JSON:
        """The INTERACTION_CREATE payload Discord sends for ``/command`` (type 2, or 4 if focused)."""
        user = self._resolve_user(user)
        cid = self._resolve_channel(user, channel)
        names, cmd, is_guild = self._find_command(command, user.guild.id)
        root: Any = cmd
        while root.parent is not None:
            root = root.parent
        if check_permissions and focused is None:
            required = root.default_permissions
            if required is not None and not user.permissions >= required:
                raise HarnessError(
                    f"Discord does not show /{' '.join(names)} to {user.name}: it needs "
                    f"default permissions {required!r}"
                )
        given = dict(options or {})
        by_name = {p.display_name: p for p in cmd.parameters}
        by_name.update({p.name: p for p in cmd.parameters})
        unknown = set(given) - set(by_name)
        if unknown:
            raise LookupError(
                f"/{' '.join(names)} has no option(s) {sorted(unknown)}; "
                f"options: {[p.display_name for p in cmd.parameters]}"
            )
        resolved: JSON = {}
        encoded: list[JSON] = []
        for param in cmd.parameters:
            key = param.display_name if param.display_name in given else param.name
            if key not in given:
                if param.required and focused is None:
                    raise ValueError(f"/{' '.join(names)} requires option {param.display_name!r}")
                continue
            value = given[key]
            if focused is not None:
                opt: JSON = {"name": param.display_name, "type": param.type.value}
                if param.display_name == focused or param.name == focused:
                    opt["value"] = str(value)
                    opt["focused"] = True
                else:
                    opt["value"] = self._encode_option(param, value, user, resolved)
            else:
                opt = {
                    "name": param.display_name,
                    "type": param.type.value,
                    "value": self._encode_option(param, value, user, resolved),
                }
                self._check_range(param, opt["value"])
                if param.choices and not param.autocomplete:
                    allowed = [c.value for c in param.choices]
                    if opt["value"] not in allowed:
                        raise ValueError(
                            f"option {param.display_name!r} must be one of {allowed}, "
                            f"not {opt['value']!r}"
                        )
            encoded.append(opt)
        if focused is not None and not any(o.get("focused") for o in encoded):
            raise ValueError(f"focused option {focused!r} must be given a (partial) value")
        nested: list[JSON] = encoded
        chain: Any = cmd
        while chain.parent is not None:
            nested = [
                {
                    "name": chain.name,
                    "type": 1 if isinstance(chain, app_commands.Command) else 2,
                    "options": nested,
                }
            ]
            chain = chain.parent
        data: JSON = {
            "id": str(
                self._command_ids.setdefault(
                    (user.guild.id if is_guild else None, names[0]), self.next_id()
                )
            ),
            "name": names[0],
            "type": 1,
            "options": nested,
        }
        if is_guild:
            data["guild_id"] = str(user.guild.id)
        if resolved:
            data["resolved"] = resolved
        return self._interaction_payload(4 if focused else 2, user, cid, data, locale=locale)

    async def slash(
        self,
        user: FakeMember,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Any = None,
        allow_errors: bool = False,
        expect_response: bool = True,
        locale: str = "en-US",
    ) -> Result:
        """Run ``/command`` (e.g. ``"euchre new"``, subcommands and groups by spaces) as ``user``.

        ``options`` maps option names to values: members (``FakeMember``), channels,
        roles, enums and ``Choice`` objects are encoded (and resolved) as Discord does.
        ``channel`` defaults to the first channel of the user's guild.
        """
        payload = self.build_slash(user, command, options, channel=channel, locale=locale)
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )

    async def autocomplete(
        self,
        user: FakeMember,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        channel: Any = None,
        allow_errors: bool = False,
    ) -> Result:
        """Ask for autocomplete of option ``focused`` (its partial text in ``options``).

        The answer is in ``result.choices`` (a list of ``{"name", "value"}``).
        """
        payload = self.build_slash(user, command, options, channel=channel, focused=focused)
        return await self.dispatch(payload, allow_errors=allow_errors)

    # ---------------------------------------------------------------- components

    def _target_message(self, user: FakeMember, message: Any) -> StoredMessage:
        stored = self.message(message)
        if stored.deleted:
            raise HarnessError(f"{stored!r} was deleted")
        if stored.visible_to is not None and stored.visible_to != user.id:
            raise HarnessError(f"{user.name} cannot see {stored!r} (it is private to someone else)")
        guild = self._channel_guild.get(stored.channel_id)
        if guild is not None and guild is not user.guild:
            raise HarnessError(f"{user.name} is not in the guild of {stored!r}")
        return stored

    def build_component(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        values: Sequence[Any] | None = None,
        force: bool = False,
    ) -> JSON:
        """The INTERACTION_CREATE payload (type 3) for using a component of ``message``.

        The component is looked up in the message's current payload (so it must exist),
        and a disabled one is refused unless ``force``.
        """
        user = self._resolve_user(user)
        stored = self._target_message(user, message)
        kinds = (2,) if values is None else (3, 5, 6, 7, 8)
        if custom_id is None and label is None:
            candidates = find_components(stored.components, type=kinds)
            if len(candidates) != 1:
                raise LookupError(
                    f"say which component (custom_id= or label=); {stored!r} has {candidates}"
                )
            comp = candidates[0]
        else:
            comp = find_component(stored.components, custom_id=custom_id, label=label, type=kinds)
        if comp.custom_id is None:
            raise HarnessError(f"{comp!r} has no custom_id (a link button?): it cannot be used")
        if comp.disabled and not force:
            raise HarnessError(f"{comp!r} is disabled: Discord would not let {user.name} use it")
        data: JSON = {"custom_id": comp.custom_id, "component_type": comp.type}
        if "id" in comp:
            data["id"] = comp["id"]
        if values is not None:
            data["values"] = self._encode_select_values(comp, values, user, data)
        return self._interaction_payload(3, user, stored.channel_id, data, message=stored)

    def _encode_select_values(
        self, comp: ComponentData, values: Sequence[Any], user: FakeMember, data: JSON
    ) -> list[str]:
        low, high = int(comp.raw.get("min_values", 1)), int(comp.raw.get("max_values", 1))
        if not low <= len(values) <= high:
            raise HarnessError(f"{comp!r} takes {low}..{high} values, not {len(values)}")
        if comp.type == 3:
            allowed = [o["value"] for o in comp.options]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} are not options of {comp!r}: {allowed}")
            return [str(v) for v in values]
        resolved: JSON = {}
        encoded: list[str] = []
        for value in values:
            if comp.type in (5, 7) and (
                isinstance(value, FakeMember) or int(_snowflake_str(value)) in self._users
            ):
                target = self._resolve_user(value)
                resolved.setdefault("users", {})[str(target.id)] = target.user_payload()
                resolved.setdefault("members", {})[str(target.id)] = target.member_payload(
                    permissions=True, user=False
                )
                encoded.append(str(target.id))
            elif comp.type == 8:
                cid = int(_snowflake_str(value))
                channel = _clone(self._channels[cid])
                channel["permissions"] = str(user.permissions.value)
                resolved.setdefault("channels", {})[str(cid)] = channel
                encoded.append(str(cid))
            else:
                rid = int(_snowflake_str(value))
                role = next(r for r in user.guild.roles if int(r["id"]) == rid)
                resolved.setdefault("roles", {})[str(rid)] = role
                encoded.append(str(rid))
        data["resolved"] = resolved
        return encoded

    async def click(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        force: bool = False,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Click a button of ``message`` (by ``custom_id`` or ``label``; the only one if neither)."""
        payload = self.build_component(user, message, custom_id=custom_id, label=label, force=force)
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )

    async def select(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        values: Sequence[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        force: bool = False,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Pick ``values`` in a select menu of ``message`` (string values, or members/channels/roles)."""
        payload = self.build_component(
            user, message, custom_id=custom_id, label=placeholder, values=values, force=force
        )
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )

    # ---------------------------------------------------------------- modals

    def build_modal_submit(
        self,
        user: FakeMember,
        values: Mapping[str, Any],
        *,
        modal: Sent | Result | None = None,
    ) -> JSON:
        """The INTERACTION_CREATE payload (type 5) for submitting a modal the bot sent ``user``.

        ``modal`` defaults to the last modal sent to ``user``; ``values`` maps the
        inputs' custom_ids to text (or lists of values for selects).
        """
        user = self._resolve_user(user)
        if isinstance(modal, Result):
            modal = modal.modal
        if modal is None:
            sent_modals = [s for s in self.sent if s.kind == "modal" and s.user_id == user.id]
            if not sent_modals:
                raise HarnessError(f"no modal was sent to {user.name}")
            modal = sent_modals[-1]
        origin = self._interactions_by_id.get(modal.interaction_id or 0)
        if origin is None:
            raise HarnessError(f"{modal!r} is not bound to an interaction")
        remaining = dict(values)

        def convert(comp: Mapping[str, Any]) -> JSON | None:
            ctype = comp.get("type")
            if ctype == 1:
                inner = [c for c in map(convert, comp.get("components") or ()) if c]
                return {"type": 1, "components": inner}
            if ctype == 18:
                inner_comp = convert(comp["component"])
                return {"type": 18, "component": inner_comp} if inner_comp else None
            cid = comp.get("custom_id")
            if cid is None:
                return None
            if ctype == 4:
                value = remaining.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise HarnessError(f"text input {cid!r} is required: Discord would refuse")
                return {"type": 4, "custom_id": cid, "value": str(value)}
            picked = remaining.pop(cid, [])
            return {"type": ctype, "custom_id": cid, "values": [str(v) for v in picked]}

        components = [c for c in map(convert, modal.data.get("components") or ()) if c]
        if remaining:
            raise LookupError(f"the modal has no inputs {sorted(remaining)}")
        data: JSON = {"custom_id": modal.data.get("custom_id"), "components": components}
        message = self.messages.get(origin.message_id) if origin.message_id else None
        return self._interaction_payload(5, user, origin.channel_id, data, message=message)

    async def submit_modal(
        self,
        user: FakeMember,
        values: Mapping[str, Any],
        *,
        modal: Sent | Result | None = None,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Submit the modal the bot sent ``user`` (the last one unless ``modal`` is given)."""
        payload = self.build_modal_submit(user, values, modal=modal)
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )
