"""Games on ladders: the teams a rated game puts against each other, and what rating it leaves.

One home for turning an archived game and the ratings it produced into the rows the
store keeps, used when a game is taken in and when a season's ladders are rebuilt
from the archive (:func:`rate_ladders`): both give the same rows to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.store import ArchivedGame, PlayerRating, RatingPoint

from .families import Family
from .ratings import PlayerState, RatingModel, TeamGame, play

__all__ = ["rate_ladders", "rated_rows", "team_game"]


def team_game(game: ArchivedGame) -> TeamGame:
    """A ranked archived game as the ratings see it."""
    teams = tuple(
        tuple(p.user_id for p in game.players if p.team == team and p.user_id is not None)
        for team in (0, 1)
    )
    return TeamGame(game.id, (teams[0], teams[1]), game.winner)


def rated_rows(
    season_id: int, family: Family, game: ArchivedGame, after: Mapping[int, PlayerState]
) -> list[PlayerRating]:
    """The ratings the store keeps for a game's players once it is rated (names as seated)."""
    names = {p.user_id: p.display_name for p in game.players}
    return [
        PlayerRating(
            season_id=season_id,
            family=family,
            guild_id=game.guild_id,
            user_id=user,
            display_name=names[user],
            mu=state.rating.mu,
            sigma=state.rating.sigma,
            games=state.games,
            wins=state.wins,
            last_game_id=game.id,
        )
        for user, state in after.items()
    ]


def rate_ladders(
    model: RatingModel, season_id: int, games: Iterable[tuple[ArchivedGame, Family]]
) -> tuple[list[PlayerRating], list[RatingPoint]]:
    """Every ladder of a season rated from scratch: the ratings, and the point after each game.

    ``games`` are in archive order, each with its family; a game moves only its
    family's ladder.
    """
    states: dict[Family, dict[int, PlayerState]] = {}
    current: dict[tuple[Family, int], PlayerRating] = {}
    points: list[RatingPoint] = []
    for game, family in games:
        ladder = states.setdefault(family, {})
        after = play(model, ladder, team_game(game))
        ladder.update(after)
        for row in rated_rows(season_id, family, game, after):
            current[family, row.user_id] = row
            points.append(
                RatingPoint(
                    game_id=game.id,
                    season_id=season_id,
                    family=family,
                    user_id=row.user_id,
                    mu=row.mu,
                    sigma=row.sigma,
                )
            )
    return list(current.values()), points
