"""Messages as the fake Discord holds them, and the queries tests read them with."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from tests.kit import payloads
from tests.kit.harness.records import HarnessError, Sent, StoredMessage, _snowflake_str
from tests.kit.payloads import EPHEMERAL, JSON, LOADING, clone

if TYPE_CHECKING:
    from tests.kit.harness.webhooks import _InteractionState


class _Messages:
    """Stored messages: find them, add old ones, create and edit them."""

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
            body = clone(like.payload)
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
        attachments = self._attachments(channel_id, files)
        payload = payloads.message(
            mid,
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.bot_user_payload(),
            body=body,
            flags=flags,
            attachments=attachments,
        )
        if body.get("message_reference"):
            payload["type"] = 19
            payload["message_reference"] = body["message_reference"]
        if interaction is not None:
            user = self._users.get(interaction.user_id)
            payloads.answer_to_interaction(
                payload,
                application_id=self.application_id,
                interaction_id=interaction.id,
                itype=interaction.type,
                user_data=user.user_payload() if user else {"id": str(interaction.user_id)},
                guild_id=guild_id,
                interacted_message_id=interaction.message_id,
            )
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

    def _attachments(self, channel_id: int, files: Sequence[tuple[str, bytes]]) -> list[JSON]:
        """The attachments Discord makes of uploaded files."""
        return [
            {
                "id": str(self.next_id()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.invalid/attachments/{channel_id}/{name}",
                "proxy_url": f"https://media.invalid/attachments/{channel_id}/{name}",
            }
            for name, data in files
        ]

    def _edit_message(
        self,
        stored: StoredMessage,
        body: Mapping[str, Any],
        files: Sequence[tuple[str, bytes]] = (),
    ) -> None:
        stored.history.append(clone(stored.payload))
        if files:  # the files uploaded with the edit become its new attachments
            body = {**body, "attachments": self._attachments(stored.channel_id, files)}
        payloads.edit_message(stored.payload, body)
        stored.updated_seq = next(self._seq)
