"""Tournament benchmark: how soon a started event's tables and pings are out under Discord's limits.

Runs the unmodified bot as a process against the test kit's fake Discord (``tests.kit``),
which answers rate limits as Discord does: a director opens a progressive event, ``players``
members press Join, the director presses Start now. Printed: the seconds from the
Start click until every table is posted in its thread and every seated person is
pinged (goal: within 30 s for 64 players, with no 429), and the live event message
against the event's states (goal: never more than one state behind). With ``--through``
the members play every round to the champion. Over the whole run: the requests, the
busiest second, the answers of 401, 403 and 429 (goal: 0, global ones included) and
the payloads refused (goal: 0). The measures are :mod:`tests.kit.tournament_night`'s.

Like ``tables`` and ``pace``, it runs from a source checkout: the fake Discord is the
test kit's.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.kit import tournament_night

__all__ = ["TournamentOptions", "run"]


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """How many sign up, the seconds between their Join clicks, and whether to play it out."""

    players: int = 64
    gap: float = 0.02
    through: bool = False
    """Play the event through to its champion."""
    rounds: int = 3
    deals: int = 2


async def run(options: TournamentOptions) -> Any:
    """Run one night; its figures (``tests.kit.tournament_night.NightFigures``)."""
    night_module = tournament_night
    night = night_module.Night(
        players=options.players,
        gap=options.gap,
        through=options.through,
        rounds=options.rounds,
        deals=options.deals,
        timeout=600.0 if options.through else 120.0,
    )
    with tempfile.TemporaryDirectory(prefix="euchre-tournament-") as folder:
        return await night_module.run_night(Path(folder), night)
