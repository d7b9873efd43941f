"""The JSON Discord sends and answers, built in one place for both fakes of Discord.

The interaction harness (tests/kit/harness) feeds these payloads to a bot's connection
state in-process; the loopback fake (tests/kit/fake_discord.py) sends them over HTTP
and the gateway to a bot process. Each function builds one Discord object (API v10)
with the fields discord.py 2.7 reads; the callers decide the ids and who sees what.
Nothing here touches discord.py's internals: ``discord`` is used for permissions and
snowflake times only.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias

import discord

JSON: TypeAlias = dict[str, Any]

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Interaction callback types (discord.InteractionResponseType values).
PONG, MESSAGE, DEFER, DEFER_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9
LAUNCH_ACTIVITY = 12

# An application with Activities on has an Entry Point command (PRIMARY_ENTRY_POINT),
# which a global overwrite must send back: Discord refuses one that would drop it.
ENTRY_POINT = 4
ENTRY_POINT_DROPPED = (
    50240,
    "You cannot remove this app's Entry Point command in a bulk update operation. "
    "Please include the Entry Point command in your update request or delete it separately.",
)

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
"""What @everyone may do in a fresh Discord server."""

DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    DEFAULT_EVERYONE_PERMISSIONS.value
    | discord.Permissions(manage_messages=True, manage_threads=True, create_events=True).value
)
"""The bot's own permissions unless a test says otherwise: at least what its invite grants."""


# --------------------------------------------------------------------------- helpers


