"""The heartbeat file: touched while the gateway is connected, read by ``python -m bot health``.

A container's health check runs in a process of its own, so the serving bot leaves a
trace it can read: the modification time of ``data_dir/heartbeat``. The bot touches it
on READY and every :data:`BEAT_SECONDS` while every shard's gateway is connected; the
health check calls the bot unhealthy once the file is older than :data:`MAX_AGE_SECONDS`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

__all__ = ["BEAT_SECONDS", "HEARTBEAT_FILE", "MAX_AGE_SECONDS", "Heartbeat"]

log = logging.getLogger(__name__)

HEARTBEAT_FILE: Final = "heartbeat"
"""Its name inside ``data_dir``."""

BEAT_SECONDS: Final = 30.0
"""How often the serving bot touches the file while connected."""

MAX_AGE_SECONDS: Final = 120.0
"""Older than this, the gateway has not been connected lately (four beats missed)."""


class Heartbeat:
    """The heartbeat file at ``path``."""

    def __init__(self, path: Path, *, interval: float = BEAT_SECONDS) -> None:
        """Nothing is written until :meth:`beat`."""
        self.path = path
        self.interval = interval
        self._failing = False

    @classmethod
    def in_folder(cls, data_dir: Path) -> Heartbeat:
        """The bot's heartbeat file: :data:`HEARTBEAT_FILE` in its ``data_dir``."""
        return cls(data_dir / HEARTBEAT_FILE)

    def beat(self) -> None:
        """Touch the file now (making its folder if need be); a failure is logged once.

        The folder may not exist yet: with PostgreSQL nothing else writes to ``data_dir``.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.touch()
        except OSError as exc:
            if not self._failing:
                log.warning("Cannot write the heartbeat file %s: %s", self.path, exc.strerror)
            self._failing = True
        else:
            self._failing = False

    def age(self, now: float | None = None) -> float | None:
        """Seconds since the last beat; None when there never was one."""
        try:
            modified = self.path.stat().st_mtime
        except FileNotFoundError:
            return None
        return (time.time() if now is None else now) - modified

    async def run(self, connected: Callable[[], bool]) -> None:
        """Beat every :attr:`interval` seconds while ``connected()`` says so; until cancelled."""
        while True:
            if connected():
                self.beat()
            await asyncio.sleep(self.interval)
