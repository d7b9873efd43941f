"""A game of euchre as a state machine: whose turn, what is legal, and what an action does.

One engine serves everyone. ``apply`` checks an action against the rules and
raises RuleError, leaving the state untouched, when it is not allowed; ``step``
applies an action taken from ``legal()`` without checking it again, which is
the fast path simulations use. Both share every line that changes the state.

Phases follow record-format.md: ``bid1`` (ordering up; also ace-no-face and
farmer's hand), ``discard``, ``bid2`` (naming a suit), ``alone``, ``give``
(partner's best, or the six-handed loner's ask) and ``play``; ``phase`` is None
once the game is over.

    >>> game = Game(HouseRules.preset_rules("north_american"), seed=7)
    >>> game.apply(2, Action.pass_())
    >>> game.turn, game.trump, game.log
    (3, None, [(2, Action.pass_())])
    >>> game
    <Game north_american deal 1, dealer 1, bid1, turn 3, upcard KS, trump -, score 0-0, \
tricks 0-0, hands [QS 9C AH AD JD | JH QD 9S KD QH | AC KH 10H QC 10S | 9H AS JS 10C KC]>

The state the engine works with is private; what is public is read-only
(properties and ``Final`` attributes), with None for what does not exist yet.

Longer than 450 lines on purpose: the read-only surface, every transition and
every check share one class's private fields, so the hot path (``legal``,
``step``) reads plain attributes with no indirection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal, Self

from .actions import (
    ALONE,
    CALL,
    CALL_ALONE,
    DISCARD,
    GIVE,
    ORDER_UP,
    ORDER_UP_ALONE,
    PASS,
    PLAY,
    REDEAL,
    Action,
)
from .cards import (
    ACE,
    FOUR_SPADES,
    JACK,
    JOKER,
    KING,
    NINE,
    QUEEN,
    TEN,
    THREE_SPADES,
    TWO_SPADES,
    Suit,
    card_label,
    card_words,
)
from .dealing import Deal, Dealer, first_dealer
from .errors import RuleError
from .house_rules import HouseRules
from .ranking import Ranking, build_ranking, top_rank_word
from .scoring import DealOutcome, DealResult, score_deal


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


Phase = Literal["bid1", "discard", "bid2", "alone", "give", "play", "bid", "declare"]
"""A deal's phase, as record-format.md names it (a game that is over has none).

