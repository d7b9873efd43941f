"""The basic level: a fast, sound heuristic player for every phase and variant.

Bidding counts the hand's strength in a suit (``evaluation.strength``) and
adjusts it for the seat: the dealer counts the upcard in its hand, the
dealer's partners count part of it as their side's, the dealer's opponents
count it against them. A loner needs a hand that sweeps most of the time;
defending alone needs three trumps that cannot lose. Card play is in
``cardplay``. The player keeps no state: every decision comes from the view
alone, so it decides the same whether a table was just opened or restored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import Action, SeatView
from bot.rules.house_rules import deals_every_card

from . import bid_basic
from .cardplay import choose_card
from .deck import DeckFacts, deck_facts
from .evaluation import (
    after_pickup,
    best_discard,
    best_gift,
    strength,
    sure_trump_tricks,
    sweep_chance,
    trump_value,
)
from .tracking import Knowledge


@dataclass(frozen=True, slots=True)
class Tuning:
    """The thresholds the basic player bids by (tuned by duplicate matches in the arena)."""

    make: float = 2.5
    """Strength to order up or name a suit, before the seat's adjustments."""
    make_six: float = 3.0
    """The same at a six-seat table."""
    upcard_share: float = 0.6
    """How much of the upcard's worth counts for (dealer's side) or against (opponents) a seat."""
    eldest_bonus: float = 0.1
    """The second round's first bidder also leads the first trick."""
    second_round: float = 0.0
    """Added to the strength needed to name a suit in the second round."""
    alone: float = 0.28
    """Sweep chance to go alone."""
    alone_helped: float = 0.2
    """Sweep chance to go alone at four seats when the partner passes a card (partner's best)."""
    alone_six: float = 0.3
    """Sweep chance to go alone at six seats (two partners sit out, one may pass a card)."""
    alone_all_dealt: float = 0.4
    """Sweep chance to go alone at four seats when every card is dealt (the Almonte 21 pack):
    no card is safely out of play, and the marginal loners fail more often."""
    defend_alone_sure: int = 3
    """Trumps that cannot lose needed to defend alone (three take the euchre)."""
    redeal_below: float = 1.6
    """Ace-no-face: throw in a hand whose best suit is weaker than this."""


