"""Rating families: which ladder a game is rated on, and ladders that never mix."""

from __future__ import annotations

import pytest

from bot.league import FAMILIES, LeagueService, game_family
from bot.rules import HouseRules
from bot.store import Database

from .util import GUILD, RULES, USERS, archive, db

__all__ = ["db"]


@pytest.mark.parametrize(
    ("preset", "family"),
    [
        ("north_american", "euchre4"),
        ("toronto", "euchre4"),
        ("british", "euchre4"),
        ("six_player", "euchre6"),
        ("almonte", "euchre6"),
        ("bid_euchre", "bid_euchre"),
        ("bid_euchre_6", "bid_euchre"),
        ("bid_euchre_8", "bid_euchre"),
    ],
)
def test_each_preset_has_its_family(preset: str, family: str) -> None:
    assert game_family(HouseRules.preset_rules(preset)) == family


def test_rules_that_no_longer_validate_are_four_hand_euchre() -> None:
    assert game_family(None) == "euchre4" == FAMILIES[0]
    assert set(FAMILIES) == {"euchre4", "euchre6", "bid_euchre"}


SIX = HouseRules.preset_rules("six_player").with_changes(target_score=5)
BID = HouseRules.preset_rules("bid_euchre").with_changes(deals_per_game=2)


async def three_families(db: Database) -> LeagueService:
    """Ada plays one game of each family; Bob, Cy and Di play every four-seat one."""
    league = LeagueService(db)
    await league.update_settings(GUILD, rank_custom_rules=True, min_games=1)
    await archive(db, 1, ["Ada", "Bob", "Cy", "Di"], rules=RULES)
    await archive(db, 2, ["Ada", "Bob", "Cy", "Di", "Eve", "Fay"], rules=SIX)
    await archive(db, 3, ["Ada", "Bob", "Cy", "Di"], rules=BID)
    await archive(db, 4, ["Gus", "Bob", "Cy", "Di"], rules=BID)
    return league


async def test_a_game_moves_only_its_familys_ladder(db: Database) -> None:
    league = await three_families(db)
    games = {
        family: {s.name: s.games for s in (await league.standings(GUILD, family=family)).rows}
        for family in FAMILIES
    }
    assert games == {
        "euchre4": {"Ada": 1, "Bob": 1, "Cy": 1, "Di": 1},
        "euchre6": dict.fromkeys(["Ada", "Bob", "Cy", "Di", "Eve", "Fay"], 1),
        "bid_euchre": {"Ada": 1, "Bob": 2, "Cy": 2, "Di": 2, "Gus": 1},
    }


async def test_stats_count_one_familys_games(db: Database) -> None:
    league = await three_families(db)
    for family, games in (("euchre4", 1), ("euchre6", 1), ("bid_euchre", 2)):
        report = await league.report(GUILD, USERS["Bob"], "Bob", family=family)
        assert report.family == family
        assert (report.stats.games, report.stats.ranked_games) == (games, games)
        assert report.standing is not None and report.standing.games == games
        assert len(report.ratings) == games + 1  # the start, then after each game
    default = await league.report(GUILD, USERS["Bob"], "Bob")
    assert default.family == "euchre4" and default.stats.games == 1


async def test_ending_a_season_freezes_every_familys_standings(db: Database) -> None:
    league = await three_families(db)
    live = {f: await league.standings(GUILD, family=f) for f in FAMILIES}
    ended = await league.end_season(GUILD)
    for family in FAMILIES:
        frozen = await league.standings(GUILD, ended, family)
        assert frozen.family == family
        assert [(s.user_id, s.place, s.mu) for s in frozen.rows] == [
            (s.user_id, s.place, s.mu) for s in live[family].rows
        ]
        places = [s.place for s in frozen.rows]  # min_games 1: everyone placed, per family
        assert places == list(range(1, len(live[family].rows) + 1))
