"""A game of euchre or Bid Euchre: its public face, and undo by a stack of states.

``Game`` holds one ``State`` (state.py, the plain record of every field) and
is all a caller needs: whose turn, what is legal, what the table shows. Every
change goes through ``step``, which hands the action to the bidding of the
game's rules or, a card, to the play: ``apply`` checks an action against the
rules and raises RefusedError, leaving the state untouched, when it is not
allowed; ``step`` applies an action taken from ``legal()`` without checking it
again, the fast path simulations use; ``push`` does the same and keeps the
state as it was, which ``pop`` brings back, as python-chess's board does.
What ``push`` keeps is a ``snapshot`` of the state, taken field by field by
name, so nothing a field holds is forgotten.

    >>> game = Game(HouseRules.preset_rules("north_american"), seed=7)
    >>> game.apply(2, Action.pass_())
    >>> game.turn, game.trump, game.log
    (3, None, [(2, Action.pass_())])
    >>> game
    <Game north_american deal 1, dealer 1, bid1, turn 3, upcard KS, trump -, score 0-0, \
tricks 0-0, hands [QS 9C AH AD JD | JH QD 9S KD QH | AC KH 10H QC 10S | 9H AS JS 10C KC]>
    >>> game.push(Action.pass_())
    >>> game.turn, game.pop(), game.turn
    (0, Action.pass_(), 3)

What is public is read-only (properties), with None for what does not exist yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from .actions import TRUMP_WORDS, Action
from .bid_bidding import act as bid_act
from .bid_bidding import check as bid_check
from .bid_bidding import legal as bid_legal
from .cards import card_label
from .dealing import Deal
from .deals import end_played_deal, start_deal, throw_in
from .errors import RulesError
from .euchre_bidding import act as euchre_act
from .euchre_bidding import legal as euchre_legal
from .euchre_checks import ace_no_face, farmer_swaps
from .euchre_checks import check as euchre_check
from .house_rules import HouseRules
from .play import check_play, legal_plays, play_card, trick_seats
from .ranking import Ranking
from .results import Contract, DealResult, Trick
from .state import PLAY_PHASE, Phase, State, fixed_for, snapshot

__all__ = ["Game", "new_game"]


class Game:
    """A whole game under one set of house rules, from the first deal to the winner.

    Any rules, euchre's or Bid Euchre's. Public, read-only: the table
    (``rules``, ``players``, ``hand_size``, ``seed``, ``first_dealer``,
    ``pack``, ``ranking``, ``preset_deals``); where the game stands
    (``dealer``, ``deal_number``, ``phase``, ``turn``, ``over``, ``winner``,
    ``score``, ``results``, ``log``); and the deal in play (``deal`` as dealt,
    ``hands``, ``upcard``, ``upcard_taken``, ``kitty``, ``turned_down``,
    ``trump``, ``maker``, ``makers``, ``alone``, ``out``, ``contract``,
    ``trick``, ``tricks``, ``tricks_won``, ``trump_broken``; ``last_trick``).
    Trump, maker and the turned-down suit are None until they exist; with
    nothing turned (Bid Euchre) ``upcard`` is NO_UPCARD. In Bid Euchre
    ``trump`` is 0..3 for a suit, 4 for No Trump High and 5 for No Trump Low,
    ``maker`` is the winner of the bidding and ``alone`` holds a shooter.
    ``state`` is the record itself, for the rules core's own modules (and Bid
    Euchre's queries, ``bid_bidding.bid_range``). Change the game only with
    ``apply`` (checked), ``step`` (unchecked, for moves from ``legal()``) or
    ``push`` (as ``step``, undone by ``pop``).
    """

    _state: State
    _stack: list[State]

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A blank game for ``copy`` (mypyc's own ``__new__`` would run ``__init__``)."""
        return super().__new__(cls)

    def __init__(
        self,
        rules: HouseRules,
        *,
        seed: int = 0,
        dealer: int | None = None,
        deals: Sequence[Deal] = (),
    ) -> None:
        fixed = fixed_for(rules)
        first = fixed.dealer.first_dealer(seed) if dealer is None else dealer
        if not 0 <= first < fixed.players:
            raise RulesError(f"dealer: seat {first} is not at a {fixed.players}-seat table")
        self._state = State(fixed, seed, first, tuple(deals))
        self._stack = []
        start_deal(self._state)

    # ------------------------------------------------------------------ the table

    @property
    def state(self) -> State:
        """The state record (the rules core's modules change it; a ``pop`` replaces it)."""
        return self._state

    @property
    def rules(self) -> HouseRules:
        """The house rules of the game."""
        return self._state.fixed.rules

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self._state.fixed.players

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return self._state.fixed.hand_size

    @property
    def seed(self) -> int:
        """The seed the deals are shuffled from."""
        return self._state.seed

    @property
    def ranking(self) -> Ranking:
        """The rules' lookup tables for following suit and ranking cards in a trick."""
        return self._state.fixed.ranking

    @property
    def pack(self) -> list[int]:
        """Every card of the pack, copies included."""
        return list(self._state.fixed.dealer.pack)

    @property
    def preset_deals(self) -> tuple[Deal, ...]:
        """Deals given in advance (a record's), played before seeded ones."""
        return self._state.preset_deals

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first deal."""
        return self._state.first_dealer

    # ------------------------------------------------------------------ where the game stands

    @property
    def dealer(self) -> int:
        """The seat dealing the deal in play (the last one once the game is over)."""
        return self._state.dealer

    @property
    def deal_number(self) -> int:
        """The deal in play, counted from 1 (the last one once the game is over)."""
        return self._state.deal_number

    @property
    def phase(self) -> Phase | None:
        """The deal's phase; None once the game is over."""
        return self._state.phase

    @property
    def turn(self) -> int | None:
        """The seat to act; None once the game is over."""
        turn = self._state.turn
        return None if turn < 0 else turn

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._state.over

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over; None before, and after a tie."""
        winner = self._state.winner
        return None if winner < 0 else winner

    @property
    def score(self) -> Sequence[int]:
        """Points per team."""
        return self._state.score

    @property
    def results(self) -> Sequence[DealResult]:
        """Every deal begun, in order; the last is the deal in play until the game ends."""
        s = self._state
        return s.results[:] if s.over else [*s.results, s.result()]

    @property
    def log(self) -> Sequence[tuple[int, Action]]:
        """Every (seat, action) of the game, in order."""
        return self._state.log

    # ------------------------------------------------------------------ the deal in play

    @property
    def deal(self) -> Deal:
        """The deal in play, as it was dealt."""
        s = self._state
        number = s.deal_number - 1
        if number < len(s.preset_deals):
            return s.preset_deals[number]
        return s.fixed.dealer.deal(s.seed, number)

    @property
    def hands(self) -> Sequence[Sequence[int]]:
        """Every seat's cards now."""
        return self._state.hands

    @property
    def upcard(self) -> int:
        """The card turned up."""
        return self._state.upcard

    @property
    def upcard_taken(self) -> bool:
        """Whether the dealer took the upcard into the hand."""
        return self._state.upcard_taken

    @property
    def kitty(self) -> Sequence[int]:
        """The face-down cards, discards included."""
        return self._state.kitty

    @property
    def turned_down(self) -> int | None:
        """The upcard's suit once everyone passed it; None before."""
        suit = self._state.turned_down
        return None if suit < 0 else suit

    @property
    def trump(self) -> int | None:
        """The trump suit once it is made."""
        trump = self._state.trump
        return None if trump < 0 else trump

    @property
    def maker(self) -> int | None:
        """The seat that made trump."""
        maker = self._state.maker
        return None if maker < 0 else maker

    @property
    def makers(self) -> int | None:
        """The makers' team."""
        makers = self._state.makers
        return None if makers < 0 else makers

    @property
    def alone(self) -> Sequence[int]:
        """The seats playing (or defending) alone this deal."""
        return list(self._state.alone)

    @property
    def out(self) -> Sequence[bool]:
        """Per seat, whether it sits this deal out (a loner's partner)."""
        return list(self._state.out)

    @property
    def contract(self) -> Contract | None:
        """Bid Euchre's highest bid so far this deal (the contract once bidding ends); else None."""
        return self._state.contract

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick being played, as (seat, card) in play order."""
        s = self._state
        return tuple(zip(trick_seats(s), s.trick_cards, strict=True))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's finished tricks."""
        return tuple(self._state.tricks)

    @property
    def last_trick(self) -> Trick | None:
        """The latest finished trick of the game (of the deal before, once a new deal begins)."""
        return self._state.last_trick

    @property
    def tricks_won(self) -> Sequence[int]:
        """Tricks taken per team this deal."""
        return self._state.tricks_won

    @property
    def trump_broken(self) -> bool:
        """Whether trump was played to an earlier trick of this deal."""
        s = self._state
        if s.trump_broken or s.fixed.lead_rules:
            return s.trump_broken
        trump, eff = s.trump, s.eff
        return any(eff[c] == trump for t in s.tricks for c in t.cards)

    def partners(self, seat: int) -> list[int]:
        """The seat's partners, clockwise from its left."""
        return list(self._state.fixed.partners[seat])

    def ace_no_face(self, hand: Sequence[int]) -> bool:
        """Whether a hand may be thrown in: no face card (nor Benny) and at most one ace."""
        return ace_no_face(hand)

    def farmer_swaps(self, hand: Sequence[int]) -> list[tuple[int, ...]]:
        """Every set of three cards this hand may swap with the kitty."""
        return farmer_swaps(self._state, hand)

    def __repr__(self) -> str:
        """Where the game stands, cards as record text."""
        s = self._state
        trump = "-" if s.trump < 0 else TRUMP_WORDS[s.trump]
        hands = " | ".join(" ".join(card_label(c) for c in h) for h in s.hands)
        trick = " ".join(f"{seat}:{card_label(c)}" for seat, c in self.trick)
        state = f"over, winner {self.winner}" if s.over else f"{s.phase}, turn {s.turn}"
        if s.fixed.bid_euchre:
            c = s.contract
            bid = "-" if c is None else f"{'shoot' if c.shoot else c.tricks} by {c.seat}"
            state += f", bid {bid}"
        elif not s.over:
            state += f", upcard {card_label(s.upcard)}"
        return (
            f"<Game {s.fixed.rules.preset} deal {s.deal_number}, "
            f"dealer {s.dealer}, {state}, trump {trump}, "
            f"score {s.score[0]}-{s.score[1]}, "
            f"tricks {s.tricks_won[0]}-{s.tricks_won[1]}, hands [{hands}]"
            + (f", trick [{trick}]" if trick else "")
            + ">"
        )

    # ------------------------------------------------------------------ acting

    def legal(self) -> Sequence[Action]:
        """Every action the seat to act may take now; empty once the game is over."""
        s = self._state
        seat = s.turn
        if s.phase is PLAY_PHASE:
            return legal_plays(s, seat)
        if seat < 0:
            return ()
        if s.fixed.bid_euchre:
            return bid_legal(s, seat)
        return euchre_legal(s, seat)

    def check(self, seat: int, action: Action) -> None:
        """Raise RefusedError (with the record's code) where the rules refuse ``seat``'s action."""
        s = self._state
        if s.fixed.bid_euchre:
            bid_check(s, seat, action)
        else:
            euchre_check(s, seat, action)
        card = action.card
        if action.do == "play" and card is not None:
            check_play(s, seat, card)

    def apply(self, seat: int, action: Action) -> None:
        """Apply a seat's action after checking it; RefusedError (state unchanged) if refused."""
        self.check(seat, action)
        self.step(action)

    def step(self, action: Action) -> None:
        """Apply an action of the seat to act without checking it: it must come from ``legal()``.

        The one path of every change: a card goes to the play, anything else to the
        bidding of the game's rules, and a deal that ends goes to deals.py.
        """
        s = self._state
        seat = s.turn
        assert seat >= 0, "the game is over"
        card = action.card
        if action.do == "play":
            assert card is not None
            entry: Any = s.fixed.plays[seat][card]  # Any: appended as it is, not rebuilt
            s.log.append(entry)
            if play_card(s, seat, card):
                end_played_deal(s)
            return
        s.log.append((seat, action))
        if s.fixed.bid_euchre:
            bid_act(s, seat, action)
            return
        ended = euchre_act(s, seat, action)
        if ended is not None:
            throw_in(s, ended)

    # ------------------------------------------------------------------ copying and undoing

    def copy(self) -> Game:
        """An independent copy of the game as it stands (for search: try, then throw away)."""
        new = Game.__new__(Game)
        new._state = snapshot(self._state)
        new._stack = []
        return new

    def push(self, action: Action) -> None:
        """``step``, keeping the state as it was for ``pop`` (unchecked as ``step``)."""
        self._stack.append(snapshot(self._state))
        self.step(action)

    def pop(self) -> Action:
        """Take back the last ``push`` (and any ``step`` since) and return its action.

        IndexError when nothing was pushed. The game is as it was before the push,
        the same object: nothing is replayed.
        """
        saved = self._stack.pop()
        action = self._state.log[len(saved.log)][1]
        self._state = saved
        return action

    def clear_stack(self) -> None:
        """Forget what ``pop`` could take back (the game stays as it is)."""
        self._stack.clear()


def new_game(
    rules: HouseRules, *, seed: int = 0, dealer: int | None = None, deals: Sequence[Deal] = ()
) -> Game:
    """A new game of whichever game the rules play (the same as ``Game(rules, ...)``)."""
    # Compiled, Game(...) goes through the type's call and parses its keywords (its own
    # __new__ is why); a blank game and a direct call of __init__ are native calls.
    game = Game.__new__(Game)
    game.__init__(rules, seed=seed, dealer=dealer, deals=deals)  # type: ignore[misc]
    return game
