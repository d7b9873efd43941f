"""Bidding learnt by simulation: the table, its training from a seed, and the bidder using it."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest

from bot.players.__main__ import main
from bot.players.expert import BIDDING
from bot.players.learnt_bidding import (
    MIN_DECISIONS,
    BiddingTable,
    LearntBidder,
    data_name,
    score_class,
    shipped_table,
)
from bot.players.training import train
from bot.rules import PRESETS, Game, HouseRules, seat_view

TRUMP_PRESETS = [p for p in PRESETS if HouseRules.preset_rules(p).game != "bid_euchre"]
"""Every preset where trump is made by ordering up or naming it (Bid Euchre bids tricks)."""


def test_a_thin_cell_borrows_from_its_neighbours_then_from_the_open_score() -> None:
    table = BiddingTable("north_american")
    for _ in range(MIN_DECISIONS // 2):
        table.add((1, 0, 10, 0), 1.0)
        table.add((1, 0, 11, 0), 0.0)
    assert table.gain((1, 0, 10, 0)) == (0.5, MIN_DECISIONS)
    assert table.gain((1, 0, 10, 1)) == (0.5, MIN_DECISIONS), "no data near the end: open score"
    assert table.gain((2, 0, 10, 0)) is None, "nothing learnt for the second round"
    back = BiddingTable.from_json(json.loads(json.dumps(table.to_json())))
    assert back.cells == table.cells and back.preset == "north_american"


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
    assert sum(n for n, _ in one.cells.values()) >= 24


def test_train_bidding_writes_a_table(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    assert main(["train-bidding", "--rules", "british", "--deals", "5", "--out", str(out)]) == 0
    assert BiddingTable.from_json(json.loads(out.read_text())).deals == 5
    assert main(["train-bidding", "--rules", '{"preset": "british", "target_score": 5}']) == 2


@pytest.mark.parametrize("preset", TRUMP_PRESETS)
def test_every_trump_making_preset_ships_a_table(preset: str) -> None:
    assert files("bot.players").joinpath("data", data_name(preset)).is_file()
    table = shipped_table(preset)
    assert table is not None and table.preset == preset and table.deals >= 1000


@pytest.mark.parametrize("preset", TRUMP_PRESETS)
def test_the_learnt_bidder_is_legal_and_uses_the_table(preset: str) -> None:
    rules = HouseRules.preset_rules(preset)
    bidder = LearntBidder(1, BIDDING, shipped_table(preset))
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
