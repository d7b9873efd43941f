"""``python -m bot web``: it serves the pages, and refuses to start without their address."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp

from bot.settings import Settings
from bot.store import Database
from bot.web.serve import start_site
from tests.test_main import assert_one_error_line, child_env, run_bot
from tests.web.util import BASE_URL, League


def test_the_pages_refuse_to_start_without_their_public_address(tmp_path: Path) -> None:
    line = assert_one_error_line(run_bot(tmp_path, "web", "--port", "1"))
    assert line == (
        "error: the web pages need web_base_url, their public address "
        "(https://euchre.example.org): every link in them and in their previews starts with it"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_pages_serve_on_loopback_until_stopped(tmp_path: Path) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web", "--port", str(port)],
        cwd=tmp_path,
        env=child_env(EUCHRE_WEB_BASE_URL=BASE_URL, EUCHRE_DATA_DIR=str(tmp_path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60  # bounds a hang only: the loop ends on the answer
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    assert answer.status == 200
                    assert f'content="{BASE_URL}/"' in answer.read().decode()
                break
            except (urllib.error.URLError, ConnectionError):
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "the pages never answered"
                time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "Serving the web pages of" in err and f"on http://127.0.0.1:{port} as {BASE_URL}" in err


async def test_the_bot_serves_the_pages_beside_itself_with_web_port(
    db: Database, league: League
) -> None:
    port = _free_port()
    settings = Settings(web_port=port, web_base_url=BASE_URL, web_trust_forwarded=1)
    runner = await start_site(db, settings, "127.0.0.1", port)
    try:
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{port}/s/{league.guild_id}"
            async with session.get(url, headers={"X-Forwarded-For": "203.0.113.9"}) as answer:
                assert answer.status == 200
                assert f'content="{BASE_URL}/s/{league.guild_id}"' in await answer.text()
    finally:
        await runner.cleanup()
