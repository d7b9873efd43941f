"""A game of euchre or Bid Euchre, the trick-taking core: whose turn, what is legal, what acts do.

One engine serves everyone and every game. ``Game`` holds the table, the
score, the log and the deal in play, and plays its cards and tricks; the
bidding before the play is its rules' ``Bidding`` (bidding.py): euchre's
(euchre_bidding.py) or Bid Euchre's (bid_bidding.py). ``apply`` checks an
action against the rules and raises RuleError, leaving the state untouched,
when it is not allowed; ``step`` applies an action taken from ``legal()``
without checking it again, which is the fast path simulations use; ``push``
does the same and keeps what ``pop`` needs to take it back. All share every
line that changes the state.

Phases follow record-format.md (bidding.py names them); ``phase`` is None
once the game is over.

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

The state the engine works with is private; what is public is read-only
(properties and ``Final`` attributes), with None for what does not exist yet.

Longer than 450 lines on purpose: the read-only surface, the deal and the play
share one class's private fields, so the hot path (``legal``, ``step``) reads
plain attributes with no indirection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Self

from .actions import PASS, PLAY, TRUMP_WORDS, Action
from .bid_bidding import BidBidding
from .bidding import (
    ALONE_PHASE,
    BID1,
    BID2,
    BID_PHASE,
    DECLARE_PHASE,
    DISCARD_PHASE,
    GIVE_PHASE,
    PLAY_PHASE,
    Bidding,
    Phase,
)
from .cards import ACE, JACK, JOKER, KING, NINE, QUEEN, TEN, card_label
from .dealing import Deal, Dealer, first_dealer
from .euchre_bidding import EuchreBidding
from .house_rules import HouseRules
from .ranking import Ranking, best_card, build_ranking
from .scoring import Contract, DealOutcome, DealResult

__all__ = [
    "ALONE_PHASE",
    "BID1",
    "BID2",
    "BID_PHASE",
    "DECLARE_PHASE",
    "DISCARD_PHASE",
    "GIVE_PHASE",
    "PLAY_PHASE",
    "Game",
    "Phase",
    "Trick",
    "play_order",
]


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who played which card, in play order, and who won it."""

    seats: tuple[int, ...]
    cards: tuple[int, ...]
    winner: int

    def __init__(self, seats: tuple[int, ...], cards: tuple[int, ...], winner: int) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "winner", winner)


_FACES: Final = frozenset((JACK, QUEEN, KING))


class _Fixed:
    """What a game reads of its rules deal after deal, worked out once per ``HouseRules`` object.

    Games of one rules object share it: found by the object's identity, a new
    game is spared hashing the pydantic model (as ``lru_cache`` does) and every
    deal reading its fields again.
    """

    def __init__(self, rules: HouseRules) -> None:
        n = rules.players
        self.rules = rules
        self.ranking = build_ranking(rules)
        self.dealer = Dealer(rules)
        self.partners = tuple([tuple([(s + k) % n for k in range(2, n, 2)]) for s in range(n)])
        asks = [tuple([Action.ask(p) for p in partners]) for partners in self.partners]
        # the ask step's legal actions per seat (a six-handed loner may also pass)
        self.asks = tuple(asks if rules.partners_best else [(PASS, *a) for a in asks])
        self.deals_per_game = -1 if rules.deals_per_game is None else rules.deals_per_game
        self.target_score = rules.target_score
        self.after_trump = rules.alone_declaration == "after_trump"
        self.defend_alone = rules.defend_alone
        self.partners_best = rules.partners_best
        self.left_of_loner = rules.lone_lead == "left_of_loner"
        self.ace_no_face = rules.ace_no_face
        self.farmers = rules.farmers_hand != "off"
        self.stick = rules.stick_the_dealer
        # the rules on leading trump (euchre's only)
        self.lead_rules = rules.game == "euchre" and (
            rules.no_trump_lead_first_trick or rules.trump_must_be_broken
        )
        self.bid_euchre = rules.game == "bid_euchre"
        # Bid Euchre's (bid_bidding.py)
        self.bid_minimum = rules.bid_minimum
        self.dealer_may_match = rules.dealer_may_match
        self.shoot = rules.shoot
        self.bidder_leads = rules.bid_lead == "bidder"


_FIXED: Final[dict[int, _Fixed]] = {}
"""``_Fixed`` by ``id(rules)``; each holds its rules, so an id is not reused while it is here."""


