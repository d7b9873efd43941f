"""What every table of a service shares: its store, bus, search, clock and settings.

Each :class:`~bot.tables.live.LiveTable` holds its own lock, game, turn loop and timers;
what they all share is one :class:`Crew`, built once by the
:class:`~bot.tables.service.TableService`: the :class:`~bot.tables.saver.Saver` (the
store and the event bus), the computers' search (:class:`~bot.tables.thinking.Thinking`)
and claim check, the clock a turn's timed calls wait on, where each person's preferences
and each server's settings are read, and the process-wide switches: whether computers
play on after a request, whether the process is stopping, and the computers' pace.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.server.preference_sources import PreferenceSource
from bot.server.preferences import Preferences
from bot.server.sources import SettingsSource

from .computers import ClaimCheck
from .saver import Saver
from .scheduler import Scheduler
from .table import Table
from .thinking import Thinking

__all__ = ["ComputerPace", "Crew", "plain_delay"]

log = logging.getLogger(__name__)

ComputerPace = Callable[[Table, float], Awaitable[None]]
"""Waits before a computer's move at a table: at least the delay given (seconds), from
the moment its turn began (the call), and longer where the table could not show the
move at once."""


async def plain_delay(table: Table, delay: float) -> None:
    """The pace of a service that shows tables nowhere paced: the delay alone."""
    if delay > 0:
        await asyncio.sleep(delay)


@dataclass(eq=False)
class Crew:
    """What the tables of one service share (see the module docstring)."""

    saver: Saver
    thinking: Thinking
    claims: ClaimCheck
    scheduler: Scheduler
    """The clock a turn's timed calls (its ping, a forced card) wait on."""
    preferences: PreferenceSource
    """Where each person's preferences are read."""
    server_settings: SettingsSource
    computer_move_delay: float
    """Seconds before each computer move, where a server sets none of its own."""
    play_on: bool = True
    """After a request the computers play their turns on their own (False: a test steps)."""
    halting: bool = False
    """Set when the process stops: computers make no further moves in it."""
    computer_pace: ComputerPace = plain_delay
    """How a computer's move waits its delay (the bot's waits for the channel too)."""
    event_table: Callable[[int], Awaitable[bool]] | None = None
    """Whether a table belongs to a tournament event (set by the tournament runner)."""
    runs: set[asyncio.Task[None]] = field(default_factory=set)
    """The computer runs under way at every table, for a stopping process to wait on."""

    async def preferences_of(self, user_id: int) -> Preferences:
        """A person's preferences; the defaults when they can't be read (logged)."""
        try:
            return await self.preferences.get(user_id)
        except Exception:
            log.warning("user %d: could not read their preferences", user_id, exc_info=True)
            return Preferences()
