"""A real Chromium (Debian's package) driven by Playwright, against the app on loopback.

Marked ``browser`` and left out of the default run: ``pytest -m browser -n 0``. Playwright
never downloads a browser here; it drives the system's (``chromium`` on PATH, or
``EUCHRE_CHROMIUM``). axe-core comes from the npm registry once, into a cache folder
(``EUCHRE_AXE_DIR``, default ``~/.cache/euchre-bot/axe-core``). Screenshots go to
``EUCHRE_SCREENSHOTS`` (default: a ``screenshots`` folder of pytest's temporary folder).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.store import Database
from bot.web import WebOptions, make_app
from tests.web.util import League, fill

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


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    db = await Database.open(tmp_path / "browser.sqlite3")
    league = await fill(db)
    runner = web.AppRunner(make_app(db, WebOptions(requests_per_minute=100_000)))
    await runner.setup()
    tcp = web.TCPSite(runner, "127.0.0.1", 0)
    await tcp.start()
    port = runner.addresses[0][1]
    try:
        yield Site(f"http://127.0.0.1:{port}", league)
    finally:
        await runner.cleanup()
        await db.close()


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
