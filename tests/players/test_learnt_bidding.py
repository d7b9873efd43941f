"""Bidding learnt by simulation: the model, its training from a seed, and the bidder using it."""

from __future__ import annotations

import json
import random
from importlib.resources import files
from pathlib import Path

import pytest

import lab.players.cli as players_cli
from bot.players.basic import BasicPlayer
from bot.players.learnt_bidder import BIDDING, LearntBidder
from bot.players.learnt_bidding import (
    COUNTED,
    MIN_DECISIONS,
    WIDTH,
    BiddingModel,
    Sums,
    data_name,
    features,
    score_class,
    shipped_model,
)
from bot.rules import PRESETS, Action, Game, HouseRules, seat_view
from lab.players.cli import main
from lab.players.training import train

from .util import position, view_to_act

TRUMP_PRESETS = [p for p in PRESETS if HouseRules.preset_rules(p).game != "bid_euchre"]
"""Every preset where trump is made by ordering up or naming it (Bid Euchre bids tricks)."""


def _decisions(n: int, seed: int) -> list[tuple[list[float], float]]:
    """Decisions whose gain is exactly 0.8 a point of count less 2 points, plus noise-free extras."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        x = [1.0, round(rng.uniform(1.0, 4.0), 3)] + [
            float(rng.randint(0, 1)) for _ in range(WIDTH - 2)
        ]
        rows.append((x, 0.8 * x[1] - 2.0))
    return rows


def test_the_sums_are_exact_in_any_order_and_the_fit_finds_the_gain() -> None:
    rows = _decisions(2000, 3)
    forward, backward, halves = Sums(), Sums(), Sums()
    for x, y in rows:
        forward.add(x, y)
    for x, y in reversed(rows):
        backward.add(x, y)
    second = Sums()
    for x, y in rows[:700]:
        halves.add(x, y)
    for x, y in rows[700:]:
        second.add(x, y)
    halves.merge(second)
    assert forward == backward == halves
    coef = forward.fit()
    assert coef[1] == pytest.approx(0.8, abs=0.02)
    assert coef[0] == pytest.approx(-2.0, abs=0.1)
    assert all(abs(c) < 0.05 for c in coef[2:])


def test_the_model_speaks_only_inside_the_counted_range_with_enough_decisions() -> None:
    model = BiddingModel("north_american")
    for x, y in _decisions(MIN_DECISIONS, 4):
        model.add((1, 0), x, y)
    x = [1.0, 3.5] + [0.0] * (WIDTH - 2)
    assert model.gain((1, 0), x) == pytest.approx(0.8, abs=0.1)
    assert model.gain((1, 0), [1.0, COUNTED[1] + 0.5] + [0.0] * (WIDTH - 2)) is None
    assert model.gain((2, 0), x) is None, "nothing learnt for the second round"
    back = BiddingModel.from_json(json.loads(json.dumps(model.to_json())))
    assert back.sums == model.sums and back.preset == "north_american"
    with pytest.raises(ValueError, match="another format"):
        BiddingModel.from_json({**model.to_json(), "format": 1})


def test_features_read_the_shape_of_the_hand() -> None:
    hands = ["9S 10S QS KS AS", "JH JD AH 9C AC", "QC KC 10C 9D QD", "KH QH 9H 10D AD"]
    view = view_to_act(position({"preset": "north_american"}, hands, "10H"))
    x = features(view, Action.order_up(), 2.9, 0)
    trumps = x[4:11]
    assert x[:4] == [1.0, 2.9, 0.0, 0.0]
    assert trumps == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], "right, left and ace"
    assert x[11:15] == [3.0, 1.0, 0.0, 2.0], "three trumps, a side ace, spades and diamonds void"
    assert x[15:18] == [0.0, 0.0, -1.0], "a low upcard going to the other side"
    assert x[18] == 0.0
    passes = [{"seat": s % 4, "do": "pass"} for s in range(1, 5)]
    later = view_to_act(position({"preset": "north_american"}, hands, "10H", passes))
    assert later.phase == "bid2"
    assert features(later, Action.call("D"), 2.0, 1)[18] == 1.0, "diamonds is next to hearts"
    assert features(later, Action.call("C"), 2.0, 1)[2:4] == [1.0, 0.0]
    assert features(later, Action.call("C"), 2.0, 1)[18] == 0.0


def test_score_classes() -> None:
    rules = HouseRules.preset_rules("north_american")
    assert score_class(rules, (0, 0), 0) == 0
    assert score_class(rules, (8, 3), 0) == 1 and score_class(rules, (8, 3), 1) == 2


def test_training_is_reproducible_from_its_seed_over_any_number_of_processes() -> None:
    rules = HouseRules.preset_rules("toronto")
    one = train(rules, 12, seed=4)
    again = train(rules, 12, seed=4, jobs=2)
    assert one.deals == again.deals == 12
    assert one.to_json() == again.to_json()
    assert one.decisions() >= 24


def test_the_expert_partners_training_takes_only_the_expert_sides_decisions() -> None:
    rules = HouseRules.preset_rules("north_american")
    one = train(rules, 16, seed=4, expert_partner=True)
    assert one.to_json() == train(rules, 16, seed=4, jobs=2, expert_partner=True).to_json()
    plain = train(rules, 16, seed=4)
    assert 0 < one.decisions() < plain.decisions()
    assert one.to_json() != plain.to_json()


def test_train_bidding_writes_a_model(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    assert main(["train-bidding", "--rules", "british", "--deals", "5", "--out", str(out)]) == 0
    assert BiddingModel.from_json(json.loads(out.read_text())).deals == 5
    assert main(["train-bidding", "--rules", '{"preset": "british", "target_score": 5}']) == 2
    partnered = tmp_path / "p.json"
    args = ["train-bidding", "--deals", "5", "--expert-partner", "--out", str(partnered)]
    assert main(args) == 0
    assert BiddingModel.from_json(json.loads(partnered.read_text())).deals == 5


def test_training_writes_to_the_working_directory_never_over_the_shipped_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = files("bot.players").joinpath("data", data_name("toronto"))
    before = shipped.read_bytes()
    monkeypatch.chdir(tmp_path)
    args = ["train-bidding", "--rules", "toronto", "--deals", "3"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("toronto: ") and "deals -> bidding_toronto.json\n" in out
    assert BiddingModel.from_json(json.loads((tmp_path / "bidding_toronto.json").read_text()))
    assert main(args) == 2, "an earlier run's file is not overwritten"
    assert capsys.readouterr().err == (
        "error: bidding_toronto.json exists in the working directory: name another file "
        "with --out, or move it away\n"
    )
    assert main([*args, "--out", str(shipped)]) == 2
    assert capsys.readouterr().err.endswith(
        "is the shipped model: add --replace-shipped to replace it\n"
    )
    assert shipped.read_bytes() == before


def test_replace_shipped_writes_the_packages_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(players_cli, "SHIPPED", tmp_path / "data")
    args = ["train-bidding", "--rules", "toronto", "--deals", "3", "--replace-shipped"]
    assert main(args) == 0
    written = tmp_path / "data" / data_name("toronto")
    assert BiddingModel.from_json(json.loads(written.read_text())).deals == 3
    assert capsys.readouterr().out.splitlines()[0].endswith(f"-> {written}")


@pytest.mark.parametrize("expert_partner", [False, True], ids=["basic-partner", "expert-partner"])
@pytest.mark.parametrize("preset", TRUMP_PRESETS)
def test_every_trump_making_preset_ships_a_model(preset: str, expert_partner: bool) -> None:
    assert files("bot.players").joinpath("data", data_name(preset, expert_partner)).is_file()
    model = shipped_model(preset, expert_partner)
    assert model is not None and model.preset == preset and model.deals >= 1000
    assert all(model.coefficients(key) is not None for key in model.sums if key[0] == 1)


@pytest.mark.parametrize("preset", TRUMP_PRESETS)
def test_the_learnt_bidder_is_legal_and_uses_the_model(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    bidder = LearntBidder(1, BIDDING, shipped_model(preset))
    estimated = 0
    for seed in range(40):
        game = Game(rules, seed=seed)
        while game.phase in ("bid1", "bid2") and game.deal_number == 1:
            view = seat_view(game, game.turn or 0)
            action = bidder.choose(view)
            assert action in view.legal
            estimated += bidder.estimate(view) is not None
            game.step(action)
    assert estimated > 40


def test_the_model_calls_next_as_the_dealers_opponent_where_the_count_passes() -> None:
    hands = ["9S 10S KS AS 9C", "JC QC JD 9H 10D", "AH KH QH 10H AC", "9D QD KD AD JH"]
    passes = [{"seat": s % 4, "do": "pass"} for s in range(1, 5)]
    view = view_to_act(position({"preset": "north_american"}, hands, "QS", passes))
    assert view.phase == "bid2" and view.seat == 1
    assert BasicPlayer(1, BIDDING).choose(view) == Action.pass_()
    learnt = LearntBidder(1, BIDDING, shipped_model("north_american"))
    estimate = learnt.estimate(view)
    assert estimate is not None and estimate[0] == Action.call("C") and estimate[1] > 0
    assert learnt.choose(view) == Action.call("C")
