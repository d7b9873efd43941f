"""The tournament benchmark runs end to end at a tiny size (its figures are for docs)."""

from __future__ import annotations

import pytest

from lab.bench.cli import main


@pytest.mark.slow
def test_the_tournament_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--players", "8", "--gap", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "2 tables posted in" in out and "every seated person pinged in" in out
    assert "429 answers: 0" in out and "states shown by" in out
    assert "answers of 401/403/429: 0 (0 global); payloads refused (400): 0" in out


@pytest.mark.slow
def test_played_through_the_event_reaches_its_champion_with_nothing_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["tournament", "--players", "8", "--through", "--rounds", "2", "--deals", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "played through 2 rounds of 1 deal(s)" in out
    assert "answers of 401/403/429: 0 (0 global); payloads refused (400): 0" in out
    assert "champion announced: yes" in out


def test_the_tournament_options_are_checked() -> None:
    for argv in (["--players", "6"], ["--players", "0"], ["--gap", "-1"], ["--rounds", "0"]):
        with pytest.raises(SystemExit):
            main(["tournament", *argv])
