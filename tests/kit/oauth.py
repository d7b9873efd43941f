"""Discord's OAuth2 and Activity-instance endpoints, faked on loopback for the Activity.

It refuses what Discord refuses: a wrong client secret, a code used twice or never
given, an access token it did not hand out, a bot token that is not the bot's, an
instance it does not know. :meth:`FakeOAuth.person` makes a person in an instance and
hands back a fresh code, as the SDK's ``authorize`` would inside Discord.
"""

from __future__ import annotations

import itertools
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

CLIENT_ID = 1_300_000_000_000_000_001
CLIENT_SECRET = "fake-client-secret"
BOT_TOKEN = "fake-bot-token"
GUILD_ID = 1_300_000_000_000_000_100
CHANNEL_ID = 1_300_000_000_000_000_200


_INSTANCE = re.compile(r"/applications/(?P<app>[0-9]+)/activity-instances/(?P<instance>[^/]+)")


@dataclass
class Instance:
    instance_id: str
    guild_id: int
    channel_id: int
    users: list[int] = field(default_factory=list)


class FakeOAuth:
    """The endpoints; :meth:`routes` adds them to an aiohttp app, :meth:`answer` to another
    fake (the end-to-end fake Discord answers them beside its own routes)."""

    def __init__(
        self,
        *,
        client_id: int = CLIENT_ID,
        bot_token: str = BOT_TOKEN,
        guild_id: int = GUILD_ID,
        channel_id: int = CHANNEL_ID,
    ) -> None:
        self.client_id = client_id
        self.bot_token = bot_token
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.codes: dict[str, int] = {}
        self.tokens: dict[str, int] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.instances: dict[str, Instance] = {}
        self.refused: list[str] = []
        self._ids = itertools.count(1_300_000_000_000_001_000)

    def instance(self, instance_id: str = "i-1-gc-1", channel_id: int | None = None) -> Instance:
        found = self.instances.get(instance_id)
        if found is None:
            channel = self.channel_id if channel_id is None else channel_id
            found = self.instances[instance_id] = Instance(instance_id, self.guild_id, channel)
        return found

    def person(
        self, name: str, instance: Instance | None = None, user_id: int | None = None
    ) -> tuple[int, str]:
        """A person (new, or ``user_id`` again) in the instance: their id and a fresh code."""
        if user_id is None:
            user_id = next(self._ids)
        self.users.setdefault(
            user_id,
            {"id": str(user_id), "username": name.lower(), "global_name": name, "avatar": None},
        )
        where = instance or self.instance()
        if user_id not in where.users:
            where.users.append(user_id)
        code = secrets.token_hex(8)
        self.codes[code] = user_id
        return user_id, code

    def routes(self, app: web.Application, prefix: str = "") -> None:
        async def handle(request: web.Request) -> web.Response:
            found = await self.answer(request, request.path.removeprefix(prefix))
            assert found is not None
            return found

        app.router.add_post(f"{prefix}/oauth2/token", handle)
        app.router.add_get(f"{prefix}/users/@me", handle)
        app.router.add_get(f"{prefix}/applications/{{app}}/activity-instances/{{instance}}", handle)

    async def answer(self, request: web.Request, path: str) -> web.Response | None:
        """The answer to a request for ``path`` (after ``/api/v10``), if it is one of these."""
        if request.method == "POST" and path == "/oauth2/token":
            return await self.token(request)
        bearer = request.headers.get("Authorization", "").startswith("Bearer ")
        if request.method == "GET" and path == "/users/@me" and bearer:
            return await self.me(request)
        found = _INSTANCE.fullmatch(path)
        if request.method == "GET" and found:
            return await self.read_instance(request, found["app"], found["instance"])
        return None

    def _refuse(self, status: int, why: str) -> web.Response:
        self.refused.append(why)
        return web.json_response({"message": why, "code": 0}, status=status)

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if (
            form.get("client_id") != str(self.client_id)
            or form.get("client_secret") != CLIENT_SECRET
        ):
            return self._refuse(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return self._refuse(400, "unsupported_grant_type")
        user = self.codes.pop(str(form.get("code")), None)
        if user is None:
            return self._refuse(400, "invalid_grant")
        token = secrets.token_hex(16)
        self.tokens[token] = user
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "scope": "identify",
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        user = self.tokens.get(auth.removeprefix("Bearer ")) if auth.startswith("Bearer ") else None
        if user is None:
            return self._refuse(401, "401: Unauthorized")
        return web.json_response(self.users[user])

    async def read_instance(self, request: web.Request, app: str, instance: str) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return self._refuse(401, "401: Unauthorized")
        if app != str(self.client_id):
            return self._refuse(404, "Unknown Application")
        found = self.instances.get(instance)
        if found is None:
            return self._refuse(404, "Unknown Activity Instance")
        location_id = f"gc-{found.guild_id}-{found.channel_id}"
        return web.json_response(
            {
                "application_id": str(self.client_id),
                "instance_id": found.instance_id,
                "launch_id": "1",
                "location": {
                    "id": location_id,
                    "kind": "gc",
                    "channel_id": str(found.channel_id),
                    "guild_id": str(found.guild_id),
                },
                "users": [str(u) for u in found.users],
            }
        )
