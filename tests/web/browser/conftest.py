"""A real Chromium (Debian's package) driven by Playwright, against the app on loopback.

Marked ``browser`` and left out of the default run: ``pytest -m browser -n 0``. Playwright
never downloads a browser here; it drives the system's (``chromium`` on PATH, or
``EUCHRE_CHROMIUM``). axe-core comes from the npm registry once, into a cache folder
(``EUCHRE_AXE_DIR``, default ``~/.cache/euchre-bot/axe-core``). Screenshots go to
``EUCHRE_SCREENSHOTS`` (default: a ``screenshots`` folder of pytest's temporary folder).

The app runs at its shipped rate limit, as behind one proxy (``web_trust_forwarded = 1``):
each test's visitor is a browser context of its own, with an address of its own in
``X-Forwarded-For`` (:func:`visitor`), so every visitor meets the limit a person meets.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.store import Database
from bot.web import WebOptions, make_app
from tests.web.util import League, fill

_ADDRESSES = itertools.count(1)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

AXE_VERSION = "4.14.1"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _chromium() -> str:
    found = os.environ.get("EUCHRE_CHROMIUM") or shutil.which("chromium")
    if not found:
        if os.environ.get("EUCHRE_BROWSER_REQUIRED"):
            pytest.fail("no chromium on PATH: apt-get install chromium")
        pytest.skip("no chromium on PATH: apt-get install chromium (as .ci/run does)")
    return found


@pytest.fixture(scope="session")
def axe_js() -> Path:
    folder = Path(os.environ.get("EUCHRE_AXE_DIR") or Path.home() / ".cache/euchre-bot/axe-core")
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("no npm to install axe-core with (apt-get install npm)")
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(folder),
                "--no-audit",
                "--no-fund",
                "--silent",
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            timeout=300,
        )
    return script


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("EUCHRE_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Site:
    """The app serving a filled store on a loopback port."""

    url: str
    league: League
    db: Database
    served: list[tuple[str, str]] = field(default_factory=list)
    """Every request that reached the app: the visitor's address and the path asked for."""

    def asked_by(self, address: str) -> list[str]:
        """The paths one visitor's requests asked for, in order."""
        return [path for who, path in self.served if who == address]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """The pages at their shipped defaults (the rate limit on), behind one trusted proxy."""
    db = await Database.open(tmp_path / "browser.sqlite3")
    league = await fill(db)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    found = Site(url, league, db)
    app = make_app(db, WebOptions(base_url=url, trust_forwarded=1))

    @web.middleware
    async def noted(request: web.Request, handler: Handler) -> web.StreamResponse:
        found.served.append((request.headers.get("X-Forwarded-For", ""), request.path_qs))
        return await handler(request)

    app.middlewares.insert(0, noted)
    runner = web.AppRunner(app)
    await runner.setup()
    tcp = web.TCPSite(runner, "127.0.0.1", port)
    await tcp.start()
    try:
        yield found
    finally:
        await runner.cleanup()
        await db.close()


def visitor_address() -> str:
    """An address no other visitor of the test run has (from TEST-NET-3)."""
    n = next(_ADDRESSES)
    return f"203.0.{113 + n // 250}.{n % 250 + 1}"


@dataclass
class Troubles:
    """What went wrong in the browser: console errors, failed requests, script dialogs."""

    items: list[str] = field(default_factory=list)


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    executable = _chromium()
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            await chromium.close()