def clone(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than deepcopy.

    Anything else is handed to ``copy.deepcopy``.
    """
    kind = type(value)
    if kind is dict:
        return {k: clone(v) for k, v in value.items()}
    if kind is list:
        return [clone(v) for v in value]
    if kind in (str, int, float, bool, type(None)):
        return value
    if kind is tuple:
        return tuple(clone(v) for v in value)
    return copy.deepcopy(value)


def now_iso() -> str:
    """The current time as Discord writes timestamps."""
    return discord.utils.utcnow().isoformat()


def next_snowflake(last: int) -> int:
    """A snowflake after ``last``: the current time's, or ``last + 1`` if that is not later."""
    return max(last + 1, discord.utils.time_snowflake(discord.utils.utcnow()))


# --------------------------------------------------------------------------- errors


class ApiError(Exception):
    """A Discord API error answer: HTTP ``status`` with a JSON ``{"code", "message"}``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        """An error answer."""
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message


# --------------------------------------------------------------------------- people


def user(user_id: int, name: str, *, bot: bool = False, global_name: str | None = None) -> JSON:
    """A user object (``global_name`` defaults to the title-cased name, None for bots)."""
    return {
        "id": str(user_id),
        "username": name,
        "global_name": global_name if global_name or bot else name.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def member(
    user_data: JSON | None,
    *,
    roles: Iterable[int] = (),
    joined_at: str,
    nick: str | None = None,
    permissions: int | None = None,
) -> JSON:
    """A guild member object; ``user_data`` None leaves the user out (as in ``resolved``).

    ``permissions`` is set only where Discord sends it (interaction payloads).
    """
    data: JSON = {
        "roles": [str(r) for r in roles],
        "joined_at": joined_at,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": nick,
        "avatar": None,
        "premium_since": None,
        "communication_disabled_until": None,
    }
    if user_data is not None:
        data["user"] = user_data
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role(
    role_id: int, name: str, permissions: int, *, position: int, managed: bool = False
) -> JSON:
    """A role object (the @everyone role has the guild's id and position 0)."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }


def application(app_id: int, name: str, *, owner: JSON, bot: JSON) -> JSON:
    """``GET /oauth2/applications/@me``."""
    return {
        "id": str(app_id),
        "name": name,
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": owner,
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "summary": "",
        "interactions_endpoint_url": None,
        "bot": bot,
    }


def application_emoji(emoji_id: int, name: str, *, owner: JSON) -> JSON:
    """An emoji of the application (``/applications/{id}/emojis``)."""
    return {
        "id": str(emoji_id),
        "name": name,
        "roles": [],
        "user": owner,
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }


# --------------------------------------------------------------------------- places


def text_channel(channel_id: int, guild_id: int, name: str, *, position: int = 0) -> JSON:
    """A guild text channel."""
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def thread(
    thread_id: int, guild_id: int, parent_id: int, owner_id: int, body: Mapping[str, Any]
) -> JSON:
    """The thread a ``POST .../threads`` with ``body`` creates."""
    now = now_iso()
    return {
        "id": str(thread_id),
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
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


def guild(
    guild_id: int,
    name: str,
    *,
    owner_id: int,
    roles: Sequence[JSON],
    members: Sequence[JSON],
    channels: Iterable[JSON],
    joined_at: str,
) -> JSON:
    """The GUILD_CREATE payload (channels lose their ``guild_id``, as Discord sends them)."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": list(roles),
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
        "joined_at": joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "voice_states": [],
        "members": list(members),
        "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in channels],
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


# --------------------------------------------------------------------------- commands, interactions


def synced_command(
    command: Mapping[str, Any],
    *,
    command_id: int | str,
    application_id: int,
    version: int,
    guild_id: int | None,
) -> JSON:
    """One command as ``PUT .../commands`` answers it."""
    data = {
        **command,
        "id": str(command_id),
        "application_id": str(application_id),
        "version": str(version),
        "type": command.get("type", 1),
        "description": command.get("description", ""),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def entry_point_command(*, command_id: int, application_id: int, version: int) -> JSON:
    """The Entry Point command Discord makes when Activities are turned on ("Launch")."""
    return {
        "id": str(command_id),
        "application_id": str(application_id),
        "version": str(version),
        "type": ENTRY_POINT,
        "name": "launch",
        "description": "",
        "handler": 2,  # DISCORD_LAUNCH_ACTIVITY: Discord launches it, no interaction
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }


def has_entry_point(commands: Sequence[Mapping[str, Any]]) -> bool:
    """Whether global ``commands`` hold an Entry Point (the application has Activities on)."""
    return any(c.get("type") == ENTRY_POINT for c in commands)


def drops_entry_point(synced: Sequence[Mapping[str, Any]], body: Sequence[Any]) -> bool:
    """Whether a global overwrite with ``body`` would drop a synced Entry Point command."""
    return has_entry_point(synced) and not has_entry_point(body)


def interaction(
    interaction_id: int,
    *,
    application_id: int,
    itype: int,
    data: JSON,
    guild_id: int,
    channel: JSON,
    member_data: JSON,
    token: str,
    app_permissions: int,
    locale: str = "en-US",
    message_data: JSON | None = None,
) -> JSON:
    """An INTERACTION_CREATE payload in a guild channel.

    ``channel`` carries the user's ``permissions`` there; ``message_data`` is the
    message a component or modal came from (copied).
    """
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": itype,
        "data": data,
        "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
        "guild_id": str(guild_id),
        "channel": channel,
        "channel_id": channel["id"],
        "member": member_data,
        "token": token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": locale,
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if message_data is not None:
        payload["message"] = clone(message_data)
    return payload


# --------------------------------------------------------------------------- messages


def message(
    message_id: int,
    *,
    channel_id: int,
    guild_id: int | None,
    author: JSON,
    body: Mapping[str, Any],
    flags: int,
    attachments: Sequence[JSON] = (),
) -> JSON:
    """A message the bot posted with ``body`` (content, embeds, components are copied)."""
    payload: JSON = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": list(attachments),
        "embeds": clone(body.get("embeds") or []),
        "components": clone(body.get("components") or []),
        "pinned": False,
        "type": 0,
        "flags": flags,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
    return payload


def answer_to_interaction(
    payload: JSON,
    *,
    application_id: int,
    interaction_id: int,
    itype: int,
    user_data: JSON,
    guild_id: int | None,
    interacted_message_id: int | None = None,
) -> None:
    """Mark a message payload as an interaction's answer (sent through its webhook)."""
    payload["webhook_id"] = str(application_id)
    payload["application_id"] = str(application_id)
    if itype == 2:
        payload["type"] = 20  # the answer to a chat input command
    meta: JSON = {
        "id": str(interaction_id),
        "type": itype,
        "user": user_data,
        "authorizing_integration_owners": (
            {"0": str(guild_id)} if guild_id else {"1": str(user_data["id"])}
        ),
    }
    if interacted_message_id is not None:
        meta["interacted_message_id"] = str(interacted_message_id)
    payload["interaction_metadata"] = meta


def edit_message(payload: JSON, body: Mapping[str, Any]) -> None:
    """Apply an edit ``body`` to a message ``payload`` in place, the way Discord does.

    An edit cannot make a message ephemeral or not, nor switch components v2 off; a
    deferred ("loading") message stops loading.
    """
    for key in ("content", "embeds", "components", "attachments", "allowed_mentions"):
        if key in body:
            value = body[key]
            if key == "content":
                value = value or ""
            elif key != "allowed_mentions":
                value = clone(value) if value is not None else []
            payload[key] = value
    if "flags" in body and body["flags"] is not None:
        keep = int(payload.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2)
        payload["flags"] = (int(body["flags"]) & ~(LOADING | EPHEMERAL)) | keep
    payload["flags"] = int(payload.get("flags") or 0) & ~LOADING
    payload["edited_timestamp"] = now_iso()