``bid`` and ``declare`` are Bid Euchre's (bid_game.py), which also uses
``give``, ``discard`` and ``play``.
"""

BID1: Final[Phase] = "bid1"
DISCARD_PHASE: Final[Phase] = "discard"
BID2: Final[Phase] = "bid2"
ALONE_PHASE: Final[Phase] = "alone"
GIVE_PHASE: Final[Phase] = "give"
PLAY_PHASE: Final[Phase] = "play"

_PHASE_VERBS: Final = {
    BID1: frozenset({"pass", "order_up", "redeal", "swap"}),
    DISCARD_PHASE: frozenset({"discard"}),
    BID2: frozenset({"pass", "call"}),
    ALONE_PHASE: frozenset({"pass", "alone"}),
    GIVE_PHASE: frozenset({"pass", "ask", "give"}),
    PLAY_PHASE: frozenset({"play"}),
}
_PHASE_WORDS: Final = {
    BID1: "the first round of bidding is on",
    DISCARD_PHASE: "the dealer is discarding",
    BID2: "the second round of bidding is on",
    ALONE_PHASE: "players are choosing whether to go alone",
    GIVE_PHASE: "a card is being passed to the lone player",
    PLAY_PHASE: "the cards are being played",
}
_VERB_WORDS: Final = {
    "pass": "pass",
    "order_up": "order up",
    "call": "name trump",
    "discard": "discard",
    "alone": "go alone",
    "give": "give a card",
    "ask": "ask for a card",
    "redeal": "throw in the hands",
    "swap": "swap with the kitty",
    "play": "play a card",
}

_PICKUP: Final = 0
_GIVEN: Final = 1
_ASK: Final = 0
_GIVE: Final = 1
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
        # Bid Euchre's (bid_game.py)
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

    Public, read-only: the table (``rules``, ``players``, ``hand_size``, ``seed``,
    ``first_dealer``, ``pack``, ``ranking``, ``preset_deals``); where the game
    stands (``dealer``, ``deal_number``, ``phase``, ``turn``, ``over``,
    ``winner``, ``score``, ``results``, ``log``); and the deal in play (``deal``
    as dealt, ``hands``, ``upcard``, ``upcard_taken``, ``kitty``,
    ``turned_down``, ``trump``, ``maker``, ``makers``, ``alone``, ``out``,
    ``trick``, ``tricks``, ``tricks_won``, ``trump_broken``; ``last_trick``). Trump, maker and
    the turned-down suit are None until they exist. Change the game only with
    ``apply`` (checked) or ``step`` (unchecked, for moves from ``legal()``).
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
        self._check_game(rules)
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
        self._engine_state(rules)
        self._start_deal()

    def _check_game(self, rules: HouseRules) -> None:
        if rules.game != "euchre":
            raise ValueError("Game plays euchre; Bid Euchre rules need new_game (a BidGame)")

    def _engine_state(self, rules: HouseRules) -> None:
        """The private fields of this engine that last the whole game."""
        self._last_trick: tuple[list[int], list[int], int] | None = None
        self._forced_alone_rule = rules.dealer_partner_order_up == "must_go_alone"
        self._needs_suit = rules.order_up_needs_suit
        self._lead_rules = rules.no_trump_lead_first_trick or rules.trump_must_be_broken
        self._tricks_seen: tuple[Trick, ...] = ()
        # each deal's dealer, upcard, first log index and score before it, for the views
        self._deal_marks: list[tuple[int, int, int, int, int]] = []

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

    def __repr__(self) -> str:
        """Where the game stands, cards as record text."""
        trump = "-" if self._trump < 0 else Suit(self._trump).letter
        hands = " | ".join(" ".join(card_label(c) for c in h) for h in self._hands)
        trick = " ".join(f"{s}:{card_label(c)}" for s, c in self.trick)
        state = (
            f"over, winner {self._winner}"
            if self._over
            else f"{self._phase}, turn {self._turn}, upcard {card_label(self._upcard)}"
        )
        return (
            f"<Game {self._rules.preset} deal {self._deal_number}, dealer {self._dealer}, "
            f"{state}, trump {trump}, score {self._score[0]}-{self._score[1]}, "
            f"tricks {self._tricks_won[0]}-{self._tricks_won[1]}, hands [{hands}]"
            + (f", trick [{trick}]" if trick else "")
            + ">"
        )

    # ------------------------------------------------------------------ dealing

    def _deal_cards(self) -> Deal:
        """Begin the next deal: its cards dealt and the fields both engines share made new."""
        n = self._players
        number = self._deal_number
        if number < len(self._preset_deals):
            deal = self._preset_deals[number]
        else:
            deal = self._fixed.dealer.deal(self._seed, number)
        self._deal_number = number + 1
        self._deal = deal
        self._hands = [list(h) for h in deal.hands]
        # -1: not yet (trump, maker; the properties say None)
        self._trump = -1
        self._eff: tuple[int, ...] = ()
        self._power: tuple[tuple[int, ...], ...] = ()
        self._maker = -1
        self._alone: list[int] = []
        self._out = [False] * n
        self._swapped = [False] * n
        self._give_queue: list[int] = []
        self._deal_start = len(self._log)
        self._tricks_won = [0, 0]
        self._trick_seats: list[int] = []
        self._trick_cards: list[int] = []
        self._trick_no = 0
        self._led = -1
        # set when the play begins (_set_play_order)
        self._next_seat: tuple[int, ...] = ()
        self._active = 0
        return deal

    def _start_deal(self) -> None:
        deal = self._deal_cards()
        score = self._score
        self._deal_marks.append((self._dealer, deal.upcard, self._deal_start, score[0], score[1]))
        self._upcard = deal.upcard
        self._kitty = list(deal.kitty)
        self._upcard_taken = False
        # -1: not yet, as above
        self._turned_down = -1
        self._makers = -1
        # where this deal's log holds a card some seats may not see (or an ask)
        self._masked_at: list[int] = []
        self._tricks_seen = ()
        self._tricks: list[tuple[list[int], list[int], int]] = []
        self._trump_broken = False
        self._bid_count = 0
        self._alone_queue: list[int] = []
        self._alone_stage = 0
        self._give_step = _ASK
        self._receiver = -1
        self._discard_kind = _PICKUP
        self._current = DealResult(self._dealer, tricks=self._tricks_won)
        self._results.append(self._current)
        self._benny_call = deal.upcard >= JOKER
        if self._benny_call:
            self._phase: Phase | None = BID2
            self._turn: int | None = self._dealer
        else:
            self._phase = BID1
            self._turn = (self._dealer + 1) % self._players

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

    def copy(self) -> Game:
        """An independent copy of the game as it stands (for search: try, then throw away)."""
        new = Game.__new__(Game)
        self._copy_shared(new)
        new._last_trick = self._last_trick
        new._forced_alone_rule = self._forced_alone_rule
        new._needs_suit = self._needs_suit
        new._tricks_seen = self._tricks_seen
        new._deal_marks = self._deal_marks[:]
        new._upcard = self._upcard
        new._upcard_taken = self._upcard_taken
        new._turned_down = self._turned_down
        new._makers = self._makers
        new._masked_at = self._masked_at[:]
        new._tricks = self._tricks[:]
        new._trump_broken = self._trump_broken
        new._bid_count = self._bid_count
        new._alone_queue = self._alone_queue[:]
        new._alone_stage = self._alone_stage
        new._give_step = self._give_step
        new._receiver = self._receiver
        new._discard_kind = self._discard_kind
        return new

    def _copy_shared(self, new: Game) -> None:
        """Set ``new``'s fields that both engines have to this game's.

        Field by field (compiled classes have no ``__dict__``). Lists the game
        changes in place are copied; the rest (numbers, tuples, finished
        tricks, tables) never change once made and are shared.
        """
        new._fixed = self._fixed
        new._rules = self._rules
        new._players = self._players
        new._hand_size = self._hand_size
        new._seed = self._seed
        new._ranking = self._ranking
        new._pack = self._pack
        new._preset_deals = self._preset_deals
        new._first_dealer = self._first_dealer
        new._dealer = self._dealer
        new._score = self._score[:]
        new._winner = self._winner
        new._over = self._over
        new._log = self._log[:]
        new._deal_number = self._deal_number
        new._dupes = self._dupes
        new._later_equal_wins = self._later_equal_wins
        new._lead_rules = self._lead_rules
        new._deal = self._deal
        new._hands = [h[:] for h in self._hands]
        new._kitty = self._kitty[:]
        new._trump = self._trump
        new._eff = self._eff
        new._power = self._power
        new._maker = self._maker
        new._alone = self._alone[:]
        new._out = self._out[:]
        new._swapped = self._swapped[:]
        new._give_queue = self._give_queue[:]
        new._deal_start = self._deal_start
        new._tricks_won = self._tricks_won[:]
        new._trick_seats = self._trick_seats[:]
        new._trick_cards = self._trick_cards[:]
        new._trick_no = self._trick_no
        new._led = self._led
        new._next_seat = self._next_seat
        new._active = self._active
        new._benny_call = self._benny_call
        new._phase = self._phase
        new._turn = self._turn
        current = self._current
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
        results = self._results[:]
        results[-1] = new._current
        new._results = results

    # ------------------------------------------------------------------ queries

    def partners(self, seat: int) -> list[int]:
        """The seat's partners, clockwise from its left."""
        return list(self._fixed.partners[seat])

    def _forced_alone(self, seat: int) -> bool:
        return self._forced_alone_rule and seat != self._dealer and (seat - self._dealer) % 2 == 0

    def _holds_upcard_suit(self, seat: int) -> bool:
        suit = self._upcard >> 3
        return any(c < JOKER and c >> 3 == suit for c in self._hands[seat])

    def _must_hold_suit(self, seat: int) -> bool:
        need = self._needs_suit
        return need == "everyone" or (need == "dealer" and seat == self._dealer)

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
        return self._legal_bidding(seat, phase)

    def _legal_bidding(self, seat: int, phase: Phase | None) -> Sequence[Action]:
        """``legal()`` in every phase before the play (``seat`` to act)."""
        if phase is BID1:
            return self._legal_bid1(seat)
        if phase is BID2:
            return self._legal_bid2(seat)
        if phase is DISCARD_PHASE:
            return [DISCARD[c] for c in self._cards(seat)]
        if phase is ALONE_PHASE:
            return (PASS, ALONE)
        if self._give_step == _ASK:
            return list(self._fixed.asks[seat])
        return [GIVE[c] for c in self._cards(seat)]

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

    def _legal_bid1(self, seat: int) -> list[Action]:
        acts = [PASS]
        if not self._must_hold_suit(seat) or self._holds_upcard_suit(seat):
            if self._forced_alone(seat):
                acts.append(ORDER_UP_ALONE)
            else:
                acts += (ORDER_UP, ORDER_UP_ALONE)
        fixed = self._fixed
        if fixed.ace_no_face and self.ace_no_face(self._hands[seat]):
            acts.append(REDEAL)
        if fixed.farmers and not self._swapped[seat]:
            acts += [Action("swap", cards=combo) for combo in self.farmer_swaps(self._hands[seat])]
        return acts

    def _legal_bid2(self, seat: int) -> list[Action]:
        stuck = self._benny_call or (self._fixed.stick and seat == self._dealer)
        acts = [] if stuck else [PASS]
        for suit in Suit:
            if suit != self._turned_down:
                acts += (CALL[suit], CALL_ALONE[suit])
        return acts

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action) -> None:
        """Apply a seat's action after checking it; RuleError (state unchanged) when not allowed."""
        self._check(seat, action)
        self.step(action)

    def step(self, action: Action) -> None:
        """Apply an action of the seat to act without checking it: it must come from ``legal()``."""
        seat = self._turn
        assert seat is not None
        self._log.append((seat, action))
        if action.do != "play":
            self._act(seat, action)
            return
        # A card played: the hot path, the same in both engines (the next seat set by
        # _set_play_order).
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

    def _act(self, seat: int, action: Action) -> None:
        """Apply ``step``'s action of any verb but ``play``, already logged."""
        # Each verb's fields are set (record-format.md): the asserts only tell mypy so.
        do = action.do
        card = action.card
        if do == "pass":
            self._pass(seat)
        elif do == "order_up":
            self._order_up(seat, action.alone)
        elif do == "call":
            assert action.suit is not None
            self._call(seat, action.suit, bool(action.alone))
        elif do == "discard":
            assert card is not None
            self._masked_at.append(len(self._log) - 1)
            self._discard(seat, card)
        elif do == "alone":
            self._declare_alone(seat)
        elif do == "give":
            assert card is not None
            self._masked_at.append(len(self._log) - 1)
            self._give(seat, card)
        elif do == "ask":
            self._masked_at.append(len(self._log) - 1)
            self._give_step = _GIVE
            self._receiver = seat
            self._turn = action.partner
        elif do == "redeal":
            self._current.result = "redeal"
            self._finish_deal(self._dealer)
        elif do == "swap":
            assert action.cards is not None
            self._masked_at.append(len(self._log) - 1)
            self._swap(seat, action.cards)

    def _pass(self, seat: int) -> None:
        n = self._players
        phase = self._phase
        if phase is ALONE_PHASE:
            self._alone_queue.pop(0)
            self._advance_alone()
        elif phase is GIVE_PHASE:
            self._give_queue.pop(0)
            self._advance_give()
        else:
            self._bid_count += 1
            if self._bid_count < n:
                self._turn = (seat + 1) % n
            elif phase is BID1:
                self._phase = BID2
                self._turned_down = self._upcard >> 3
                self._bid_count = 0
                self._turn = (self._dealer + 1) % n
            else:
                self._current.result = "passed"
                self._finish_deal((self._dealer + 1) % n)

    def _make_trump(self, seat: int, suit: int, alone: bool) -> None:
        self._trump = suit
        self._eff = self._ranking.suit[suit]
        self._power = self._ranking.power[suit]
        self._maker = seat
        self._makers = seat % 2
        self._current.trump = suit
        self._current.maker = seat
        if alone:
            self._go_alone(seat)

    def _go_alone(self, seat: int) -> None:
        self._alone.append(seat)
        self._current.alone.append(seat)
        out = self._out
        for p in self._fixed.partners[seat]:
            out[p] = True

    def _order_up(self, seat: int, alone: bool | None) -> None:
        if self._forced_alone(seat):
            alone = True
        self._make_trump(seat, self._upcard >> 3, bool(alone))
        if self._out[self._dealer]:
            self._after_bidding()
        else:
            self._pick_up()

    def _pick_up(self) -> None:
        self._hands[self._dealer].append(self._upcard)
        self._upcard_taken = True
        self._phase = DISCARD_PHASE
        self._discard_kind = _PICKUP
        self._turn = self._dealer

    def _call(self, seat: int, suit: int, alone: bool) -> None:
        self._make_trump(seat, suit, alone)
        if self._benny_call:
            self._pick_up()
        else:
            self._after_bidding()

    def _discard(self, seat: int, card: int) -> None:
        self._hands[seat].remove(card)
        self._kitty.append(card)
        if self._discard_kind == _PICKUP:
            self._after_bidding()
        else:
            self._give_queue.pop(0)
            self._advance_give()

    def _swap(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self._hands[seat]
        for c in cards:
            hand.remove(c)
        hand += self._kitty[:3]
        self._kitty[:3] = cards
        self._swapped[seat] = True

    def _after_bidding(self) -> None:
        self._alone_stage = 0
        self._alone_queue = []
        if self._fixed.after_trump and not self._maker_side_alone():
            self._alone_queue = [self._maker, *self._fixed.partners[self._maker]]
        self._advance_alone()

    def _maker_side_alone(self) -> bool:
        return any(s % 2 == self._makers for s in self._alone)

    def _advance_alone(self) -> None:
        while not self._alone_queue:
            if self._alone_stage != 0:
                self._begin_give()
                return
            self._alone_stage = 1
            mode = self._fixed.defend_alone
            if mode == "always" or (mode == "vs_lone_maker" and self._maker_side_alone()):
                start = self._maker
                for s in self._alone:
                    if s % 2 == self._makers:
                        start = s
                        break
                n = self._players
                self._alone_queue = [(start + k) % n for k in range(1, n, 2)]
        self._phase = ALONE_PHASE
        self._turn = self._alone_queue[0]

    def _declare_alone(self, seat: int) -> None:
        self._alone_queue.pop(0)
        self._go_alone(seat)
        self._alone_queue = []
        if seat % 2 != self._makers:
            self._alone_stage = 1
        self._advance_alone()

    def _begin_give(self) -> None:
        if self._players > 4 or self._fixed.partners_best:
            makers = self._makers
            # the makers' loner first, then the defenders'
            queue = [s for s in self._alone if s % 2 == makers]
            queue += [s for s in self._alone if s % 2 != makers]
            self._give_queue = queue
        self._advance_give()

    def _advance_give(self) -> None:
        if not self._give_queue:
            self._begin_play()
            return
        loner = self._give_queue[0]
        self._phase = GIVE_PHASE
        if self._players > 4:
            self._give_step = _ASK
            self._turn = loner
        else:
            self._give_step = _GIVE
            self._receiver = loner
            self._turn = (loner + 2) % 4

    def _give(self, seat: int, card: int) -> None:
        self._hands[seat].remove(card)
        self._hands[self._receiver].append(card)
        self._phase = DISCARD_PHASE
        self._discard_kind = _GIVEN
        self._turn = self._receiver

    def _begin_play(self) -> None:
        self._set_play_order()
        self._phase = PLAY_PHASE
        self._turn = self._first_leader()

    def _set_play_order(self) -> None:
        """The seats in the play: who plays after each seat, and how many play to a trick."""
        out = tuple(self._out)
        order = _PLAY_ORDER.get(out)
        if order is None:
            order = _PLAY_ORDER[out] = _play_order(out)
        self._next_seat = order
        self._active = len(out) - sum(out)

    def _first_leader(self) -> int:
        if self._alone and self._fixed.left_of_loner:
            if len(self._alone) > 1:
                return next(s for s in self._alone if s % 2 != self._makers)
            return self._active_from(self._alone[0] + 1)
        return self._active_from(self._dealer + 1)

    def _active_from(self, seat: int) -> int:
        n = self._players
        seat %= n
        while self._out[seat]:
            seat = (seat + 1) % n
        return seat

    def _trick_winner(self) -> int:
        """The seat that takes the trick just completed, counted to its team."""
        cards = self._trick_cards
        power = self._power[self._led]
        best = 0
        best_power = power[cards[0]]
        if self._later_equal_wins:
            for i in range(1, len(cards)):
                p = power[cards[i]]
                if p >= best_power:
                    best, best_power = i, p
        else:
            for i in range(1, len(cards)):
                p = power[cards[i]]
                if p > best_power:
                    best, best_power = i, p
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
        makers = self._makers
        maker_alone = any(s & 1 == makers for s in self._alone)
        defender_alone = len(self._alone) > int(maker_alone)
        outcome, to_makers, to_defenders = score_deal(
            self._rules, self._tricks_won[makers], maker_alone, defender_alone
        )
        self._book_deal(makers, outcome, to_makers, to_defenders)
        self._finish_deal((self._dealer + 1) % self._players)

    def _book_deal(self, team: int, outcome: DealOutcome, to_team: int, to_others: int) -> None:
        """Book the deal played out: its outcome, the makers' ``team``'s points and the others'."""
        points = self._current.points
        points[team] = to_team
        points[1 - team] = to_others
        self._score[0] += points[0]
        self._score[1] += points[1]
        self._current.result = outcome

    # ------------------------------------------------------------------ checking

    def _check(self, seat: int, action: Action) -> None:
        phase = self._phase
        verb = _VERB_WORDS[action.do]
        if phase is None:
            raise RuleError("wrong_phase", f"You can't {verb} now: the game is over.")
        if seat != self._turn:
            raise RuleError("not_your_turn", "It's not your turn.")
        if action.do not in _PHASE_VERBS[phase] or not self._verb_fits_step(action):
            raise RuleError("wrong_phase", f"You can't {verb} now: {_PHASE_WORDS[phase]}.")
        hand = self._hands[seat]
        held = [action.card] if action.card is not None else list(action.cards or ())
        spare = list(hand)
        for c in held:
            if c not in spare:
                raise RuleError("card_not_in_hand", f"You don't hold {card_words(c)}.")
            spare.remove(c)
        check = getattr(self, f"_check_{action.do}")
        check(seat, action)

    def _verb_fits_step(self, action: Action) -> bool:
        if self._phase is not GIVE_PHASE:
            return True
        if self._give_step == _ASK:
            return action.do in ("ask", "pass")
        return action.do == "give"

    def _check_pass(self, seat: int, action: Action) -> None:
        if self._phase is BID2 and self._benny_call:
            raise RuleError(
                "cannot_pass", "The Benny was turned up: as dealer you must name trump."
            )
        if self._phase is BID2 and self._fixed.stick and seat == self._dealer:
            raise RuleError(
                "cannot_pass", "Stick the dealer: everyone passed, so you must name trump."
            )
        if self._phase is GIVE_PHASE and self._fixed.partners_best:
            raise RuleError("not_allowed", "Partner's best: you must ask a partner for a card.")

    def _check_order_up(self, seat: int, action: Action) -> None:
        suit = Suit(self._upcard >> 3)
        if self._must_hold_suit(seat) and not self._holds_upcard_suit(seat):
            raise RuleError(
                "needs_suit",
                f"You can only order up {suit.plural} while holding one "
                "(the left bower does not count).",
            )
        if self._forced_alone(seat) and action.alone is False:
            raise RuleError(
                "not_allowed",
                "As the dealer's partner you can only order up by going alone.",
            )

    def _check_call(self, seat: int, action: Action) -> None:
        suit = action.suit
        assert suit is not None
        if suit == self._turned_down:
            raise RuleError(
                "suit_turned_down",
                f"{Suit(suit).plural.capitalize()} were turned down this deal: name another suit.",
            )

    def _check_discard(self, seat: int, action: Action) -> None:
        return None

    def _check_give(self, seat: int, action: Action) -> None:
        return None

    def _check_alone(self, seat: int, action: Action) -> None:
        return None

    def _check_ask(self, seat: int, action: Action) -> None:
        if action.partner not in self._fixed.partners[seat]:
            raise RuleError("not_allowed", "Ask one of your partners for a card.")

    def _check_redeal(self, seat: int, action: Action) -> None:
        if not self._rules.ace_no_face:
            raise RuleError("not_allowed", "Ace-no-face is not played at this table.")
        if not self.ace_no_face(self._hands[seat]):
            raise RuleError(
                "not_allowed",
                "Only a hand with no face card and at most one ace may be thrown in.",
            )

    def _check_swap(self, seat: int, action: Action) -> None:
        if self._rules.farmers_hand == "off":
            raise RuleError("not_allowed", "Farmer's hand is not played at this table.")
        if self._swapped[seat]:
            raise RuleError("not_allowed", "You have already swapped with the kitty this deal.")
        cards = tuple(sorted(action.cards or ()))
        if cards not in self.farmer_swaps(self._hands[seat]):
            what = (
                "three nines or three tens"
                if self._rules.farmers_hand == "three_of_a_rank"
                else "three cards that are nines or tens"
            )
            raise RuleError("not_allowed", f"A farmer's hand swaps exactly {what}.")

    def _check_play(self, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        hand = self._hands[seat]
        trump = self._trump
        eff = self._ranking.suit[trump]
        if self._trick_cards:
            led = self._led
            if eff[card] == led:
                return
            holding = [c for c in hand if eff[c] == led]
            if holding:
                raise RuleError("must_follow_suit", self._follow_message(card, holding, led))
            return
        barred = self._lead_rules and eff[card] == trump and self._trump_lead_barred()
        if barred and any(eff[c] != trump for c in hand):
            why = (
                "trump may not lead the first trick"
                if self._rules.no_trump_lead_first_trick and self._trick_no == 0
                else "trump has not been broken yet"
            )
            raise RuleError("not_allowed", f"You can't lead trump now: {why}.")

    def _follow_message(self, card: int, holding: list[int], led: int) -> str:
        led_name = Suit(led).plural
        disguised = [c for c in holding if _printed_suit(c) != led]
        if len(holding) == 1 and disguised:
            return (
                f"You must follow {led_name}: {card_words(holding[0])} is a "
                f"{led_name[:-1]} this hand ({self._trump_word(holding[0])})."
            )
        if _printed_suit(card) == led:
            return (
                f"You must follow {led_name}: {card_words(card)} is {self._trump_word(card)}, "
                f"a {Suit(self._trump).plural[:-1]} this hand, not a {led_name[:-1]}."
            )
        return f"You must follow {led_name}: you hold {card_words(holding[0])}."

    def _trump_word(self, c: int) -> str:
        if c >= JOKER:
            return "a joker" if self._rules.deck.startswith("almonte") else "the Benny"
        return top_rank_word(c, self._trump)


_PLAY_ORDER: dict[tuple[bool, ...], tuple[int, ...]] = {}
"""Per set of seats sitting out: the next seat to play after each seat."""


def _play_order(out: tuple[bool, ...]) -> tuple[int, ...]:
    n = len(out)
    order = []
    for s in range(n):
        t = (s + 1) % n
        while out[t]:
            t = (t + 1) % n
        order.append(t)
    return tuple(order)


def _printed_suit(c: int) -> int:
    """The suit printed on a card; -1 for a joker that shows none."""
    if c < JOKER:
        return c >> 3
    return Suit.SPADES if c in (TWO_SPADES, THREE_SPADES, FOUR_SPADES) else -1
