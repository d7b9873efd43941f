"""Ratings with OpenSkill's Weng-Lin models: one rating per player, partners rated apart.

A game is two teams (two or three players each) that won, lost or tied. The same
games rated in the same order with the same model give the same ratings to the last
bit, which is how a season is re-rated from its archive (:func:`rate_season`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ModelName",
    "PlayerState",
    "Rating",
    "RatingModel",
    "TeamGame",
    "play",
    "rate_game",
    "rate_season",
]

ModelName = Literal[
    "PlackettLuce",
    "BradleyTerryFull",
    "BradleyTerryPart",
    "ThurstoneMostellerFull",
    "ThurstoneMostellerPart",
]

_MODELS: Final = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
}


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float


class RatingModel(BaseModel):
    """Which Weng-Lin model rates a season, with its parameters (OpenSkill's defaults).

    ``z`` is the number of sigmas taken off mu for the conservative estimate that
    orders the standings: a new player starts at 0 and climbs as games confirm them.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: ModelName = "PlackettLuce"
    mu: float = Field(25.0, allow_inf_nan=False)
    sigma: float = Field(25.0 / 3.0, gt=0, allow_inf_nan=False)
    beta: float = Field(25.0 / 6.0, gt=0, allow_inf_nan=False)
    kappa: float = Field(0.0001, gt=0, allow_inf_nan=False)
    tau: float = Field(25.0 / 300.0, ge=0, allow_inf_nan=False)
    z: float = Field(3.0, ge=0, allow_inf_nan=False)

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None) -> RatingModel:
        """The model a season stored (None: the default model)."""
        return cls() if spec is None else cls.model_validate(dict(spec))

    def to_spec(self) -> dict[str, Any]:
        """What a season stores to be rated the same way later."""
        return self.model_dump()

    def initial(self) -> Rating:
        """A new player's rating."""
        return Rating(self.mu, self.sigma)

    def conservative(self, rating: Rating) -> float:
        """The conservative estimate mu - z * sigma: the rating the standings show."""
        return rating.mu - self.z * rating.sigma

    def _openskill(self) -> _OpenSkillModel:
        model: _OpenSkillModel = _MODELS[self.name](
            mu=self.mu, sigma=self.sigma, beta=self.beta, kappa=self.kappa, tau=self.tau
        )
        return model


class _OpenSkillRating(Protocol):
    mu: float
    sigma: float


class _OpenSkillModel(Protocol):
    def rating(
        self, mu: float | None = None, sigma: float | None = None, name: str | None = None
    ) -> Any: ...

    def rate(self, teams: Any, ranks: list[float] | None = None) -> list[list[Any]]: ...


def rate_game(
    model: RatingModel, teams: Sequence[Sequence[Rating]], winner: int | None
) -> list[list[Rating]]:
    """The players' ratings after a game of two teams; ``winner`` None is a tie."""
    if len(teams) != 2 or not all(teams):
        raise ValueError("a rated game has two teams of at least one player")
    engine = model._openskill()
    sides = [[engine.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    ranks = [1.0, 1.0] if winner is None else [1.0 if t == winner else 2.0 for t in (0, 1)]
    rated: list[list[_OpenSkillRating]] = engine.rate(sides, ranks=ranks)
    return [[Rating(float(p.mu), float(p.sigma)) for p in team] for team in rated]


@dataclass(frozen=True, slots=True)
class TeamGame:
    """A rated game as the ratings see it: who sat on each team, and which team won."""

    game_id: int
    teams: tuple[tuple[int, ...], tuple[int, ...]]
    """User ids of each team, in seat order."""
    winner: int | None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's rating after some games, with how many they played and won."""

    rating: Rating
    games: int
    wins: int


def play(
    model: RatingModel, before: Mapping[int, PlayerState], game: TeamGame
) -> dict[int, PlayerState]:
    """The states of a game's players after it, from their states before (absent: new)."""
    ratings = [
        [before[u].rating if u in before else model.initial() for u in team] for team in game.teams
    ]
    after = rate_game(model, ratings, game.winner)
    out: dict[int, PlayerState] = {}
    for team_no, team in enumerate(game.teams):
        for user, rating in zip(team, after[team_no], strict=True):
            old = before.get(user)
            played = 1 if old is None else old.games + 1
            wins = (0 if old is None else old.wins) + (game.winner == team_no)
            out[user] = PlayerState(rating, played, wins)
    return out


def rate_season(model: RatingModel, games: Iterable[TeamGame]) -> dict[int, PlayerState]:
    """Every player's state after rating ``games`` one after the other from scratch."""
    states: dict[int, PlayerState] = {}
    for game in games:
        states.update(play(model, states, game))
    return states
