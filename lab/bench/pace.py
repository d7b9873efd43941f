"""Pace benchmark: how soon a played card reaches the public table under Discord's limits.

Runs the unmodified bot as a process against the test kit's fake Discord (``tests.kit``),
which answers rate limits as Discord does (5 posts, 5 edits and 5 deletes per channel per
5 s, then 429), in three scenarios: four people at one table; one person and three
computers at the default ``computer_move_delay``; three tables of four people sharing
one channel (each in a thread of it); and, when asked, four people at one table of whom
one waits ``waiter`` seconds on each of their turns. Members think before each move.
Printed per scenario: click-to-table lag p50 / p95 / max, the most channel edits in any
5 s, the 429 count, the turn pings (new messages) and how fast a click nothing claims is
answered; with a waiter, the pings of each waited turn and how late each ping came after
the server's ``ping_after``.

Like ``tables``, it runs from a source checkout: the fake Discord is the test kit's.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.kit import pace

__all__ = ["PaceOptions", "run"]


@dataclass(frozen=True, slots=True)
class PaceOptions:
    """Moves per table, seconds a person thinks, the computers' delay; which scenarios."""

    moves: int = 40
    think: float = 0.8
    delay: float = 1.0
    scenarios: tuple[str, ...] = ("four", "computers", "shared")
    waiter: float = 20.0
    """Seconds the waiter of the ``waiter`` scenario waits on each of their turns."""


async def run(options: PaceOptions) -> list[Any]:
    """Run each scenario in turn; their figures (``tests.kit.pace.PaceFigures``)."""
    shapes: dict[str, dict[str, Any]] = {
        "four": {"tables": 1, "people": 4},
        "computers": {"tables": 1, "people": 1},
        "shared": {"tables": 3, "people": 4},
        "waiter": {"tables": 1, "people": 4, "waiter": options.waiter},
    }
    results = []
    with tempfile.TemporaryDirectory(prefix="euchre-pace-") as folder:
        for name in options.scenarios:
            scenario = pace.Scenario(
                moves=options.moves,
                think=options.think,
                computer_move_delay=options.delay,
                **shapes[name],
            )
            results.append(await pace.run_scenario(Path(folder) / name, scenario))
    return results
