"""The search that foresees basic's cards: its values come true, and it beats perfect defence."""

from __future__ import annotations

import pytest

from bot.players.basic import BasicPlayer
from bot.players.double_dummy import Position, Solver
from bot.players.expert import deal_points
from bot.rules import Game, HouseRules, seat_view
from lab.players.best_response import Responder
from tests.players.variants import RULES, label


def _at_play(rules: HouseRules, seed: int) -> Game:
    """A game bid by basic players up to the first card of its first deal."""
    game = Game(rules, seed=seed)
    basic = BasicPlayer()
    while game.phase != "play":
        seat = game.turn
        assert seat is not None
        game.apply(seat, basic.choose(seat_view(game, seat)))
    return game


def _worths(game: Game) -> list[list[float]]:
    """Two ways to value the deal's end for the side to play: its tricks, and its net points."""
    seat = game.turn
    assert seat is not None
    view = seat_view(game, seat)
    tricks = [float(t) for t in range(game.rules.hand_size + 1)]
    points = []
    for t in range(game.rules.hand_size + 1):
        mine, theirs = deal_points(view, t)
        points.append(float(mine - theirs))
    return [tricks, points]


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_every_cards_value_comes_true_when_the_side_plays_on_by_the_search(
    rules: HouseRules,
) -> None:
    basic = BasicPlayer()
    # A six-seat search costs some ten times a four-seat one: one deal there.
    for seed in range(3 if rules.players == 4 else 1):
        start = _at_play(rules, seed)
        assert start.turn is not None
        team = start.turn % 2
        number = start.deal_number
        for worth in _worths(start):
            for card, value in Responder(basic, team, worth).values(start).items():
                game = start.copy()
                game.step(next(a for a in game.legal() if a.card == card))
                while game.deal_number == number and not game.over:
                    seat = game.turn
                    assert seat is not None
                    if seat % 2 == team:
                        values = Responder(basic, team, worth).values(game)
                        best = max(values, key=lambda c: values[c])
                        game.step(next(a for a in game.legal() if a.card == best))
                    else:
                        game.step(basic.choose(seat_view(game, seat)))
                assert worth[game.results[number - 1].tricks[team]] == value


def test_foreseeing_basic_takes_at_least_the_double_dummy_tricks_and_sometimes_more() -> None:
    rules = HouseRules.preset_rules("north_american")
    basic = BasicPlayer()
    ahead = 0
    for seed in range(30):
        game = _at_play(rules, seed)
        seat = game.turn
        assert seat is not None and game.trump is not None
        team = seat % 2
        worth = [float(t) for t in range(rules.hand_size + 1)]
        foreseen = Responder(basic, team, worth).values(game)
        position = Position(
            rules, game.trump, [list(h) for h in game.hands], list(game.out), seat, [], 5, False
        )
        solved = Solver(rules, game.trump, list(game.out), team).values(position)
        assert set(foreseen) == set(solved)
        for card, tricks in solved.items():
            assert foreseen[card] >= tricks  # basic defends no better than perfect defence
        ahead += max(foreseen.values()) > max(solved.values())
    assert ahead > 0
