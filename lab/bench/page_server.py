"""``python -m bot web`` as people run it, over a seeded store, for the web bench's loads.

The page processes are the command's own (``web_processes``: its default, one per core,
unless the bench is told a number), with every other setting at its default, the rate
per address included. Their processor time is read from ``/proc``: the parent's and
every page process's, their threads included.

    async with PageServer.running(env, folder, processes=0) as server:
        cpu = server.cpu_seconds()
        ...  # load server.base
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final

import aiohttp

__all__ = ["PageServer"]

_START_SECONDS: Final = 120.0
"""Bounds a server that never answers (a hang, not a slow start)."""
_TICKS: Final = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cpu_ticks(pid: int) -> int:
    """User and system time of process ``pid`` (all its threads), in clock ticks; 0 if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0
    return int(fields[11]) + int(fields[12])


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(n) for n in text.split()]


class PageServer:
    """A running ``python -m bot web`` on a loopback port."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.base = f"http://127.0.0.1:{port}"

    @property
    def pids(self) -> list[int]:
        """The command's process and its page processes."""
        return [self.process.pid, *_children(self.process.pid)]

    def cpu_seconds(self) -> float:
        """Processor time spent so far by the command and its page processes."""
        return sum(_cpu_ticks(pid) for pid in self.pids) / _TICKS

    @classmethod
    @asynccontextmanager
    async def running(
        cls, env: Mapping[str, str], folder: Path, *, processes: int
    ) -> AsyncIterator[PageServer]:
        """Start it in ``folder`` with ``env``'s settings (``processes`` 0: the default)."""
        port = _free_port()
        settings = {**os.environ, **env}
        if processes:
            settings["EUCHRE_WEB_PROCESSES"] = str(processes)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", "--port", str(port), env=settings, cwd=folder
        )
        server = cls(process, port)
        try:
            await server._answering()
            yield server
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                await process.wait()

    async def _answering(self) -> None:
        """Wait for the home page to answer 200."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _START_SECONDS
        async with aiohttp.ClientSession() as session:
            while True:
                try:
                    async with session.get(self.base + "/") as answer:
                        if answer.status == 200:
                            return
                except aiohttp.ClientConnectionError:
                    pass
                if self.process.returncode is not None or loop.time() > deadline:
                    raise RuntimeError(f"python -m bot web did not serve on {self.base}")
                await asyncio.sleep(0.2)
