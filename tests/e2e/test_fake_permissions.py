"""The fake Discord refuses what the bot's permissions do not allow, as Discord does."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from tests.e2e.test_fake_limits import NONE, call
from tests.kit.fake_discord import FakeDiscord
from tests.kit.payloads import DEFAULT_BOT_PERMISSIONS

EMBED: dict[str, Any] = {"embeds": [{"title": "A table"}]}


def without(name: str) -> int:
    return DEFAULT_BOT_PERMISSIONS.value & ~discord.Permissions(**{name: True}).value


@pytest.mark.parametrize(
    ("name", "method", "path", "body", "code"),
    [
        ("view_channel", "GET", "/channels/{c}", None, 50001),
        (
            "send_messages",
            "POST",
            "/channels/{c}/messages",
            {"content": "hi", "allowed_mentions": NONE},
            50013,
        ),
        ("embed_links", "POST", "/channels/{c}/messages", EMBED, 50013),
        (
            "create_public_threads",
            "POST",
            "/channels/{c}/threads",
            {"name": "t", "type": 11},
            50013,
        ),
    ],
)
async def test_a_request_without_its_permission_is_refused(
    name: str, method: str, path: str, body: Any, code: int
) -> None:
    async with (
        FakeDiscord(bot_permissions=without(name)) as fake,
        aiohttp.ClientSession() as session,
    ):
        fake.limits.expect(403)
        status, _, answer = await call(fake, session, method, path.format(c=fake.channel_id), body)
        assert (status, answer["code"]) == (403, code)
        assert fake.problems == [] and len(fake.invalid) == 1, "counted, and expected"


async def test_an_unexpected_refusal_is_a_problem() -> None:
    async with (
        FakeDiscord(bot_permissions=without("send_messages")) as fake,
        aiohttp.ClientSession() as session,
    ):
        body = {"content": "hi", "allowed_mentions": NONE}
        await call(fake, session, "POST", f"/channels/{fake.channel_id}/messages", body)
        assert len(fake.problems) == 1 and "403" in fake.problems[0]


async def test_sending_in_a_thread_takes_send_messages_in_threads() -> None:
    async with (
        FakeDiscord(bot_permissions=without("send_messages_in_threads")) as fake,
        aiohttp.ClientSession() as session,
    ):
        made = {"name": "t", "type": 11}
        threads = f"/channels/{fake.channel_id}/threads"
        _, _, thread = await call(fake, session, "POST", threads, made)
        fake.limits.expect(403)
        hello = {"content": "hi", "allowed_mentions": NONE}
        status, _, answer = await call(
            fake, session, "POST", f"/channels/{thread['id']}/messages", hello
        )
        assert (status, answer["code"]) == (403, 50013)
        channel = f"/channels/{fake.channel_id}/messages"
        assert (await call(fake, session, "POST", channel, hello))[0] == 200, "Send Messages"
        assert fake.problems == []
