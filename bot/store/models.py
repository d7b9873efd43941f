"""What the repositories return: immutable pydantic models, no SQL and no connection."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.rules import HouseRules
from bot.server.settings import ComputerLevel

__all__ = [
    "OPEN_STATUSES",
    "ArchivedGame",
    "ComputerLevel",
    "GamePlayer",
    "Seat",
    "SeatNumber",
    "Snowflake",
    "StoredAction",
    "StoredTable",
    "TableStatus",
    "shown_number",
]

Snowflake = Annotated[int, Field(gt=0, lt=2**63)]
"""A Discord id (SQLite integers are signed 64-bit)."""
SeatNumber = Annotated[int, Field(ge=0, le=7)]
TableStatus = Literal["lobby", "playing", "finished", "aborted"]
OPEN_STATUSES: Final[tuple[TableStatus, ...]] = ("lobby", "playing")

_FROZEN = ConfigDict(frozen=True, extra="forbid")


def shown_number(number: int | None, row_id: int) -> int:
    """The number people see of a server's table, game or event, and type to name it.

    Its number on the server (1, 2, 3...: schemas 23 and 28); a row stored without one has
    ``number`` None and is shown by its id. Ids stay inside: buttons, web addresses, logs.
    """
    return row_id if number is None else number


class Seat(BaseModel):
    """A taken seat: a person, or a computer player of some level."""

    model_config = _FROZEN

    seat: SeatNumber
    user_id: Snowflake | None = None
    is_computer: bool = False
    computer_level: ComputerLevel | None = None
    display_name: str = Field(min_length=1, max_length=100)
    away: bool = False
    """A person's seat that a computer plays until they take it back."""

    @model_validator(mode="after")
    def _person_or_computer(self) -> Self:
        if self.is_computer and (self.user_id is not None or self.computer_level is None):
            raise ValueError("a computer seat has a computer_level and no user_id")
        if not self.is_computer and (self.user_id is None or self.computer_level is not None):
            raise ValueError("a person's seat has a user_id and no computer_level")
        if self.away and self.is_computer:
            raise ValueError("only a person's seat can be away")
        return self

    @classmethod
    def person(cls, seat: int, user_id: int, display_name: str, *, away: bool = False) -> Seat:
        """A seat taken by a Discord user (``away``: a computer plays it for now)."""
        return cls(seat=seat, user_id=user_id, display_name=display_name, away=away)

    @classmethod
    def computer(cls, seat: int, display_name: str, level: ComputerLevel = "basic") -> Seat:
        """A seat played by the computer."""
        return cls(seat=seat, is_computer=True, computer_level=level, display_name=display_name)

    @property
    def team(self) -> int:
        """The seat's team (record format: seat % 2)."""
        return self.seat % 2


class StoredAction(BaseModel):
    """One saved action of a table: its index in the record and the record-format object."""

    model_config = _FROZEN

    idx: int = Field(ge=0)
    seat: SeatNumber
    action: dict[str, Any]
    """The record-format action object, ``seat`` included: ``{"seat": 1, "do": "pass"}``."""
    actor: dict[str, Any] | None = None
    """Who sat in the seat when the action was made (the table's own form); None: not noted."""


class StoredTable(BaseModel):
    """A table as stored: where it is, who sits, its rules and its game so far."""

    model_config = _FROZEN

    id: int
    guild_id: Snowflake
    number: int | None = None
    """The server's own count of its tables (1, 2, 3...); None: written without one."""
    channel_id: Snowflake
    thread_id: Snowflake | None = None
    message_id: Snowflake | None = None
    host_id: Snowflake
    status: TableStatus
    rules: HouseRules
    rules_overridden: bool = False
    """The host changed the server's house rules for this table (casual for the league)."""
    hinted: bool = False
    """Someone at the table asked for a hint (the game is casual for the league)."""
    seed: int = Field(ge=0, lt=2**63)
    first_dealer: SeatNumber | None = None
    deals: tuple[dict[str, Any], ...] | None = None
    """Explicit record-format deals (tests, replays of a bug report); None: seeded."""
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    seats: tuple[Seat, ...] = ()
    """Taken seats, by seat number; an empty seat is missing."""
    actions: tuple[StoredAction, ...] = ()
    """Every saved action, in order (``actions[i].idx == i``)."""

    @property
    def is_open(self) -> bool:
        """In the lobby or in play."""
        return self.status in OPEN_STATUSES

    @property
    def shown_number(self) -> int:
        """The table's number as people see it (:func:`shown_number`)."""
        return shown_number(self.number, self.id)

    @property
    def place_id(self) -> int:
        """The channel the table lives in: its thread if it has one."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def next_action_index(self) -> int:
        """The index the next appended action must have."""
        return len(self.actions)

    def seat(self, number: int) -> Seat | None:
        """Who sits at seat ``number``; None if it is empty."""
        return next((s for s in self.seats if s.seat == number), None)

    def record(self, *, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game record (record-format.md, format 1) of the game so far: replay it to restore."""
        out: dict[str, Any] = {"format": 1, "rules": self.rules.to_spec()}
        if self.first_dealer is not None:
            out["dealer"] = self.first_dealer
        out["seed"] = self.seed
        if self.deals is not None:
            out["deals"] = [dict(deal) for deal in self.deals]
        out["actions"] = [dict(a.action) for a in self.actions]
        if meta:
            out["meta"] = meta
        return out


class GamePlayer(BaseModel):
    """Who played a seat of an archived game."""

    model_config = _FROZEN

    seat: SeatNumber
    team: Literal[0, 1]
    user_id: Snowflake | None = None
    is_computer: bool = False
    computer_level: ComputerLevel | None = None
    display_name: str


class ArchivedGame(BaseModel):
    """A finished game of the archive (its record: :meth:`GameArchiveRepo.record`)."""

    model_config = _FROZEN

    id: int
    guild_id: Snowflake
    number: int | None = None
    """The server's own count of its finished games (1, 2, 3...); None: written without one."""
    table_id: int | None = None
    ranked: bool
    winner: Literal[0, 1] | None
    """The winning team; None for a tie (a fixed number of deals)."""
    score: tuple[int, int]
    started_at: datetime | None = None
    finished_at: datetime
    season_id: int | None = None
    stopped: str | None = None
    """Why the game was ended before its end (its finished deals kept); None: it ended."""
    players: tuple[GamePlayer, ...]

    @property
    def shown_number(self) -> int:
        """The game's number as people see it (:func:`shown_number`)."""
        return shown_number(self.number, self.id)
