"""``python -m bot web``: it serves the pages, and refuses to start without their address."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest

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


def _serving(
    tmp_path: Path, port: int, processes: int, *, session: bool = False
) -> subprocess.Popen[str]:
    """``python -m bot web`` from ``processes`` processes, once its home page answers.

    With ``session``, in a process group of its own, as a terminal or systemd starts it.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web", "--port", str(port)],
        cwd=tmp_path,
        env=child_env(
            EUCHRE_WEB_BASE_URL=BASE_URL,
            EUCHRE_DATA_DIR=str(tmp_path),
            EUCHRE_WEB_PROCESSES=str(processes),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=session,
    )
    deadline = time.monotonic() + 60  # bounds a hang only: the loop ends on the answer
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                assert answer.status == 200
                assert f'content="{BASE_URL}/"' in answer.read().decode()
            return process
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError(f"the pages never answered: {process.communicate()}") from None
            time.sleep(0.2)


def _children(pid: int) -> list[int]:
    return [int(n) for n in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie left to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("processes", [1, 2])
def test_the_pages_serve_on_loopback_until_stopped(tmp_path: Path, processes: int) -> None:
    port = _free_port()
    process = _serving(tmp_path, port, processes)
    try:
        children = _children(process.pid)
        assert len(children) == (0 if processes == 1 else processes)
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert f"on http://127.0.0.1:{port} as {BASE_URL}" in err
    if processes == 1:
        assert "Serving the web pages of" in err
    else:  # each page process says it serves, by its pid: no start reads as said twice
        said = re.findall(r"Page process (\d+) serving the web pages of", err)
        assert said and len(set(said)) == len(said) and {int(pid) for pid in said} <= set(children)
        assert "Serving the web pages" not in err


@pytest.mark.parametrize(
    ("signum", "to_group", "until_gone"),
    [
        (signal.SIGINT, True, False),  # Ctrl-C in a terminal
        (signal.SIGINT, True, True),  # Ctrl-C again and again
        (signal.SIGTERM, True, False),  # systemd's stop (KillMode=control-group)
        (signal.SIGTERM, False, False),  # kill PID
        (signal.SIGINT, False, False),
    ],
)
def test_a_stop_by_any_way_is_quiet_and_ends_every_process(
    tmp_path: Path, signum: int, to_group: bool, until_gone: bool
) -> None:
    port = _free_port()
    process = _serving(tmp_path, port, 3, session=True)
    children = _children(process.pid)
    deadline = time.monotonic() + 60  # bounds a hang only
    try:
        while True:
            if to_group:  # each page process hears it twice: from here and from its parent
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)
            if not until_gone or process.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        _, err = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert "ERROR" not in err and "Traceback" not in err, err
    assert not any(_alive(pid) for pid in children)


def test_processes_share_one_rate_per_address_and_end_with_their_parent(
    tmp_path: Path,
) -> None:
    port = _free_port()
    process = _serving(tmp_path, port, 2)
    try:
        children = _children(process.pid)
        started = time.monotonic()
        # one page spent by _serving; a burst is 12 and 2 more come back each second
        statuses = [_status(f"http://127.0.0.1:{port}/") for _ in range(30)]
        elapsed = time.monotonic() - started
        assert statuses.count(429) > 0
        assert statuses.count(200) <= 11 + int(2 * elapsed) + 1
    finally:
        process.kill()  # no word to the page processes: they notice their parent is gone
        process.communicate(timeout=30)
    deadline = time.monotonic() + 30  # bounds a hang only
    while any(_alive(pid) for pid in children):
        assert time.monotonic() < deadline, "the page processes outlived their parent"
        time.sleep(0.1)


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
