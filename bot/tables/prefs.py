"""What a server prefers for its tables: house rules, threads, computer players, mentions.

:class:`PrefsSource` is where the service asks; :class:`FixedPrefs` gives every server
the same answer. The per-server settings kept in the database implement the same
protocol, so a table copies whatever its server has set when it opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.rules import HouseRules

from .seats import DEFAULT_LEVEL

__all__ = ["FixedPrefs", "PrefsSource", "TablePrefs"]


def _north_american() -> HouseRules:
    return HouseRules.preset_rules("north_american")


@dataclass(frozen=True, slots=True)
class TablePrefs:
    """One server's table preferences."""

    rules: HouseRules = field(default_factory=_north_american)
    tables_in_threads: bool = False
    allow_computers: bool = True
    mention_on_turn: bool = True
    computer_move_delay: float | None = None
    """Seconds between computer moves shown; None: the bot's configured default."""
    computer_level: str = DEFAULT_LEVEL
    """How well the computer players the host adds play."""
    turn_time_limit: float | None = None
    """Seconds a person has for a move before a computer plays it; None: no limit."""
    timeouts_before_away: int = 2
    """Timed-out turns in a row after which a computer keeps the seat until its owner returns."""
    allow_takeover: bool = True
    """Members may take over a computer's seat during a game."""


class PrefsSource(Protocol):
    """Where the table service finds a server's preferences."""

    async def table_prefs(self, guild_id: int) -> TablePrefs:
        """The preferences of guild ``guild_id`` (the defaults if it set none)."""
        ...


class FixedPrefs:
    """The same preferences for every server."""

    def __init__(self, prefs: TablePrefs | None = None) -> None:
        """Answer ``prefs`` (default: :class:`TablePrefs` defaults) for every guild."""
        self.prefs = prefs or TablePrefs()

    async def table_prefs(self, guild_id: int) -> TablePrefs:
        """The same preferences, whatever the guild."""
        return self.prefs
