"""What a finished game's record says about it: the score, the winner and every deal.

The record is the truth about a game; these facts are read from replaying it with
the rules core, never from anything stored beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, cast, get_args

from bot.rules import RecordError, replay
from bot.rules.scoring import DealOutcome
from bot.store import ArchivedGame

__all__ = ["DealFacts", "GameFacts", "game_facts", "kept_facts"]

_OUTCOMES: Final[frozenset[str]] = frozenset(get_args(DealOutcome))


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


def _pair(value: object) -> tuple[int, int]:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and type(value[0]) is int
        and type(value[1]) is int
    ):
        raise RecordError(f"not two numbers: {value!r}")
    return (value[0], value[1])


def _deal(kept: object) -> DealFacts:
    if not isinstance(kept, dict):
        raise RecordError(f"a deal is not an object: {kept!r}")
    maker, alone, result = kept.get("maker"), kept.get("alone"), kept.get("result")
    if maker is not None and type(maker) is not int:
        raise RecordError(f"maker {maker!r} is not a seat")
    if not isinstance(alone, list) or not all(type(a) is int for a in alone):
        raise RecordError(f"alone {alone!r} is not a list of seats")
    if result not in _OUTCOMES:
        raise RecordError(f"{result!r} is not a deal's outcome")
    outcome = cast("DealOutcome", result)
    return DealFacts(
        maker, tuple(alone), outcome, _pair(kept.get("tricks")), _pair(kept.get("points"))
    )


def kept_facts(game: ArchivedGame, deals: list[dict[str, Any]]) -> GameFacts:
    """The facts of an archived game from the deal outcomes the archive keeps beside it.

    The same facts as :func:`game_facts` of its record, without replaying it (score and
    winner as the archive took them from that replay). RecordError if they are malformed.
    """
    return GameFacts(game.score, game.winner, tuple(_deal(d) for d in deals))