def _fixed(rules: HouseRules) -> _Fixed:
    fixed = _FIXED.get(id(rules))
    if fixed is None or fixed.rules is not rules:
        if len(_FIXED) >= 64:
            _FIXED.clear()
        fixed = _FIXED[id(rules)] = _Fixed(rules)
    return fixed


class Game:
    """A whole game under one set of house rules, from the first deal to the winner.

    Any rules: euchre's or Bid Euchre's (``BidGame`` adds Bid Euchre's own
    queries). Public, read-only: the table (``rules``, ``players``,
    ``hand_size``, ``seed``, ``first_dealer``, ``pack``, ``ranking``,
    ``preset_deals``); where the game stands (``dealer``, ``deal_number``,
    ``phase``, ``turn``, ``over``, ``winner``, ``score``, ``results``,
    ``log``); and the deal in play (``deal`` as dealt, ``hands``, ``upcard``,
    ``upcard_taken``, ``kitty``, ``turned_down``, ``trump``, ``maker``,
    ``makers``, ``alone``, ``out``, ``contract``, ``trick``, ``tricks``,
    ``tricks_won``, ``trump_broken``; ``last_trick``). Trump, maker and the
    turned-down suit are None until they exist; with nothing turned (Bid
    Euchre) ``upcard`` is NO_UPCARD. In Bid Euchre ``trump`` is 0..3 for a
    suit, 4 for No Trump High and 5 for No Trump Low, ``maker`` is the winner
    of the bidding and ``alone`` holds a shooter. Change the game only with
    ``apply`` (checked), ``step`` (unchecked, for moves from ``legal()``) or
    ``push`` (as ``step``, undone by ``pop``).
    """

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A blank game, which ``__init__`` or ``copy`` fills in.

        Defined so that ``Game.__new__(Game)`` makes one without ``__init__`` also
        when compiled (mypyc's own ``__new__`` would run ``__init__``).
        """
        return super().__new__(cls)

    def __init__(
        self,
        rules: HouseRules,
        *,
        seed: int = 0,
        dealer: int | None = None,
        deals: Sequence[Deal] = (),
    ) -> None:
        self._refuse(rules)
        fixed = _fixed(rules)
        self._fixed = fixed
        self._rules = rules
        self._players = fixed.dealer.players
        self._hand_size = fixed.dealer.hand_size
        self._seed = seed
        self._ranking = fixed.ranking
        self._pack = list(fixed.dealer.pack)
        self._preset_deals = tuple(deals)
        first = first_dealer(rules, seed) if dealer is None else dealer
        if not 0 <= first < self._players:
            raise ValueError(f"dealer: seat {first} is not at a {self._players}-seat table")
        self._first_dealer = first
        self._dealer = first
        self._score = [0, 0]
        self._winner: int | None = None
        self._over = False
        self._results: list[DealResult] = []
        self._log: list[tuple[int, Action]] = []
        self._deal_number = 0
        self._dupes = rules.packs > 1
        self._later_equal_wins = self._ranking.later_equal_wins
        self._lead_rules = fixed.lead_rules
        self._last_trick: tuple[list[int], list[int], int] | None = None
        # each deal's dealer, upcard, first log index and score before it, for the views
        self._deal_marks: list[tuple[int, int, int, int, int]] = []
        self._undo: list[tuple[Game, int]] = []
        self._tricks_seen: tuple[Trick, ...] = ()
        self._bidding: Bidding = (
            BidBidding() if fixed.bid_euchre else EuchreBidding(rules, self._players)
        )
        self._start_deal()

    def _refuse(self, rules: HouseRules) -> None:
        """Raise ValueError for rules this class does not play (a ``Game`` plays any)."""

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> HouseRules:
        """The house rules of the game."""
        return self._rules

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self._players

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return self._hand_size

    @property
    def seed(self) -> int:
        """The seed the deals are shuffled from."""
        return self._seed

    @property
    def ranking(self) -> Ranking:
        """The rules' lookup tables for following suit and ranking cards in a trick."""
        return self._ranking

    @property
    def pack(self) -> list[int]:
        """Every card of the pack, copies included."""
        return self._pack

    @property
    def preset_deals(self) -> tuple[Deal, ...]:
        """Deals given in advance (a record's), played before seeded ones."""
        return self._preset_deals

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first deal."""
        return self._first_dealer

    @property
    def dealer(self) -> int:
        """The seat dealing the deal in play (the last one once the game is over)."""
        return self._dealer

    @property
    def deal_number(self) -> int:
        """The deal in play, counted from 1 (the last one once the game is over)."""
        return self._deal_number

    @property
    def phase(self) -> Phase | None:
        """The deal's phase; None once the game is over."""
        return self._phase

    @property
    def turn(self) -> int | None:
        """The seat to act; None once the game is over."""
        return self._turn

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._over

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over; None before, and after a tie."""
        return self._winner

    @property
    def score(self) -> Sequence[int]:
        """Points per team."""
        return self._score

    @property
    def results(self) -> Sequence[DealResult]:
        """Every deal begun, in order; the last is the deal in play until the game ends."""
        return self._results

    @property
    def log(self) -> Sequence[tuple[int, Action]]:
        """Every (seat, action) of the game, in order."""
        return self._log

    @property
    def deal(self) -> Deal:
        """The deal in play, as it was dealt."""
        return self._deal

    @property
    def hands(self) -> Sequence[Sequence[int]]:
        """Every seat's cards now."""
        return self._hands

    @property
    def upcard(self) -> int:
        """The card turned up."""
        return self._upcard

    @property
    def upcard_taken(self) -> bool:
        """Whether the dealer took the upcard into the hand."""
        return self._upcard_taken

    @property
    def kitty(self) -> Sequence[int]:
        """The face-down cards, discards included."""
        return self._kitty

    @property
    def turned_down(self) -> int | None:
        """The upcard's suit once everyone passed it; None before."""
        return None if self._turned_down < 0 else self._turned_down

    @property
    def trump(self) -> int | None:
        """The trump suit once it is made."""
        return None if self._trump < 0 else self._trump

    @property
    def maker(self) -> int | None:
        """The seat that made trump."""
        return None if self._maker < 0 else self._maker

    @property
    def makers(self) -> int | None:
        """The makers' team."""
        return None if self._makers < 0 else self._makers

    @property
    def alone(self) -> Sequence[int]:
        """The seats playing (or defending) alone this deal."""
        return self._alone

    @property
    def out(self) -> Sequence[bool]:
        """Per seat, whether it sits this deal out (a loner's partner)."""
        return self._out

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick being played, as (seat, card) in play order."""
        return tuple(zip(self._trick_seats, self._trick_cards, strict=True))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's finished tricks."""
        seen = self._tricks_seen
        if len(seen) != len(self._tricks):
            seen = tuple(Trick(tuple(s), tuple(c), w) for s, c, w in self._tricks)
            self._tricks_seen = seen
        return seen

    @property
    def last_trick(self) -> Trick | None:
        """The latest finished trick of the game (of the deal before, once a new deal begins)."""
        done = self._last_trick
        return None if done is None else Trick(tuple(done[0]), tuple(done[1]), done[2])

    @property
    def tricks_won(self) -> Sequence[int]:
        """Tricks taken per team this deal."""
        return self._tricks_won

    @property
    def trump_broken(self) -> bool:
        """Whether trump was played to an earlier trick of this deal."""
        if self._trump_broken or self._lead_rules:
            return self._trump_broken
        trump, eff = self._trump, self._eff
        return any(eff[c] == trump for _, cards, _ in self._tricks for c in cards)

    @property
    def contract(self) -> Contract | None:
        """Bid Euchre's highest bid so far this deal (the contract once bidding ends); else None."""
        return self._current.contract

    @property
    def _deal_log(self) -> Sequence[tuple[int, Action]]:
        """This deal's (seat, action) pairs, for the seat views."""
        return self._log[self._deal_start :]

    def __repr__(self) -> str:
        """Where the game stands, cards as record text."""
        trump = "-" if self._trump < 0 else TRUMP_WORDS[self._trump]
        hands = " | ".join(" ".join(card_label(c) for c in h) for h in self._hands)
        trick = " ".join(f"{s}:{card_label(c)}" for s, c in self.trick)
        state = (
            f"over, winner {self._winner}" if self._over else f"{self._phase}, turn {self._turn}"
        )
        if self._fixed.bid_euchre:
            c = self._current.contract
            bid = "-" if c is None else f"{'shoot' if c.shoot else c.tricks} by {c.seat}"
            state += f", bid {bid}"
        elif not self._over:
            state += f", upcard {card_label(self._upcard)}"
        return (
            f"<{type(self).__name__} {self._rules.preset} deal {self._deal_number}, "
            f"dealer {self._dealer}, {state}, trump {trump}, "
            f"score {self._score[0]}-{self._score[1]}, "
            f"tricks {self._tricks_won[0]}-{self._tricks_won[1]}, hands [{hands}]"
            + (f", trick [{trick}]" if trick else "")
            + ">"
        )

    # ------------------------------------------------------------------ dealing

    def _start_deal(self) -> None:
        """Deal the next deal and hand it to the bidding."""
        n = self._players
        number = self._deal_number
        if number < len(self._preset_deals):
            deal = self._preset_deals[number]
        else:
            deal = self._fixed.dealer.deal(self._seed, number)
        self._deal_number = number + 1
        self._deal = deal
        self._hands = [list(h) for h in deal.hands]
        self._upcard = deal.upcard
        self._kitty = list(deal.kitty)
        self._upcard_taken = False
        self._benny_call = deal.upcard >= JOKER
        # -1: not yet (trump, maker, makers, turned down; the properties say None)
        self._trump = -1
        self._eff: tuple[int, ...] = ()
        self._power: tuple[tuple[int, ...], ...] = ()
        self._maker = -1
        self._makers = -1
        self._turned_down = -1
        self._alone: list[int] = []
        self._out = [False] * n
        self._deal_start = len(self._log)
        score = self._score
        self._deal_marks.append((self._dealer, deal.upcard, self._deal_start, score[0], score[1]))
        # where this deal's log holds a card some seats may not see (or an ask)
        self._masked_at: list[int] = []
        self._tricks_won = [0, 0]
        self._trick_seats: list[int] = []
        self._trick_cards: list[int] = []
        self._trick_no = 0
        self._led = -1
        self._tricks: list[tuple[list[int], list[int], int]] = []
        self._tricks_seen = ()
        self._trump_broken = False
        # set when the play begins (_begin_play)
        self._next_seat: tuple[int, ...] = ()
        self._active = 0
        self._current = DealResult(
            self._dealer, tricks=self._tricks_won, bidding=self._fixed.bid_euchre
        )
        self._results.append(self._current)
        self._phase: Phase | None = None
        self._turn: int | None = None
        self._bidding.start_deal(self)

    def _finish_deal(self, next_dealer: int, first: int = 0) -> None:
        """End the game or deal the next deal; ``first`` wins where both teams reach the target."""
        fixed = self._fixed
        score = self._score
        if fixed.deals_per_game >= 0:
            if self._deal_number >= fixed.deals_per_game:
                a, b = score
                self._end_game(None if a == b else (0 if a > b else 1))
                return
        elif score[0] >= fixed.target_score or score[1] >= fixed.target_score:
            self._end_game(first if score[first] >= fixed.target_score else 1 - first)
            return
        self._dealer = next_dealer
        self._start_deal()

    def _end_game(self, winner: int | None) -> None:
        self._over = True
        self._winner = winner
        self._phase = None
        self._turn = None

    # ------------------------------------------------------------------ copying and undoing

    def _blank(self) -> Game:
        """A game of this class with nothing set, for ``copy`` and ``push``."""
        return Game.__new__(Game)

    def copy(self) -> Game:
        """An independent copy of the game as it stands (for search: try, then throw away)."""
        new = self._blank()
        _copy_state(self, new, self._log[:])
        new._undo = []
        return new

    def push(self, action: Action) -> None:
        """``step``, keeping what ``pop`` needs to take the action back (unchecked as ``step``)."""
        saved = self._blank()
        _copy_state(self, saved, self._log)
        self._undo.append((saved, len(self._log)))
        self.step(action)

    def clear_stack(self) -> None:
        """Forget what ``pop`` could take back (the game stays as it is)."""
        self._undo.clear()

    def pop(self) -> Action:
        """Take back the last ``push`` (and any ``step`` since) and return its action.

        IndexError when nothing was pushed. The game is as it was before the push,
        the same object: nothing is replayed.
        """
        saved, length = self._undo.pop()
        log = self._log
        action = log[length][1]
        del log[length:]
        _copy_state(saved, self, log)
        return action

    # ------------------------------------------------------------------ queries

    def partners(self, seat: int) -> list[int]:
        """The seat's partners, clockwise from its left."""
        return list(self._fixed.partners[seat])

    def ace_no_face(self, hand: Sequence[int]) -> bool:
        """Whether a hand may be thrown in: no face card (nor Benny) and at most one ace."""
        aces = 0
        for c in hand:
            if c >= JOKER or c & 7 in _FACES:
                return False
            aces += c & 7 == ACE
        return aces <= 1

    def farmer_swaps(self, hand: Sequence[int]) -> list[tuple[int, ...]]:
        """Every set of three cards this hand may swap with the kitty."""
        if not self._fixed.farmers:
            return []
        mode = self._rules.farmers_hand
        low = [c for c in hand if c < JOKER and c & 7 in (NINE, TEN)]
        found: list[tuple[int, ...]] = []
        for combo in combinations(low, 3):
            if mode == "three_of_a_rank" and len({c & 7 for c in combo}) != 1:
                continue
            key = tuple(sorted(combo))
            if key not in found:
                found.append(key)
        return found

    def legal(self) -> Sequence[Action]:
        """Every action the seat to act may take now; empty once the game is over."""
        phase = self._phase
        if phase is PLAY_PHASE:
            hand = self._cards(self._turn)  # type: ignore[arg-type]
            if self._trick_cards:
                eff = self._eff
                led = self._led
                follow = [PLAY[c] for c in hand if eff[c] == led]
                if follow:
                    return follow
            elif self._lead_rules and self._trump_lead_barred():
                eff = self._eff
                trump = self._trump
                side = [PLAY[c] for c in hand if eff[c] != trump]
                if side:
                    return side
            return [PLAY[c] for c in hand]
        seat = self._turn
        if seat is None:
            return ()
        return self._bidding.legal(self, seat, phase)

    def _cards(self, seat: int) -> list[int]:
        """The seat's hand, each card once (a double pack's copies are one choice)."""
        hand = self._hands[seat]
        if not self._dupes:
            return hand
        once = []
        seen = 0  # a bit per card number (CARD_COUNT < 63: one machine word)
        for c in hand:
            bit = 1 << c
            if not seen & bit:
                seen |= bit
                once.append(c)
        return once

    def _trump_lead_barred(self) -> bool:
        rules = self._rules
        return (rules.no_trump_lead_first_trick and self._trick_no == 0) or (
            rules.trump_must_be_broken and not self._trump_broken
        )

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action) -> None:
        """Apply a seat's action after checking it; RuleError (state unchanged) when not allowed."""
        self.check(seat, action)
        self.step(action)

    def check(self, seat: int, action: Action) -> None:
        """Raise RuleError (with the record's code) where the rules refuse ``seat``'s action now."""
        self._bidding.check(self, seat, action)

    def step(self, action: Action) -> None:
        """Apply an action of the seat to act without checking it: it must come from ``legal()``."""
        seat = self._turn
        assert seat is not None
        self._log.append((seat, action))
        if action.do != "play":
            self._bidding.act(self, seat, action)
            return
        # A card played: the hot path (the next seat set by _begin_play).
        card = action.card
        assert card is not None
        self._hands[seat].remove(card)
        cards = self._trick_cards
        cards.append(card)
        self._trick_seats.append(seat)
        played = len(cards)
        if played == 1:
            self._led = self._eff[card]
        if played == self._active:
            self._end_trick()
        else:
            self._turn = self._next_seat[seat]

    # ------------------------------------------------------------------ the play, for the biddings

    def _make_trump(self, seat: int, trump: int) -> None:
        """``seat`` made ``trump`` (a suit; in Bid Euchre also a no-trump)."""
        self._trump = trump
        self._eff = self._ranking.suit[trump]
        self._power = self._ranking.power[trump]
        self._maker = seat
        self._makers = seat % 2
        self._current.trump = trump
        self._current.maker = seat

    def _go_alone(self, seat: int) -> None:
        self._alone.append(seat)
        self._current.alone.append(seat)
        out = self._out
        for p in self._fixed.partners[seat]:
            out[p] = True

    def _begin_play(self, leader: int) -> None:
        """The bidding is over: the play begins, ``leader`` to lead (a seat in the play)."""
        self._set_play_order()
        self._phase = PLAY_PHASE
        self._turn = leader

    def _set_play_order(self) -> None:
        """The seats in the play: who plays after each seat, and how many play to a trick."""
        out = tuple(self._out)
        order = _PLAY_ORDER.get(out)
        if order is None:
            order = _PLAY_ORDER[out] = play_order(out)
        self._next_seat = order
        self._active = len(out) - sum(out)

    def _trick_winner(self) -> int:
        """The seat that takes the trick just completed, counted to its team."""
        best = best_card(self._trick_cards, self._power[self._led], self._later_equal_wins)
        winner = self._trick_seats[best]
        self._tricks_won[winner & 1] += 1
        return winner

    def _end_trick(self) -> None:
        cards = self._trick_cards
        seats = self._trick_seats
        winner = self._trick_winner()
        # Kept here only where it decides what may be led; else the property works it out.
        if self._lead_rules and not self._trump_broken:
            self._trump_broken = self._trump in map(self._eff.__getitem__, cards)
        # The trick's lists are never changed again: the record shares them.
        done = (seats, cards, winner)
        self._tricks.append(done)
        self._last_trick = done
        self._trick_seats = []
        self._trick_cards = []
        self._trick_no += 1
        if self._trick_no < self._hand_size:
            self._turn = winner
            return
        self._bidding.score_deal(self)

    def _book_deal(self, team: int, outcome: DealOutcome, to_team: int, to_others: int) -> None:
        """Book the deal played out: its outcome, the makers' ``team``'s points and the others'."""
        points = self._current.points
        points[team] = to_team
        points[1 - team] = to_others
        self._score[0] += points[0]
        self._score[1] += points[1]
        self._current.result = outcome


