"""The state of a game: one plain record of every field, and what a game reads of its rules.

``State`` holds everything about one game at one moment: the table, the score,
the log, the deal in play, its bidding and its play. It has no behaviour of
its own: the bidding (euchre_bidding.py, bid_bidding.py), the play (play.py),
the scoring (scoring.py) and the deals (deals.py) are functions over it, and
``Game`` (game.py) is its public face. Numbers that may not exist yet (trump,
the maker, whose turn it is) are -1 until they do.

``snapshot`` copies a state field by field, by name, whatever the fields are:
a field added to ``State`` is copied, and so taken back by ``Game.pop``,
without a line more. Lists are copied (the hands' lists too); every other field
holds a value the engine never changes in place (numbers, strings, tuples,
``Deal``, ``Trick``, ``Contract``, a finished ``DealResult``, ``Fixed``), so the
copy shares it. ``tests/rules/test_push_pop.py`` holds the state to that.

``Fixed`` is what a game reads of its rules deal after deal, worked out once
per ``HouseRules`` object: reading a field of the pydantic model from compiled
code is a generic attribute lookup, hashing one costs microseconds.
"""

from __future__ import annotations

from typing import Any, Final, Literal, final

from .actions import PASS, PLAY, Action
from .cards import CARD_COUNT, JOKER
from .dealing import NO_UPCARD, Deal, Dealer, deal_key
from .house_rules import HouseRules
from .ranking import Ranking, build_ranking
from .results import Contract, DealOutcome, DealResult, Trick

Phase = Literal["bid1", "discard", "bid2", "alone", "give", "play", "bid", "declare"]
"""A deal's phase, as record-format.md names it (a game that is over has none).

``bid1``, ``bid2`` and ``alone`` are euchre's, ``bid`` and ``declare`` Bid
Euchre's; both use ``give``, ``discard`` and ``play``.
"""

BID1: Final[Phase] = "bid1"
DISCARD_PHASE: Final[Phase] = "discard"
BID2: Final[Phase] = "bid2"
ALONE_PHASE: Final[Phase] = "alone"
GIVE_PHASE: Final[Phase] = "give"
PLAY_PHASE: Final[Phase] = "play"
BID_PHASE: Final[Phase] = "bid"
DECLARE_PHASE: Final[Phase] = "declare"

NOBODY: Final = -1
"""A seat, suit or card that does not exist (yet): no turn, no trump, no maker."""


@final
class Fixed:
    """What a game reads of its rules deal after deal: tables, seats and flags.

    Games of one rules object share it (``fixed_for``), and nothing changes it.
    """

    def __init__(self, rules: HouseRules) -> None:
        n = rules.players
        self.rules = rules
        self.players = n
        self.hand_size = rules.hand_size
        self.ranking: Ranking = build_ranking(rules)
        self.later_equal_wins = self.ranking.later_equal_wins
        self.dealer = Dealer(rules)
        self.dupes = rules.packs > 1
        self.nobody_out = (False,) * n
        # who plays after each seat while nobody sits out (play.py's set_play_order)
        self.everyone_order = tuple([(s + 1) % n for s in range(n)])
        # the seats of a whole trick in play order, by its leader (nobody sitting out)
        self.trick_rows = tuple([tuple([(s + k) % n for k in range(n)]) for s in range(n)])
        self.partners = tuple([tuple([(s + k) % n for k in range(2, n, 2)]) for s in range(n)])
        asks = [tuple([Action.ask(p) for p in partners]) for partners in self.partners]
        # the ask step's legal actions per seat (a six-handed loner may also pass)
        self.asks = tuple(asks if rules.partners_best else [(PASS, *a) for a in asks])
        # each seat's log entry for each card played (the hot path builds none)
        self.plays: tuple[tuple[Any, ...], ...] = tuple(
            [tuple([(s, PLAY[c]) for c in range(CARD_COUNT)]) for s in range(n)]
        )
        self.deals_per_game = -1 if rules.deals_per_game is None else rules.deals_per_game
        self.target_score = rules.target_score
        self.bid_euchre = rules.game == "bid_euchre"
        # the points a deal scores (scoring.py)
        self.points_made = rules.points_made
        self.points_march = rules.points_march
        self.points_lone_march = rules.points_lone_march
        self.points_euchre = rules.points_euchre
        self.points_lone_defender_euchre = rules.points_lone_defender_euchre
        self.points_super_euchre = (
            -1 if rules.points_super_euchre is None else rules.points_super_euchre
        )
        self.shoot_points = rules.shoot_points
        # euchre's bidding (euchre_bidding.py)
        self.stick = rules.stick_the_dealer
        self.forced_alone = rules.dealer_partner_order_up == "must_go_alone"
        self.needs_suit = rules.order_up_needs_suit
        self.after_trump = rules.alone_declaration == "after_trump"
        self.defend_alone = rules.defend_alone
        self.partners_best = rules.partners_best
        self.left_of_loner = rules.lone_lead == "left_of_loner"
        self.ace_no_face = rules.ace_no_face
        self.farmers = rules.farmers_hand
        self.jokers_word = "a joker" if rules.deck.startswith("almonte") else "the Benny"
        # the rules on leading trump (euchre's only; play.py)
        self.first_trick_rule = rules.no_trump_lead_first_trick and not self.bid_euchre
        self.broken_rule = rules.trump_must_be_broken and not self.bid_euchre
        self.lead_rules = self.first_trick_rule or self.broken_rule
        # Bid Euchre's (bid_bidding.py)
        self.bid_minimum = rules.bid_minimum
        self.dealer_may_match = rules.dealer_may_match
        self.shoot = rules.shoot
        self.bidder_leads = rules.bid_lead == "bidder"


