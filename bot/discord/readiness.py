"""A start-up step that clicks wait for: they act once it has finished, within a bound.

After a restart the tournament events are resumed in the background (once the tables
are restored, while the gateway connects), so a click on an event's button, or a
tournament command, may come before they are. It waits for them instead of being
refused: its answer is deferred first (Discord's 3 seconds don't run out), then it acts
as soon as the step has finished. A step that failed, or that has not finished within
:data:`WAIT_BOUND` seconds, gets one sentence and changes nothing.

A step that reads the database tries again while the database is out of reach (a
restart of its server, say): :func:`patiently`, within :data:`WAIT_BOUND` in all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import discord

from bot.discord.replies import answer_first
from bot.errors import UserFacingError
from bot.store import ConnectionLostError

__all__ = ["RETRY_DELAYS", "WAIT_BOUND", "Readiness", "patiently"]

log = logging.getLogger(__name__)

T = TypeVar("T")

WAIT_BOUND: Final = 20.0
"""Seconds a deferred click waits for the step before it is told to try again."""

RETRY_DELAYS: list[float] = [1.0, 2.0, 4.0, 8.0]
"""Seconds :func:`patiently` waits before each new try (15 s in all, within the bound)."""


async def patiently(what: str, step: Callable[[], Awaitable[T]]) -> T:
    """``step()``, tried again while the database is out of reach (ConnectionLostError).

    It waits each of :data:`RETRY_DELAYS` in turn; the last try's error is raised.
    """
    for delay in RETRY_DELAYS:
        try:
            return await step()
        except ConnectionLostError as exc:
            log.warning(
                "Resuming %s: the database is out of reach (%s); trying again in %g s",
                what,
                exc.reason or exc,
                delay,
            )
        await asyncio.sleep(delay)
    return await step()


class Readiness:
    """Whether a start-up step has finished, and how it went; clicks await it."""

    def __init__(self, *, failed: str, late: str, bound: float = WAIT_BOUND) -> None:
        """``failed`` answers a click once the step has failed, ``late`` one it outwaited."""
        self.failed_text = failed
        self.late_text = late
        self.bound = bound
        self._finished = asyncio.Event()
        self._failed = False

    @property
    def finished(self) -> bool:
        """Whether the step has finished, well or not."""
        return self._finished.is_set()

    @property
    def failed(self) -> bool:
        """Whether the step has finished and failed."""
        return self._failed

    def finish(self, *, failed: bool = False) -> None:
        """The step is over (``failed``: it did not do its work); the waiting clicks go on."""
        self._failed = failed
        self._finished.set()

    async def wait(self, interaction: discord.Interaction[Any]) -> None:
        """Return once the step has finished well; UserFacingError when it failed or is late.

        A click that has to wait is deferred first (as its answer will be:
        :func:`~bot.discord.replies.answer_first`), so its answer comes as a follow-up.
        """
        if not self._finished.is_set():
            await answer_first(interaction)
            try:
                await asyncio.wait_for(self._finished.wait(), self.bound)
            except TimeoutError:
                raise UserFacingError(self.late_text) from None
        if self._failed:
            raise UserFacingError(self.failed_text)
