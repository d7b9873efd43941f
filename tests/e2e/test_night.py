"""A small night on one bot process (tests/kit/night.py): everything asked is answered.

These tests count, never time: every game ends, every Review asked is delivered (or
said to be dropped), no request is refused with a 429, and the pages answer. The
seconds against the goals are figures, printed by ``python -m lab bench night``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kit.night import Night, run_night


@pytest.mark.slow
async def test_a_small_night_answers_everything_asked(tmp_path: Path) -> None:
    night = Night(
        players=4, casual=1, rounds=1, deals=1, think=0.05, web_rate=4, computer_move_delay=0.2
    )
    figures = await run_night(tmp_path, night)
    assert figures.games >= 2, "the tournament's table and the casual table finished a game"
    assert figures.reviews_asked >= 5 and len(figures.reviews) == figures.reviews_asked
    assert figures.rate_limited == 0 and figures.refused == 0 and not figures.problems
    assert figures.pages > 0 and set(figures.page_statuses) == {200}
    assert figures.computer_lags and all(figures.card_lags.values())
    print(figures.text())
