"""Run only by tests/test_postgres_cleanup.py, in a pytest of its own: holds a server until killed.

Its name keeps it out of every collection (not ``test_*.py``); the one test writes
where the session's server lives to the file that ``EUCHRE_TEST_HELD`` names (a
worker's output would not reach the outer test), then sleeps until it is killed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.kit.postgres_server import OWNER_FILE, PostgresServer


def test_hold_the_server_until_killed(postgres_server: PostgresServer) -> None:
    folder = postgres_server.folder
    postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    watchdog = json.loads((folder / OWNER_FILE).read_text())["pids"][1][0]
    held = {"folder": str(folder), "postmaster": postmaster, "watchdog": watchdog}
    written = Path(os.environ["EUCHRE_TEST_HELD"])
    written.with_suffix(".part").write_text(json.dumps(held))
    written.with_suffix(".part").rename(written)  # whole, or not there
    time.sleep(600)
