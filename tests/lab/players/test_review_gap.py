"""The review's yardstick: its points lost against the measured duplicate gap, and the control."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.players.review import Budget
from bot.rules import HouseRules, RulesError
from lab.players.cli import main
from lab.players.review_deal import review_deal_report, review_one_deal
from lab.players.review_gap import gap_report, mean_interval, run_review_gap

TINY = Budget(choose=None, counted=3, worlds=4, rollouts=6)


def test_each_deal_gives_a_gap_each_sides_loss_and_the_control(tmp_path: Path) -> None:
    keep = tmp_path / "gap.jsonl"
    result = run_review_gap(2, seed=4, budget=TINY, check=2, control=1, keep=keep)
    assert len(result.gaps()) == 2
    assert len(result.lost("expert")) == len(result.lost("basic")) == 2
    assert len(result.lost("beginner")) == len(result.lost("random")) == 1
    first = result.deals[0]["levels"]
    assert all(f["decisions"] > 0 for f in first.values())
    text = gap_report(result)
    assert "2 duplicate deals, seed 4; the expert chooses at 3 samples, valued on 4 worlds" in text
    assert "control          the expert's own loss" in text
    assert "order            random - beginner:" in text
    assert "loss vs gap      basic - expert" in text
    # every deal is kept as it ends, and a run again takes them up without playing them
    lines = keep.read_text().splitlines()
    assert json.loads(lines[0])["key"]["run"] == "review-gap" and len(lines) == 3
    again = run_review_gap(2, seed=4, budget=TINY, check=2, control=1, keep=keep)
    assert again.deals == result.deals
    assert len(keep.read_text().splitlines()) == 3


def test_a_deal_kept_without_what_is_asked_is_played_again(tmp_path: Path) -> None:
    keep = tmp_path / "gap.jsonl"
    run_review_gap(1, seed=4, budget=TINY, check=0, review=0, keep=keep)
    assert len(keep.read_text().splitlines()) == 2
    more = run_review_gap(1, seed=4, budget=TINY, check=0, keep=keep)
    assert len(keep.read_text().splitlines()) == 3
    assert set(more.deals[0]["levels"]) == {"expert", "basic"}


def test_the_interval_is_the_normal_95_percent_one() -> None:
    assert mean_interval([]) == (0.0, 0.0)
    mean, half = mean_interval([1.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(1.96 * 1.0)


def test_bid_euchre_is_refused() -> None:
    with pytest.raises(RulesError, match="not Bid Euchre"):
        run_review_gap(1, rules=HouseRules.preset_rules("bid_euchre"))


@pytest.mark.slow
def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["review-gap", "--deals", "1", "--worlds", "3", "--rollouts", "3", "--check", "0"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "measured gap" in out and "basic     loss" in out and "blunders checked" not in out


def test_one_deals_review_lists_each_decision_with_its_standard_error() -> None:
    rules = HouseRules.preset_rules("north_american")
    specs, reviews = review_one_deal("basic", "random", 3, rules, TINY)
    assert specs == ["basic", "random", "basic", "random"]
    assert [r.seat for r in reviews] == [0, 1, 2, 3]
    text = review_deal_report(specs, reviews)
    lines = text.splitlines()
    assert lines[0].startswith("seat level     moment") and "± s.e." in lines[0]
    decisions = sum(len(r.decisions) for r in reviews)
    assert sum(1 for line in lines if " trick " in line or "bidding" in line) >= 1
    assert sum(1 for line in lines if "points lost" in line) == 4
    assert decisions > 0
