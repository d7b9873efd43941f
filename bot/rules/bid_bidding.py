"""Bid Euchre's bidding (rule source 003, record-format.md's "Bid Euchre").

One round of numeric bids from the dealer's left (the dealer may match the
highest bid; when everyone passes the dealer must bid the minimum); ``shoot``
outranks every number and ends the bidding. The winner declares a suit, No
Trump High or No Trump Low; a shooter's partners each give one card (the
shooter discarding one for each) and sit out; then the game (game.py) plays
every trick of the hand, and this scores the contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .actions import BID, DECLARE, DISCARD, GIVE, PASS, SHOOT, Action
from .bidding import BID_PHASE, DECLARE_PHASE, DISCARD_PHASE, GIVE_PHASE, PLAY_PHASE, Bidding, Phase
from .cards import JACK, SUIT_NAMES, card_words
from .errors import RuleError
from .scoring import Contract, score_bid_deal

if TYPE_CHECKING:
    from .game import Game

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


class BidBidding(Bidding):
    """Bid Euchre's bidding for one game: the deal's highest bid and the shooter's gifts due."""

    def __init__(self) -> None:
        self.high = 0
        self.give_queue: list[int] = []

    def start_deal(self, g: Game) -> None:
        """Nobody has bid: the dealer's left bids first."""
        self.high = 0
        self.give_queue = []
        g._phase = BID_PHASE
        g._turn = (g._dealer + 1) % g._players

    def copy(self) -> BidBidding:
        """An independent copy."""
        new = BidBidding.__new__(BidBidding)
        new.high = self.high
        new.give_queue = self.give_queue[:]
        return new

    # ------------------------------------------------------------------ queries

    def bid_range(self, g: Game, seat: int) -> tuple[int, int] | None:
        """The numbers ``seat`` may bid now (lowest, highest); None when it may bid no number."""
        fixed = g._fixed
        high = self.high
        hand_size = g._hand_size
        if high == 0:
            low = fixed.bid_minimum
            return (low, low) if seat == g._dealer else (low, hand_size)
        low = high if seat == g._dealer and fixed.dealer_may_match else high + 1
        return None if low > hand_size else (low, hand_size)

    def must_bid(self, g: Game, seat: int) -> bool:
        """Whether ``seat`` may not pass: the dealer when everyone else passed."""
        return seat == g._dealer and self.high == 0

    def legal(self, g: Game, seat: int, phase: Phase | None) -> Sequence[Action]:
        """The bids, the declarations, or the cards to give or discard."""
        if phase is BID_PHASE:
            acts = [] if self.must_bid(g, seat) else [PASS]
            span = self.bid_range(g, seat)
            if span is not None:
                acts += [BID[n] for n in range(span[0], span[1] + 1)]
            if g._fixed.shoot:
                acts.append(SHOOT)
            return acts
        if phase is DECLARE_PHASE:
            return _DECLARES
        table = GIVE if phase is GIVE_PHASE else DISCARD
        return [table[c] for c in g._cards(seat)]

    # ------------------------------------------------------------------ acting

    def act(self, g: Game, seat: int, action: Action) -> None:
        """Apply a bid, a pass, a shoot, a declaration, a gift or a discard."""
        do = action.do
        card = action.card
        if do == "bid":
            assert action.tricks is not None
            self.high = action.tricks
            g._current.contract = Contract(seat, action.tricks)
            self._next_bidder(g, seat)
        elif do == "pass":
            self._next_bidder(g, seat)
        elif do == "shoot":
            g._current.contract = Contract(seat, g._hand_size, shoot=True)
            g._go_alone(seat)
            self._end_bidding(g, seat)
        elif do == "declare":
            assert action.trump is not None
            self._declare(g, action.trump)
        elif do == "give":
            assert card is not None
            g._hands[seat].remove(card)
            g._hands[g._maker].append(card)
            g._phase = DISCARD_PHASE
            g._turn = g._maker
        elif do == "discard":
            assert card is not None
            g._hands[seat].remove(card)
            g._kitty.append(card)
            self.give_queue.pop(0)
            self._advance_give(g)

    def _next_bidder(self, g: Game, seat: int) -> None:
        if seat != g._dealer:
            g._turn = (seat + 1) % g._players
            return
        contract = g._current.contract
        assert contract is not None
        self._end_bidding(g, contract.seat)

    def _end_bidding(self, g: Game, seat: int) -> None:
        g._maker = seat
        g._makers = seat % 2
        g._current.maker = seat
        g._phase = DECLARE_PHASE
        g._turn = seat

    def _declare(self, g: Game, trump: int) -> None:
        g._make_trump(g._maker, trump)
        if g._alone and g._fixed.partners_best:
            self.give_queue = g.partners(g._maker)
        self._advance_give(g)

    def _advance_give(self, g: Game) -> None:
        if self.give_queue:
            g._phase = GIVE_PHASE
            g._turn = self.give_queue[0]
            return
        if g._fixed.bidder_leads:
            g._begin_play(g._maker)
        else:
            g._set_play_order()
            lead = (g._dealer + 1) % g._players
            g._begin_play(lead if not g._out[lead] else g._next_seat[lead])

    def score_deal(self, g: Game) -> None:
        """Score the contract: the bidders' tricks against their bid, then end the deal."""
        contract = g._current.contract
        assert contract is not None
        bidders = contract.team
        won = g._tricks_won
        outcome, to_bidders, to_defenders = score_bid_deal(
            g._rules, contract, won[bidders], won[1 - bidders]
        )
        g._book_deal(bidders, outcome, to_bidders, to_defenders)
        g._finish_deal((g._dealer + 1) % g._players, bidders)

    # ------------------------------------------------------------------ checking

    def check(self, g: Game, seat: int, action: Action) -> None:
        """The turn, the phase, the card held, and the bid's own rules."""
        phase = g._phase
        verb = _VERB_WORDS.get(action.do, action.do.replace("_", " "))
        if phase is None:
            raise RuleError("wrong_phase", f"You can't {verb} now: the game is over.")
        if seat != g._turn:
            raise RuleError("not_your_turn", "It's not your turn.")
        if action.do not in _PHASE_VERBS[phase]:
            raise RuleError("wrong_phase", f"You can't {verb} now: {_PHASE_WORDS[phase]}.")
        card = action.card
        if action.do in ("give", "discard", "play"):
            if card is None:
                raise RuleError("not_allowed", f"Name the card to {verb.split()[0]}.")
            if card not in g._hands[seat]:
                raise RuleError("card_not_in_hand", f"You don't hold {card_words(card)}.")
        if action.do == "bid":
            self._check_bid(g, seat, action.tricks)
        elif action.do == "pass" and self.must_bid(g, seat):
            raise RuleError(
                "cannot_pass",
                f"Everyone passed: as dealer you must bid {g._rules.bid_minimum} (or shoot).",
            )
        elif action.do == "shoot" and not g._rules.shoot:
            raise RuleError("not_allowed", "Shooting is not played at this table.")
        elif action.do == "declare" and action.trump is None:
            raise RuleError("not_allowed", "Name a suit, No Trump High or No Trump Low.")
        elif action.do == "play" and card is not None and g._trick_cards:
            self._check_follow(g, seat, card)

    def _check_bid(self, g: Game, seat: int, tricks: int | None) -> None:
        rules = g._rules
        low = rules.bid_minimum
        if tricks is None:
            raise RuleError("not_allowed", "Say how many tricks you bid.")
        if tricks > g._hand_size:
            raise RuleError(
                "not_allowed",
                f"You can bid at most {g._hand_size}: a hand has {g._hand_size} tricks.",
            )
        if tricks < low:
            raise RuleError("bid_too_low", f"Bids start at {low} tricks.")
        if self.must_bid(g, seat) and tricks != low:
            raise RuleError(
                "not_allowed", f"Everyone passed: as dealer you must bid exactly {low} (or shoot)."
            )
        high = self.high
        if high and seat == g._dealer and rules.dealer_may_match:
            if tricks < high:
                raise RuleError(
                    "bid_too_low",
                    f"The highest bid is {high}: as dealer you may match it, bid more or pass.",
                )
        elif tricks <= high:
            raise RuleError("bid_too_low", f"The highest bid is {high}: bid more or pass.")

    def _check_follow(self, g: Game, seat: int, card: int) -> None:
        eff = g._eff
        led = g._led
        if eff[card] == led:
            return
        holding = [c for c in g._hands[seat] if eff[c] == led]
        if not holding:
            return
        led_name = SUIT_NAMES[led]
        trump = g._trump
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
