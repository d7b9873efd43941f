"""Seats and partnerships in words: team marks, player names, "Alice & Carol".

Names here are Discord text (:func:`~bot.render.names.shown`) but :func:`label_name`'s,
for a button.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.tables import PublicTable, Seat

from .names import shown

__all__ = [
    "AWAY_MARK",
    "COMPUTER_MARK",
    "LEVEL_NAMES",
    "TEAM_MARKS",
    "joined",
    "label_name",
    "level_name",
    "occupant",
    "player",
    "seat_label",
    "team_mark",
    "team_names",
]

TEAM_MARKS: Final = ("🔵", "🟠")
"""Team 0 (seats 1, 3, 5) and team 1 (seats 2, 4, 6)."""

COMPUTER_MARK: Final = "🤖"
AWAY_MARK: Final = "💤"
"""A person away: a computer plays their seat until they take it back."""


LEVEL_NAMES: Final = {"beginner": "Beginner", "basic": "Club player", "expert": "Expert"}
"""Each computer level as people call it, weakest first."""


def level_name(level: str | None) -> str:
    """A computer level as people call it ("Club player" for ``basic``)."""
    return LEVEL_NAMES.get(level or "basic", level or "basic")


def team_mark(seat_or_team: int) -> str:
    """The mark of a seat's (or team's) partnership."""
    return TEAM_MARKS[seat_or_team % 2]


def occupant(taken: Seat | None) -> str:
    """Who sits in a seat, a computer marked as such: "Ada 🤖", a person away: "Bob 💤🤖"."""
    return _occupant(taken, shown)


def label_name(table: PublicTable, seat: int) -> str:
    """A seat's player now as a button says it: :func:`occupant`, the name as typed."""
    return _occupant(table.seats[seat], str)


def _occupant(taken: Seat | None, name: Callable[[str], str]) -> str:
    if taken is None:
        return "(empty)"
    if taken.away:
        return f"{name(taken.name)} {AWAY_MARK}{COMPUTER_MARK}"
    return f"{taken.name} {COMPUTER_MARK}" if taken.is_computer else name(taken.name)


def player(table: PublicTable, seat: int, *, then: Seat | None = None) -> str:
    """A seat's player now, or ``then`` (who sat there when something happened)."""
    return occupant(then if then is not None else table.seats[seat])


def seat_label(table: PublicTable, seat: int, *, then: Seat | None = None) -> str:
    """A seat's player with their team mark, a computer with its level: "🔵 Ada 🤖 (Expert)".

    ``then``: as in :func:`player`.
    """
    taken = then if then is not None else table.seats[seat]
    level = f" ({level_name(taken.level)})" if taken is not None and taken.is_computer else ""
    return f"{team_mark(seat)} {player(table, seat, then=then)}{level}"


def team_names(table: PublicTable, team: int) -> str:
    """A partnership by its players: "Alice & Carol"."""
    return joined([player(table, s) for s in range(team, len(table.seats), 2)])


def joined(names: Sequence[str]) -> str:
    """Names in a phrase: "Alice", "Alice & Carol", "Alice, Bob & Carol"."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]
