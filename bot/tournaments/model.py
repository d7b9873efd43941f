"""What the tournament repository keeps: an event's settings, entrants, rounds and results.

The shapes only; what may change them, and how, is ``bot.tournaments``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from bot.rules import HouseRules
from bot.store.league_models import OPEN_EVENT_PHASES, EventGame, EventPhase
from bot.store.models import Snowflake, shown_number

__all__ = [
    "EVENT_NAME_LENGTH",
    "MAX_PLAYERS",
    "OPEN_EVENT_PHASES",
    "ChampionRole",
    "Entrant",
    "EventFormat",
    "EventGame",
    "EventPhase",
    "EventRound",
    "EventSettings",
    "OddPairs",
    "RoundTable",
    "ScheduledEventLink",
    "ScheduledStatus",
    "TableResult",
    "TournamentEvent",
]

_MODEL = ConfigDict(extra="forbid")

EVENT_NAME_LENGTH: Final = 80

MAX_PLAYERS: Final = 128
"""The most people an event may take (its ``max_players`` at most): 32 tables a round."""

EventFormat = Literal["progressive", "pairs"]
OddPairs = Literal["bye", "computers"]
ScheduledStatus = Literal["scheduled", "active", "completed", "cancelled", "gone"]
"""What the bot last made of an event's Discord scheduled event (``gone``: deleted by hand)."""


class EventSettings(BaseModel):
    """How an event is run, chosen by its director when creating it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: EventFormat = Field(
        "progressive",
        description="progressive: individuals change partners every round; "
        "pairs: fixed partnerships play a game a round",
    )
    rounds: int = Field(4, ge=1, le=30, description="Rounds to play (pairs: at most)")
    max_players: int = Field(
        64,
        ge=4,
        le=MAX_PLAYERS,
        description="The most people who play; those who join beyond it wait in line, "
        "and the first moves up when a place opens before the start",
    )
    deals_per_round: int = Field(
        8, ge=1, le=40, description="Progressive: deals every table plays in a round"
    )
    game_to_target: bool = Field(
        True,
        description="Pairs: each round is one game to the rules' target score "
        "(otherwise deals_per_round deals)",
    )
    rules: HouseRules | None = Field(
        None, description="The house rules of every table; None: the server's rules at the start"
    )
    start_time: datetime | None = Field(
        None,
        description="When the event starts (timezone-aware); None: when the director starts it",
    )
    check_in_minutes: int = Field(
        15,
        ge=0,
        le=24 * 60,
        description="Check-in opens this long before the start; people who don't check in "
        "are dropped (0: no check-in, everyone signed up plays)",
    )
    round_timer_minutes: int | None = Field(
        45,
        ge=1,
        le=24 * 60,
        description="A round ends at this timer even if tables are still playing; "
        "unfinished deals don't count (None: no timer)",
    )
    break_minutes: int | None = Field(
        None,
        ge=0,
        le=24 * 60,
        description="The next round starts by itself after this break "
        "(None: on the director's button)",
    )
    rated: bool = Field(False, description="The event's games go to the league's ladder")
    odd_pairs: OddPairs = Field(
        "bye",
        description="Pairs with an odd number of partnerships: a bye each round "
        "(counts as a win) or a computer pair",
    )
    champion_role_id: Snowflake | None = Field(
        None, description="A role given to the champion(s) at the end; None: no role"
    )
    champion_role_hours: int = Field(
        168, ge=1, le=24 * 366, description="How long the champion role is kept"
    )

    @field_validator("rules", mode="before")
    @classmethod
    def _rules_from_spec(cls, value: Any) -> Any:
        """Rules given as a spec (``{"preset": ..., overrides}``) or a preset name."""
        if isinstance(value, str):
            return HouseRules.preset_rules(value)
        if isinstance(value, dict):
            return HouseRules.from_spec(value)
        return value

    @field_serializer("rules")
    def _rules_as_spec(self, rules: HouseRules | None) -> dict[str, Any] | None:
        return None if rules is None else rules.to_spec()


class Entrant(BaseModel):
    """Someone in an event (or a computer filling a seat), numbered in sign-up order."""

    model_config = _MODEL

    number: int = Field(ge=0)
    user_id: Snowflake | None = None
    """None for a computer."""
    display_name: str
    partner_id: Snowflake | None = None
    """Pairs: the partner named at sign-up (by the one who joined first)."""
    confirmed: bool = True
    """Pairs: False until the named partner confirms."""
    checked_in: bool = False
    slot: int | None = Field(None, ge=0)
    """The number the schedule knows them by (progressive) or their pair (pairs)."""
    replaced_in_round: int | None = Field(None, ge=1)
    """The round in which a computer took their place; their earlier rounds count."""
    joined_in_round: int | None = Field(None, ge=1)
    """A late-comer to a running progressive event: the first round they play, in the
    slot of a computer's seat (None: from the start, or still waiting for a seat)."""

    @property
    def is_computer(self) -> bool:
        """Whether a computer fills this entry from the start."""
        return self.user_id is None


