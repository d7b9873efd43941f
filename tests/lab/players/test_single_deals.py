"""Duplicate single deals: net points from 0-0, and the chance of the game from a drawn score."""

from __future__ import annotations

import pytest

from lab.players.cli import main
from lab.players.single_deals import run_deals


def test_single_deals_net_the_difference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", "--a", "basic", "--b", "random", "--deals", "40", "--jobs", "2"]) == 0
    assert "40 duplicate deals, seed 1: A nets +" in capsys.readouterr().out
    alike = run_deals("basic", "basic", 30, seed=2)
    assert len(alike.nets) == 30
    assert alike.mean == 0.0 and alike.stderr == 0.0  # the same player on both sides: no difference


def test_single_deals_from_a_score_count_the_chance_of_winning_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["deals", "--a", "basic", "--b", "random", "--deals", "24", "--at", "6-7"]
    assert main([*argv, "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "24 duplicate deals from 6-7 points, seed 1: A's chance of winning the game" in out
    split = run_deals("basic", "random", 24, seed=1, at=(6, 7), jobs=2)
    whole = run_deals("basic", "random", 24, seed=1, at=(6, 7))
    assert split.nets == whole.nets
    assert split.mean > 0  # basic wins more of its games than random from any score
    # a deal moves a side's chance by at most the whole chance, counted in percentage points
    assert all(-100 <= net <= 100 for net in whole.nets)
    alike = run_deals("basic", "basic", 20, seed=2, at=(0, 9))
    assert alike.mean == pytest.approx(0.0, abs=1e-9)  # the points stay with the seats


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--at", "9-12"],
            "the starting points must be a range from 0 to 9, low to high, not 9-12",
        ),
        (["--at", "7-6"], "not 7-6"),
        (["--at", "6", "--rules", "bid_euchre"], "need a game of euchre played to a target"),
    ],
)
def test_single_deals_from_a_score_that_cannot_be_played_are_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deals", "--deals", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_score_range_that_is_not_numbers_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["deals", "--at", "six"])
    assert "'six' is not a range of points such as 6-7 or 8" in capsys.readouterr().err
