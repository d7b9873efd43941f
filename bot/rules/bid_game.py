"""Bid Euchre (rule source 003, record-format.md's "Bid Euchre") as a state machine.

Four, six or eight players; the whole pack dealt; one round of numeric bids
from the dealer's left (the dealer may match the highest bid; when everyone
passes the dealer must bid the minimum); ``shoot`` outranks every number and
ends the bidding. The winner declares a suit, No Trump High or No Trump Low; a
shooter's partners each give one card (the shooter discarding one for each) and
sit out; then every trick of the hand is played and scored to 32.

``BidGame`` subclasses euchre's ``Game``: it keeps the private fields the
shared read-only properties read (``_dealer``, ``_phase``, ``_turn``,
``_score``...), and it shares the play of a card and a trick, dealing, scoring
a played deal and ending the game, while its bidding is its own (``_act``,
``_legal_bidding``, the checks). It defines again only what reads differently
here (no upcard, the contract, tricks), so tables, players and records take
either; create games with ``bot.rules.new_game``, which chooses by ``rules.game``.

    >>> from bot.rules import HouseRules, new_game
    >>> game = new_game(HouseRules.preset_rules("bid_euchre"), seed=7, dealer=0)
    >>> game.phase, game.turn, [str(a) for a in game.legal()]
    ('bid', 1, ['pass', 'bid.3', 'bid.4', 'bid.5', 'bid.6', 'shoot'])

Longer than 450 lines on purpose: like ``Game``, the read-only surface, the
transitions and the checks share one class's private fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import BID, DECLARE, DISCARD, GIVE, PASS, SHOOT, TRUMP_WORDS, Action
from .cards import JACK, SUIT_NAMES, card_label, card_words
from .dealing import NO_UPCARD, Deal
from .errors import RuleError
from .game import DISCARD_PHASE, GIVE_PHASE, PLAY_PHASE, Game, Phase, Trick
from .house_rules import HouseRules
from .ranking import NO_TRUMP_HIGH
from .scoring import Contract, DealResult, score_bid_deal

BID_PHASE: Final[Phase] = "bid"
DECLARE_PHASE: Final[Phase] = "declare"

_PHASE_VERBS: Final = {
    BID_PHASE: frozenset({"pass", "bid", "shoot"}),
    DECLARE_PHASE: frozenset({"declare"}),
    GIVE_PHASE: frozenset({"give"}),
    DISCARD_PHASE: frozenset({"discard"}),
    PLAY_PHASE: frozenset({"play"}),
}
_PHASE_WORDS: Final = {
    BID_PHASE: "the bidding is on",
    DECLARE_PHASE: "the winner of the bidding is naming trump",
    GIVE_PHASE: "a partner is passing a card to the shooter",
    DISCARD_PHASE: "the shooter is discarding",
    PLAY_PHASE: "the cards are being played",
}
_VERB_WORDS: Final = {
    "pass": "pass",
    "bid": "bid",
    "shoot": "shoot",
    "declare": "name trump",
    "give": "give a card",
    "discard": "discard",
    "play": "play a card",
}
_DECLARES: Final = tuple(DECLARE)


class BidGame(Game):
    """A whole game of Bid Euchre, from the first deal to the winner.

    The same read-only surface as ``Game``: ``trump`` is 0..3 for a suit, 4 for
    No Trump High and 5 for No Trump Low; ``maker`` is the winner of the
    bidding and ``alone`` holds a shooter; ``upcard`` is NO_UPCARD (nothing is
    turned). Also ``contract`` (the winning bid so far, or None) and
    ``high_bid``. Change it only with ``apply`` (checked) or ``step``.
    """

    def __init__(
        self,
        rules: HouseRules,
        *,
        seed: int = 0,
        dealer: int | None = None,
        deals: Sequence[Deal] = (),
    ) -> None:
        super().__init__(rules, seed=seed, dealer=dealer, deals=deals)

    def _check_game(self, rules: HouseRules) -> None:
        if rules.game != "bid_euchre":
            raise ValueError("BidGame plays Bid Euchre rules; use Game for euchre")

    def _engine_state(self, rules: HouseRules) -> None:
        self._last_done: tuple[tuple[int, ...], tuple[int, ...], int] | None = None
        self._benny_call = False
        self._lead_rules = False

    # ------------------------------------------------------------------ reading

    @property
    def upcard(self) -> int:
        """Nothing is turned in Bid Euchre: NO_UPCARD."""
        return NO_UPCARD

    @property
    def upcard_taken(self) -> bool:
        """Always False: there is no upcard."""
        return False

    @property
    def turned_down(self) -> int | None:
        """Always None: there is no upcard to turn down."""
        return None

    @property
    def makers(self) -> int | None:
        """The bidders' team, once the bidding is over."""
        return None if self._maker < 0 else self._maker % 2

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's finished tricks."""
        return tuple(Trick(s, c, w) for s, c, w in self._done_tricks)

    @property
    def last_trick(self) -> Trick | None:
        """The latest finished trick of the game."""
        done = self._last_done
        return None if done is None else Trick(*done)

    @property
    def trump_broken(self) -> bool:
        """Whether a trump was played to an earlier trick (never, with no trump)."""
        trump = self._trump
        if not 0 <= trump < NO_TRUMP_HIGH:
            return False
        eff = self._eff
        return any(eff[c] == trump for _, cards, _ in self._done_tricks for c in cards)

    @property
    def _deal_log(self) -> Sequence[tuple[int, Action]]:
        """This deal's (seat, action) pairs, for the seat views."""
        return self._log[self._deal_start :]

    @property
    def contract(self) -> Contract | None:
        """The highest bid so far this deal (the contract once bidding ends); None before."""
        return self._current.contract

    @property
    def high_bid(self) -> int:
        """The highest number bid so far this deal; 0 when nobody has bid."""
        return self._high

    def __repr__(self) -> str:
        """Where the game stands, cards as record text."""
        trump = "-" if self._trump < 0 else TRUMP_WORDS[self._trump]
        hands = " | ".join(" ".join(card_label(c) for c in h) for h in self._hands)
        trick = " ".join(f"{s}:{card_label(c)}" for s, c in self.trick)
        c = self._current.contract
        bid = "-" if c is None else f"{'shoot' if c.shoot else c.tricks} by {c.seat}"
        state = (
            f"over, winner {self._winner}" if self._over else f"{self._phase}, turn {self._turn}"
        )
        return (
            f"<BidGame {self._rules.preset} deal {self._deal_number}, dealer {self._dealer}, "
            f"{state}, bid {bid}, trump {trump}, score {self._score[0]}-{self._score[1]}, "
            f"tricks {self._tricks_won[0]}-{self._tricks_won[1]}, hands [{hands}]"
            + (f", trick [{trick}]" if trick else "")
            + ">"
        )

    # ------------------------------------------------------------------ dealing

    def _start_deal(self) -> None:
        self._deal_cards()
        self._kitty: list[int] = []
        self._high = 0
        self._done_tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self._current = DealResult(self._dealer, tricks=self._tricks_won, bidding=True)
        self._results.append(self._current)
        self._phase: Phase | None = BID_PHASE
        self._turn: int | None = (self._dealer + 1) % self._players

    def copy(self) -> BidGame:
        """An independent copy of the game as it stands (for search: try, then throw away)."""
        new = BidGame.__new__(BidGame)
        self._copy_shared(new)
        new._last_done = self._last_done
        new._high = self._high
        new._done_tricks = self._done_tricks[:]
        return new

    # ------------------------------------------------------------------ queries

    def bid_range(self, seat: int) -> tuple[int, int] | None:
        """The numbers ``seat`` may bid now (lowest, highest); None when it may bid no number."""
        fixed = self._fixed
        high = self._high
        if high == 0:
            low = fixed.bid_minimum
            return (low, low) if seat == self._dealer else (low, self._hand_size)
        low = high if seat == self._dealer and fixed.dealer_may_match else high + 1
        return None if low > self._hand_size else (low, self._hand_size)

    def must_bid(self, seat: int) -> bool:
        """Whether ``seat`` may not pass: the dealer when everyone else passed."""
        return seat == self._dealer and self._high == 0

    def _legal_bidding(self, seat: int, phase: Phase | None) -> Sequence[Action]:
        if phase is BID_PHASE:
            return self._legal_bid(seat)
        if phase is DECLARE_PHASE:
            return _DECLARES
        table = GIVE if phase is GIVE_PHASE else DISCARD
        return [table[c] for c in self._cards(seat)]

    def _legal_bid(self, seat: int) -> list[Action]:
        acts = [] if self.must_bid(seat) else [PASS]
        span = self.bid_range(seat)
        if span is not None:
            acts += [BID[n] for n in range(span[0], span[1] + 1)]
        if self._fixed.shoot:
            acts.append(SHOOT)
        return acts

    # ------------------------------------------------------------------ acting

    def _act(self, seat: int, action: Action) -> None:
        """Apply ``step``'s action of any verb but ``play``, already logged."""
        do = action.do
        card = action.card
        if do == "bid":
            assert action.tricks is not None
            self._high = action.tricks
            self._current.contract = Contract(seat, action.tricks)
            self._next_bidder(seat)
        elif do == "pass":
            self._next_bidder(seat)
        elif do == "shoot":
            self._shoot(seat)
        elif do == "declare":
            assert action.trump is not None
            self._declare(action.trump)
        elif do == "give":
            assert card is not None
            self._hands[seat].remove(card)
            self._hands[self._maker].append(card)
            self._phase = DISCARD_PHASE
            self._turn = self._maker
        elif do == "discard":
            assert card is not None
            self._hands[seat].remove(card)
            self._kitty.append(card)
            self._give_queue.pop(0)
            self._advance_give()

    def _next_bidder(self, seat: int) -> None:
        if seat != self._dealer:
            self._turn = (seat + 1) % self._players
            return
        contract = self._current.contract
        assert contract is not None
        self._end_bidding(contract.seat)

    def _shoot(self, seat: int) -> None:
        self._current.contract = Contract(seat, self._hand_size, shoot=True)
        self._go_alone(seat)
        self._end_bidding(seat)

    def _end_bidding(self, seat: int) -> None:
        self._maker = seat
        self._current.maker = seat
        self._phase = DECLARE_PHASE
        self._turn = seat

    def _declare(self, trump: int) -> None:
        self._trump = trump
        self._eff = self._ranking.suit[trump]
        self._power = self._ranking.power[trump]
        self._current.trump = trump
        if self._alone and self._fixed.partners_best:
            self._give_queue = self.partners(self._maker)
        self._advance_give()

    def _advance_give(self) -> None:
        if self._give_queue:
            self._phase = GIVE_PHASE
            self._turn = self._give_queue[0]
            return
        self._set_play_order()
        self._phase = PLAY_PHASE
        if self._fixed.bidder_leads:
            self._turn = self._maker
        else:
            lead = (self._dealer + 1) % self._players
            self._turn = lead if not self._out[lead] else self._next_seat[lead]

    def _end_trick(self) -> None:
        winner = self._trick_winner()
        done = (tuple(self._trick_seats), tuple(self._trick_cards), winner)
        self._done_tricks.append(done)
        self._last_done = done
        self._trick_seats = []
        self._trick_cards = []
        self._trick_no += 1
        if self._trick_no < self._hand_size:
            self._turn = winner
            return
        contract = self._current.contract
        assert contract is not None
        bidders = contract.team
        won = self._tricks_won
        outcome, to_bidders, to_defenders = score_bid_deal(
            self._rules, contract, won[bidders], won[1 - bidders]
        )
        self._book_deal(bidders, outcome, to_bidders, to_defenders)
        self._finish_deal((self._dealer + 1) % self._players, bidders)

    # ------------------------------------------------------------------ checking

    def _check(self, seat: int, action: Action) -> None:
        phase = self._phase
        verb = _VERB_WORDS.get(action.do, action.do.replace("_", " "))
        if phase is None:
            raise RuleError("wrong_phase", f"You can't {verb} now: the game is over.")
        if seat != self._turn:
            raise RuleError("not_your_turn", "It's not your turn.")
        if action.do not in _PHASE_VERBS[phase]:
            raise RuleError("wrong_phase", f"You can't {verb} now: {_PHASE_WORDS[phase]}.")
        card = action.card
        if action.do in ("give", "discard", "play"):
            if card is None:
                raise RuleError("not_allowed", f"Name the card to {verb.split()[0]}.")
            if card not in self._hands[seat]:
                raise RuleError("card_not_in_hand", f"You don't hold {card_words(card)}.")
        if action.do == "bid":
            self._check_bid(seat, action.tricks)
        elif action.do == "pass" and self.must_bid(seat):
            raise RuleError(
                "cannot_pass",
                f"Everyone passed: as dealer you must bid {self._rules.bid_minimum} (or shoot).",
            )
        elif action.do == "shoot" and not self._rules.shoot:
            raise RuleError("not_allowed", "Shooting is not played at this table.")
        elif action.do == "declare" and action.trump is None:
            raise RuleError("not_allowed", "Name a suit, No Trump High or No Trump Low.")
        elif action.do == "play" and card is not None and self._trick_cards:
            self._check_follow(seat, card)

    def _check_bid(self, seat: int, tricks: int | None) -> None:
        rules = self._rules
        low = rules.bid_minimum
        if tricks is None:
            raise RuleError("not_allowed", "Say how many tricks you bid.")
        if tricks > self._hand_size:
            raise RuleError(
                "not_allowed",
                f"You can bid at most {self._hand_size}: a hand has {self._hand_size} tricks.",
            )
        if tricks < low:
            raise RuleError("bid_too_low", f"Bids start at {low} tricks.")
        if self.must_bid(seat) and tricks != low:
            raise RuleError(
                "not_allowed", f"Everyone passed: as dealer you must bid exactly {low} (or shoot)."
            )
        high = self._high
        if high and seat == self._dealer and rules.dealer_may_match:
            if tricks < high:
                raise RuleError(
                    "bid_too_low",
                    f"The highest bid is {high}: as dealer you may match it, bid more or pass.",
                )
        elif tricks <= high:
            raise RuleError("bid_too_low", f"The highest bid is {high}: bid more or pass.")

    def _check_follow(self, seat: int, card: int) -> None:
        eff = self._eff
        led = self._led
        if eff[card] == led:
            return
        holding = [c for c in self._hands[seat] if eff[c] == led]
        if not holding:
            return
        led_name = SUIT_NAMES[led]
        trump = self._trump
        if card >> 3 == led and card & 7 == JACK:
            message = (
                f"You must follow {led_name}: {card_words(card)} is the left bower, "
                f"a {SUIT_NAMES[trump][:-1]} this hand, not a {led_name[:-1]}."
            )
        elif holding[0] >> 3 != led:
            message = (
                f"You must follow {led_name}: {card_words(holding[0])} is the left bower, "
                f"a {led_name[:-1]} this hand."
            )
        else:
            message = f"You must follow {led_name}: you hold {card_words(holding[0])}."
        raise RuleError("must_follow_suit", message)


def new_game(
    rules: HouseRules, *, seed: int = 0, dealer: int | None = None, deals: Sequence[Deal] = ()
) -> Game:
    """A new game of whichever game the rules play: euchre's ``Game`` or a ``BidGame``."""
    if rules.game == "bid_euchre":
        return BidGame(rules, seed=seed, dealer=dealer, deals=deals)
    return Game(rules, seed=seed, dealer=dealer, deals=deals)
