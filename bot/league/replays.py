"""A finished game step by step, every hand face up: the pages of ``/euchre replay``.

Each deal has a first step (the hands as dealt, the upcard and the bidding) and one
step per trick (the hands as that trick began, the cards played, who took it). The
steps are built by replaying the record with the rules core, and between them they
hold every action of the record, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules import Action, HouseRules, RecordError, RulesError, parse_record
from bot.rules.game import Game
from bot.rules.record import starting_game
from bot.rules.scoring import Contract, DealOutcome

__all__ = ["ReplayBook", "ReplayStep", "TrickPlay", "replay_book"]


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """A trick: the cards in the order played, and the seat that took it."""

    plays: tuple[tuple[int, int], ...]
    """(seat, card) in play order; the first one led."""
    winner: int


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One page: a deal's bidding (``trick`` 0) or one of its tricks (``trick`` 1 and up)."""

    deal: int
    """0-based number of the deal in the game."""
    trick: int
    dealer: int
    upcard: int
    hands: tuple[tuple[int, ...], ...]
    """Every seat's hand as the step began: as dealt for the bidding, else before the trick."""
    trump: int | None
    """0-3 a suit; Bid Euchre's 4 No Trump High, 5 No Trump Low."""
    maker: int | None
    alone: tuple[int, ...]
    out: tuple[bool, ...]
    """Seats sitting out the deal (a lone player's partners)."""
    actions: tuple[tuple[int, Action], ...]
    """What each seat did during the step, in order."""
    trick_play: TrickPlay | None
    tricks_won: tuple[int, int]
    """Tricks per team once the step is over."""
    score: tuple[int, int]
    """The game's score once the step is over."""
    result: DealOutcome | None
    """How the deal ended, on its last step; None on the others."""
    points: tuple[int, int]
    """Points the deal scored per team, on its last step."""
    contract: Contract | None = None
    """Bid Euchre: the winning bid once the bidding is over (None in euchre)."""


@dataclass(frozen=True, slots=True)
class ReplayBook:
    """Every step of a finished game, and where each deal starts."""

    rules: HouseRules
    steps: tuple[ReplayStep, ...]
    deal_starts: tuple[int, ...]
    score: tuple[int, int]
    winner: int | None

    def index(self, deal: int, trick: int) -> int:
        """The step showing ``trick`` of ``deal`` (clamped to the steps there are)."""
        deal = min(max(deal, 0), len(self.deal_starts) - 1)
        start = self.deal_starts[deal]
        end = self.deal_starts[deal + 1] if deal + 1 < len(self.deal_starts) else len(self.steps)
        return start + min(max(trick, 0), end - start - 1)

    def actions(self) -> list[tuple[int, Action]]:
        """Every action of the game in order (the record's ``actions``)."""
        return [a for step in self.steps for a in step.actions]


class _Builder:
    """Collects the steps while the record is replayed action by action."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.steps: list[ReplayStep] = []
        self.deal_starts: list[int] = []
        self._begin(trick=0)

    def _begin(self, trick: int) -> None:
        game = self.game
        if trick == 0:
            self.deal_starts.append(len(self.steps))
        self.deal = game.deal_number - 1
        self.trick = trick
        self.dealer = game.dealer
        self.upcard = game.upcard
        self.hands = tuple(tuple(h) for h in game.hands)
        self.out = tuple(game.out)
        self.actions: list[tuple[int, Action]] = []
        self.plays: list[tuple[int, int]] = []
        self.winner: int | None = None

    def _close(self, result: DealOutcome | None) -> None:
        game = self.game
        deal = game.results[self.deal]
        self.steps.append(
            ReplayStep(
                deal=self.deal,
                trick=self.trick,
                dealer=self.dealer,
                upcard=self.upcard,
                hands=self.hands,
                trump=deal.trump,
                maker=deal.maker,
                alone=tuple(deal.alone),
                out=self.out,
                actions=tuple(self.actions),
                trick_play=(
                    None if self.winner is None else TrickPlay(tuple(self.plays), self.winner)
                ),
                tricks_won=(deal.tricks[0], deal.tricks[1]),
                score=(game.score[0], game.score[1]),
                result=result,
                points=(deal.points[0], deal.points[1]) if result is not None else (0, 0),
                contract=deal.contract,
            )
        )

    def apply(self, seat: int, action: Action) -> None:
        game = self.game
        card = action.card
        playing = action.do == "play" and card is not None
        if playing and not game.trick:
            self._close(None)
            self._begin(trick=len(game.tricks) + 1)
        deal_before = game.deal_number
        game.apply(seat, action)
        self.actions.append((seat, action))
        ended = game.deal_number != deal_before or game.over
        if not ended:
            self.out = tuple(game.out)
        if playing and card is not None:
            self.plays.append((seat, card))
            done = game.last_trick
            if not game.trick and done is not None:
                self.winner = done.winner
        if ended:
            self._close(game.results[deal_before - 1].result)
            if not game.over:
                self._begin(trick=0)


def replay_book(record: dict[str, Any]) -> ReplayBook:
    """The steps of a finished game's record; RecordError if it does not replay to the end."""
    loaded = parse_record(record)
    game = starting_game(loaded)
    builder = _Builder(game)
    for index, (seat, action) in enumerate(loaded.actions):
        actor = game.turn if seat is None else seat
        try:
            builder.apply(-1 if actor is None else actor, action)
        except RulesError as exc:
            raise RecordError(f"action {index} is rejected: {exc.message}") from None
    if not game.over:
        raise RecordError("the game is not over")
    return ReplayBook(
        rules=loaded.rules,
        steps=tuple(builder.steps),
        deal_starts=tuple(builder.deal_starts),
        score=(game.score[0], game.score[1]),
        winner=game.winner,
    )
