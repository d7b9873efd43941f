"""The review's yardstick: its points lost against the measured duplicate gap."""

from __future__ import annotations

import pytest

from bot.players.review import Budget
from bot.rules import HouseRules, RulesError
from lab.players.cli import main
from lab.players.review_gap import gap_report, mean_interval, run_review_gap


def test_each_deal_gives_a_gap_and_a_loss_and_flags_are_checked() -> None:
    result = run_review_gap(3, seed=4, budget=Budget(4, 6), check=2)
    assert len(result.gaps) == len(result.lost) == 3
    assert all(lost >= 0 for lost in result.lost)
    assert result.decisions > 0
    assert 0 <= result.disagreed <= result.flagged <= result.decisions
    text = gap_report(result)
    assert "3 duplicate deals, seed 4; review of 4 worlds a card, 6 rollouts a bid" in text
    assert "larger search   2x the samples disagrees with" in text


def test_the_interval_is_the_normal_95_percent_one() -> None:
    assert mean_interval([]) == (0.0, 0.0)
    mean, half = mean_interval([1.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(1.96 * 1.0)


def test_bid_euchre_is_refused() -> None:
    with pytest.raises(RulesError, match="not Bid Euchre"):
        run_review_gap(1, rules=HouseRules.preset_rules("bid_euchre"))


def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["review-gap", "--deals", "1", "--worlds", "3", "--rollouts", "3", "--check", "0"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "measured gap" in out and "review's loss" in out and "larger search" not in out
