"""A killed test run leaves no PostgreSQL server behind (tests/kit/postgres_server.py's watchdog).

Each test starts pytest in a subprocess on tests/kit/postgres_sleeper.py, whose test holds
the session's server, and kills that pytest the way ``timeout`` (SIGTERM) or the
kernel (SIGKILL) would; then neither the server nor its folder may remain.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit.postgres_server import OWNER_FILE, PREFIX, _alive, _started, clear_stale

pytestmark = pytest.mark.postgresql

ROOT = Path(__file__).resolve().parent.parent
GONE_WITHIN = 120.0
"""Seconds to wait for a server to start or go: a bound against hanging, not a measure."""


def running(pid: int) -> bool:
    return _alive(pid, _started(pid))


def wait_until(condition: Callable[[], bool], what: str, within: float = GONE_WITHIN) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"after {within:.0f} s: {what}"
        time.sleep(0.1)


def hold_a_server(
    tmp_path: Path, *options: str
) -> tuple[subprocess.Popen[bytes], dict[str, object]]:
    """A pytest run holding a server of its own (started, waiting to be killed)."""
    held = tmp_path / "held.json"
    command = [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider"]
    command += ["-q", *options, "tests/kit/postgres_sleeper.py"]
    output = (tmp_path / "output.txt").open("wb")
    run = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, "EUCHRE_TEST_HELD": str(held)},
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    output.close()
    wait_until(lambda: held.exists() or run.poll() is not None, "a run that holds no server yet")
    if not held.exists():
        text = (tmp_path / "output.txt").read_text()
        pytest.fail(f"the run ended before it held a server:\n{text}")
    return run, json.loads(held.read_text())


def assert_nothing_left(held: dict[str, object]) -> None:
    postmaster, folder = int(str(held["postmaster"])), Path(str(held["folder"]))
    wait_until(lambda: not running(postmaster), f"the server (pid {postmaster})")
    wait_until(lambda: not folder.exists(), f"its folder {folder}")


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM (timeout)", "SIGKILL"]
)
def test_a_killed_run_leaves_no_server(signum: signal.Signals, tmp_path: Path) -> None:
    run, held = hold_a_server(tmp_path)
    assert running(int(str(held["postmaster"])))
    run.send_signal(signum)
    assert run.wait() == -signum
    assert_nothing_left(held)


def test_a_killed_run_on_workers_leaves_no_server(tmp_path: Path) -> None:
    run, held = hold_a_server(
        tmp_path, "-n", "1"
    )  # the server belongs to the worker, not to this pytest
    run.send_signal(signal.SIGTERM)
    run.wait()
    assert_nothing_left(held)


def test_a_server_whose_watchdog_was_killed_too_is_cleared_by_the_next_start(
    tmp_path: Path,
) -> None:
    run, held = hold_a_server(tmp_path)
    os.kill(int(str(held["watchdog"])), signal.SIGKILL)
    run.send_signal(signal.SIGKILL)
    run.wait()
    wait_until(lambda: not running(int(str(held["watchdog"]))), "the watchdog")
    assert running(int(str(held["postmaster"]))), "nothing left to stop it but the next start"
    assert Path(str(held["folder"])) in clear_stale()
    assert_nothing_left(held)


def test_only_folders_whose_owners_are_all_gone_are_cleared(tmp_path: Path) -> None:
    ended = subprocess.run(["true"], check=True)  # a pid that no longer runs
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = [gone.pid, "0"]

    def folder(name: str, pids: list[list[object]] | None) -> Path:
        made = tmp_path / f"{PREFIX}{name}"
        made.mkdir()
        if pids is not None:
            owner = {"pids": pids, "bin_dir": "/nonexistent", "run_as": None}
            (made / OWNER_FILE).write_text(json.dumps(owner))
        return made

    stale = folder("stale", [dead, dead])
    watched = folder("watched", [dead, [os.getpid(), _started(os.getpid())]])
    unowned = folder("unowned", None)  # not ours to judge: perhaps a run of older code
    assert ended.returncode == 0
    assert clear_stale(tmp_path) == [stale]
    assert not stale.exists() and watched.exists() and unowned.exists()
