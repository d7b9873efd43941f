"""The rounds of a finished progressive night of eight people, two rounds of one deal,
for the tests of standings, exports and the pages that show them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.tournaments.model import Entrant, EventRound, RoundTable, TableResult


def played(number: int, seats: tuple[int, int, int, int], *deals: tuple[int, int]) -> RoundTable:
    """Table ``number``, its four entrants, its deals' points (seats 0 and 2, 1 and 3)."""
    return RoundTable(
        number=number, seats=seats, result=TableResult(deals=list(deals), finished=True)
    )


def entrants(names: Sequence[tuple[int, str]]) -> list[Entrant]:
    """The entrants by (user id, name), numbered and seated in that order."""
    return [
        Entrant(number=n, user_id=user, display_name=shown, slot=n)
        for n, (user, shown) in enumerate(names)
    ]


def two_rounds(at: datetime, second: tuple[int, int] = (2, 0)) -> list[EventRound]:
    """Round 1: 0-3 and 4-7; round 2: 1, 4, 5, 6 (their deal ``second``) and 0, 2, 3, 7."""
    return [
        EventRound(
            number=1,
            started_at=at,
            ended_at=at,
            tables=[played(1, (0, 1, 2, 3), (2, 0)), played(2, (4, 5, 6, 7), (0, 1))],
        ),
        EventRound(
            number=2,
            started_at=at,
            ended_at=at,
            tables=[played(1, (1, 4, 5, 6), second), played(2, (0, 2, 3, 7), (0, 2))],
        ),
    ]
