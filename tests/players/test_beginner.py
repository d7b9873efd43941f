"""The beginner: basic's euchre with a learner's slips, between random and basic in strength."""

from __future__ import annotations

import pytest

from bot.players import make_player
from bot.players.beginner import BeginnerPlayer, Slips
from bot.rules import Game, HouseRules, SeatView, seat_view
from lab.players.arena import report, run_match, wilson


def _play_views(games: int) -> list[SeatView]:
    rules = HouseRules.preset_rules("north_american")
    views: list[SeatView] = []
    for g in range(games):
        game = Game(rules, seed=500 + g)
        players = [make_player("basic", s) for s in range(4)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            if view.phase == "play" and len(set(view.legal)) > 1:
                views.append(view)
            game.step(players[seat].choose(view))
    return views


def test_a_careful_beginner_plays_basics_cards() -> None:
    careful = Slips(make_wobble=0, no_trump_lead=0, late_ace=0, no_trump_in=0, overtake=0)
    basic = make_player("basic", 1)
    for view in _play_views(3):
        assert BeginnerPlayer(7, careful).choose(view) == basic.choose(view)


def test_slips_are_legal_reproducible_and_happen() -> None:
    basic = make_player("basic", 1)
    differs = 0
    for n, view in enumerate(_play_views(3)):
        first = BeginnerPlayer(n).choose(view)
        assert first == BeginnerPlayer(n).choose(view)
        assert first in view.legal
        differs += first != basic.choose(view)
    assert differs > 5


def test_the_beginner_orders_up_on_weaker_hands_than_basic() -> None:
    rules = HouseRules.preset_rules("north_american")
    beginner_orders = basic_orders = 0
    for seed in range(300):
        game = Game(rules, seed=seed)
        view = seat_view(game, game.turn or 0)
        beginner_orders += BeginnerPlayer(seed).choose(view).do == "order_up"
        basic_orders += make_player("basic", seed).choose(view).do == "order_up"
    assert beginner_orders > basic_orders * 1.3


@pytest.mark.slow
def test_the_beginner_sits_between_random_and_basic() -> None:
    over_random = run_match("beginner", "random", 60, seed=5)
    print(report(over_random))
    a, b = over_random.sides
    assert wilson(a.wins, a.wins + b.wins)[0] > 0.85
    under_basic = run_match("basic", "beginner", 100, seed=5)
    print(report(under_basic))
    a, b = under_basic.sides
    assert wilson(a.wins, a.wins + b.wins)[0] > 0.6
