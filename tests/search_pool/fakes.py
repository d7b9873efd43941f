"""A slot whose jobs end when the test says: the pool's order, with no process and no clock."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any

__all__ = ["HeldSlot", "Started"]

Started = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class HeldSlot:
    """Records each job it is handed; a job ends when the test calls :meth:`finish`."""

    def __init__(self, name: str = "held", *, background: bool = False) -> None:
        self.name = name
        self.background = background
        self.started: list[Started] = []
        self.restarts = 0

    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.started.append((call, args, future))
        return future

    def first_job(self) -> int:
        """A pool's start: held by nothing, run in this process."""
        return os.getpid()

    def finish(self, index: int = -1) -> None:
        """End the ``index``-th job started with what it computes."""
        call, args, future = self.started[index]
        future.set_result(call(*args))

    def crashed(self, error: BaseException) -> bool:
        return isinstance(error, ConnectionResetError)

    def restart(self) -> None:
        self.restarts += 1

    def close(self) -> None:
        pass
