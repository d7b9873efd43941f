"""The fake Discord gives and takes members' roles as Discord does, refusals included."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from tests.kit.fake_discord import FakeDiscord
from tests.kit.payloads import DEFAULT_BOT_PERMISSIONS

MANAGER = DEFAULT_BOT_PERMISSIONS.value | discord.Permissions(manage_roles=True).value


async def call(fake: FakeDiscord, method: str, path: str) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, headers=headers) as response,
    ):
        body = None if response.status == 204 else await response.json()
        return response.status, body


async def test_a_role_is_given_and_taken_back() -> None:
    async with FakeDiscord(members=("ada",), bot_permissions=MANAGER) as fake:
        role = fake.add_role("Champion")
        ada = fake.member("ada")
        path = f"/guilds/{fake.guild_id}/members/{ada.id}/roles/{role}"
        assert await call(fake, "PUT", path) == (204, None)
        assert fake.member_roles[ada.id] == [role]
        assert str(role) in next(
            m["roles"] for m in fake.guild_payload()["members"] if m["user"]["id"] == str(ada.id)
        )
        assert await call(fake, "DELETE", path) == (204, None)
        assert fake.member_roles[ada.id] == []
        assert not fake.problems


async def test_refused_as_discord_refuses() -> None:
    async with FakeDiscord(members=("ada",)) as fake:
        role = fake.add_role("Champion")
        ada = fake.member("ada")
        base = f"/guilds/{fake.guild_id}/members"
        fake.limits.expect(403)
        status, body = await call(fake, "PUT", f"{base}/{ada.id}/roles/{role}")
        assert (status, body["code"]) == (403, 50013), "no Manage Roles"
        assert not fake.problems, "an invalid request the test expects"
    async with FakeDiscord(members=("ada",), bot_permissions=MANAGER) as fake:
        ada = fake.member("ada")
        base = f"/guilds/{fake.guild_id}/members"
        status, body = await call(fake, "PUT", f"{base}/{ada.id}/roles/{fake.next_id()}")
        assert (status, body["code"]) == (404, 10011), "an unknown role"
        role = fake.add_role("Champion")
        status, body = await call(fake, "PUT", f"{base}/{fake.next_id()}/roles/{role}")
        assert (status, body["code"]) == (404, 10007), "someone not in the server"
