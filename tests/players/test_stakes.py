"""Stakes: the chance of winning from a score, and what a deal's result is worth by it."""

from __future__ import annotations

import pytest

from bot.players.stakes import Stakes, lone_march_decides, march_wins, win_chance
from bot.rules import HouseRules

NA = HouseRules.preset_rules("north_american")


@pytest.mark.parametrize("rules", [NA, NA.with_changes(target_score=5)], ids=["to10", "to5"])
def test_the_two_sides_chances_add_up_to_one(rules: HouseRules) -> None:
    for a in range(rules.target_score):
        for b in range(rules.target_score):
            for deals in (False, True):
                mine = win_chance(rules, a, b, deals)
                theirs = win_chance(rules, b, a, not deals)
                assert mine + theirs == pytest.approx(1.0, abs=1e-9)
                assert 0.0 < mine < 1.0


def test_more_points_never_hurt() -> None:
    for a in range(9):
        for b in range(10):
            for deals in (False, True):
                assert win_chance(NA, a + 1, b, deals) > win_chance(NA, a, b, deals)


def test_a_reached_target_is_a_won_game() -> None:
    assert win_chance(NA, 10, 9, False) == 1.0
    assert win_chance(NA, 3, 11, True) == 0.0


def test_the_dealing_side_is_ahead_at_level_scores() -> None:
    assert win_chance(NA, 0, 0, True) > 0.5 > win_chance(NA, 0, 0, False)


def test_at_nine_all_any_made_deal_wins_the_game() -> None:
    stakes = Stakes(NA, (9, 9), team=0, next_dealer=1)
    assert stakes.value(1, 0) == stakes.value(2, 0) == stakes.value(4, 0)
    assert stakes.value(0, 1) == stakes.value(0, 2) < stakes.value(0, 0)


def test_at_eight_a_march_wins_as_well_as_a_loner() -> None:
    stakes = Stakes(NA, (8, 3), team=1, next_dealer=0)
    assert stakes.value(0, 2) == stakes.value(0, 4)
    # the side at 3 needs points: a lone march is worth far more to it than to the leaders
    assert stakes.value(4, 0) - stakes.value(1, 0) > 3


def test_at_the_start_points_are_worth_about_their_face_value() -> None:
    stakes = Stakes(NA, (0, 0), team=0, next_dealer=1)
    made = stakes.value(1, 0) - stakes.value(0, 0)
    assert made == pytest.approx(1.0, rel=0.15)
    assert stakes.value(4, 0) - stakes.value(0, 0) == pytest.approx(4.0, rel=0.25)


def test_a_fixed_number_of_deals_weighs_plain_points() -> None:
    rules = NA.with_changes(deals_per_game=8)
    stakes = Stakes(rules, (5, 2), team=0, next_dealer=1)
    assert stakes.value(2, 0) == 2.0
    assert stakes.value(0, 2) == -2.0
    assert Stakes(NA, (9, 9), 0, 1, by_points=True).value(4, 0) == 4.0


def test_a_lone_march_decides_the_game_only_where_a_march_falls_short() -> None:
    assert [m for m in range(10) if lone_march_decides(NA, m)] == [6, 7]
    six = HouseRules.preset_rules("six_player")  # to 11, a march 3, a lone march 6
    assert [m for m in range(11) if lone_march_decides(six, m)] == [5, 6, 7]
    assert not lone_march_decides(NA.with_changes(deals_per_game=8), 6)


def test_a_march_wins_the_game_from_two_points_short() -> None:
    assert [m for m in range(10) if march_wins(NA, m)] == [8, 9]
    six = HouseRules.preset_rules("six_player")  # to 11, a march 3
    assert [m for m in range(11) if march_wins(six, m)] == [8, 9, 10]
    assert not march_wins(NA.with_changes(deals_per_game=8), 9)
