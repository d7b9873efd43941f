"""What one seat may know: its own hand and everything public, never another hand.

Computer players decide from a SeatView and the private-hand message is drawn
from one, so hidden cards stay hidden by construction: a discard, a passed
card or a farmer's swap shows its cards only to the seats that saw them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .game import Game
from .house_rules import HouseRules
from .results import Contract, Trick
from .state import BID2, Phase

__all__ = ["PastDeal", "SeatView", "Trick", "public_view", "seat_view"]


@dataclass(frozen=True, slots=True)
class PastDeal:
    """A finished deal of the game as one seat saw it: who dealt, the upcard, every action.

    ``score`` is the game's score when the deal began. ``history`` hides what
    ``SeatView.history`` hides (another seat's discard, a card passed between
    others). Every card played is in it, so the hands that played a deal out
    are known once it is over, but for the dealer's discard.
    """

    dealer: int
    upcard: int
    score: tuple[int, int]
    history: tuple[tuple[int, Action], ...]

    def __init__(
        self,
        dealer: int,
        upcard: int,
        score: tuple[int, int],
        history: tuple[tuple[int, Action], ...],
    ) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "upcard", upcard)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "history", history)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the game at this moment.

    ``hand`` is empty while the dealer names trump after a turned Benny (the
    dealer chooses unseen). ``history`` is this deal's actions in order, with
    hidden cards removed unless this seat saw them. ``trump``, ``maker``,
    ``turned_down`` and ``leader`` are None until they exist. ``earlier`` is
    the game's finished deals as this seat saw them, oldest first, at most the
    latest ``EARLIER_DEALS`` (euchre only; a Bid Euchre view has none): what a
    person at the table remembers.
    """

    seat: int
    rules: HouseRules
    dealer: int
    deal_number: int
    phase: Phase | None
    turn: int | None
    legal: tuple[Action, ...]
    hand: tuple[int, ...]
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
    tricks: tuple[Trick, ...]
    history: tuple[tuple[int, Action], ...]
    over: bool
    winner: int | None
    contract: Contract | None = None
    earlier: tuple[PastDeal, ...] = ()

    def __init__(
        self,
        seat: int,
        rules: HouseRules,
        dealer: int,
        deal_number: int,
        phase: Phase | None,
        turn: int | None,
        legal: tuple[Action, ...],
        hand: tuple[int, ...],
        hand_counts: tuple[int, ...],
        upcard: int,
        upcard_taken: bool,
        turned_down: int | None,
        trump: int | None,
        maker: int | None,
        alone: tuple[int, ...],
        out: tuple[bool, ...],
        score: tuple[int, int],
        tricks_won: tuple[int, int],
        trick: tuple[tuple[int, int], ...],
        tricks: tuple[Trick, ...],
        history: tuple[tuple[int, Action], ...],
        over: bool,
        winner: int | None,
        contract: Contract | None = None,
        earlier: tuple[PastDeal, ...] = (),
    ) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "deal_number", deal_number)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_counts", hand_counts)
        object.__setattr__(self, "upcard", upcard)
        object.__setattr__(self, "upcard_taken", upcard_taken)
        object.__setattr__(self, "turned_down", turned_down)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "maker", maker)
        object.__setattr__(self, "alone", alone)
        object.__setattr__(self, "out", out)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "tricks_won", tricks_won)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "over", over)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "contract", contract)
        object.__setattr__(self, "earlier", earlier)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def team(self) -> int:
        """The team (0 or 1) of the seat viewing."""
        return self.seat % 2

    @property
    def makers(self) -> int | None:
        """The makers' team once trump is made."""
        return None if self.maker is None else self.maker % 2

    @property
    def my_turn(self) -> bool:
        """Whether this seat acts next."""
        return self.turn == self.seat


EARLIER_DEALS = 40
"""Finished deals a view holds, the latest: plenty to read a table by, at a bounded cost."""

_SELF_SEEN = frozenset({"discard", "swap"})
"""Verbs whose cards only the actor sees."""


def _visible(action: Action, actor: int, viewer: int, receiver: int | None) -> Action:
    if action.do == "discard" and actor != viewer:
        return Action.discard()
    if action.do == "give" and viewer not in (actor, receiver):
        return Action.give()
    if action.do == "swap" and actor != viewer:
        return Action.swap()
    return action


