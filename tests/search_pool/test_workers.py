"""Real worker processes: a job runs in one, a dead one is replaced and its job tried again."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.rules import HouseRules, new_game
from bot.search_pool import Priority, SearchPool, WorkerCrashedError, worker_pid
from bot.search_pool.slots import BACKGROUND_NICENESS
from bot.tables.thinking import choose_at
from tests.search_pool.jobs import die, die_once, fail


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    pool = SearchPool(1, review_workers=0, preload=("bot.players",))
    try:
        yield pool
    finally:
        pool.close()


async def test_a_job_runs_in_a_worker_process_and_answers_rules_objects(pool: SearchPool) -> None:
    [pid] = await pool.start()
    assert pid != os.getpid()
    game = new_game(HouseRules(), seed=5)
    seat = game.turn
    assert seat is not None
    chosen = await pool.run(Priority.MOVE, choose_at, make_player, "expert", 9, game, seat)
    assert chosen in game.legal()
    with pytest.raises(ValueError, match="refused"):
        await pool.run(Priority.HINT, fail, "refused")
    assert await pool.run(Priority.HINT, worker_pid) == pid, "an error kills no worker"


async def test_a_review_worker_runs_nicer_than_the_bot(tmp_path: Path) -> None:
    pool = SearchPool(1, review_workers=1, preload=("bot.players",))
    try:
        await pool.start()
        nice = await pool.run(Priority.REVIEW, os.nice, 0)
        # From a test run already nice, the kernel stops the worker at its ceiling, 19.
        assert nice == min(os.nice(0) + BACKGROUND_NICENESS, 19)
        assert nice > os.nice(0) or os.nice(0) == 19
        assert await pool.run(Priority.MOVE, os.nice, 0) == os.nice(0)
    finally:
        pool.close()


async def test_a_dead_worker_is_replaced_and_its_job_tried_once_more(
    pool: SearchPool, tmp_path: Path
) -> None:
    [first] = await pool.start()
    again = await pool.run(Priority.MOVE, die_once, str(tmp_path / "died"))
    assert again != first, "the job ran again, in a new worker"
    assert pool.stats.restarts == 1
    with pytest.raises(WorkerCrashedError):
        await pool.run(Priority.MOVE, die)
    assert pool.stats.restarts == 3, "a job that kills every worker is tried twice, no more"
    assert await pool.run(Priority.HINT, worker_pid) not in (first, again), "a new one serves"


HOST = """
import asyncio
from bot.search_pool import SearchPool

async def main():
    pool = SearchPool(1, review_workers=1, preload=())
    print(*await pool.start(), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_workers_and_their_fork_server_end_when_the_bot_is_killed_outright() -> None:
    host = subprocess.Popen([sys.executable, "-c", HOST], stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        workers = [int(pid) for pid in host.stdout.readline().split()]
        assert len(workers) == 2
        stat = Path(f"/proc/{workers[0]}/stat").read_text()
        server = int(stat.rpartition(")")[2].split()[1])  # the worker's parent
        assert server != host.pid and _running(server)
    finally:
        host.kill()
        host.wait()
    deadline = time.monotonic() + 60  # a bound for a failure, not a measure
    while any(_running(pid) for pid in (*workers, server)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(pid) for pid in (*workers, server)), "a worker outlived its bot"


LOOP_FREE = """
import asyncio, os
from pathlib import Path
from bot.search_pool import SearchPool

async def main():
    pool = SearchPool(1, review_workers=0, preload=("tests.search_pool.held_import",))
    starting = asyncio.ensure_future(pool.start())
    await asyncio.sleep(0)  # the start has begun: its fork server imports the held module
    Path(os.environ["HELD_IMPORT_RELEASE"]).touch()  # only a loop left free gets here
    print(*await starting, flush=True)
    pool.close()

asyncio.run(main())
"""


def test_the_loop_runs_on_while_the_workers_start(tmp_path: Path) -> None:
    """The fork server's first import waits for a file the loop writes: a loop blocked by
    the start never writes it, and the import gives up after a minute."""
    release = tmp_path / "release"
    env = {**os.environ, "HELD_IMPORT_RELEASE": str(release)}
    done = subprocess.run(
        [sys.executable, "-c", LOOP_FREE], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) != 0 and release.exists()


def test_the_pool_says_what_its_workers_run() -> None:
    pools = [
        SearchPool(1, review_workers=2),
        SearchPool(2, review_workers=0),
        SearchPool(0),
    ]
    try:
        assert [pool.shown for pool in pools] == [
            "3 worker processes: 1 for the computers' moves, hints, claims, the daily deal "
            "and lessons, 2 for reviews",
            "2 worker processes for every search",
            "4 threads of this process",
        ]
    finally:
        for pool in pools:
            pool.close()
