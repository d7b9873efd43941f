"""What a finished game's record says about it: the score, the winner and every deal.

The record is the truth about a game; these facts are read from replaying it with
the rules core, never from anything stored beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules import RecordError, replay
from bot.rules.scoring import DealOutcome

__all__ = ["DealFacts", "GameFacts", "game_facts"]


@dataclass(frozen=True, slots=True)
class DealFacts:
    """One deal: who made trump, who went alone, how it ended and what it scored."""

    maker: int | None
    alone: tuple[int, ...]
    result: DealOutcome
    tricks: tuple[int, int]
    points: tuple[int, int]

    @property
    def makers(self) -> int | None:
        """The makers' team, when trump was made."""
        return None if self.maker is None else self.maker % 2


@dataclass(frozen=True, slots=True)
class GameFacts:
    """A finished game as its record replays: final score, winner (None: a tie), deals."""

    score: tuple[int, int]
    winner: int | None
    deals: tuple[DealFacts, ...]


def game_facts(record: dict[str, Any]) -> GameFacts:
    """Replay a finished game's record; RecordError when it does not replay to its end."""
    result = replay(record)
    if result.error is not None:
        raise RecordError(f"action {result.error_index} is rejected: {result.error.message}")
    game = result.game
    if not game.over:
        raise RecordError("the game is not over")
    deals = tuple(
        DealFacts(
            maker=d.maker,
            alone=tuple(d.alone),
            result=d.result,
            tricks=(d.tricks[0], d.tricks[1]),
            points=(d.points[0], d.points[1]),
        )
        for d in game.results
    )
    return GameFacts((game.score[0], game.score[1]), game.winner, deals)