class TableResult(BaseModel):
    """What one table of a round scored, deal by deal, for its two partnerships."""

    model_config = _MODEL

    deals: list[tuple[int, int]] = Field(default_factory=list)
    """Points of (seats 0 and 2, seats 1 and 3) in each finished deal."""
    finished: bool = False
    """The table played its round out (all deals, or its game); else it stopped at a timer."""

    @property
    def points(self) -> tuple[int, int]:
        """The two partnerships' totals."""
        return sum(a for a, _ in self.deals), sum(b for _, b in self.deals)


class RoundTable(BaseModel):
    """One table of a round: its four seats (entrant numbers) and, once opened, its table."""

    model_config = _MODEL

    number: int = Field(ge=1)
    seats: tuple[int, int, int, int]
    """Entrant numbers in seat order: seats 0 and 2 partner against seats 1 and 3."""
    table_id: int | None = None
    """The bot's table playing it, once opened."""
    result: TableResult | None = None


class EventRound(BaseModel):
    """One round: its tables, the pair with a bye (pairs), when it started and ended."""

    model_config = _MODEL

    number: int = Field(ge=1)
    tables: list[RoundTable]
    bye: int | None = None
    """Pairs: the pair (its slot) that sits this round out, counted as a win."""
    started_at: datetime
    ended_at: datetime | None = None
    ended_by_timer: bool = False


class TournamentEvent(BaseModel):
    """A whole event as it stands: reloading it is all it takes to go on after a restart."""

    model_config = _MODEL

    id: int | None = None
    """Given by the store when the event is first saved."""
    number: int | None = None
    """Its number on the server, given with its id (None: a row stored without one)."""
    guild_id: Snowflake
    channel_id: Snowflake
    director_id: Snowflake
    name: str = Field(min_length=1, max_length=EVENT_NAME_LENGTH)
    settings: EventSettings = Field(default_factory=EventSettings)
    seed: int = Field(0, ge=0, lt=2**63)
    phase: EventPhase = "signup"
    paused: bool = False
    entrants: list[Entrant] = Field(default_factory=list)
    waiting: list[Entrant] = Field(default_factory=list)
    """The waiting list, first in line first: people who joined a full event (pairs together).

    Their numbers follow the entrants'; the list is dropped at the start."""
    rounds: list[EventRound] = Field(default_factory=list)
    schedule: list[list[tuple[int, int, int, int]]] | None = None
    """Progressive: the whole rotation, fixed at the start (slots in seat order)."""
    created_at: datetime
    updated_at: datetime

    @property
    def shown_number(self) -> int | None:
        """The event's number as people see it (``shown_number``); None before it is saved."""
        return None if self.id is None else shown_number(self.number, self.id)


class ChampionRole(BaseModel):
    """A champion's role of a finished event, held until ``expires_at``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tournament_id: int
    guild_id: Snowflake
    channel_id: Snowflake
    """The event's channel, where what became of the role is told."""
    user_id: Snowflake
    role_id: Snowflake
    expires_at: datetime
    given: bool = False
    """Whether the bot has given it (False: still to give, after a restart too)."""


class ScheduledEventLink(BaseModel):
    """An event's Discord scheduled event: its id, the status and start the bot last gave it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tournament_id: int
    scheduled_id: Snowflake
    status: ScheduledStatus
    start: datetime | None = None

    @property
    def settled(self) -> bool:
        """Nothing more will change it: completed, cancelled, or deleted by hand."""
        return self.status in ("completed", "cancelled", "gone")
