"""The request gate: the global budget, route buckets, and an interaction answered first."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import aiohttp
import pytest

from bot.discord.pace.buckets import GLOBAL_KEPT, GlobalWindow, RouteBucket
from bot.discord.pace.gate import RequestGate, bucket_of, is_interaction
from bot.discord.pace.pacing import Pacers
from bot.tables.scheduler import ManualScheduler
from bot.waits import answer_first_with
from tests.kit.discord_limits import GlobalLimit
from tests.kit.fake_discord import FakeDiscord


def gate(**options: Any) -> RequestGate:
    return RequestGate(Pacers(ManualScheduler()), **options)


def test_which_requests_wait_for_which_bucket() -> None:
    assert bucket_of("POST", "/api/v10/channels/7/threads") == ("threads", 7)
    assert bucket_of("POST", "/api/v10/channels/7/messages/9/threads") == ("threads", 7)
    assert bucket_of("PUT", "/api/v10/guilds/3/members/4/roles/5") == ("roles", 3)
    assert bucket_of("DELETE", "/api/v10/guilds/3/members/4/roles/5") == ("roles", 3)
    assert bucket_of("POST", "/api/v10/guilds/3/scheduled-events") == ("events", 3)
    assert bucket_of("GET", "/api/v10/channels/7/threads") is None
    assert bucket_of("POST", "/api/v10/channels/7/messages") is None
    assert is_interaction("/api/v10/interactions/1/tok-en/callback")
    assert is_interaction("/api/v10/webhooks/1/tok-en")
    assert is_interaction("/api/v10/webhooks/1/tok-en/messages/@original")
    assert not is_interaction("/api/v10/channels/7/messages")


def test_the_global_window_counts_a_request_until_a_second_after_its_answer() -> None:
    window = GlobalWindow()
    for _ in range(GLOBAL_KEPT):
        assert window.free_at(10.0) == 10.0
        window.start()
    assert window.free_at(10.0) == math.inf, "all in flight: the next waits for an answer"
    window.end(10.2)
    assert window.free_at(10.3) == pytest.approx(11.2), "a second after that answer"
    for _ in range(GLOBAL_KEPT - 1):
        window.end(10.4)
    assert window.free_at(11.2) == 11.2
    window.stop_for(11.2, 2.0)
    assert window.free_at(11.5) > 13.2, "a global 429 stops everything"


def test_a_route_bucket_goes_one_at_a_time_until_an_answer_tells_its_size() -> None:
    bucket = RouteBucket()
    assert bucket.free_at(0.0) == 0.0
    bucket.start(0.0)
    assert bucket.free_at(0.0) == math.inf, "the next waits for the first's answer"
    bucket.answered(0.1, limit=3, remaining=2, reset_after=5.0)
    for at in (0.1, 0.2):
        assert bucket.free_at(at) == at
        bucket.start(at)
    assert bucket.free_at(0.3) == pytest.approx(5.12), "spent: the window's reset"
    bucket.answered(0.3, limit=3, remaining=0, reset_after=4.8)
    bucket.answered(0.3, limit=3, remaining=0, reset_after=4.8)
    assert bucket.free_at(5.2) == 5.2, "a new window"
    bucket.start(5.2)
    bucket.answered(5.3, limit=None, remaining=None, reset_after=None, retry_after=2.0)
    assert bucket.free_at(5.4) == pytest.approx(7.32), "a 429 says how long"


async def test_past_the_global_budget_a_request_waits_its_second() -> None:
    held = gate(global_per_second=3)
    starts: list[float] = []

    async def request(n: int) -> None:
        passed = await held.enter("GET", f"/api/v10/channels/{n}")
        starts.append(held.clock())
        held.leave(passed, "GET", f"/api/v10/channels/{n}", 200)

    await asyncio.gather(*(request(n) for n in range(5)))
    assert starts[3] - starts[0] >= 1.0 and starts[4] - starts[1] >= 1.0
    assert held.counts.held == 2
    passed = await held.enter("POST", "/api/v10/interactions/1/tok/callback")
    assert held.clock() - starts[-1] < 1.0, "an interaction's callback does not wait"
    held.leave(passed, "POST", "/api/v10/interactions/1/tok/callback", 204)


async def test_a_held_request_answers_the_interaction_first() -> None:
    held = gate(global_per_second=1)
    answered: list[float] = []
    first = await held.enter("GET", "/api/v10/channels/1")

    async def hook() -> None:
        answered.append(held.clock())

    async def click() -> None:
        answer_first_with(hook)
        passed = await held.enter("GET", "/api/v10/channels/2")
        assert answered and answered[0] < held.clock(), "answered before the wait"
        held.leave(passed, "GET", "/api/v10/channels/2", 200)

    clicked = asyncio.create_task(click())
    await asyncio.sleep(0.05)
    assert answered, "answered while the request waits"
    held.leave(first, "GET", "/api/v10/channels/1", 200)
    await asyncio.wait_for(clicked, 5.0)


async def test_a_global_429_stops_every_request_for_its_time() -> None:
    held = gate()
    passed = await held.enter("GET", "/api/v10/channels/1")
    headers = {"Retry-After": "1", "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
    held.leave(passed, "GET", "/api/v10/channels/1", 429, headers)
    assert held.counts.global_limited == 1
    before = held.clock()
    passed = await held.enter("GET", "/api/v10/channels/1")
    assert held.clock() - before >= 1.0
    held.leave(passed, "GET", "/api/v10/channels/1", 200)


async def test_against_the_fake_a_burst_of_threads_and_requests_meets_no_429() -> None:
    """Through the gate's trace, as the bot's session: the fake's buckets are never passed."""
    async with FakeDiscord() as fake:
        fake.limits.sizes["threads"] = (3, 1.0)
        fake.limits.global_limit = GlobalLimit(per_second=20)
        held = gate(global_per_second=18)
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(trace_configs=[held.trace()], headers=headers) as session:

            async def thread(n: int) -> int:
                url = f"{fake.api_base}/channels/{fake.channel_id}/threads"
                async with session.post(url, json={"name": f"t{n}", "type": 11}) as answer:
                    return answer.status

            async def get() -> int:
                async with session.get(f"{fake.api_base}/channels/{fake.channel_id}") as answer:
                    return answer.status

            statuses = await asyncio.gather(
                *(thread(n) for n in range(7)), *(get() for _ in range(30))
            )
        assert set(statuses) == {200}
        assert fake.rate_limited == [] and fake.problems == []
        assert held.counts.held > 0
