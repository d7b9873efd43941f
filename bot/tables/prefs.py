"""What a server prefers for its tables: house rules, threads, computer players, mentions.

:class:`PrefsSource` is where the service asks; :class:`FixedPrefs` gives every server
the same answer. The per-server settings kept in the database implement the same
protocol, so a table copies whatever its server has set when it opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.rules import HouseRules

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
