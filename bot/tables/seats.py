"""Who sits where: people, computer players, and the names a table shows for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

__all__ = ["COMPUTER_NAMES", "DEFAULT_LEVEL", "Player", "Seat"]

DEFAULT_LEVEL: Final = "basic"
"""The computer level a table seats unless told otherwise."""

COMPUTER_NAMES: Final = (
    "Ada",
    "Babbage",
    "Hopper",
    "Turing",
    "Lovelace",
    "Knuth",
    "Shannon",
    "Hamilton",
)
"""Computer players are named after their seat, so the names stay put across games;
one name a seat of the largest table (eight), so no two computers share one."""


@dataclass(frozen=True, slots=True)
class Player:
    """A person, as the table knows them: a Discord user id and the name to show."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Seat:
    """A taken seat: a person (``user_id``) or a computer player (``level``)."""

    name: str
    user_id: int | None = None
    level: str | None = None
    away: bool = False
    """A person's seat that a computer plays until they take it back (turns timed out)."""

    @classmethod
    def human(cls, player: Player) -> Seat:
        """The seat of a person."""
        return cls(player.name, user_id=player.user_id)

    @classmethod
    def computer(cls, seat: int, level: str = DEFAULT_LEVEL) -> Seat:
        """A computer player for seat ``seat``."""
        return cls(COMPUTER_NAMES[seat % len(COMPUTER_NAMES)], level=level)

    @property
    def is_computer(self) -> bool:
        """Whether the seat belongs to a computer player (no person owns it)."""
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        """Whether a computer makes this seat's moves: a computer's seat, or one left away."""
        return self.user_id is None or self.away

    def to_json(self) -> dict[str, Any]:
        """The seat as a JSON object: ``{"name", "user", "level", "away"}``."""
        return {"name": self.name, "user": self.user_id, "level": self.level, "away": self.away}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Seat:
        """A seat written by :meth:`to_json`."""
        return cls(
            str(obj["name"]),
            user_id=obj.get("user"),
            level=obj.get("level"),
            away=bool(obj.get("away", False)),
        )