def public_view(game: Game) -> SeatView:
    """What everyone may see: a view from no seat, with no hand and every hidden card masked."""
    return seat_view(game, -1)


def seat_view(game: Game, seat: int) -> SeatView:
    """The view of ``seat`` (0-based) of the game as it stands; ``-1`` is nobody's (public) view.

    The rules core's own reader of the game: it alone reads the deal's full log.
    """
    s = game.state
    if s.fixed.bid_euchre:
        return _bid_view(game, seat)
    log = s.log
    start = s.deal_start
    marks = s.masked_at
    players = s.fixed.players
    if not marks:
        history = log[start:]
    elif all(log[i][1].do in _SELF_SEEN for i in marks):
        history = log[start:]
        for i in marks:
            actor, action = log[i]
            if actor != seat:
                history[i - start] = (actor, _visible(action, actor, seat, None))
    else:
        history = _seen(log[start:], seat, players)
    deals = s.deal_marks
    first = max(0, len(deals) - 1 - EARLIER_DEALS)
    earlier = tuple(
        PastDeal(
            dealer,
            upcard,
            (team0, team1),
            tuple(_seen(log[begin : following[2]], seat, players)),
        )
        for (dealer, upcard, begin, team0, team1), following in zip(
            deals[first:-1], deals[first + 1 :], strict=True
        )
    )
    phase = s.phase
    turn = s.turn
    hands = s.hands
    unseen = s.benny_call and phase is BID2
    score = s.score
    won = s.tricks_won
    return SeatView(
        seat=seat,
        rules=s.fixed.rules,
        dealer=s.dealer,
        deal_number=s.deal_number,
        phase=phase,
        turn=None if turn < 0 else turn,
        legal=tuple(game.legal()) if turn == seat else (),
        hand=() if seat < 0 or (unseen and seat == s.dealer) else tuple(hands[seat]),
        hand_counts=tuple(map(len, hands)),
        upcard=s.upcard,
        upcard_taken=s.upcard_taken,
        turned_down=game.turned_down,
        trump=game.trump,
        maker=game.maker,
        alone=s.alone,
        out=s.out,
        score=(score[0], score[1]),
        tricks_won=(won[0], won[1]),
        trick=game.trick,
        tricks=tuple(s.tricks),
        history=tuple(history),
        over=s.over,
        winner=game.winner,
        earlier=earlier,
    )


def _seen(actions: list[tuple[int, Action]], seat: int, players: int) -> list[tuple[int, Action]]:
    """``actions`` of one deal as ``seat`` sees them: a passed card only by giver and receiver."""
    seen = []
    receiver: int | None = None
    for actor, action in actions:
        if action.do == "ask":
            receiver = actor
        elif action.do == "give" and receiver is None:
            receiver = (actor + 2) % players
        seen.append((actor, _visible(action, actor, seat, receiver)))
        if action.do == "discard":
            receiver = None
    return seen


def _bid_view(game: Game, seat: int) -> SeatView:
    """A Bid Euchre seat's view: a shooter's gifts and discards seen by the shooter and giver."""
    s = game.state
    shooter = game.maker
    history = [
        (actor, _visible(action, actor, seat, shooter)) for actor, action in s.log[s.deal_start :]
    ]
    score, won = s.score, s.tricks_won
    turn = game.turn
    return SeatView(
        seat=seat,
        rules=s.fixed.rules,
        dealer=s.dealer,
        deal_number=s.deal_number,
        phase=s.phase,
        turn=turn,
        legal=tuple(game.legal()) if turn == seat else (),
        hand=() if seat < 0 else tuple(s.hands[seat]),
        hand_counts=tuple(map(len, s.hands)),
        upcard=s.upcard,
        upcard_taken=False,
        turned_down=None,
        trump=game.trump,
        maker=shooter,
        alone=s.alone,
        out=s.out,
        score=(score[0], score[1]),
        tricks_won=(won[0], won[1]),
        trick=game.trick,
        tricks=tuple(s.tricks),
        history=tuple(history),
        over=s.over,
        winner=game.winner,
        contract=s.contract,
    )
