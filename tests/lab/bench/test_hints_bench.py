"""The hint benchmark: times the Hint button's answer at real positions and prints figures."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules
from lab.bench.cli import main
from lab.bench.hints import time_hints


def test_hints_are_timed_at_positions_with_a_choice() -> None:
    times = time_hints(HouseRules.preset_rules("toronto"), 3, seed=2)
    assert len(times.times) == 3 and times.times == sorted(times.times)
    assert all(t > 0 for t in times.times)


def test_bid_euchre_hints_are_timed_too() -> None:
    times = time_hints(HouseRules.preset_rules("bid_euchre_6"), 2, seed=3)
    assert len(times.times) == 2 and all(t > 0 for t in times.times)


def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hints", "--hints", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 hints (CPU time): p50 ") and "p95" in out and "max" in out
