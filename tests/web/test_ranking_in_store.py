"""A running season's standings ranked in the store agree with the league's own ranking."""

from __future__ import annotations

import random

import pytest

from bot.league import RatingModel, rank_players
from bot.store import Database, PlayerRating, RatingRepo, SeasonRepo
from bot.web.players import _standing
from bot.web.reading import _family_standings

GUILD = 1_000_000_000_000_001


@pytest.mark.parametrize("z", [3.0, 2.0], ids=["indexed", "other-z"])
async def test_leaders_and_each_place_match_the_full_ranking_ties_included(
    db: Database, z: float
) -> None:
    # z 3 reads the ranking index (schema 23), another z ranks by the expression
    spec = RatingModel(z=z).to_spec()
    season = await SeasonRepo(db).start(GUILD, "Ties", rating_model=spec)
    rng = random.Random(5)
    names = ["ada", "Bob", "cy", "Ádám", "bob", "Zoe"]
    ratings = [
        PlayerRating(
            season_id=season.id,
            guild_id=GUILD,
            user_id=100 + n,
            display_name=rng.choice(names),
            mu=rng.choice([20.0, 24.5, 27.25, 30.0]),
            sigma=rng.choice([1.5, 2.0, 2.5]),
            games=(games := rng.choice([1, 3, 4])),
            wins=rng.randrange(games + 1),
            last_game_id=1,
        )
        for n in range(120)
    ]
    await RatingRepo(db).replace_season(season.id, ratings, [])
    model = RatingModel.from_spec(season.rating_model)
    full = rank_players(model, ratings, 3)
    placed = [s for s in full if s.place is not None]

    shown = await _family_standings(db, season, "euchre4", 3)
    assert shown is not None
    assert list(shown.rows) == placed[:50]
    assert (shown.placed, shown.unplaced) == (len(placed), len(full) - len(placed))
    for expected in full:
        assert await _standing(db, season, "euchre4", expected.user_id, 3) == expected
    assert await _standing(db, season, "euchre4", 99, 3) is None
    assert await _family_standings(db, season, "bid_euchre", 3) is None
