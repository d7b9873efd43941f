"""The Activity's benchmark runs end to end at a tiny size (its figures go in docs, not asserts)."""

from __future__ import annotations

import pytest

from lab.bench.cli import main


def test_the_activity_benchmark_plays_through_sockets_and_buttons(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["activity", "--moves", "12", "--spectators", "3", "--buttons", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "12 moves (" in out and "7 sockets" in out
    assert "a move reaches four players: p50" in out and "a move reaches everyone" in out
    assert "refused clicks 0; sockets not on the table's state at a game's end: 0" in out


def test_the_activity_options_are_checked() -> None:
    for wrong in (["--moves", "0"], ["--spectators", "-1"], ["--buttons", "2"]):
        with pytest.raises(SystemExit):
            main(["activity", *wrong])
