"""Standings: players ordered by their conservative rating, in pages.

A player needs the server's minimum number of ranked games in the season to be
placed. Ties on rating go to more games, then more wins, then the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.store import FrozenStanding, PlayerRating, Season

from .families import DEFAULT_FAMILY, Family
from .ratings import Rating, RatingModel

__all__ = ["PAGE_SIZE", "Standing", "Standings", "StandingsPage", "frozen_rows", "rank_players"]

PAGE_SIZE: Final = 10


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: place (None below the minimum of games), rating, games, wins."""

    place: int | None
    user_id: int
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins per ranked game."""
        return self.wins / self.games


def rank_players(
    model: RatingModel, ratings: Sequence[PlayerRating], min_games: int
) -> list[Standing]:
    """Every rated player in order, placed from 1 when they have ``min_games`` or more."""
    rows = [
        Standing(
            None,
            r.user_id,
            r.display_name,
            model.conservative(Rating(r.mu, r.sigma)),
            r.mu,
            r.sigma,
            r.games,
            r.wins,
        )
        for r in ratings
    ]
    rows.sort(key=lambda s: (-s.rating, -s.games, -s.wins, s.name.casefold(), s.user_id))
    placed = [s for s in rows if s.games >= min_games]
    others = [s for s in rows if s.games < min_games]
    return [_with_place(s, n) for n, s in enumerate(placed, start=1)] + others


def _with_place(s: Standing, place: int) -> Standing:
    return Standing(place, s.user_id, s.name, s.rating, s.mu, s.sigma, s.games, s.wins)


def frozen_rows(
    season_id: int, rows: Sequence[Standing], family: Family = DEFAULT_FAMILY
) -> list[FrozenStanding]:
    """A family's standings as an ended season keeps them."""
    return [
        FrozenStanding(
            season_id=season_id,
            family=family,
            user_id=s.user_id,
            place=s.place,
            display_name=s.name,
            rating=s.rating,
            mu=s.mu,
            sigma=s.sigma,
            games=s.games,
            wins=s.wins,
        )
        for s in rows
    ]


def _from_frozen(f: FrozenStanding) -> Standing:
    return Standing(f.place, f.user_id, f.display_name, f.rating, f.mu, f.sigma, f.games, f.wins)


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """One page of a season's placed players."""

    season: Season | None
    rows: tuple[Standing, ...]
    page: int
    """0-based."""
    pages: int
    placed: int
    unplaced: int
    """Rated players still short of ``min_games``."""
    min_games: int
    family: Family = DEFAULT_FAMILY


@dataclass(frozen=True, slots=True)
class Standings:
    """A season's standings: live while it runs, frozen once it has ended."""

    season: Season | None
    rows: tuple[Standing, ...]
    min_games: int
    family: Family = DEFAULT_FAMILY
    """The family of games ranked: a standing mixes one family only."""

    @classmethod
    def frozen(
        cls, season: Season, rows: Sequence[FrozenStanding], family: Family = DEFAULT_FAMILY
    ) -> Standings:
        """An ended season's standings of one family as they were frozen."""
        ranked = tuple(_from_frozen(f) for f in rows)
        return cls(season, ranked, season.min_games or 0, family)

    @property
    def placed(self) -> tuple[Standing, ...]:
        """The players with a place, in order."""
        return tuple(s for s in self.rows if s.place is not None)

    def page(self, number: int, size: int = PAGE_SIZE) -> StandingsPage:
        """Page ``number`` (0-based, clamped to the pages there are)."""
        placed = self.placed
        pages = max(1, -(-len(placed) // size))
        number = min(max(number, 0), pages - 1)
        return StandingsPage(
            season=self.season,
            rows=placed[number * size : (number + 1) * size],
            page=number,
            pages=pages,
            placed=len(placed),
            unplaced=len(self.rows) - len(placed),
            min_games=self.min_games,
            family=self.family,
        )
