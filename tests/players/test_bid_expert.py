"""The expert at Bid Euchre: legal, reproducible, inside its knobs, and right where it is clear."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.players import make_player
from bot.players.bid_basic import CHOICES
from bot.players.bid_expert import BidExpert, Knobs
from bot.players.bid_rollout import play_out
from bot.players.effort import Effort
from bot.players.expert import ExpertPlayer
from bot.rules import Action, Game, HouseRules, new_game, replay, seat_view
from bot.rules.play import play_order
from bot.rules.ranking import NO_TRUMP_LOW

from .util import play_checked


def _game(hands: list[str], actions: Sequence[tuple[int, Action]] = (), dealer: int = 0) -> Game:
    doc = {
        "format": 1,
        "rules": {"preset": "bid_euchre"},
        "dealer": dealer,
        "deals": [{"hands": [h.split() for h in hands], "kitty": []}],
    }
    game = replay(doc).game
    for seat, action in actions:
        game.apply(seat, action)
    return game


# Seat 1 bids first (dealer 0): every nine and the low tens, a No Trump Low hand; seat 3
# holds the top of every suit.
LOW = [
    "KS QS JS KH QH AC",
    "9C 9D 9H 9S 10C 10D",
    "AS 10S AH JH KD QD",
    "JD AD 10H KC QC JC",
]


# Seat 1 holds middle cards of every suit; then the right, left, ace, king and queen of
# hearts with the ace of spades (the only hearts out: the nine with an opponent, the ten
# with the partner, who sits out of a shoot).
WEAK = ["9C 10C 9D JD 9H JH", "QC KC 10D QD 10H KS", "JC AC KD AD QH KH", "AH 9S 10S JS QS AS"]
SWEEP = ["9C 10C 9D 10D 9H 9S", "JH JD AH KH QH AS", "KC AC QD KD AD 10S", "10H JC QC KS QS JS"]


def _fast(seed: int = 0, samples: int = 3) -> ExpertPlayer:
    return ExpertPlayer(seed=seed, budget=None, min_samples=samples, max_samples=samples)


@pytest.mark.parametrize("preset", ["bid_euchre", "bid_euchre_6", "bid_euchre_8"])
def test_every_choice_is_legal_and_a_game_ends(preset: str) -> None:
    rules = HouseRules.from_spec({"preset": preset, "deals_per_game": 3})
    players = [_fast(s) if s % 2 == 0 else make_player("basic") for s in range(rules.players)]
    assert play_checked(new_game(rules, seed=11), players, deals=60).over


def test_the_expert_level_searches_bid_euchre() -> None:
    game = _game(LOW)
    view = seat_view(game, 1)
    advice = _fast(samples=5).advise(view)
    assert advice.samples == 5, "the bid was searched over the samples asked for"
    assert set(advice.tricks) == set(CHOICES)
    assert set(advice.values) <= set(view.legal) and Action.pass_() in advice.values
    assert isinstance(make_player("expert", seed=1), ExpertPlayer)


def test_the_same_seed_gives_the_same_decision() -> None:
    game = new_game(HouseRules.preset_rules("bid_euchre_6"), seed=5)
    basic = make_player("basic")
    views = []
    while game.deal_number == 1:
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat)
        if len(set(view.legal)) > 1:
            views.append(view)
        game.step(basic.choose(view))
    phases = {v.phase for v in views}
    assert {"bid", "declare", "play"} <= phases
    for view in views[:: max(1, len(views) // 8)]:
        first, second = _fast(seed=9).advise(view), _fast(seed=9).advise(view)
        assert first == second, view.phase


def test_the_knobs_bound_the_samples() -> None:
    view = seat_view(_game(LOW), 1)
    counted = Effort.start(None)
    assert BidExpert(random.Random(1), Knobs(2, 50)).advise(view, counted).samples == 2
    timed = Effort.start(10.0)
    assert BidExpert(random.Random(1), Knobs(2, 7)).advise(view, timed).samples == 7
    spent = Effort.start(0.0)
    assert BidExpert(random.Random(1), Knobs(5, 50)).advise(view, spent).samples == 1


def test_a_hand_of_nines_names_no_trump_low() -> None:
    game = _game(LOW, [(1, Action.bid(4)), (2, Action.pass_()), (3, Action.pass_())])
    game.apply(0, Action.pass_())
    view = seat_view(game, 1)
    assert view.phase == "declare"
    advice = BidExpert(random.Random(2), Knobs(40, 40)).advise(view, Effort.start(None))
    assert advice.action == Action.declare("low")
    assert max(advice.tricks, key=advice.tricks.__getitem__) == NO_TRUMP_LOW
    assert advice.tricks[NO_TRUMP_LOW] >= 5.0


def test_a_weak_hand_passes_and_a_sure_sweep_shoots() -> None:
    weak = _game(WEAK)
    view = seat_view(weak, 1)
    assert (
        BidExpert(random.Random(3), Knobs(40, 40)).advise(view, Effort.start(None)).action
        == Action.pass_()
    )
    sweep = _game(SWEEP)
    view = seat_view(sweep, 1)
    assert (
        BidExpert(random.Random(3), Knobs(40, 40)).advise(view, Effort.start(None)).action
        == Action.shoot()
    )


@pytest.mark.parametrize("preset", ["bid_euchre", "bid_euchre_6", "bid_euchre_8"])
def test_the_fast_play_out_plays_as_basic_does(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    basic = make_player("basic")
    checked = 0
    for seed in range(25):
        game = new_game(rules, seed=seed)
        rng = random.Random(seed)
        start: Game | None = None
        while game.deal_number == 1 and not game.over:
            if game.phase == "play" and start is None and rng.random() < 0.2:
                start = game.copy()
            seat = game.turn
            assert seat is not None
            game.step(basic.choose(seat_view(game, seat)))
        if start is None:
            continue
        assert start.trump is not None and start.turn is not None
        hands = [list(h) for h in start.hands]
        runner = play_out(rules, start.trump)
        result = runner.finish(
            hands, play_order(start.out), start.turn, start.trick, start.tricks_won
        )
        assert result == list(game.results[0].tricks)
        checked += 1
    assert checked >= 15
