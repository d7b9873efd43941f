"""Loners learnt by simulation: the decision's features, the model, its training, the bidder."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest

from bot.players.basic import BasicPlayer
from bot.players.learnt_bidder import BIDDING, LearntBidder
from bot.players.learnt_bidding import MIN_DECISIONS, BiddingModel, shipped_model
from bot.players.learnt_loners import (
    MAKER,
    PARTNER,
    SWEEPS,
    WIDTH,
    data_name,
    decide_alone,
    loner_choice,
    new_model,
    shipped_loners,
)
from bot.rules import PRESETS, Action, Game, HouseRules, seat_view
from lab.players.cli import main
from lab.players.training import train_loners

from .util import position, view_to_act

LONER_PRESETS = [p for p in PRESETS if HouseRules.preset_rules(p).game != "bid_euchre"]
"""Every preset with loners (Bid Euchre's shoot is another decision)."""
ASKED_AFTER_TRUMP = [
    p for p in LONER_PRESETS if HouseRules.preset_rules(p).alone_declaration == "after_trump"
]
"""The presets whose alone round asks the maker, then its partner."""

STRONG = ["9S 10S QS KS AS", "JH JD AH KH 9C", "QC KC 10C 9D QD", "QH 9H AC 10D AD"]
"""Seat 1 holds both bowers, the ace and king of hearts and a low club: a marginal loner."""


def _model(gain: float, preset: str = "north_american") -> BiddingModel:
    """A loners' model whose every decision gained ``gain`` points, in both rounds."""
    model = new_model(HouseRules.preset_rules(preset))
    x = [1.0, 0.2] + [0.0] * (WIDTH - 2)
    for key in ((1, MAKER), (2, MAKER), (1, PARTNER), (2, PARTNER)):
        for _ in range(MIN_DECISIONS):
            model.add(key, x, gain)
    return model


def test_a_bid_making_trump_is_a_choice_between_alone_and_with_the_partner() -> None:
    view = view_to_act(position({"preset": "north_american"}, STRONG, "10H"))
    assert view.seat == 1 and view.phase == "bid1"
    choice = loner_choice(view, Action.order_up())
    assert choice is not None and choice.key == (1, MAKER)
    assert choice.alone == Action.order_up(alone=True) and choice.partner == Action.order_up()
    assert len(choice.x) == WIDTH
    assert SWEEPS[0] < choice.x[1] < BIDDING.alone, "the sweep chance basic computes"
    assert BasicPlayer(1, BIDDING).choose(view) == Action.order_up(), "too low for the count"
    assert choice.x[4:6] == [1.0, 1.0], "right and left bower"
    assert choice.x[-3:] == [0.0, 0.0, 1.0], "not the dealer's side; leads alone"
    assert loner_choice(view, Action.pass_()) is None


def test_no_choice_where_the_rules_force_the_loner_or_ask_after_trump() -> None:
    hands = ["9S 10S QS KS AS", "QC KC 10C 9D QD", "JH JD AH KH 9C", "QH 9H AC 10D AD"]
    passes = [{"seat": 1, "do": "pass"}]
    toronto = view_to_act(position({"preset": "toronto"}, hands, "10H", passes))
    assert toronto.seat == 2, "the dealer's partner, who must go alone to order up"
    assert loner_choice(toronto, Action.order_up()) is None
    british = view_to_act(position({"preset": "british"}, STRONG, "10H"))
    assert loner_choice(british, Action.order_up()) is None, "asked in the alone round"
    assert loner_choice(british, Action.order_up(alone=True)) is not None


def test_the_alone_round_asks_the_maker_then_its_partner_never_a_defender() -> None:
    order = [{"seat": 1, "do": "order_up"}]
    game = position({"preset": "british"}, STRONG, "10H", order)
    game.step(BasicPlayer().choose(view_to_act(game)))  # the dealer discards
    maker = view_to_act(game)
    assert maker.phase == "alone" and maker.seat == 1
    choice = loner_choice(maker, Action.pass_())
    assert choice is not None and choice.key == (1, MAKER)
    assert (choice.alone, choice.partner) == (Action.go_alone(), Action.pass_())
    game.step(Action.pass_())
    partner = view_to_act(game)
    assert partner.seat == 3
    choice = loner_choice(partner, Action.pass_())
    assert choice is not None and choice.key == (1, PARTNER)
    game.step(Action.pass_())
    defender = view_to_act(game)
    assert defender.phase == "alone" and defender.seat % 2 == 0
    assert loner_choice(defender, Action.pass_()) is None


def test_the_model_decides_inside_its_sweeps_and_the_count_elsewhere() -> None:
    view = view_to_act(position({"preset": "north_american"}, STRONG, "10H"))
    choice = loner_choice(view, Action.order_up())
    assert choice is not None and SWEEPS[0] <= choice.x[1] <= SWEEPS[1]
    assert decide_alone(_model(-1.0), view, Action.order_up(alone=True)) == Action.order_up()
    assert decide_alone(_model(+1.0), view, Action.order_up()) == Action.order_up(alone=True)
    assert decide_alone(None, view, Action.order_up()) == Action.order_up()
    weak = ["9S 10S QS KS AS", "JH 9D AC KC 9C", "QC JC 10C JD QD", "QH 9H KH 10D AD"]
    low = view_to_act(position({"preset": "north_american"}, weak, "10H"))
    low_choice = loner_choice(low, Action.order_up())
    assert low_choice is not None and low_choice.x[1] < SWEEPS[0]
    assert decide_alone(_model(+1.0), low, Action.order_up()) == Action.order_up()


def test_the_model_keeps_its_width_and_span_through_its_file() -> None:
    model = _model(0.5, "toronto")
    back = BiddingModel.from_json(json.loads(json.dumps(model.to_json())), WIDTH, SWEEPS)
    assert back.sums == model.sums and back.span == SWEEPS and back.width == WIDTH
    with pytest.raises(ValueError, match="another format"):
        BiddingModel.from_json(model.to_json())  # read as a bidding model: another width


def test_training_is_reproducible_over_any_number_of_processes() -> None:
    rules = HouseRules.preset_rules("british")
    one = train_loners(rules, 40, seed=3)
    again = train_loners(rules, 40, seed=3, jobs=2)
    assert one.to_json() == again.to_json()
    assert one.decisions() >= 5 and one.width == WIDTH


def test_train_loners_writes_a_model(tmp_path: Path) -> None:
    out = tmp_path / "l.json"
    args = ["train-loners", "--rules", "north_american", "--deals", "30", "--out", str(out)]
    assert main(args) == 0
    model = BiddingModel.from_json(json.loads(out.read_text()), WIDTH, SWEEPS)
    assert model.deals == 30 and model.decisions() > 0
    assert main(["train-loners", "--rules", '{"preset": "toronto", "target_score": 5}']) == 2


def test_train_loners_never_writes_over_the_shipped_model_unasked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = files("bot.players").joinpath("data", "loners_toronto.json")
    before = shipped.read_bytes()
    monkeypatch.chdir(tmp_path)
    assert main(["train-loners", "--rules", "toronto", "--deals", "3"]) == 0
    assert (tmp_path / "loners_toronto.json").is_file()
    assert main(["train-loners", "--rules", "toronto", "--deals", "3", "--out", str(shipped)]) == 2
    assert shipped.read_bytes() == before


@pytest.mark.parametrize("preset", ASKED_AFTER_TRUMP)
def test_where_the_partner_is_asked_the_shipped_model_decides_every_round_and_role(
    preset: str,
) -> None:
    loners = shipped_loners(preset)
    assert loners is not None
    for key in ((1, MAKER), (1, PARTNER), (2, MAKER), (2, PARTNER)):
        sums = loners.sums.get(key)
        assert sums is not None and sums.n >= MIN_DECISIONS, f"{key}: the count would decide"
        assert loners.coefficients(key) is not None


@pytest.mark.parametrize("preset", LONER_PRESETS)
def test_every_preset_ships_a_loners_model_the_bidder_plays_legally_with(preset: str) -> None:
    assert files("bot.players").joinpath("data", data_name(preset)).is_file()
    loners = shipped_loners(preset)
    assert loners is not None and loners.preset == preset and loners.deals >= 1000
    assert loners.coefficients((1, MAKER)) is not None
    rules = HouseRules.preset_rules(preset)
    bidder = LearntBidder(1, BIDDING, shipped_model(preset), loners)
    asked = 0
    for seed in range(40):
        game = Game(rules, seed=seed)
        while game.phase != "play" and game.deal_number == 1 and not game.over:
            view = seat_view(game, game.turn or 0)
            action = bidder.choose(view)
            assert action in view.legal
            choice = loner_choice(view, action)
            if choice is not None and loners.gain(choice.key, choice.x) is not None:
                asked += 1
                assert action in (choice.alone, choice.partner)
            game.step(action)
    assert asked > 0
