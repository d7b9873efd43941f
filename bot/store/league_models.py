"""What the league's repositories return: seasons, settings, ratings and frozen standings.

Also what the league reads of the tournament a game was played in (:class:`EventGame`),
so that the league knows an event's games without knowing tournaments.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.store.models import Snowflake

__all__ = [
    "DEFAULT_FAMILY",
    "LEAGUE_SETTING_NAMES",
    "OPEN_EVENT_PHASES",
    "SEASON_NAME_LENGTH",
    "EventGame",
    "EventPhase",
    "FrozenStanding",
    "LeagueSettings",
    "PlayerRating",
    "RatingPoint",
    "Season",
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")

SEASON_NAME_LENGTH: Final = 50

DEFAULT_FAMILY: Final = "euchre4"
"""The rating family (ladder) of four-hand euchre, read when no family is named."""

EventPhase = Literal["signup", "checkin", "playing", "between_rounds", "finished", "cancelled"]

OPEN_EVENT_PHASES: Final[frozenset[str]] = frozenset(
    {"signup", "checkin", "playing", "between_rounds"}
)
"""An event in one of these phases holds its channel: no second event may open there."""


class LeagueSettings(BaseModel):
    """A server's league settings; a server that never changed one has the defaults."""

    model_config = _FROZEN

    guild_id: Snowflake
    min_games: int = Field(5, ge=0, le=1000)
    """Ranked games a player needs in a season before appearing in its standings."""
    all_casual: bool = False
    """No game of the server is rated."""
    rank_custom_rules: bool = False
    """Games under other rules than the server's house rules are rated too."""
    updated_at: datetime | None = None
    """When a setting last changed; None for a server still on the defaults."""


LEAGUE_SETTING_NAMES: Final[tuple[str, ...]] = ("min_games", "all_casual", "rank_custom_rules")
"""The settings :meth:`LeagueSettingsRepo.update` changes."""


class Season(BaseModel):
    """A league season of one server; ``ended_at`` None while it runs."""

    model_config = _FROZEN

    id: int
    guild_id: Snowflake
    name: str = Field(min_length=1, max_length=SEASON_NAME_LENGTH)
    started_at: datetime
    ended_at: datetime | None = None
    open_ended: bool = False
    """The bot opened it because no season was running (no season command was used)."""
    rating_model: dict[str, Any] | None = None
    """The rating model the season is rated with (name and parameters); None: the default."""
    min_games: int | None = Field(None, ge=0)
    """The minimum of ranked games its frozen standings were placed with, once it ended."""

    @property
    def running(self) -> bool:
        """Whether the season has not ended."""
        return self.ended_at is None


class PlayerRating(BaseModel):
    """A player's current rating in a season, with their ranked games and wins in it."""

    model_config = _FROZEN

    season_id: int
    family: str = Field(DEFAULT_FAMILY, min_length=1)
    """The ladder: games of one family only are rated together (``bot.league.families``)."""
    guild_id: Snowflake
    user_id: Snowflake
    display_name: str
    mu: float = Field(allow_inf_nan=False)
    sigma: float = Field(gt=0, allow_inf_nan=False)
    games: int = Field(ge=1)
    wins: int = Field(ge=0)
    last_game_id: int


class RatingPoint(BaseModel):
    """A player's rating right after one rated game."""

    model_config = _FROZEN

    game_id: int
    season_id: int
    family: str = Field(DEFAULT_FAMILY, min_length=1)
    """The ladder: games of one family only are rated together (``bot.league.families``)."""
    user_id: Snowflake
    mu: float = Field(allow_inf_nan=False)
    sigma: float = Field(gt=0, allow_inf_nan=False)


class FrozenStanding(BaseModel):
    """One player's line of an ended season's standings, as it was when the season ended."""

    model_config = _FROZEN

    season_id: int
    family: str = Field(DEFAULT_FAMILY, min_length=1)
    """The ladder: games of one family only are rated together (``bot.league.families``)."""
    user_id: Snowflake
    place: int | None = Field(None, ge=1)
    """1 for the leader; None below the minimum number of ranked games."""
    display_name: str
    rating: float = Field(allow_inf_nan=False)
    mu: float = Field(allow_inf_nan=False)
    sigma: float = Field(gt=0, allow_inf_nan=False)
    games: int = Field(ge=1)
    wins: int = Field(ge=0)


class EventGame(BaseModel):
    """What the league reads of the event a table played in: rated or not, and its phase."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rated: bool
    phase: EventPhase

    @property
    def held(self) -> bool:
        """A rated event not over yet: its games wait, rated only if it finishes."""
        return self.rated and self.phase in OPEN_EVENT_PHASES
