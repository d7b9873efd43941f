"""A started event's tables and pings under Discord's limits (tests/kit/tournament_night.py).

The fake Discord answers rate limits as Discord does. These tests count and order,
never time: every table of the first round is posted in its thread, every seated
member is pinged there once, no request is refused with a 429, and the live event
message never shows a state more than one behind the event's. The seconds against
the goals are figures, printed by ``python -m lab bench tournament``.
"""

from __future__ import annotations

from pathlib import Path

from tests.kit.tournament_night import Night, run_night, states_behind


async def test_a_started_event_posts_every_table_and_pings_everyone(tmp_path: Path) -> None:
    figures = await run_night(tmp_path, Night(players=8, gap=0.01))
    assert figures.problems == []
    assert figures.tables == 2
    assert figures.rate_limited == 0, "the bot ran into a 429"
    assert figures.invalid == 0 and figures.refused == 0
    assert figures.most_posts <= 5 and figures.most_edits <= 5
    assert figures.states == 9 and figures.edits >= 1
    assert figures.most_behind <= 1, "the event message fell behind"
    assert figures.last_shown, "the event message does not show the round being played"
    print(figures.text())


def test_states_behind_counts_the_states_a_version_missed() -> None:
    saved = [1.0, 2.0, 3.0, 4.0]
    versions: list[tuple[float, int | None]] = [(0.5, 0), (2.5, 1), (4.5, 4), (5.0, None)]
    assert states_behind(versions, saved) == [0, 1, 0]
