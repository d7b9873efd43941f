"""The rate limit trace: Discord's headers of a paced request reach the pacer that sent it."""

from __future__ import annotations

import asyncio

import aiohttp
from aiohttp import web

from bot.discord.pace.headers import message_route, rate_limit_trace
from bot.discord.pace.pacing import ChannelLimits, ChannelPacer
from bot.tables.scheduler import ManualScheduler
from tests.kit.waiting import until

CHANNEL = 42


def test_the_routes_of_channel_message_posts_edits_and_deletes() -> None:
    assert message_route("POST", f"/api/v10/channels/{CHANNEL}/messages") == (CHANNEL, "post")
    assert message_route("PATCH", f"/api/v10/channels/{CHANNEL}/messages/9") == (CHANNEL, "edit")
    assert message_route("DELETE", f"/api/v10/channels/{CHANNEL}/messages/9") == (
        CHANNEL,
        "delete",
    )
    assert message_route("GET", f"/api/v10/channels/{CHANNEL}/messages/9") is None
    assert message_route("POST", f"/api/v10/channels/{CHANNEL}/messages/9/crosspost") is None
    assert message_route("PATCH", "/api/v10/webhooks/1/token/messages/9") is None


async def test_the_headers_of_a_paced_edit_tell_its_pacer_when_the_window_resets() -> None:
    async def edit(request: web.Request) -> web.Response:
        headers = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0"}
        headers["X-RateLimit-Reset-After"] = "3.000"
        return web.json_response({"id": request.match_info["message"]}, headers=headers)

    app = web.Application()
    app.router.add_patch("/api/v10/channels/{channel}/messages/{message}", edit)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    clock = ManualScheduler()
    pacer = ChannelPacer(clock, ChannelLimits(reserve=0), channel_id=CHANNEL)
    sent: list[float] = []
    try:
        async with aiohttp.ClientSession(trace_configs=[rate_limit_trace()]) as session:

            async def job() -> None:
                url = f"http://127.0.0.1:{port}/api/v10/channels/{CHANNEL}/messages/9"
                async with session.patch(url) as response:
                    assert response.status == 200
                sent.append(clock.now())

            pacer.submit("first", "edit", job)
            await until(lambda: sent and pacer.traced, "the first edit and its headers")
            pacer.submit("second", "edit", job)
            await asyncio.sleep(0.05)
            assert sent == [0.0], "the answer said the window is spent"
            await clock.advance(3.0)
            await asyncio.sleep(0.05)
            assert sent == [0.0]
            await clock.advance(0.02)
            await until(lambda: len(sent) == 2, "the second edit")
            assert sent == [0.0, 3.02], "it goes when the headers said, not a period later"
    finally:
        await runner.cleanup()
