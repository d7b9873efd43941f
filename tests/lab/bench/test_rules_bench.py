"""The rules bench's comparison with OpenSpiel: a clear sentence without it, figures with it."""

from __future__ import annotations

import sys

import pytest

from bot.rules import HouseRules
from lab.bench.cli import main
from lab.bench.rules import OPENSPIEL_MISSING, openspiel_hands, random_deals


def test_against_openspiel_without_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    assert main(["rules", "--against", "openspiel", "--seconds", "0.01"]) == 2
    out = capsys.readouterr().out
    assert out.strip() == OPENSPIEL_MISSING
    assert "pip install" in out


def test_random_deals_play_whole_games() -> None:
    result = random_deals(HouseRules.preset_rules("north_american"), 0.05)
    assert result.deals > 0 and result.actions > 5 * result.deals


def test_the_bench_says_which_build_it_measures(capsys: pytest.CaptureFixture[str]) -> None:
    import bot

    assert main(["rules", "--seconds", "0.01"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    compiled = bot.BUILD.mode == "compiled"
    assert first == f"rules core: {'compiled by mypyc' if compiled else 'pure Python'}"


def test_openspiel_hands_are_counted_when_it_is_installed() -> None:
    pytest.importorskip("pyspiel")
    assert (openspiel_hands(0.05) or 0) > 0


def test_counted_games_are_the_same_deals_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    """``--games`` plays a fixed set of games, so an instruction count's difference is stable."""
    assert main(["rules", "--games", "0"]) == 0
    assert capsys.readouterr().out.strip().endswith("; deals: 0")
    assert main(["rules", "--games", "3"]) == 0
    first = capsys.readouterr().out
    assert main(["rules", "--games", "3"]) == 0
    assert capsys.readouterr().out == first
    assert int(first.strip().rsplit(" ", 1)[1]) >= 3
