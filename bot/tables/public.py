"""What everyone at a table may see: :class:`PublicTable`, built without any hidden card.

The public table message is drawn from this and from nothing else. The game part
is the rules core's own public view (``public_view``: no hand, and discards,
passed cards and kitty swaps stay hidden) with the table's finished deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import Contract, DealResult, Game, HouseRules, SeatView, public_view

from .persistence import Place, TableStatus
from .seats import Seat

__all__ = [
    "Claim",
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
    players: tuple[Seat | None, ...] = ()
    """Who sat in each of ``seats`` when they played (empty: whoever sits there now)."""

    def player(self, index: int) -> Seat | None:
        """Who played card ``index`` of the trick, if the table noted it."""
        return self.players[index] if index < len(self.players) else None


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
    """``made``, ``march``, ``euchred``, ``passed`` (thrown in), ``redeal`` or ``in_play``;
    Bid Euchre: ``made``, ``set``, ``shot`` or ``shot_failed``."""
    maker_player: Seat | None = None
    """Who sat in the maker's seat when trump was made (None: not noted)."""
    contract: Contract | None = None
    """Bid Euchre: the winning bid (None in euchre)."""

    @property
    def makers(self) -> int | None:
        """The makers' team, if trump was made."""
        return None if self.maker is None else self.maker % 2


def deal_summary(number: int, result: DealResult, maker_player: Seat | None = None) -> DealSummary:
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
        maker_player=maker_player,
        contract=result.contract,
    )


@dataclass(frozen=True, slots=True)
class PublicGame:
    """The game as the whole table sees it: no hand, no hidden card.

    ``view`` is the rules core's public view (``public_view``): dealer, phase,
    turn, upcard, trump, tricks, score, this deal's history with hidden cards
    removed. The table adds what the view of one moment does not hold.
    """

    view: SeatView
    deals: tuple[DealSummary, ...]
    """Every finished deal, in order (the one in play is not listed)."""
    last_trick: CompletedTrick | None
    """The latest finished trick, of this deal or the one before."""
    actors: tuple[Seat | None, ...] = ()
    """Who sat in the acting seat when each action of ``view.history`` was made."""

    def actor(self, index: int) -> Seat | None:
        """Who made action ``index`` of ``view.history``, if the table noted it."""
        return self.actors[index] if index < len(self.actors) else None

    @property
    def last_deal(self) -> DealSummary | None:
        """The latest finished deal."""
        return self.deals[-1] if self.deals else None


def public_game(
    game: Game,
    last_trick: CompletedTrick | None,
    actors: Sequence[tuple[int, Seat | None]] = (),
) -> PublicGame:
    """The public part of ``game``; ``last_trick`` is what the table noted.

    ``actors``: for each action of the game's log, its deal number and who made it.
    """
    finished = game.results if game.over else game.results[:-1]
    makers: dict[int, Seat | None] = {}
    for (_, action), (deal, who) in zip(game.log, actors, strict=False):
        if action.do in ("order_up", "call", "declare") and deal not in makers:
            makers[deal] = who
    view = public_view(game)
    current = tuple(who for deal, who in actors if deal == game.deal_number)
    return PublicGame(
        view=view,
        deals=tuple(deal_summary(i + 1, r, makers.get(i + 1)) for i, r in enumerate(finished)),
        last_trick=last_trick,
        actors=current if len(current) == len(view.history) else (),
    )


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat claimed the rest of a deal: the ``tricks`` not finished when it did."""

    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class PublicTable:
    """A table as its public message shows it."""

    id: int
    number: int
    """Its number on its server, as people see it (``id`` stays inside: buttons, logs)."""
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
    hinted: bool = False
    """Someone asked for a hint: the game is casual."""
    computer_level: str = "basic"
    """The level the table's computers play at (the host's choice, else the server's)."""
    claim: Claim | None = None
    """The claim that ended the last deal, until the next move after it."""
    hands_shown: bool = False
    """Anyone may ask to see every hand of the deal that has just ended (``watching``)."""

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
