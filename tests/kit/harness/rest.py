"""The fake Discord's REST side: every HTTP call is recorded here and answered offline.

Login, command sync, channels, messages, threads, DMs, users and guild scheduled events
are answered here; a channel request the bot's permissions do not allow is refused as
Discord refuses it (tests/kit/discord_permissions.py).

Interaction webhooks are answered in :mod:`tests.kit.harness.webhooks`; a test can add
or fail any route with :meth:`_Rest.route` and :meth:`_Rest.fail_http`.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import discord
import yarl
from discord.http import Route

from tests.kit import payloads
from tests.kit.discord_limits import InvalidRequests
from tests.kit.discord_permissions import channel_refusal
from tests.kit.harness.records import Sent, StoredMessage, UnexpectedRequestError, _Dispatch
from tests.kit.payloads import JSON, ApiError, clone

if TYPE_CHECKING:
    from tests.kit.harness.world import FakeGuild


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


class _Rest:
    """Record and answer every HTTP call; the REST routes."""

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

    def expect_invalid(self, status: int, times: int = 1) -> None:
        """The test expects ``times`` more answers of ``status`` (401, 403 or 429).

        Any other such answer fails the call that caused it: Discord counts each toward
        shutting the bot out (tests/kit/discord_limits.py). Those of :meth:`fail_http` are
        the test's own, and expected.
        """
        self._expected_invalid[status] = self._expected_invalid.get(status, 0) + times

    def _invalid(self, sent: Sent, owner: _Dispatch, exc: discord.HTTPException) -> None:
        self.invalid.append(sent)
        if self._expected_invalid.get(exc.status, 0) > 0:
            self._expected_invalid[exc.status] -= 1
            return
        owner.unexpected.append(
            f"{sent.method} {sent.path} was answered {exc.status} ({exc.code} {exc.text}): "
            "Discord counts it toward the invalid requests that shut a bot out; look "
            "first (or harness.expect_invalid if the test means it)"
        )

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
            body=clone(body),
            params=dict(params or kwargs.get("params") or {}),
            path_params=_match_path(route.path, route.url),
            files=recorded_files,
        )
        self.sent.append(sent)
        owner.sent.append(sent)
        scripted = False  # a failure of fail_http: the test's own, and expected
        try:
            self._keep_contract(sent, owner)
            for failure in self._failures:
                if failure.times > 0 and (failure.method, failure.path) == (
                    route.method,
                    route.path,
                ):
                    failure.times -= 1
                    sent.status = failure.status
                    scripted = True
                    raise _error(failure.status, failure.code, failure.message)
            sent.answer = self._answer(sent, webhook=webhook)
        except discord.HTTPException as exc:
            sent.status = exc.status
            if not scripted and InvalidRequests.counts(exc.status, None):
                self._invalid(sent, owner, exc)
            # As aiohttp's answer would: the bot's log names the route it was refused.
            exc.response.method, exc.response.url = route.method, yarl.URL(route.url)
            raise
        except UnexpectedRequestError as exc:
            sent.status = 599
            owner.unexpected.append(str(exc))
            raise
        await asyncio.sleep(0)  # a real request yields to the loop
        return clone(sent.answer)

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
        if path.startswith("/applications/{application_id}/emojis"):
            return self._answer_app_emojis(sent, p)
        if key == ("POST", "/users/@me/channels"):
            return self._open_dm(sent)
        if key == ("GET", "/users/{user_id}"):
            user = self._users.get(int(p["user_id"]))
            if user is None:
                raise _error(404, 10013, "Unknown User")
            return user.user_payload()
        if key == ("POST", "/guilds/{guild_id}/scheduled-events"):
            sent.kind = "scheduled_event"
            return self._scheduled_event(sent, p)
        if path == "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}":
            sent.kind = "scheduled_event_edit"
            guild_id, event_id = int(p["guild_id"]), int(p["guild_scheduled_event_id"])
            try:
                if method == "PATCH":
                    return self.scheduled_events.edit(guild_id, event_id, sent.body or {})
                if method == "GET":
                    return self.scheduled_events.get(guild_id, event_id)
            except ApiError as refusal:
                raise _error(refusal.status, refusal.code, refusal.message) from None
        if key == ("GET", "/guilds/{guild_id}/members/{user_id}"):
            fake_guild = self.guilds.get(int(p["guild_id"]))
            member = self._users.get(int(p["user_id"]))
            if fake_guild is None or member is None or not fake_guild.has_member(member.id):
                raise _error(404, 10007, "Unknown Member")
            return member.member_payload()
        if path == "/guilds/{guild_id}/members/{user_id}/roles/{role_id}" and method in (
            "PUT",
            "DELETE",
        ):
            return self._member_role(sent, p, add=method == "PUT")
        raise UnexpectedRequestError(
            f"the fake Discord has no answer for {method} {path} ({sent.url}); "
            f"add one with harness.route({method!r}, {path!r}, handler)"
        )

    def _scheduled_event(self, sent: Sent, p: Mapping[str, str]) -> JSON:
        """Create a guild's scheduled event; refused, as Discord does, without Create Events."""
        fake_guild = self.guilds.get(int(p["guild_id"]))
        if fake_guild is None:
            raise _error(404, 10004, "Unknown Guild")
        me = fake_guild.me
        perms = discord.Permissions.none() if me is None else fake_guild.permissions_for(me)
        if not (perms.create_events or perms.manage_events):
            raise _error(403, 50013, "Missing Permissions")
        body = cast(JSON, sent.body or {})
        return self.scheduled_events.create(
            self.next_id(), fake_guild.id, self.bot_user_payload(), body
        )

    def _member_role(self, sent: Sent, p: Mapping[str, str], *, add: bool) -> None:
        """Give or take a member's role as Discord does (then GUILD_MEMBER_UPDATE)."""
        sent.kind = "member_role"
        fake_guild = self.guilds.get(int(p["guild_id"]))
        if fake_guild is None:
            raise _error(404, 10004, "Unknown Guild")
        me = fake_guild.me
        if me is None or not fake_guild.permissions_for(me).manage_roles:
            raise _error(403, 50013, "Missing Permissions")
        role_id = int(p["role_id"])
        role = fake_guild.role(role_id)
        if role is None or role_id == fake_guild.id:
            raise _error(404, 10011, "Unknown Role")
        member = self._users.get(int(p["user_id"]))
        if member is None or not fake_guild.has_member(member.id):
            raise _error(404, 10007, "Unknown Member")
        if me.id != fake_guild.owner_id and int(role["position"]) >= fake_guild.top_position(me):
            raise _error(403, 50013, "Missing Permissions")
        if add and role_id not in member.role_ids:
            member.role_ids.append(role_id)
        elif not add and role_id in member.role_ids:
            member.role_ids.remove(role_id)
        else:
            return None
        update = member.member_payload()
        update["guild_id"] = str(fake_guild.id)
        self.gateway("GUILD_MEMBER_UPDATE", update)
        return None

    def _application_payload(self) -> JSON:
        return payloads.application(
            self.application_id,
            self.bot_name,
            owner=self._owner_payload(),
            bot=self.bot_user_payload(),
        )

    def _answer_app_emojis(self, sent: Sent, p: Mapping[str, str]) -> Any:
        """List, upload and delete the application's emojis (no validation of the image)."""
        sent.kind = "app_emoji"
        if sent.method == "GET" and "emoji_id" not in p:
            return {
                "items": [
                    {k: v for k, v in e.items() if k != "image"} for e in self.app_emojis.values()
                ]
            }
        if sent.method == "POST":
            body = cast(JSON, sent.body or {})
            emoji_id = self.next_id()
            emoji = payloads.application_emoji(
                emoji_id, body["name"], owner=self.bot_user_payload()
            )
            self.app_emojis[emoji_id] = {**emoji, "image": body["image"]}
            return emoji
        if sent.method == "DELETE" and self.app_emojis.pop(int(p["emoji_id"]), None) is not None:
            return None
        raise _error(404, 10014, "Unknown Emoji")

    def _sync_commands(self, sent: Sent, guild_id: int | None) -> list[JSON]:
        sent.kind = "sync_commands"
        body = cast(list[JSON], sent.body or [])
        if guild_id is None and payloads.drops_entry_point(
            self.synced_commands.get(None, []), body
        ):
            raise _error(400, *payloads.ENTRY_POINT_DROPPED)
        answered: list[JSON] = []
        for cmd in body:
            cmd_id = self._command_ids.setdefault((guild_id, cmd["name"]), self.next_id())
            data = payloads.synced_command(
                cmd,
                command_id=cmd_id,
                application_id=self.application_id,
                version=self.next_id(),
                guild_id=guild_id,
            )
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
        return clone(self._channels[cid])

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
        if cid not in self._channels or cid in self._deleted_channels:
            raise _error(404, 10003, "Unknown Channel")
        guild = self._channel_guild.get(cid)
        gid = guild.id if guild else None
        sent.visible_to = self._dm_recipient(cid)
        body = cast(JSON, sent.body or {})
        key = (sent.method, sent.path)
        if guild is not None and guild.me is not None:
            in_thread = "thread_metadata" in self._channels[cid]
            refused = channel_refusal(
                guild.permissions_for(guild.me),
                sent.method,
                sent.path,
                body,
                in_thread=in_thread,
                files=bool(sent.files),
            )
            if refused is not None:
                raise _error(*refused)
        self._check_thread_open(cid, key, body)
        if key == ("POST", "/channels/{channel_id}/messages"):
            sent.kind = "channel_send"
            nonce = body.get("nonce") if body.get("enforce_nonce") else None
            if nonce is not None and (cid, str(nonce)) in self._nonces:
                first = self.messages[self._nonces[cid, str(nonce)]]
                sent.message_id = first.id  # Discord answers with the message it has
                return first.payload
            stored = self._new_message(cid, gid, body, visible_to=sent.visible_to, files=sent.files)
            if nonce is not None:
                self._nonces[cid, str(nonce)] = stored.id
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

    def _check_thread_open(self, cid: int, key: tuple[str, str], body: JSON) -> None:
        """Refuse what Discord refuses in an archived thread; a post reopens an unlocked one.

        Editing or deleting a message there is ``50083 Thread is archived``; so is a post
        in a locked thread. Reopening a locked thread takes Manage Threads, which the
        bot is not given: ``50013``.
        """
        meta = self._channels[cid].get("thread_metadata")
        if meta is None:
            return
        path = key[1]
        if key == ("PATCH", "/channels/{channel_id}"):
            if meta["locked"] and body.get("archived") is False and body.get("locked") is not False:
                raise _error(403, 50013, "Missing Permissions")
            return
        if not meta["archived"] or not path.startswith("/channels/{channel_id}/messages"):
            return
        if key == ("POST", "/channels/{channel_id}/messages") and not meta["locked"]:
            meta["archived"] = False
            return
        if key[0] in ("POST", "PATCH", "DELETE"):
            raise _error(400, 50083, "Thread is archived")

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
        thread = payloads.thread(tid, guild.id, parent_id, self.bot_id, body)
        self._channels[tid] = thread
        self._channel_guild[tid] = guild
        sent.channel_id = tid
        # Discord also announces the thread on the gateway; discord.py caches it from that.
        self._feed(self._current_owner(), "THREAD_CREATE", {**clone(thread), "newly_created": True})
        return clone(thread)
