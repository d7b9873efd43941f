"""The pace benchmark runs end to end at a tiny size (its figures are for README, not asserts)."""

from __future__ import annotations

import pytest

from lab.bench.cli import main


@pytest.mark.slow
def test_the_pace_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pace", "--moves", "3", "--think", "0.1", "--delay", "0.1", "--only", "four"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "click-to-table lag over" in out and "p95" in out and "429 answers: 0" in out
    assert "edits in a channel's 5 s window" in out and "unknown click answered" in out


@pytest.mark.slow
def test_the_waiter_scenario_prints_its_turns(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pace", "--moves", "4", "--think", "0.1", "--only", "waiter", "--waiter-seconds", "0.3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "one of whom waits 0.3 s on each turn" in out and "the waiter's" in out
    assert "each ping after ping_after (8 s)" in out


def test_the_pace_options_are_checked() -> None:
    with pytest.raises(SystemExit):
        main(["pace", "--moves", "0"])
    with pytest.raises(SystemExit):
        main(["pace", "--only", "everything"])
    with pytest.raises(SystemExit):
        main(["pace", "--waiter-seconds", "0"])