class BasicPlayer:
    """Counts the hand for bidding and follows the classic rules of play; stateless."""

    name: str = "basic"

    def __init__(self, seed: int = 0, tuning: Tuning | None = None) -> None:
        self.seed = seed
        self.tuning = tuning or Tuning()

    def choose(self, view: SeatView) -> Action:
        """The action for the phase in play; always one of ``view.legal``."""
        if view.rules.game == "bid_euchre":
            return bid_basic.choose(view)
        phase = view.phase
        if phase == "play":
            legal = view.legal
            if len(legal) == 1:
                return legal[0]
            know = Knowledge.read(view)
            card = choose_card(know, [a.card for a in legal if a.card is not None])
            return next(a for a in legal if a.card == card)
        if phase == "bid1":
            return self._first_round(view)
        if phase == "bid2":
            return self._second_round(view)
        if phase == "discard":
            assert view.trump is not None
            return _find(view, "discard", card=best_discard(view.hand, view.trump, _facts(view)))
        if phase == "alone":
            return self._alone_round(view)
        return self._partners_card(view)

    # ------------------------------------------------------------------ first round

    def _first_round(self, view: SeatView) -> Action:
        swaps = [a for a in view.legal if a.do == "swap"]
        if swaps:
            return _farmers_swap(view, swaps)
        facts = _facts(view)
        trump = view.upcard >> 3
        order = _first(view, "order_up", alone=None)
        order_alone = _first(view, "order_up", alone=True)
        declare = order is None or view.rules.alone_declaration == "with_call"
        if order_alone is not None and declare and self._goes_alone_ordering(view, trump, facts):
            return order_alone
        if order is not None and self._worth_ordering(view, trump, facts):
            return order
        redeal = _first(view, "redeal")
        if redeal is not None and self._best_suit(view, facts)[1] < self.tuning.redeal_below:
            return redeal
        return _find(view, "pass")

    def _worth_ordering(self, view: SeatView, trump: int, facts: DeckFacts) -> bool:
        return self._order_value(view, trump, facts) >= self._make_threshold(view)

    def _order_value(self, view: SeatView, trump: int, facts: DeckFacts) -> float:
        """The count of ordering up: the hand's strength with the upcard's worth for the seat."""
        if view.seat == view.dealer:
            hand, discard = after_pickup(view.hand, view.upcard, trump, facts)
            value = strength(hand, trump, facts, dead=(discard,))
        else:
            value = strength(view.hand, trump, facts)
            upcard = trump_value(view.upcard, trump, view.hand, facts)
            side = 1 if _same_side(view.seat, view.dealer) else -1
            value += side * self.tuning.upcard_share * upcard
        return value

    def _goes_alone_ordering(self, view: SeatView, trump: int, facts: DeckFacts) -> bool:
        if view.seat == view.dealer:
            hand, discard = after_pickup(view.hand, view.upcard, trump, facts)
            return self._sweeps(view, hand, trump, dead=(discard,))
        if _same_side(view.seat, view.dealer):
            # The dealer sits out with the upcard.
            return self._sweeps(view, view.hand, trump, dead=(view.upcard,))
        return self._sweeps(view, view.hand, trump, live=(view.upcard,))

    def _sweeps(
        self,
        view: SeatView,
        hand: Sequence[int],
        trump: int,
        dead: Sequence[int] = (),
        live: Sequence[int] = (),
    ) -> bool:
        """Whether ``hand`` is worth playing alone with ``trump``."""
        threshold = self._alone_threshold(view)
        chance = sweep_chance(
            hand,
            trump,
            _facts(view),
            opponents=view.players // 2,
            leads=leads_alone(view),
            dead=dead,
            live=live,
            floor=threshold,
        )
        return chance >= threshold

    # ------------------------------------------------------------------ second round

    def _second_round(self, view: SeatView) -> Action:
        facts = _facts(view)
        if not view.hand:
            # The Benny was turned: the dealer names trump unseen, any suit is as good.
            suit = min(a.suit for a in view.legal if a.suit is not None)
            return _find(view, "call", suit=suit, alone=None)
        suit, value = self._best_suit(view, facts)
        if view.seat == (view.dealer + 1) % view.players:
            value += self.tuning.eldest_bonus
        can_pass = _first(view, "pass") is not None
        if can_pass and value < self._make_threshold(view) + self.tuning.second_round:
            return _find(view, "pass")
        alone = view.rules.alone_declaration == "with_call" and self._sweeps(
            view, view.hand, suit, dead=(view.upcard,)
        )
        return _find(view, "call", suit=suit, alone=True if alone else None)

    def _best_suit(self, view: SeatView, facts: DeckFacts) -> tuple[int, float]:
        """The strongest suit this seat may name, and its strength."""
        suits = {a.suit for a in view.legal if a.do == "call" and a.suit is not None}
        if not suits:
            suits = {s for s in range(4) if s != view.turned_down}
        dead = (view.upcard,) if view.turned_down is not None else ()
        scored = [(strength(view.hand, s, facts, dead=dead), -s) for s in suits]
        value, neg_suit = max(scored)
        return -neg_suit, value

    def make_count(self, view: SeatView) -> tuple[Action, float] | None:
        """The bid that makes trump with the partner, and the count behind it (bid1/bid2).

        None where this player does not count a hand: a farmer's swap, a dealer naming
        trump unseen after a turned Benny, or no such bid legal.
        """
        facts = _facts(view)
        if view.phase == "bid1":
            order = _first(view, "order_up", alone=None)
            if order is None or not view.hand or any(a.do == "swap" for a in view.legal):
                return None
            return order, self._order_value(view, view.upcard >> 3, facts)
        if view.phase != "bid2" or not view.hand:
            return None
        suit, value = self._best_suit(view, facts)
        if view.seat == (view.dealer + 1) % view.players:
            value += self.tuning.eldest_bonus
        call = _first(view, "call", suit=suit, alone=None)
        return None if call is None else (call, value)

    def make_threshold(self, view: SeatView) -> float:
        """The count at which this player makes trump in the round in play."""
        extra = self.tuning.second_round if view.phase == "bid2" else 0.0
        return self._make_threshold(view) + extra

    # ------------------------------------------------------------------ alone round

    def _alone_round(self, view: SeatView) -> Action:
        assert view.trump is not None
        facts = _facts(view)
        trump = view.trump
        dead, live = upcard_fate(view)
        if view.makers == view.team:
            alone = self._sweeps(view, view.hand, trump, dead=dead, live=live)
        else:
            sure = sure_trump_tricks(view.hand, trump, facts, dead=dead)
            alone = sure >= self.tuning.defend_alone_sure
        return _find(view, "alone" if alone else "pass")

    # ------------------------------------------------------------------ partner's card

    def _partners_card(self, view: SeatView) -> Action:
        asks = [a for a in view.legal if a.do == "ask"]
        if asks:
            maker = next((a for a in asks if a.partner == view.maker), None)
            return maker or asks[0]
        assert view.trump is not None
        return _find(view, "give", card=best_gift(view.hand, view.trump, _facts(view)))

    # ------------------------------------------------------------------ thresholds

    def _make_threshold(self, view: SeatView) -> float:
        return self.tuning.make_six if view.players > 4 else self.tuning.make

    def _alone_threshold(self, view: SeatView) -> float:
        if view.players > 4:
            return self.tuning.alone_six
        if deals_every_card(view.rules):
            return self.tuning.alone_all_dealt
        return self.tuning.alone_helped if view.rules.partners_best else self.tuning.alone