def _copy_state(game: Game, new: Game, log: list[tuple[int, Action]]) -> None:
    """Set ``new``'s state to ``game``'s, ``log`` being ``new``'s log.

    Field by field (compiled classes have no ``__dict__``). Lists the game
    changes in place are copied; the rest (numbers, tuples, finished tricks,
    tables) never change once made and are shared.
    """
    new._fixed = game._fixed
    new._rules = game._rules
    new._players = game._players
    new._hand_size = game._hand_size
    new._seed = game._seed
    new._ranking = game._ranking
    new._pack = game._pack
    new._preset_deals = game._preset_deals
    new._first_dealer = game._first_dealer
    new._dealer = game._dealer
    new._score = game._score[:]
    new._winner = game._winner
    new._over = game._over
    new._log = log
    new._deal_number = game._deal_number
    new._dupes = game._dupes
    new._later_equal_wins = game._later_equal_wins
    new._lead_rules = game._lead_rules
    new._last_trick = game._last_trick
    new._deal_marks = game._deal_marks[:]
    new._bidding = game._bidding.copy()
    new._deal = game._deal
    new._hands = [h[:] for h in game._hands]
    new._upcard = game._upcard
    new._kitty = game._kitty[:]
    new._upcard_taken = game._upcard_taken
    new._benny_call = game._benny_call
    new._trump = game._trump
    new._eff = game._eff
    new._power = game._power
    new._maker = game._maker
    new._makers = game._makers
    new._turned_down = game._turned_down
    new._alone = game._alone[:]
    new._out = game._out[:]
    new._deal_start = game._deal_start
    new._masked_at = game._masked_at[:]
    new._tricks_won = game._tricks_won[:]
    new._trick_seats = game._trick_seats[:]
    new._trick_cards = game._trick_cards[:]
    new._trick_no = game._trick_no
    new._led = game._led
    new._tricks = game._tricks[:]
    new._tricks_seen = game._tricks_seen
    new._trump_broken = game._trump_broken
    new._next_seat = game._next_seat
    new._active = game._active
    new._phase = game._phase
    new._turn = game._turn
    current = game._current
    new._current = DealResult(
        current.dealer,
        current.trump,
        current.maker,
        current.alone[:],
        new._tricks_won,
        current.points[:],
        current.result,
        current.bidding,
        current.contract,
    )
    results = game._results[:]
    results[-1] = new._current
    new._results = results


_PLAY_ORDER: dict[tuple[bool, ...], tuple[int, ...]] = {}
"""Per set of seats sitting out: the next seat to play after each seat."""


def play_order(out: Sequence[bool]) -> tuple[int, ...]:
    """Who plays after each seat, skipping the seats that sit out (``out``)."""
    n = len(out)
    order = []
    for s in range(n):
        t = (s + 1) % n
        while out[t]:
            t = (t + 1) % n
        order.append(t)
    return tuple(order)
