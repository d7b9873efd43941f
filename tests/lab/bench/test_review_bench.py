"""The review benchmark: times a whole deal's review and each of its decisions."""

from __future__ import annotations

import pytest

from bot.players.review import Budget
from bot.rules import HouseRules
from lab.bench.cli import main
from lab.bench.review import time_reviews


@pytest.mark.parametrize("preset", ["north_american", "bid_euchre"])
def test_deals_and_their_decisions_are_timed(preset: str) -> None:
    times = time_reviews(
        HouseRules.preset_rules(preset),
        2,
        seed=2,
        budget=Budget(choose=None, counted=3, worlds=3, rollouts=3),
    )
    assert len(times.deals) == 2 and times.deals == sorted(times.deals)
    assert times.decisions == sorted(times.decisions)
    assert len(times.decisions) >= 1 and all(t > 0 for t in times.decisions)
    assert (
        "2 deals reviewed (the choice of 3 samples, valued on 3 worlds a card, 3 rollouts a bid): "
        in times.report()
    )


def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--deals", "1", "--rules", "toronto"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 deals reviewed (the table's choice, valued on 200 worlds a card")
    assert "decisions: p50 " in out
