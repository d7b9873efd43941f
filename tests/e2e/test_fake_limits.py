"""The fake Discord keeps Discord's global limit, route buckets and invalid requests."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from tests.e2e.test_fake_roles import MANAGER
from tests.kit.discord_limits import ROUTE_BUCKETS, InvalidRequests
from tests.kit.fake_discord import FakeDiscord, Interaction
from tests.kit.fake_limits import FakeLimits

NONE: dict[str, Any] = {"parse": []}
"""Mentions nobody: the contract asks text to say whom it may mention."""


async def call(
    fake: FakeDiscord, session: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, dict[str, str], Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with session.request(method, fake.api_base + path, headers=headers, json=body) as answer:
        data = None if answer.status == 204 else await answer.json()
        return answer.status, dict(answer.headers), data


async def test_the_global_limit_answers_the_51st_request_of_a_second() -> None:
    now = [100.0]
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.clock = lambda: now[0]
        path = f"/channels/{fake.channel_id}"
        for _ in range(50):
            assert (await call(fake, session, "GET", path))[0] == 200
        fake.limits.expect(429)
        status, headers, body = await call(fake, session, "GET", path)
        assert status == 429 and body["global"] is True
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        assert float(headers["Retry-After"]) >= 1
        assert len(fake.rate_limited) == 1 and fake.problems == []
        now[0] += 1.0
        assert (await call(fake, session, "GET", path))[0] == 200, "a second later"


async def test_an_interactions_own_requests_are_not_counted_globally() -> None:
    now = [100.0]
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.clock = lambda: now[0]
        for _ in range(50):
            await call(fake, session, "GET", f"/channels/{fake.channel_id}")
        late = f"/webhooks/{fake.application_id}/no-such-token/messages/@original"
        status, _, body = await call(
            fake, session, "PATCH", late, {"content": "x", "allowed_mentions": NONE}
        )
        assert (status, body["code"]) == (404, 10015), "past the global limit, not a 429"


async def test_thread_creation_has_a_bucket_per_channel_told_in_its_headers() -> None:
    now = [100.0]
    limit, period = ROUTE_BUCKETS["threads"]
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.clock = lambda: now[0]
        path = f"/channels/{fake.channel_id}/threads"
        body = {"name": "a table", "type": 11}
        for n in range(limit):
            status, headers, _ = await call(fake, session, "POST", path, body)
            assert status == 200
            assert headers["X-RateLimit-Limit"] == str(limit)
            assert headers["X-RateLimit-Remaining"] == str(limit - n - 1)
        status, headers, answer = await call(fake, session, "POST", path, body)
        assert status == 429 and answer["global"] is False
        assert headers["X-RateLimit-Scope"] == "user"
        assert len(fake.problems) == 1 and "429" in fake.problems[0], "nobody expected it"
        now[0] += period
        assert (await call(fake, session, "POST", path, body))[0] == 200, "the next window"


async def test_member_roles_share_a_bucket_per_server() -> None:
    now = [100.0]
    limit, _ = ROUTE_BUCKETS["roles"]
    async with (
        FakeDiscord(members=("ada", "bob"), bot_permissions=MANAGER) as fake,
        aiohttp.ClientSession() as session,
    ):
        fake.clock = lambda: now[0]
        role = fake.add_role("Champion")
        ada, bob = fake.member("ada"), fake.member("bob")
        for n in range(limit):
            who = ada if n % 2 else bob
            method = "PUT" if n % 4 < 2 else "DELETE"
            path = f"/guilds/{fake.guild_id}/members/{who.id}/roles/{role}"
            assert (await call(fake, session, method, path))[0] == 204
        fake.limits.expect(429)
        path = f"/guilds/{fake.guild_id}/members/{ada.id}/roles/{role}"
        assert (await call(fake, session, "PUT", path))[0] == 429
        assert fake.problems == []


def test_invalid_requests_past_the_limit_shut_the_bot_out_for_an_hour() -> None:
    invalid = InvalidRequests(limit=3, window=600.0)
    assert InvalidRequests.counts(403, None) and InvalidRequests.counts(401, None)
    assert InvalidRequests.counts(429, "user") and not InvalidRequests.counts(429, "shared")
    assert not InvalidRequests.counts(404, None)
    invalid.add(0.0)
    invalid.add(700.0)  # the first is out of the window by now
    invalid.add(701.0)
    assert not invalid.banned(701.0)
    invalid.add(702.0)
    assert invalid.banned(702.0) and invalid.banned(702.0 + 3599.0)
    assert not invalid.banned(702.0 + 3600.0)


async def test_a_banned_bot_gets_429_on_everything() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.limits.invalid.banned_until = fake.clock() + 3600.0
        fake.limits.expect(429)
        status, _, body = await call(fake, session, "GET", f"/channels/{fake.channel_id}")
        assert status == 429 and "blocked" in body["message"]
        assert fake.problems == []


async def test_an_interaction_token_takes_follow_ups_for_15_minutes() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        alice = fake.member("alice")
        token = "token-old"
        interaction = Interaction(
            fake.next_id(), token, 3, alice, fake.channel_id, None, "a click", {}
        )
        interaction.response_type = 6
        fake.interactions[interaction.id] = interaction
        url = f"{fake.api_base}/webhooks/{fake.application_id}/{token}"
        loop_now = asyncio.get_running_loop().time()
        interaction.delivered_at = loop_now - 14 * 60
        async with session.post(
            url, json={"content": "in time", "flags": 64, "allowed_mentions": NONE}
        ) as answer:
            assert answer.status == 200
        interaction.delivered_at = loop_now - 15 * 60 - 1
        fake.limits.expect(401)
        async with session.post(
            url, json={"content": "too late", "allowed_mentions": NONE}
        ) as answer:
            assert answer.status == 401 and (await answer.json())["code"] == 50027
        assert fake.problems == []


def test_an_expected_invalid_answer_may_be_expected_only_for_a_while() -> None:
    now = [0.0]
    limits = FakeLimits(lambda: now[0])
    limits.expect(429, until=5.0)
    assert limits.answered(429, {"X-RateLimit-Scope": "user"}, "a request") is None
    limits.expect(429, until=5.0)
    now[0] = 6.0
    assert limits.answered(429, {"X-RateLimit-Scope": "user"}, "a request") is not None
    assert limits.answered(429, {"X-RateLimit-Scope": "shared"}, "a request") is None
