"""How a table treats slow and absent players: :class:`TablePolicy`, copied from its server.

A table takes its server's policy when it opens, when its game starts and when it is
restored after a restart, so the timers can read it without asking the store.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TablePolicy"]


@dataclass(frozen=True, slots=True)
class TablePolicy:
    """Turn limit, patience with timed-out players, and whether members may take over."""

    turn_limit: float | None = None
    """Seconds a person has for a move; None: no limit."""
    timeouts_before_away: int = 2
    """Timed-out turns in a row after which a computer keeps the seat until its owner returns."""
    allow_takeover: bool = True
    """Another member may take over a computer's seat during a game."""
