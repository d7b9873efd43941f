"""Euchre's bidding: ordering up and naming trump, the dealer's discard, loners and their gifts.

The phases before the play of record-format.md: ``bid1`` (ordering up; also
ace-no-face and farmer's hand), ``discard``, ``bid2`` (naming a suit),
``alone`` and ``give`` (partner's best, or the six-handed loner's ask). The
game (game.py) holds the deal; this holds the bidding's own progress and the
checks with their messages.

Longer than 450 lines on purpose: every step of the bidding and every check
read and change the same game's deal, side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .actions import (
    ALONE,
    CALL,
    CALL_ALONE,
    DISCARD,
    GIVE,
    ORDER_UP,
    ORDER_UP_ALONE,
    PASS,
    REDEAL,
    Action,
)
from .bidding import (
    ALONE_PHASE,
    BID1,
    BID2,
    DISCARD_PHASE,
    GIVE_PHASE,
    PLAY_PHASE,
    Bidding,
    Phase,
)
from .cards import FOUR_SPADES, JOKER, THREE_SPADES, TWO_SPADES, Suit, card_words
from .errors import RuleError
from .house_rules import HouseRules
from .ranking import top_rank_word
from .scoring import score_deal

if TYPE_CHECKING:
    from .game import Game

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


class EuchreBidding(Bidding):
    """Euchre's bidding for one game: its rules' settings and the deal's progress so far."""

    def __init__(self, rules: HouseRules, players: int) -> None:
        self.forced_alone_rule = rules.dealer_partner_order_up == "must_go_alone"
        self.needs_suit = rules.order_up_needs_suit
        self.swapped = [False] * players
        self.give_queue: list[int] = []
        self.bid_count = 0
        self.alone_queue: list[int] = []
        self.alone_stage = 0
        self.give_step = _ASK
        self.receiver = -1
        self.discard_kind = _PICKUP

    def start_deal(self, g: Game) -> None:
        """Everyone may bid again; the Benny turned up leaves the dealer to name trump."""
        self.swapped = [False] * g._players
        self.give_queue = []
        self.bid_count = 0
        self.alone_queue = []
        self.alone_stage = 0
        self.give_step = _ASK
        self.receiver = -1
        self.discard_kind = _PICKUP
        if g._benny_call:
            g._phase = BID2
            g._turn = g._dealer
        else:
            g._phase = BID1
            g._turn = (g._dealer + 1) % g._players

    def copy(self) -> EuchreBidding:
        """An independent copy (its lists copied)."""
        new = EuchreBidding.__new__(EuchreBidding)
        new.forced_alone_rule = self.forced_alone_rule
        new.needs_suit = self.needs_suit
        new.swapped = self.swapped[:]
        new.give_queue = self.give_queue[:]
        new.bid_count = self.bid_count
        new.alone_queue = self.alone_queue[:]
        new.alone_stage = self.alone_stage
        new.give_step = self.give_step
        new.receiver = self.receiver
        new.discard_kind = self.discard_kind
        return new

    def score_deal(self, g: Game) -> None:
        """Score the tricks the makers took, loners counted, and end the deal."""
        makers = g._makers
        maker_alone = any(s & 1 == makers for s in g._alone)
        defender_alone = len(g._alone) > int(maker_alone)
        outcome, to_makers, to_defenders = score_deal(
            g._rules, g._tricks_won[makers], maker_alone, defender_alone
        )
        g._book_deal(makers, outcome, to_makers, to_defenders)
        g._finish_deal((g._dealer + 1) % g._players)

    def check(self, g: Game, seat: int, action: Action) -> None:
        phase = g._phase
        verb = _VERB_WORDS[action.do]
        if phase is None:
            raise RuleError("wrong_phase", f"You can't {verb} now: the game is over.")
        if seat != g._turn:
            raise RuleError("not_your_turn", "It's not your turn.")
        if action.do not in _PHASE_VERBS[phase] or not self._verb_fits_step(g, action):
            raise RuleError("wrong_phase", f"You can't {verb} now: {_PHASE_WORDS[phase]}.")
        hand = g._hands[seat]
        held = [action.card] if action.card is not None else list(action.cards or ())
        spare = list(hand)
        for c in held:
            if c not in spare:
                raise RuleError("card_not_in_hand", f"You don't hold {card_words(c)}.")
            spare.remove(c)
        check = getattr(self, f"_check_{action.do}")
        check(g, seat, action)

    def _check_pass(self, g: Game, seat: int, action: Action) -> None:
        if g._phase is BID2 and g._benny_call:
            raise RuleError(
                "cannot_pass", "The Benny was turned up: as dealer you must name trump."
            )
        if g._phase is BID2 and g._fixed.stick and seat == g._dealer:
            raise RuleError(
                "cannot_pass", "Stick the dealer: everyone passed, so you must name trump."
            )
        if g._phase is GIVE_PHASE and g._fixed.partners_best:
            raise RuleError("not_allowed", "Partner's best: you must ask a partner for a card.")

    def _check_order_up(self, g: Game, seat: int, action: Action) -> None:
        suit = Suit(g._upcard >> 3)
        if self._must_hold_suit(g, seat) and not self._holds_upcard_suit(g, seat):
            raise RuleError(
                "needs_suit",
                f"You can only order up {suit.plural} while holding one "
                "(the left bower does not count).",
            )
        if self._forced_alone(g, seat) and action.alone is False:
            raise RuleError(
                "not_allowed",
                "As the dealer's partner you can only order up by going alone.",
            )

    def _check_call(self, g: Game, seat: int, action: Action) -> None:
        suit = action.suit
        assert suit is not None
        if suit == g._turned_down:
            raise RuleError(
                "suit_turned_down",
                f"{Suit(suit).plural.capitalize()} were turned down this deal: name another suit.",
            )

    def _check_discard(self, g: Game, seat: int, action: Action) -> None:
        return None

    def _check_give(self, g: Game, seat: int, action: Action) -> None:
        return None

    def _check_alone(self, g: Game, seat: int, action: Action) -> None:
        return None

    def _check_ask(self, g: Game, seat: int, action: Action) -> None:
        if action.partner not in g._fixed.partners[seat]:
            raise RuleError("not_allowed", "Ask one of your partners for a card.")

    def _check_redeal(self, g: Game, seat: int, action: Action) -> None:
        if not g._rules.ace_no_face:
            raise RuleError("not_allowed", "Ace-no-face is not played at this table.")
        if not g.ace_no_face(g._hands[seat]):
            raise RuleError(
                "not_allowed",
                "Only a hand with no face card and at most one ace may be thrown in.",
            )

    def _check_swap(self, g: Game, seat: int, action: Action) -> None:
        if g._rules.farmers_hand == "off":
            raise RuleError("not_allowed", "Farmer's hand is not played at this table.")
        if self.swapped[seat]:
            raise RuleError("not_allowed", "You have already swapped with the kitty this deal.")
        cards = tuple(sorted(action.cards or ()))
        if cards not in g.farmer_swaps(g._hands[seat]):
            what = (
                "three nines or three tens"
                if g._rules.farmers_hand == "three_of_a_rank"
                else "three cards that are nines or tens"
            )
            raise RuleError("not_allowed", f"A farmer's hand swaps exactly {what}.")

    def _check_play(self, g: Game, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        hand = g._hands[seat]
        trump = g._trump
        eff = g._ranking.suit[trump]
        if g._trick_cards:
            led = g._led
            if eff[card] == led:
                return
            holding = [c for c in hand if eff[c] == led]
            if holding:
                raise RuleError("must_follow_suit", self._follow_message(g, card, holding, led))
            return
        barred = g._lead_rules and eff[card] == trump and g._trump_lead_barred()
        if barred and any(eff[c] != trump for c in hand):
            why = (
                "trump may not lead the first trick"
                if g._rules.no_trump_lead_first_trick and g._trick_no == 0
                else "trump has not been broken yet"
            )
            raise RuleError("not_allowed", f"You can't lead trump now: {why}.")

    def _verb_fits_step(self, g: Game, action: Action) -> bool:
        if g._phase is not GIVE_PHASE:
            return True
        if self.give_step == _ASK:
            return action.do in ("ask", "pass")
        return action.do == "give"

    def _follow_message(self, g: Game, card: int, holding: list[int], led: int) -> str:
        led_name = Suit(led).plural
        disguised = [c for c in holding if _printed_suit(c) != led]
        if len(holding) == 1 and disguised:
            return (
                f"You must follow {led_name}: {card_words(holding[0])} is a "
                f"{led_name[:-1]} this hand ({self._trump_word(g, holding[0])})."
            )
        if _printed_suit(card) == led:
            return (
                f"You must follow {led_name}: {card_words(card)} is {self._trump_word(g, card)}, "
                f"a {Suit(g._trump).plural[:-1]} this hand, not a {led_name[:-1]}."
            )
        return f"You must follow {led_name}: you hold {card_words(holding[0])}."

    def _trump_word(self, g: Game, c: int) -> str:
        if c >= JOKER:
            return "a joker" if g._rules.deck.startswith("almonte") else "the Benny"
        return top_rank_word(c, g._trump)

    def legal(self, g: Game, seat: int, phase: Phase | None) -> Sequence[Action]:
        """``legal()`` in every phase before the play (``seat`` to act)."""
        if phase is BID1:
            return self._legal_bid1(g, seat)
        if phase is BID2:
            return self._legal_bid2(g, seat)
        if phase is DISCARD_PHASE:
            return [DISCARD[c] for c in g._cards(seat)]
        if phase is ALONE_PHASE:
            return (PASS, ALONE)
        if self.give_step == _ASK:
            return list(g._fixed.asks[seat])
        return [GIVE[c] for c in g._cards(seat)]

    def _legal_bid1(self, g: Game, seat: int) -> list[Action]:
        acts = [PASS]
        if not self._must_hold_suit(g, seat) or self._holds_upcard_suit(g, seat):
            if self._forced_alone(g, seat):
                acts.append(ORDER_UP_ALONE)
            else:
                acts += (ORDER_UP, ORDER_UP_ALONE)
        fixed = g._fixed
        if fixed.ace_no_face and g.ace_no_face(g._hands[seat]):
            acts.append(REDEAL)
        if fixed.farmers and not self.swapped[seat]:
            acts += [Action("swap", cards=combo) for combo in g.farmer_swaps(g._hands[seat])]
        return acts

    def _legal_bid2(self, g: Game, seat: int) -> list[Action]:
        stuck = g._benny_call or (g._fixed.stick and seat == g._dealer)
        acts = [] if stuck else [PASS]
        for suit in Suit:
            if suit != g._turned_down:
                acts += (CALL[suit], CALL_ALONE[suit])
        return acts

    def act(self, g: Game, seat: int, action: Action) -> None:
        """Apply ``step``'s action of any verb but ``play``, already logged."""
        # Each verb's fields are set (record-format.md): the asserts only tell mypy so.
        do = action.do
        card = action.card
        if do == "pass":
            self._pass(g, seat)
        elif do == "order_up":
            self._order_up(g, seat, action.alone)
        elif do == "call":
            assert action.suit is not None
            self._call(g, seat, action.suit, bool(action.alone))
        elif do == "discard":
            assert card is not None
            g._masked_at.append(len(g._log) - 1)
            self._discard(g, seat, card)
        elif do == "alone":
            self._declare_alone(g, seat)
        elif do == "give":
            assert card is not None
            g._masked_at.append(len(g._log) - 1)
            self._give(g, seat, card)
        elif do == "ask":
            g._masked_at.append(len(g._log) - 1)
            self.give_step = _GIVE
            self.receiver = seat
            g._turn = action.partner
        elif do == "redeal":
            g._current.result = "redeal"
            g._finish_deal(g._dealer)
        elif do == "swap":
            assert action.cards is not None
            g._masked_at.append(len(g._log) - 1)
            self._swap(g, seat, action.cards)

    def _pass(self, g: Game, seat: int) -> None:
        n = g._players
        phase = g._phase
        if phase is ALONE_PHASE:
            self.alone_queue.pop(0)
            self._advance_alone(g)
        elif phase is GIVE_PHASE:
            self.give_queue.pop(0)
            self._advance_give(g)
        else:
            self.bid_count += 1
            if self.bid_count < n:
                g._turn = (seat + 1) % n
            elif phase is BID1:
                g._phase = BID2
                g._turned_down = g._upcard >> 3
                self.bid_count = 0
                g._turn = (g._dealer + 1) % n
            else:
                g._current.result = "passed"
                g._finish_deal((g._dealer + 1) % n)

    def _make_trump(self, g: Game, seat: int, suit: int, alone: bool) -> None:
        g._make_trump(seat, suit)
        if alone:
            g._go_alone(seat)

    def _order_up(self, g: Game, seat: int, alone: bool | None) -> None:
        if self._forced_alone(g, seat):
            alone = True
        self._make_trump(g, seat, g._upcard >> 3, bool(alone))
        if g._out[g._dealer]:
            self._after_bidding(g)
        else:
            self._pick_up(g)

    def _pick_up(self, g: Game) -> None:
        g._hands[g._dealer].append(g._upcard)
        g._upcard_taken = True
        g._phase = DISCARD_PHASE
        self.discard_kind = _PICKUP
        g._turn = g._dealer

    def _call(self, g: Game, seat: int, suit: int, alone: bool) -> None:
        self._make_trump(g, seat, suit, alone)
        if g._benny_call:
            self._pick_up(g)
        else:
            self._after_bidding(g)

    def _discard(self, g: Game, seat: int, card: int) -> None:
        g._hands[seat].remove(card)
        g._kitty.append(card)
        if self.discard_kind == _PICKUP:
            self._after_bidding(g)
        else:
            self.give_queue.pop(0)
            self._advance_give(g)

    def _swap(self, g: Game, seat: int, cards: tuple[int, ...]) -> None:
        hand = g._hands[seat]
        for c in cards:
            hand.remove(c)
        hand += g._kitty[:3]
        g._kitty[:3] = cards
        self.swapped[seat] = True

    def _after_bidding(self, g: Game) -> None:
        self.alone_stage = 0
        self.alone_queue = []
        if g._fixed.after_trump and not self._maker_side_alone(g):
            self.alone_queue = [g._maker, *g._fixed.partners[g._maker]]
        self._advance_alone(g)

    def _maker_side_alone(self, g: Game) -> bool:
        return any(s % 2 == g._makers for s in g._alone)

    def _advance_alone(self, g: Game) -> None:
        while not self.alone_queue:
            if self.alone_stage != 0:
                self._begin_give(g)
                return
            self.alone_stage = 1
            mode = g._fixed.defend_alone
            if mode == "always" or (mode == "vs_lone_maker" and self._maker_side_alone(g)):
                start = g._maker
                for s in g._alone:
                    if s % 2 == g._makers:
                        start = s
                        break
                n = g._players
                self.alone_queue = [(start + k) % n for k in range(1, n, 2)]
        g._phase = ALONE_PHASE
        g._turn = self.alone_queue[0]

    def _declare_alone(self, g: Game, seat: int) -> None:
        self.alone_queue.pop(0)
        g._go_alone(seat)
        self.alone_queue = []
        if seat % 2 != g._makers:
            self.alone_stage = 1
        self._advance_alone(g)

    def _begin_give(self, g: Game) -> None:
        if g._players > 4 or g._fixed.partners_best:
            makers = g._makers
            # the makers' loner first, then the defenders'
            queue = [s for s in g._alone if s % 2 == makers]
            queue += [s for s in g._alone if s % 2 != makers]
            self.give_queue = queue
        self._advance_give(g)

    def _advance_give(self, g: Game) -> None:
        if not self.give_queue:
            self._begin_play(g)
            return
        loner = self.give_queue[0]
        g._phase = GIVE_PHASE
        if g._players > 4:
            self.give_step = _ASK
            g._turn = loner
        else:
            self.give_step = _GIVE
            self.receiver = loner
            g._turn = (loner + 2) % 4

    def _give(self, g: Game, seat: int, card: int) -> None:
        g._hands[seat].remove(card)
        g._hands[self.receiver].append(card)
        g._phase = DISCARD_PHASE
        self.discard_kind = _GIVEN
        g._turn = self.receiver

    def _begin_play(self, g: Game) -> None:
        g._begin_play(self._first_leader(g))

    def _first_leader(self, g: Game) -> int:
        if g._alone and g._fixed.left_of_loner:
            if len(g._alone) > 1:
                return next(s for s in g._alone if s % 2 != g._makers)
            return self._active_from(g, g._alone[0] + 1)
        return self._active_from(g, g._dealer + 1)

    def _active_from(self, g: Game, seat: int) -> int:
        n = g._players
        seat %= n
        while g._out[seat]:
            seat = (seat + 1) % n
        return seat

    def _forced_alone(self, g: Game, seat: int) -> bool:
        return self.forced_alone_rule and seat != g._dealer and (seat - g._dealer) % 2 == 0

    def _holds_upcard_suit(self, g: Game, seat: int) -> bool:
        suit = g._upcard >> 3
        return any(c < JOKER and c >> 3 == suit for c in g._hands[seat])

    def _must_hold_suit(self, g: Game, seat: int) -> bool:
        need = self.needs_suit
        return need == "everyone" or (need == "dealer" and seat == g._dealer)


def _printed_suit(c: int) -> int:
    """The suit printed on a card; -1 for a joker that shows none."""
    if c < JOKER:
        return c >> 3
    return Suit.SPADES if c in (TWO_SPADES, THREE_SPADES, FOUR_SPADES) else -1