_FIXED: Final[dict[int, Fixed]] = {}
"""``Fixed`` by ``id(rules)``; each holds its rules, so an id is not reused while it is here."""


def fixed_for(rules: HouseRules) -> Fixed:
    """The ``Fixed`` of a rules object (made once, shared by its games and their copies)."""
    fixed = _FIXED.get(id(rules))
    if fixed is None or fixed.rules is not rules:
        if len(_FIXED) >= 64:
            _FIXED.clear()
        fixed = _FIXED[id(rules)] = Fixed(rules)
    return fixed


@final
class State:
    """Every field of one game at one moment (see the module's docstring).

    Change it only through the modules of the rules core; read it through ``Game``.
    """

    # ---- the table: set when the game is made, never changed
    fixed: Fixed
    seed: int
    deal_key: bytes
    """What each deal's shuffle hashes with its number (dealing.py's ``deal_key``)."""
    first_dealer: int
    preset_deals: tuple[Deal, ...]
    """Deals given in advance (a record's), played before seeded ones."""

    # ---- the game
    dealer: int
    deal_number: int
    """The deal in play, counted from 1 (the last one once the game is over)."""
    score: list[int]
    over: bool
    winner: int
    """The winning team once the game is over; -1 before, and after a tie."""
    results: list[DealResult]
    """The finished deals, in order (the deal in play is worked out from the fields below)."""
    log: list[tuple[int, Action]]
    deal_marks: list[tuple[int, int, int, int, int]]
    """Per deal begun: its dealer, upcard, first index in the log and the score before it."""
    last_trick: Trick | None
    """The latest finished trick of the game, also once the next deal has begun."""
    phase: Phase | None
    turn: int

    # ---- the deal in play (as dealt: preset_deals, else the seed's, Dealer.deal)
    hands: list[list[int]]
    upcard: int
    kitty: list[int]
    """The face-down cards, discards included."""
    upcard_taken: bool
    benny_call: bool
    """A Benny was turned: the dealer names trump unseen."""
    trump: int
    """A suit; in Bid Euchre also 4 (No Trump High) or 5 (No Trump Low)."""
    eff: tuple[int, ...]
    """The suit each card follows under this trump (ranking.py)."""
    power: tuple[tuple[int, ...], ...]
    """How each card ranks in a trick, per suit led, under this trump."""
    maker: int
    makers: int
    turned_down: int
    alone: tuple[int, ...]
    out: tuple[bool, ...]
    """Per seat, whether it sits this deal out (a loner's partner)."""
    deal_start: int
    """Where this deal's actions begin in the log."""
    masked_at: tuple[int, ...]
    """Where this deal's log holds a card some seats may not see (or an ask)."""
    contract: Contract | None
    """Bid Euchre: the highest bid so far."""

    # ---- the deal's bidding
    passes: int
    """Euchre: the seats that passed this round."""
    high: int
    """Bid Euchre: the highest number bid; 0 before any."""
    swapped: int
    """Euchre: a bit per seat that swapped with the kitty (farmer's hand)."""
    alone_queue: tuple[int, ...]
    alone_stage: int
    give_queue: tuple[int, ...]
    give_step: int
    receiver: int
    discard_kind: int

    # ---- the deal's play
    tricks_won: list[int]
    trick_leader: int
    """The seat that led the trick in play; -1 before its first card (play.py: ``trick_seats``)."""
    trick_cards: list[int]
    trick_no: int
    led: int
    tricks: list[Trick]
    trump_broken: bool
    """Kept only where it decides what may be led (the property works it out elsewhere)."""
    next_seat: tuple[int, ...]
    """Who plays after each seat, those sitting out skipped (set when the play begins)."""
    trick_rows: tuple[tuple[int, ...], ...]
    """Per seat, the seats of a whole trick it leads, in play order (set with ``next_seat``)."""
    active: int
    """Seats that play to each trick."""

    def __new__(cls, *args: object, **kwargs: object) -> State:
        """A blank state for ``snapshot`` (mypyc's own ``__new__`` would run ``__init__``)."""
        return super().__new__(cls)

    def __init__(
        self, fixed: Fixed, seed: int, first_dealer: int, preset_deals: tuple[Deal, ...]
    ) -> None:
        """A game before its first deal (deals.py deals it)."""
        self.fixed = fixed
        self.seed = seed
        self.deal_key = deal_key(seed)
        self.first_dealer = first_dealer
        self.preset_deals = preset_deals
        self.dealer = first_dealer
        self.deal_number = 0
        self.score = [0, 0]
        self.over = False
        self.winner = NOBODY
        self.results = []
        self.log = []
        self.deal_marks = []
        self.last_trick = None
        self.clear_deal([], NO_UPCARD, [])

    def clear_deal(self, hands: list[list[int]], upcard: int, kitty: list[int]) -> None:
        """Every field of the deal in play as it is dealt, before anyone acts."""
        self.phase = None
        self.turn = NOBODY
        self.hands = hands
        self.upcard = upcard
        self.kitty = kitty
        self.upcard_taken = False
        self.benny_call = upcard >= JOKER
        self.trump = NOBODY
        self.eff = ()
        self.power = ()
        self.maker = NOBODY
        self.makers = NOBODY
        self.turned_down = NOBODY
        self.alone = ()
        self.out = self.fixed.nobody_out
        self.deal_start = len(self.log)
        self.masked_at = ()
        self.contract = None
        self.passes = 0
        self.high = 0
        self.swapped = 0
        self.alone_queue = ()
        self.alone_stage = 0
        self.give_queue = ()
        self.give_step = 0
        self.receiver = NOBODY
        self.discard_kind = 0
        self.tricks_won = [0, 0]
        self.trick_leader = NOBODY
        self.trick_cards = []
        self.trick_no = 0
        self.led = NOBODY
        self.tricks = []
        self.trump_broken = False
        self.next_seat = ()
        self.trick_rows = ()
        self.active = 0

    def result(
        self, outcome: DealOutcome = "in_play", points: list[int] | None = None
    ) -> DealResult:
        """The deal in play as the record format reports it: so far, or ended as ``outcome``."""
        return DealResult(
            self.dealer,
            None if self.trump < 0 else self.trump,
            None if self.maker < 0 else self.maker,
            list(self.alone),
            self.tricks_won[:],
            [0, 0] if points is None else points,
            outcome,
            self.fixed.bid_euchre,
            self.contract,
        )


def field_names(state: State) -> tuple[str, ...]:
    """Every field of ``State``: the compiled class lists them; a Python object has them."""
    names: tuple[str, ...] | None = getattr(State, "__mypyc_attrs__", None)
    return tuple(vars(state)) if names is None else names


def snapshot(state: State) -> State:
    """An independent copy of ``state``: every field by name, no list shared."""
    copy = State.__new__(State)
    for name in field_names(state):
        value: Any = getattr(state, name)
        if isinstance(value, list):
            value = [v[:] for v in value] if value and isinstance(value[0], list) else value[:]
        setattr(copy, name, value)
    return copy
