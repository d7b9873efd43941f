"""The Activity in four real browsers: how long a click takes to be drawn on every page.

``python -m lab bench activity --browsers [--moves N]``: the bot's web app with the
Activity at its shipped defaults (as :mod:`.activity` serves it, behind one trusted proxy,
each page an address of its own), the client built with the SDK's mock, signing in through
the test kit's fake of Discord's OAuth2 (:mod:`tests.kit.oauth`) as it would with Discord.
Four people, each a Chromium context of their own (Debian's ``chromium``, driven by
Playwright), open a table, sit and play it: the person to act clicks a random legal card
or bid on their page once it shows their turn. Games follow one another until ``N`` moves.

A move's time runs from the click (a capture listener of the mover's page notes the
moment) to the moment the last of the four pages has drawn the table at the move's new
stamp (noted after the client's own message handler, which draws, has run), both read
from the pages' clocks (``performance.timeOrigin + performance.now()``, one system clock).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot.players import make_player
from bot.store import Database
from bot.tables import Table, TableService
from bot.tables.database import DatabaseTableStore
from bot.web import WebOptions, make_app
from bot.web.activity import Activity, ActivityOptions
from tests.kit.oauth import BOT_TOKEN, CHANNEL_ID, CLIENT_ID, CLIENT_SECRET, GUILD_ID, FakeOAuth

from .activity import free_port, quantile

__all__ = ["run_browsers"]

_BOUND = 60.0
_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

_TIMING = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__drawn = {};
  for (const kind of ["click", "keydown"]) {
    document.addEventListener(kind, () => { window.__clickAt = now(); }, true);
  }
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    addEventListener(type, listener, options) {
      if (type !== "message") return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (event) => {
        listener(event);
        const m = JSON.parse(event.data);
        if (m.type === "table" && m.table && m.table.stamp) {
          const key = m.table.stamp.join(":");
          if (!(key in window.__drawn)) window.__drawn[key] = now();
        }
      }, options);
    }
  };
})();
"""
"""Notes when the page drew each stamp, and when it was last clicked (before any page code)."""


class _Page:
    def __init__(self, page: Any, user_id: int) -> None:
        self.page = page
        self.user_id = user_id

    async def state(self) -> Any:
        return await self.page.evaluate(
            "() => window.euchreActivity ? {you: window.euchreActivity.you} : null"
        )

    async def drawn(self, stamp: tuple[int, int]) -> float | None:
        key = f"{stamp[0]}:{stamp[1]}"
        found: float | None = await self.page.evaluate(f"() => window.__drawn[{key!r}] ?? null")
        return found


async def _until(check: Any, what: str) -> Any:
    async with asyncio.timeout(_BOUND):
        while True:
            found = await check()
            if found:
                return found
            await asyncio.sleep(0.005)
    raise AssertionError(what)


async def _seat(pages: list[_Page]) -> None:
    host = pages[0].page
    await (
        host.get_by_role("button", name="Open a table")
        .or_(host.get_by_role("button", name="Open a new table"))
        .click()
    )
    for p in pages[1:]:
        await p.page.get_by_role("button", name="Sit down").click()
        await p.page.get_by_text("Waiting for the host").wait_for()
    await host.get_by_role("button", name="Start the game").click()
    for p in pages:
        await p.page.get_by_role("group", name="Your hand").wait_for()


async def _move(pages: list[_Page], table: Table, rng: random.Random) -> float:
    """One click by the person to act; ms until all four pages drew the new stamp."""
    assert table.game is not None and table.game.turn is not None
    taken = table.seats[table.game.turn]
    mover = next(p for p in pages if taken is not None and p.user_id == taken.user_id)
    stamp = list(table.stamp)

    async def ready() -> bool:
        state = await mover.state()
        return bool(state and state["you"] and state["you"]["stamp"] == stamp)

    await _until(ready, "the mover's turn drawn")
    choices = mover.page.locator(".mine .card.legal, .mine .bids .bid")
    await choices.nth(rng.randrange(await choices.count())).click()
    await _until(lambda: _changed(table, stamp), "the click applied")
    new = table.stamp
    times = [await _until(lambda p=p: p.drawn(new), "the move drawn") for p in pages]
    clicked: float = await mover.page.evaluate("() => window.__clickAt")
    return float(max(times) - clicked)


async def _freed(service: TableService) -> bool:
    return service.at(CHANNEL_ID) is None


async def _changed(table: Table, stamp: list[int]) -> bool:
    return list(table.stamp) != stamp or table.status != "playing"


async def run_browsers(moves: int, seed: int) -> str:
    """Serve, open four pages, play ``moves`` moves; the figures as text."""
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("no chromium on PATH: apt-get install chromium")
    rng = random.Random(seed)
    fake = FakeOAuth()
    fake_app = web.Application()
    fake.routes(fake_app, "/api/v10")
    fake_runner = web.AppRunner(fake_app, access_log=None)
    await fake_runner.setup()
    fake_port, port = free_port(), free_port()
    await web.TCPSite(fake_runner, "127.0.0.1", fake_port).start()
    times: list[float] = []
    games = 0
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        service = TableService(
            DatabaseTableStore(db), make_player, seeds=lambda: rng.randrange(2**31)
        )
        options = ActivityOptions(
            client_id=CLIENT_ID,
            client_secret=CLIENT_SECRET,
            bot_token=BOT_TOKEN,
            api_url=f"http://127.0.0.1:{fake_port}/api/v10",
            mock_sdk=True,
        )
        url = f"http://127.0.0.1:{port}"
        app = make_app(
            db, WebOptions(base_url=url, trust_forwarded=1), activity=Activity(service, options)
        )
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=chromium, args=_FLAGS)
                pages = []
                for i, name in enumerate(("Ann", "Bo", "Cy", "Di")):
                    user, code = fake.person(name)
                    context = await browser.new_context(
                        viewport={"width": 390, "height": 844},
                        extra_http_headers={"X-Forwarded-For": f"198.18.9.{i + 1}"},
                    )
                    await context.add_init_script(_TIMING)
                    page = await context.new_page()
                    query = urlencode(
                        {
                            "instance_id": fake.instance().instance_id,
                            "guild_id": GUILD_ID,
                            "channel_id": CHANNEL_ID,
                            "frame_id": "bench",
                            "mock_code": code,
                        }
                    )
                    await page.goto(f"{url}/activity/?{query}")
                    pages.append(_Page(page, user))
                started = time.perf_counter()
                while len(times) < moves:
                    await _seat(pages)
                    table = service.at(CHANNEL_ID)
                    assert table is not None
                    games += 1
                    while table.status == "playing" and len(times) < moves:
                        times.append(await _move(pages, table, rng))
                    if table.status == "playing":
                        await (await service.fetch(table.id)).lobby.abort(pages[0].user_id)
                    await _until(lambda: _freed(service), "the finished table's place freed")
                    for person in pages:
                        await person.page.get_by_role("button", name="Open a new table").wait_for()
                elapsed = time.perf_counter() - started
                await browser.close()
        finally:
            await runner.cleanup()
            await db.close()
            await fake_runner.cleanup()
    p50, _, _ = quantile(times, 0.5)
    p95, low, high = quantile(times, 0.95)
    return (
        f"{len(times)} clicks over {games} game(s) in four Chromium pages ({elapsed:.0f} s)\n"
        f"a click drawn on all four pages: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
        f"(95% interval {low:.1f}-{high:.1f}), max {max(times):.1f} ms (goal: p95 150 ms)"
    )
