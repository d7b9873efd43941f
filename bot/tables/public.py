"""What everyone at a table may see: :class:`PublicTable`, built without any hidden card.

The public table message is drawn from this and from nothing else. The game part
comes from the rules core's own masking (``public_view``: no hand, and discards,
passed cards and kitty swaps stay hidden).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules import Action, DealResult, Game, HouseRules, Trick, public_view

from .persistence import Place, TableStatus
from .seats import Seat

__all__ = [
    "CompletedTrick",
    "DealSummary",
    "PublicGame",
    "PublicTable",
    "deal_summary",
    "public_game",
]


@dataclass(frozen=True, slots=True)
class CompletedTrick:
    """A finished trick, with the deal it belongs to."""

    deal_number: int
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A deal's outcome: trump, makers, tricks and points per team, and how it ended."""

    number: int
    dealer: int
    trump: int | None
    maker: int | None
    alone: tuple[int, ...]
    tricks: tuple[int, int]
    points: tuple[int, int]
    result: str
    """``made``, ``march``, ``euchred``, ``passed`` (thrown in), ``redeal`` or ``in_play``."""

    @property
    def makers(self) -> int | None:
        """The makers' team, if trump was made."""
        return None if self.maker is None else self.maker % 2


def deal_summary(number: int, result: DealResult) -> DealSummary:
    """A frozen copy of one of the rules core's deal results."""
    return DealSummary(
        number=number,
        dealer=result.dealer,
        trump=result.trump,
        maker=result.maker,
        alone=tuple(result.alone),
        tricks=(result.tricks[0], result.tricks[1]),
        points=(result.points[0], result.points[1]),
        result=result.result,
    )


@dataclass(frozen=True, slots=True)
class PublicGame:
    """The game as the whole table sees it: no hand, no hidden card."""

    dealer: int
    deal_number: int
    phase: str | None
    turn: int | None
    hand_counts: tuple[int, ...]
    upcard: int
    upcard_taken: bool
    turned_down: int | None
    trump: int | None
    maker: int | None
    alone: tuple[int, ...]
    out: tuple[bool, ...]
    score: tuple[int, int]
    tricks_won: tuple[int, int]
    trick: tuple[tuple[int, int], ...]
    """The current trick as (seat, card) in play order."""
    tricks: tuple[Trick, ...]
    """This deal's finished tricks."""
    history: tuple[tuple[int, Action], ...]
    """This deal's actions, hidden cards removed."""
    deals: tuple[DealSummary, ...]
    """Every finished deal, in order (the one in play is not listed)."""
    last_trick: CompletedTrick | None
    """The latest finished trick, of this deal or the one before."""
    over: bool
    winner: int | None

    @property
    def makers(self) -> int | None:
        """The makers' team once trump is made."""
        return None if self.maker is None else self.maker % 2

    @property
    def last_deal(self) -> DealSummary | None:
        """The latest finished deal."""
        return self.deals[-1] if self.deals else None


def public_game(game: Game, last_trick: CompletedTrick | None) -> PublicGame:
    """The public part of ``game``; ``last_trick`` is what the table noted."""
    view = public_view(game)
    finished = game.results if game.over else game.results[:-1]
    return PublicGame(
        dealer=view.dealer,
        deal_number=view.deal_number,
        phase=view.phase,
        turn=view.turn,
        hand_counts=view.hand_counts,
        upcard=view.upcard,
        upcard_taken=view.upcard_taken,
        turned_down=view.turned_down,
        trump=view.trump,
        maker=view.maker,
        alone=view.alone,
        out=view.out,
        score=view.score,
        tricks_won=view.tricks_won,
        trick=view.trick,
        tricks=view.tricks,
        history=view.history,
        deals=tuple(deal_summary(i + 1, r) for i, r in enumerate(finished)),
        last_trick=last_trick,
        over=view.over,
        winner=view.winner,
    )


@dataclass(frozen=True, slots=True)
class PublicTable:
    """A table as its public message shows it."""

    id: int
    place: Place
    host_id: int
    status: TableStatus
    rules: HouseRules
    seats: tuple[Seat | None, ...]
    game: PublicGame | None
    allow_takeover: bool
    """Members may take over a computer's seat during the game (the server's setting)."""
    rules_overridden: bool = False
    """The host changed the server's house rules for this table."""

    def name(self, seat: int) -> str:
        """The name shown for a seat ("seat 3" when empty)."""
        taken = self.seats[seat]
        return taken.name if taken is not None else f"seat {seat + 1}"

    @property
    def host_name(self) -> str:
        """The host's name as seated, or a mention-free fallback."""
        for seat in self.seats:
            if seat is not None and seat.user_id == self.host_id:
                return seat.name
        return "the host"
