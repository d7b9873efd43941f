"""What the harness records, and the errors a test fails with.

Each HTTP call (:class:`Sent`), each message as the fake Discord holds it
(:class:`StoredMessage`), the work one dispatch started and what it caused
(:class:`_Dispatch`), and what one interaction produced (:class:`Result`). It imports
nothing else of the harness but its components, so every part may import it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import discord

from tests.kit.contract import ContractError
from tests.kit.harness.components import ComponentData, _HasComponents
from tests.kit.payloads import EPHEMERAL, JSON


class HarnessError(AssertionError):
    """Something a test should fail on: the bot misbehaved or the test asked the impossible."""


class UnexpectedRequestError(HarnessError):
    """discord.py made an HTTP call the fake Discord does not know (nothing reaches the network)."""


class NoResponseError(HarnessError):
    """An interaction was never acknowledged (Discord would show "This interaction failed")."""


class HarnessTimeoutError(HarnessError):
    """Tasks spawned by a dispatch did not finish within the settle timeout."""


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


def _snowflake_str(value: Any) -> str:
    return str(getattr(value, "id", value))


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


class _MessageSource(Protocol):
    """What a result asks of the harness: the stored message of an id."""

    def message(self, message: int) -> StoredMessage: ...


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
    trips_before_answer: int = 0
    """Database round trips made while its interaction had no answer yet."""
    broken: list[ContractError] = field(default_factory=list)
    """Payloads past Discord's contract (:mod:`tests.kit.harness.contract`)."""


class Result:
    """What one dispatched interaction produced, once all of its handlers finished."""

    def __init__(self, dispatch: _Dispatch, harness: _MessageSource) -> None:
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
    def redrawn(self) -> bool:
        """The answer edited the clicked message: an update, or a deferred one then an edit."""
        response = self.response
        if response is None:
            return False
        if response.kind == "update":
            return True
        return response.kind == "defer_update" and any(
            s.kind == "edit_original" for s in self.replies
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
