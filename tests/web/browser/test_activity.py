"""The Activity in Chromium: four people play a game to its end, a watcher watches.

Each person is a browser context of their own (an address of their own), running the
client built with the SDK's mock (``ActivityOptions.mock_sdk``), which the page's query
tells its instance and the code Discord's ``authorize`` would give; the server checks
that code with the fake OAuth as it would with Discord. Moves are clicks on the drawn
cards and bid buttons (and the keyboard); the table is read back from the page.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.async_api import expect

from bot.tables import Table
from tests.kit.oauth import CHANNEL_ID, GUILD_ID
from tests.kit.waiting import BOUND, until
from tests.web.activity.util import Served, address, served_activity

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
SERIOUS = ("serious", "critical")


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    found = await served_activity(tmp_path, mock_sdk=True)
    try:
        yield found
    finally:
        await found.close()
        await found.db.close()


class Person:
    """One person's browser context, on the Activity's page."""

    def __init__(self, page: Any, user_id: int) -> None:
        self.page = page
        self.user_id = user_id
        self.troubles: list[str] = []
        page.on("pageerror", lambda e: self.troubles.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: self.troubles.append(f"console: {m.text}") if m.type == "error" else None,
        )

    async def state(self) -> Any:
        return await self.page.evaluate(
            "() => { const s = window.euchreActivity;"
            " return s ? {table: s.table, you: s.you, online: s.online} : null; }"
        )


async def open_page(
    browser: Any, served: Served, name: str, viewport: dict[str, int], *, axe: bool = False
) -> Person:
    """A person opens the Activity; ``axe``: their page lets axe's script past the CSP."""
    user, code = served.fake.person(name)
    instance = served.fake.instance()
    context = await browser.new_context(
        viewport=viewport, extra_http_headers={"X-Forwarded-For": address()}, bypass_csp=axe
    )
    page = await context.new_page()
    query = urlencode(
        {
            "instance_id": instance.instance_id,
            "guild_id": GUILD_ID,
            "channel_id": CHANNEL_ID,
            "frame_id": "test",
            "mock_code": code,
        }
    )
    person = Person(page, user)
    await page.goto(f"{served.url}/activity?{query}")
    return person


async def axe(person: Person, axe_js: Path) -> list[dict[str, str]]:
    await person.page.add_script_tag(path=str(axe_js))
    found: list[dict[str, str]] = await person.page.evaluate(
        "axe.run().then(r => r.violations.map(v => ({id: v.id, impact: v.impact,"
        " nodes: v.nodes.map(n => n.html).slice(0, 3)})))"
    )
    return [v for v in found if v["impact"] in SERIOUS]


async def seat_four(browser: Any, served: Served, viewport: dict[str, int]) -> list[Person]:
    people = [
        await open_page(browser, served, n, viewport, axe=n == "Ann")
        for n in ("Ann", "Bo", "Cy", "Di")
    ]
    host = people[0]
    await host.page.get_by_role("button", name="Open a table").click()
    for p in people[1:]:
        await p.page.get_by_role("button", name="Sit down").click()
        await expect(p.page.get_by_text("Waiting for the host")).to_be_visible()
    await host.page.get_by_role("button", name="Start the game").click()
    for p in people:
        await expect(p.page.get_by_role("group", name="Your hand")).to_be_visible()
    return people


def the_table(served: Served) -> Table:
    assert served.service is not None
    table = served.service.at(CHANNEL_ID)
    assert table is not None
    return table


async def move(
    people: list[Person], table: Table, rng: random.Random, *, keys: bool, shot: Path | None = None
) -> None:
    """The person to act clicks a legal card or a bid, once their page shows the turn.

    ``shot``: a screenshot of their page first, where it is saved.
    """
    assert table.game is not None and table.game.turn is not None
    seat = table.game.turn
    person = next(p for p in people if table.seats[seat].user_id == p.user_id)  # type: ignore[union-attr]
    stamp = list(table.stamp)
    async with asyncio.timeout(BOUND):
        while True:
            state = await person.state()
            if state and state["you"] and state["you"]["stamp"] == stamp:
                break
            await asyncio.sleep(0.01)
    if shot is not None:
        await person.page.screenshot(path=shot)
    choices = person.page.locator(".mine .card.legal, .mine .bids .bid")
    count = await choices.count()
    assert count, await person.state()
    pick = choices.nth(rng.randrange(count))
    if keys:
        await pick.focus()
        await person.page.keyboard.press("Enter")
    else:
        await pick.click()
    await until(
        lambda: list(table.stamp) != stamp or table.status != "playing", "the click applied"
    )


async def test_four_people_play_to_the_end_and_one_reconnects_mid_deal(
    browser: Any, served: Served, axe_js: Path, screenshots: Path
) -> None:
    people = await seat_four(browser, served, PHONE)
    watcher = await open_page(browser, served, "Gus", DESK, axe=True)
    await expect(watcher.page.get_by_text("You are watching this table.")).to_be_visible()
    table = the_table(served)
    rng = random.Random(4)
    moves = 0
    while table.status == "playing":
        shot = screenshots / "activity-390.png" if moves == 6 else None
        await move(people, table, rng, keys=moves % 3 == 0, shot=shot)
        moves += 1
        if moves == 7:
            wide = await open_page(browser, served, "Wes", DESK)
            await expect(wide.page.locator(".felt")).to_be_visible()
            await watcher.page.screenshot(path=screenshots / "activity-watch-1280.png")
            assert await axe(people[0], axe_js) == []
            assert await axe(watcher, axe_js) == []
            # Bo's connection drops mid-deal: the page reconnects with its ticket.
            assert served.activity is not None
            bo = served.activity.hub
            for room in bo.rooms.values():
                for s in list(room.sockets):
                    if s.ticket.user_id == people[1].user_id:
                        await s.ws.close(code=1011)
            await expect(people[1].page.locator(".mine .hand")).to_be_visible()
    assert moves > 20
    for p in [*people, watcher]:
        await expect(p.page.locator(".line")).to_contain_text(" win ")
    assert await watcher.page.locator(".mine").count() == 0
    await people[1].page.screenshot(path=screenshots / "activity-end-390.png")
    await expect(watcher.page.get_by_role("button", name="Open a new table")).to_be_visible()
    assert served.service is not None
    service = served.service
    await until(lambda: service.at(CHANNEL_ID) is None, "the finished game archived")
    await people[1].page.get_by_role("button", name="Play again").click()
    await expect(people[1].page.get_by_role("button", name="Start the game")).to_be_visible()
    await expect(people[0].page.get_by_text("Waiting for the host")).to_be_visible()
    for p in [*people, watcher]:
        assert p.troubles == []
