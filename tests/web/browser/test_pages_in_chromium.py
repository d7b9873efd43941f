"""The web pages in a real browser at the shipped rate limit: a visit fails nothing, fits, passes axe.

A replay is at most six requests and steps without loading a page; what its script
draws is what the server draws for that step; without script its links still step.
Waits are Playwright's locator assertions: the pages' CSP refuses the eval that
``wait_for_function`` polls with.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import expect

from tests.web.test_events import night, stored
from tests.web.util import HOSTILE

from .conftest import Site, visitor_address

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}

SERIALISED = """
(root) => {
  const walk = (n) => {
    if (n.nodeType === 3) { const t = n.textContent.replace(/\\s+/g, ' ').trim(); return t || null; }
    if (n.nodeType !== 1) return null;
    const attrs = [...n.attributes].map(a => a.name + '=' + a.value).sort().join(' ');
    const kids = [...n.childNodes].map(walk).filter(x => x !== null);
    return '<' + n.tagName.toLowerCase() + ' ' + attrs + '>' + kids.join('|') + '</>';
  };
  return walk(root);
}
"""
"""A page part as elements, attributes and text, whitespace between elements left out."""


def _pages(site: Site, event_id: int) -> dict[str, str]:
    g = site.league.guild_id
    return {
        "home": "/",
        "server": f"/s/{g}",
        "player": f"/s/{g}/players/{site.league.player}",
        "hostile-player": f"/s/{g}/players/{site.league.hostile}",
        "game-bidding": f"/s/{g}/games/{site.league.games[0]}?step=1",
        "game-trick": f"/s/{g}/games/{site.league.games[0]}?step=2",
        "game-end": f"/s/{g}/games/{site.league.games[0]}",
        "hostile-game": f"/s/{g}/games/{site.league.games[1]}?step=2",
        "names-game": f"/s/{g}/games/{site.league.names_game}?step=3",
        "event": f"/s/{g}/events/{event_id}",
        "not-found": f"/s/{g}/games/999999",
    }


class Visit:
    """One visitor (a browser context with an address of its own) and what went wrong."""

    def __init__(self, page: Any, address: str) -> None:
        self.page = page
        self.address = address
        self.troubles: list[str] = []
        self.requests: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on(
            "console",
            lambda m: self.troubles.append(f"console: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.troubles.append(f"page error: {e}"))
        # A request the next page's navigation cancels (net::ERR_ABORTED) did not fail.
        page.on(
            "requestfailed",
            lambda r: (
                None
                if r.failure == "net::ERR_ABORTED"
                else self.troubles.append(f"request failed: {r.url} ({r.failure})")
            ),
        )
        page.on(
            "response",
            lambda r: (
                self.troubles.append(f"{r.status}: {r.url}")
                if r.status >= 400 and "/999999" not in r.url
                else None
            ),
        )

        async def dismiss(dialog: Any) -> None:
            self.troubles.append(f"dialog: {dialog.message}")
            await dialog.dismiss()

        page.on("dialog", dismiss)


async def visit(browser: Any, viewport: dict[str, int] = DESK, **options: Any) -> Visit:
    address = visitor_address()
    context = await browser.new_context(
        viewport=viewport, extra_http_headers={"X-Forwarded-For": address}, **options
    )
    return Visit(await context.new_page(), address)


@pytest.mark.parametrize("width", ["desk", "phone"])
async def test_every_page_kind_loads_cleanly_and_fits(
    browser: Any, site: Site, axe_js: Path, screenshots: Path, width: str
) -> None:
    viewport = PHONE if width == "phone" else DESK
    event = await stored(site.db, night(site.league.guild_id, "Friday night", 11))
    assert event.id is not None
    for name, path in _pages(site, event.id).items():
        one = await visit(browser, viewport)
        response = await one.page.goto(site.url + path, wait_until="networkidle")
        assert response is not None
        assert response.status == (404 if name == "not-found" else 200), path
        await one.page.screenshot(path=screenshots / f"{name}-{width}.png", full_page=True)
        sideways = await one.page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert sideways <= 0, f"{path} scrolls sideways by {sideways} px at {width} width"
        if name != "not-found":  # the 404 itself is the console's one error there
            assert one.troubles == [], path
        # axe is injected as a script of its own: a page of its own lets it past the CSP
        checker = await visit(browser, viewport, bypass_csp=True)
        await checker.page.goto(site.url + path, wait_until="networkidle")
        await checker.page.add_script_tag(path=str(axe_js))
        violations = await checker.page.evaluate(
            "axe.run().then(r => r.violations.map(v => "
            "({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))"
        )
        serious = [v for v in violations if v["impact"] in ("serious", "critical")]
        assert serious == [], f"{path}: {serious}"


async def test_a_first_visit_and_sixty_arrow_steps_fail_nothing(browser: Any, site: Site) -> None:
    game = f"{site.url}/s/{site.league.guild_id}/games/{site.league.games[0]}"
    one = await visit(browser)
    await one.page.goto(f"{game}?step=1", wait_until="networkidle")
    count = int(re.search(r"of (\d+)", await one.page.inner_text(".where")).group(1))  # type: ignore[union-attr]
    step, seen = 1, {1: ""}
    for n in range(60):
        key = "ArrowRight" if (n // (count - 1)) % 2 == 0 else "ArrowLeft"
        step += 1 if key == "ArrowRight" else -1
        await one.page.keyboard.press(key)
        await expect(one.page.locator(".where")).to_have_text(f"Step {step} of {count}")
        assert one.page.url == f"{game}?step={step}"
        seen[step] = await one.page.evaluate(f"({SERIALISED})(document.getElementById('replay'))")
    await one.page.wait_for_load_state("networkidle")
    assert one.troubles == []
    # the page, its style sheet, script, cards and icon, and every step's data: six in all
    asked = site.asked_by(one.address)
    assert len(asked) <= 6, asked
    assert sum(path.startswith("/static/cards.") for path in asked) == 1
    # what the script drew is what the server draws for that step (another visitor)
    other = await visit(browser)
    for number in sorted(seen)[1 :: max(1, len(seen) // 5)]:
        await other.page.goto(f"{game}?step={number}", wait_until="networkidle")
        drawn = await other.page.evaluate(f"({SERIALISED})(document.getElementById('replay'))")
        assert seen[number] == drawn, f"step {number} drawn by the script differs"
    assert other.troubles == []


async def test_a_replay_steps_by_its_links_without_script(browser: Any, site: Site) -> None:
    game = f"{site.url}/s/{site.league.guild_id}/games/{site.league.games[0]}"
    one = await visit(browser, java_script_enabled=False)
    await one.page.goto(f"{game}?step=1")
    async with one.page.expect_navigation():
        await one.page.get_by_role("link", name="Next ▶").click()
    assert one.page.url == f"{game}?step=2"
    assert "Step 2 of" in await one.page.inner_text(".where")
    async with one.page.expect_navigation():
        await one.page.get_by_role("link", name="2", exact=True).click()  # deal 2
    assert "Deal 2 of" in await one.page.inner_text(".heading")
    assert "bidding" in await one.page.inner_text(".heading")
    await one.page.keyboard.press("ArrowRight")  # nothing without the script
    assert "bidding" in await one.page.inner_text(".heading")
    assert one.troubles == []


async def test_a_replays_links_and_deals_step_in_place_with_script(
    browser: Any, site: Site
) -> None:
    game = f"{site.url}/s/{site.league.guild_id}/games/{site.league.games[0]}"
    one = await visit(browser)
    await one.page.goto(f"{game}?step=1", wait_until="networkidle")
    loads = len(site.asked_by(one.address))
    await one.page.get_by_role("link", name="Next ▶").click()
    await expect(one.page).to_have_url(f"{game}?step=2")
    await one.page.get_by_role("link", name="3", exact=True).click()  # deal 3
    await expect(one.page.locator(".heading")).to_have_text(re.compile(r"^Deal 3 "))
    assert "bidding" in await one.page.inner_text(".heading")
    assert await one.page.get_attribute("a.deal[aria-current]", "data-step") is not None
    assert len(site.asked_by(one.address)) <= loads + 1, "the steps' data, and no page"
    await one.page.keyboard.press("ArrowLeft")
    await expect(one.page.locator(".heading")).to_have_text(re.compile(r"^Deal 2 "))
    assert one.troubles == []


async def test_a_name_that_turns_text_around_turns_nothing_else(browser: Any, site: Site) -> None:
    one = await visit(browser)
    path = f"/s/{site.league.guild_id}/games/{site.league.names_game}"
    await one.page.goto(site.url + path, wait_until="networkidle")
    scores = await one.page.evaluate(
        "[...document.querySelectorAll('.lede strong')].map(s => s.getBoundingClientRect().x)"
    )
    assert len(scores) == 2 and scores[0] < scores[1], "the score reads left to right"
    assert await one.page.evaluate("document.documentElement.scrollWidth <= innerWidth")


async def test_the_arrow_keys_hint_is_left_out_on_touch_screens(browser: Any, site: Site) -> None:
    path = f"{site.url}/s/{site.league.guild_id}/games/{site.league.games[0]}"
    touch = await visit(browser, PHONE, has_touch=True, is_mobile=True)
    await touch.page.goto(path, wait_until="networkidle")
    assert not await touch.page.is_visible(".hint")
    desk = await visit(browser)
    await desk.page.goto(path, wait_until="networkidle")
    assert await desk.page.is_visible(".hint")


async def test_hostile_names_render_as_text(browser: Any, site: Site) -> None:
    pages = _pages(site, 0)
    for path in ("server", "hostile-player", "hostile-game"):
        one = await visit(browser)
        await one.page.goto(site.url + pages[path], wait_until="networkidle")
        assert HOSTILE in await one.page.inner_text("main")
        injected = await one.page.evaluate(
            "[...document.querySelectorAll('img')].filter(i => !i.src.includes('/static/cards.')"
            " || i.hasAttribute('onerror')).length"
        )
        assert injected == 0
        scripts = await one.page.evaluate(
            "[...document.scripts].map(s => s.src ? new URL(s.src).pathname : 'inline')"
        )
        assert all(re.fullmatch(r"/static/replay\.[0-9a-f]{10}\.js", s) for s in scripts), scripts
        assert one.troubles == []
