"""The web pages in a real browser: they load cleanly, step by keyboard, fit a phone, pass axe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.util import HOSTILE

from .conftest import Site

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}


def _pages(site: Site) -> dict[str, str]:
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
    }


async def _open(
    browser: Any, viewport: dict[str, int], *, bypass_csp: bool = False
) -> tuple[Any, list[str]]:
    page = await browser.new_page(viewport=viewport, bypass_csp=bypass_csp)
    troubles: list[str] = []
    page.on(
        "console", lambda m: troubles.append(f"console: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: troubles.append(f"page error: {e}"))
    # A request the next page's navigation cancels (net::ERR_ABORTED) did not fail.
    page.on(
        "requestfailed",
        lambda r: None
        if r.failure == "net::ERR_ABORTED"
        else troubles.append(f"request failed: {r.url} ({r.failure})"),
    )
    page.on(
        "response",
        lambda r: troubles.append(f"{r.status}: {r.url}") if r.status >= 400 else None,
    )

    async def dismiss(dialog: Any) -> None:
        troubles.append(f"dialog: {dialog.message}")
        await dialog.dismiss()

    page.on("dialog", dismiss)
    return page, troubles


@pytest.mark.parametrize("width", ["desk", "phone"])
async def test_every_page_kind_loads_cleanly_and_fits(
    browser: Any, site: Site, axe_js: Path, screenshots: Path, width: str
) -> None:
    viewport = PHONE if width == "phone" else DESK
    page, troubles = await _open(browser, viewport)
    # axe is injected as a script of its own: a page of its own lets it past the CSP
    checker, _ = await _open(browser, viewport, bypass_csp=True)
    for name, path in _pages(site).items():
        response = await page.goto(site.url + path, wait_until="networkidle")
        assert response is not None and response.status == 200, path
        await page.screenshot(path=screenshots / f"{name}-{width}.png", full_page=True)
        sideways = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert sideways <= 0, f"{path} scrolls sideways by {sideways} px at {width} width"
        await checker.goto(site.url + path, wait_until="networkidle")
        await checker.add_script_tag(path=str(axe_js))
        violations = await checker.evaluate(
            "axe.run().then(r => r.violations.map(v => "
            "({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))"
        )
        serious = [v for v in violations if v["impact"] in ("serious", "critical")]
        assert serious == [], f"{path}: {serious}"
    assert troubles == []


async def test_a_replay_steps_with_the_arrow_keys(browser: Any, site: Site) -> None:
    page, troubles = await _open(browser, DESK)
    game = f"{site.url}/s/{site.league.guild_id}/games/{site.league.games[0]}"
    await page.goto(f"{game}?step=1")
    assert "Step 1 of" in await page.inner_text(".where")
    for key, step in (("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2)):
        async with page.expect_navigation():
            await page.keyboard.press(key)
        assert page.url == f"{game}?step={step}"
        assert f"Step {step} of" in await page.inner_text(".where")
    async with page.expect_navigation():
        await page.get_by_role("link", name="Next ▶").click()
    assert page.url == f"{game}?step=3"
    await page.goto(f"{game}?step=1")
    await page.keyboard.press("ArrowLeft")  # nothing before the first step
    await page.wait_for_timeout(200)
    assert page.url == f"{game}?step=1"
    assert troubles == []


async def test_hostile_names_render_as_text(browser: Any, site: Site) -> None:
    page, troubles = await _open(browser, DESK)
    for path in ("server", "hostile-player", "hostile-game"):
        await page.goto(site.url + _pages(site)[path], wait_until="networkidle")
        assert HOSTILE in await page.inner_text("main")
        injected = await page.evaluate(
            "[...document.querySelectorAll('img')].filter(i => !i.src.includes('/cards/')"
            " || i.hasAttribute('onerror')).length"
        )
        assert injected == 0
        scripts = await page.evaluate(
            "[...document.scripts].map(s => s.src ? new URL(s.src).pathname : 'inline')"
        )
        assert all(s == "/static/replay.js" for s in scripts), scripts
    assert troubles == []
