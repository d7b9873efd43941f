"""Waiting in tests for something to happen, not for a length of time.

``await until(condition, what)`` returns as soon as the condition holds, however busy
the machine: the bound only ends a test that would otherwise hang, and says what it
waited for. A test sleeps a fixed time only to show that something does *not* happen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

BOUND = 60.0
"""Seconds after which a wait gives up: far past anything a loaded machine needs."""


async def until(condition: Callable[[], object], what: str, within: float = BOUND) -> None:
    """Return once ``condition()`` is true; fail naming ``what`` after ``within`` seconds."""
    try:
        async with asyncio.timeout(within):
            while not condition():
                await asyncio.sleep(0.005)
    except TimeoutError:
        raise AssertionError(f"not after {within:.0f} s: {what}") from None
