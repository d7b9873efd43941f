"""Signing in to the Activity: Discord's OAuth2 code for a person, checked, then a ticket.

The client asks Discord for a code (the SDK's ``authorize``) and posts it here with the
instance it runs in. The server, never the client, holds the application's secret:

1. it exchanges the code at ``{api}/oauth2/token`` (the ``identify`` scope);
2. it reads the person with ``{api}/users/@me`` and that access token;
3. it reads the instance with the bot's token, ``{api}/applications/{app}/activity-instances/
   {instance}``: the guild and channel it runs in, and that the person is in it.

The answer is a :class:`Ticket` signed with the client secret (HMAC-SHA256): who, where,
until when. The client sends it as the first message of each websocket, so a reconnect,
even to a bot that restarted meanwhile, needs no new sign-in until it expires.
``api`` is a setting (``discord_api_url``), which the tests point at their fake Discord.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
from dataclasses import asdict, dataclass
from typing import Any, Final

import aiohttp

from bot.errors import UserFacingError

__all__ = ["TICKET_SECONDS", "DiscordOAuth", "SignInError", "Ticket"]

TICKET_SECONDS: Final = 12 * 3600.0
"""How long a ticket lets its person reconnect without signing in again."""
_TIMEOUT: Final = aiohttp.ClientTimeout(total=10)
_AVATAR: Final = re.compile(r"(a_)?[0-9a-f]{32}")


class SignInError(UserFacingError):
    """Discord did not vouch for the person or the instance (the message says what failed)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """Who signed in, where (the instance's guild and channel), and until when."""

    user_id: int
    name: str
    avatar: str | None
    guild_id: int
    channel_id: int
    instance_id: str
    expires: float

    def sign(self, key: bytes) -> str:
        """The ticket as text: its JSON and its signature, both base64url."""
        body = base64.urlsafe_b64encode(json.dumps(asdict(self)).encode()).decode()
        return f"{body}.{_signature(key, body)}"

    @classmethod
    def read(cls, text: object, key: bytes, now: float) -> Ticket | None:
        """The ticket ``text`` carries, if its signature holds and it has not expired."""
        if not isinstance(text, str) or len(text) > 4096 or text.count(".") != 1:
            return None
        body, signature = text.split(".")
        if not hmac.compare_digest(signature, _signature(key, body)):
            return None
        try:
            ticket = cls(**json.loads(base64.urlsafe_b64decode(body)))
        except (ValueError, TypeError):
            return None
        return ticket if ticket.expires > now else None


def _signature(key: bytes, body: str) -> str:
    digest = hmac.new(key, body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _snowflake(value: object) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        return int(value)
    raise SignInError("Discord's answer did not name a user, guild or channel.")


class DiscordOAuth:
    """Discord's OAuth2 and instance endpoints at ``api`` (``https://discord.com/api/v10``)."""

    def __init__(self, api: str, client_id: int, client_secret: str, bot_token: str) -> None:
        """The application's id and secret, and the bot's token for the instance check."""
        self.api = api.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._session: aiohttp.ClientSession | None = None

    @property
    def key(self) -> bytes:
        """What tickets are signed with: derived from the client secret."""
        return hashlib.sha256(b"euchre activity ticket\0" + self._secret.encode()).digest()

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=_TIMEOUT)
        return self._session

    async def close(self) -> None:
        """Close the connections kept to Discord."""
        if self._session is not None:
            await self._session.close()

    async def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            async with self._client().request(method, self.api + path, **kwargs) as response:
                if response.status != 200:
                    raise SignInError(f"Discord refused the sign-in ({response.status}).")
                return await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise SignInError("Discord could not be reached to sign you in.") from exc

    async def sign_in(self, code: str, instance_id: str, *, now: float | None = None) -> Ticket:
        """Check a person's code and instance with Discord; their :class:`Ticket`."""
        if not code or len(code) > 200 or not instance_id or len(instance_id) > 200:
            raise SignInError("The sign-in needs Discord's code and the Activity's instance.")
        grant = await self._json(
            "POST",
            "/oauth2/token",
            data={
                "client_id": str(self.client_id),
                "client_secret": self._secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = grant.get("access_token") if isinstance(grant, dict) else None
        if not isinstance(token, str):
            raise SignInError("Discord gave no access token for that code.")
        me = await self._json("GET", "/users/@me", headers={"Authorization": f"Bearer {token}"})
        instance = await self._json(
            "GET",
            f"/applications/{self.client_id}/activity-instances/{instance_id}",
            headers={"Authorization": f"Bot {self._bot_token}"},
        )
        if not isinstance(me, dict) or not isinstance(instance, dict):
            raise SignInError("Discord's answer was not what a sign-in expects.")
        user_id = _snowflake(me.get("id"))
        location = instance.get("location") or {}
        if str(user_id) not in (instance.get("users") or []):
            raise SignInError("You are not in this Activity: open it again from Discord.")
        if not location.get("guild_id"):
            raise SignInError("Euchre tables live in server channels, not in direct messages.")
        name = me.get("global_name") or me.get("username") or "a player"
        avatar = me.get("avatar")
        return Ticket(
            user_id=user_id,
            name=str(name)[:80],
            avatar=avatar if isinstance(avatar, str) and _AVATAR.fullmatch(avatar) else None,
            guild_id=_snowflake(location.get("guild_id")),
            channel_id=_snowflake(location.get("channel_id")),
            instance_id=instance_id,
            expires=(time.time() if now is None else now) + TICKET_SECONDS,
        )