# ---------------------------------------------------------------------- helpers


def _facts(view: SeatView) -> DeckFacts:
    return deck_facts(view.rules)


def _same_side(a: int, b: int) -> bool:
    return a % 2 == b % 2


def leads_alone(view: SeatView) -> bool:
    """Whether this seat, going alone, would lead the first trick."""
    if view.rules.lone_lead == "left_of_loner":
        return False
    seat = (view.dealer + 1) % view.players
    while seat != view.seat and _same_side(seat, view.seat):
        seat = (seat + 1) % view.players
    return seat == view.seat


def upcard_fate(view: SeatView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Cards known dead, and known in an opponent's hand, once trump is made."""
    if not view.upcard_taken:
        return (view.upcard,), ()
    if view.dealer == view.seat:
        mine = [a.card for s, a in view.history if s == view.seat and a.do == "discard"]
        return tuple(c for c in mine if c is not None), ()
    if _same_side(view.seat, view.dealer):
        # A partner dealer who took the upcard sits out if this seat goes alone.
        return (view.upcard,), ()
    return (), (view.upcard,)


def _farmers_swap(view: SeatView, swaps: list[Action]) -> Action:
    """The legal swap giving away the least: no card of the upcard's suit, low ranks."""
    upsuit = view.upcard >> 3

    def cost(action: Action) -> tuple[int, int]:
        cards = action.cards or ()
        return sum(c >> 3 == upsuit for c in cards), sum(c & 7 for c in cards)

    return min(swaps, key=cost)


def _first(view: SeatView, do: str, **fields: object) -> Action | None:
    """The first legal action doing ``do`` whose named fields match, if any."""
    for action in view.legal:
        if action.do == do and all(getattr(action, k) == v for k, v in fields.items()):
            return action
    return None


def _find(view: SeatView, do: str, **fields: object) -> Action:
    found = _first(view, do, **fields)
    if found is None:
        raise AssertionError(f"basic player chose {do} {fields}, which is not legal here")
    return found
