"""Ratings with OpenSkill: winners rise, ties are even, seasons re-rate to the bit."""

from __future__ import annotations

import pytest
from openskill.models import BradleyTerryFull, PlackettLuce

from bot.league import PlayerState, Rating, RatingModel, TeamGame, play, rate_game, rate_season


def test_the_winners_gain_and_the_losers_lose() -> None:
    model = RatingModel()
    fresh = model.initial()
    (a, b), (c, d) = rate_game(model, [[fresh, fresh], [fresh, fresh]], winner=0)
    assert a == b and c == d
    assert a.mu > fresh.mu > c.mu
    assert a.sigma < fresh.sigma
    assert model.conservative(fresh) == pytest.approx(0.0)
    assert model.conservative(a) > 0 > model.conservative(c)


def test_partners_are_rated_individually() -> None:
    model = RatingModel()
    strong, weak = Rating(35.0, 3.0), Rating(20.0, 8.0)
    (s, w), _ = rate_game(model, [[strong, weak], [model.initial(), model.initial()]], winner=0)
    assert s.mu - strong.mu != w.mu - weak.mu  # the uncertain partner moves more
    assert w.mu - weak.mu > s.mu - strong.mu


def test_a_tie_moves_nobody_between_equals_and_three_against_three_works() -> None:
    model = RatingModel()
    fresh = model.initial()
    teams = rate_game(model, [[fresh] * 3, [fresh] * 3], winner=None)
    assert all(r.mu == fresh.mu for team in teams for r in team)
    with pytest.raises(ValueError):
        rate_game(model, [[fresh], []], winner=0)


def test_the_model_is_openskill_with_its_parameters() -> None:
    fresh = RatingModel().initial()
    pl = PlackettLuce()
    expected = pl.rate([[pl.rating(), pl.rating()], [pl.rating(), pl.rating()]], ranks=[2.0, 1.0])
    got = rate_game(RatingModel(), [[fresh, fresh], [fresh, fresh]], winner=1)
    assert [[(r.mu, r.sigma) for r in t] for t in got] == [
        [(r.mu, r.sigma) for r in t] for t in expected
    ]
    bt = RatingModel(name="BradleyTerryFull", tau=0.5)
    want = BradleyTerryFull(tau=0.5).rate(
        [[BradleyTerryFull().rating()], [BradleyTerryFull().rating()]], ranks=[1.0, 2.0]
    )
    (one,), (two,) = rate_game(bt, [[fresh], [fresh]], winner=0)
    assert (one.mu, two.mu) == (want[0][0].mu, want[1][0].mu)
    assert RatingModel.from_spec(bt.to_spec()) == bt
    assert RatingModel.from_spec(None) == RatingModel()


def test_rate_season_is_play_after_play() -> None:
    model = RatingModel()
    games = [
        TeamGame(1, ((1, 2), (3, 4)), 0),
        TeamGame(2, ((1, 3), (2, 4)), 1),
        TeamGame(3, ((4, 1), (2, 3)), None),
    ]
    states: dict[int, PlayerState] = {}
    for game in games:
        states.update(play(model, states, game))
    assert rate_season(model, games) == states
    assert {u: (s.games, s.wins) for u, s in states.items()} == {
        1: (3, 1),
        2: (3, 2),
        3: (3, 0),
        4: (3, 1),
    }
    assert rate_season(model, reversed(games)) != states  # the order is part of the result
