"""A game of euchre as a state machine: whose turn, what is legal, and what an action does.

One engine serves everyone. ``apply`` checks an action against the rules and
raises RuleError, leaving the state untouched, when it is not allowed; ``step``
applies an action taken from ``legal()`` without checking it again, which is
the fast path simulations use. Both share every line that changes the state.

Phases follow record-format.md: ``bid1`` (ordering up; also ace-no-face and
farmer's hand), ``discard``, ``bid2`` (naming a suit), ``alone``, ``give``
(partner's best, or the six-handed loner's ask) and ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Final

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
    card_words,
)
from .dealing import Deal, first_dealer, seeded_deal
from .errors import RuleError
from .house_rules import HouseRules, deck_cards
from .ranking import build_ranking, top_rank_word, trick_winner_index
from .scoring import DealResult, score_deal

BID1: Final = "bid1"
DISCARD_PHASE: Final = "discard"
BID2: Final = "bid2"
ALONE_PHASE: Final = "alone"
GIVE_PHASE: Final = "give"
PLAY_PHASE: Final = "play"

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

_LIST_STATE: Final = (
    "kitty",
    "alone",
    "out",
    "swapped",
    "deal_log",
    "log",
    "tricks",
    "trick_seats",
    "trick_cards",
    "tricks_won",
    "score",
    "alone_queue",
    "give_queue",
)
_PICKUP: Final = 0
_GIVEN: Final = 1
_ASK: Final = 0
_GIVE: Final = 1
_FACES: Final = frozenset((JACK, QUEEN, KING))


class Game:
    """A whole game under one set of house rules, from the first deal to the winner."""

    def __init__(
        self,
        rules: HouseRules,
        *,
        seed: int = 0,
        dealer: int | None = None,
        deals: Sequence[Deal] = (),
    ) -> None:
        self.rules: Final = rules
        self.players: Final = rules.players
        self.hand_size: Final = rules.hand_size
        self.seed: Final = seed
        self.ranking: Final = build_ranking(rules)
        self.pack: Final = deck_cards(rules)
        self.preset_deals: Final = tuple(deals)
        self.first_dealer: Final = first_dealer(rules, seed) if dealer is None else dealer
        if not 0 <= self.first_dealer < self.players:
            raise ValueError(
                f"dealer: seat {self.first_dealer} is not at a {self.players}-seat table"
            )
        self.dealer = self.first_dealer
        self.score = [0, 0]
        self.winner: int | None = None
        self.over = False
        self.results: list[DealResult] = []
        self.log: list[tuple[int, Action]] = []
        self.deal_number = 0
        self._forced_alone_rule = rules.dealer_partner_order_up == "must_go_alone"
        self._needs_suit = rules.order_up_needs_suit
        self._dupes = rules.packs > 1
        self._lead_rules = rules.no_trump_lead_first_trick or rules.trump_must_be_broken
        self._start_deal()

    # ------------------------------------------------------------------ dealing

    def _start_deal(self) -> None:
        n = self.players
        number = self.deal_number
        if number < len(self.preset_deals):
            deal = self.preset_deals[number]
        else:
            deal = seeded_deal(self.rules, self.seed, number, self.pack)
        self.deal_number = number + 1
        self.deal = deal
        self.hands = [list(h) for h in deal.hands]
        self.upcard = deal.upcard
        self.kitty = list(deal.kitty)
        self.upcard_taken = False
        self.turned_down = -1
        self.trump = -1
        self.eff: tuple[int, ...] = ()
        self.maker = -1
        self.makers = -1
        self.alone: list[int] = []
        self.out = [False] * n
        self.swapped = [False] * n
        self.deal_log: list[tuple[int, Action]] = []
        self.tricks_won = [0, 0]
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.trick_no = 0
        self.trump_broken = False
        self.led = -1
        self.bid_count = 0
        self.alone_queue: list[int] = []
        self.alone_stage = 0
        self.give_queue: list[int] = []
        self.give_step = _ASK
        self.receiver = -1
        self.discard_kind = _PICKUP
        self.current = DealResult(self.dealer, tricks=self.tricks_won)
        self.results.append(self.current)
        self.benny_call = deal.upcard >= JOKER
        if self.benny_call:
            self.phase: str | None = BID2
            self.turn: int | None = self.dealer
        else:
            self.phase = BID1
            self.turn = (self.dealer + 1) % n

    def _finish_deal(self, next_dealer: int) -> None:
        rules = self.rules
        if rules.deals_per_game is not None:
            if self.deal_number >= rules.deals_per_game:
                a, b = self.score
                self._end_game(None if a == b else (0 if a > b else 1))
                return
        elif max(self.score) >= rules.target_score:
            self._end_game(0 if self.score[0] >= rules.target_score else 1)
            return
        self.dealer = next_dealer
        self._start_deal()

    def _end_game(self, winner: int | None) -> None:
        self.over = True
        self.winner = winner
        self.phase = None
        self.turn = None

    def copy(self) -> Game:
        """An independent copy of the game as it stands (for search: try, then throw away)."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        for name in _LIST_STATE:
            setattr(new, name, list(getattr(self, name)))
        current = self.current
        new.current = replace(
            current,
            alone=list(current.alone),
            tricks=new.tricks_won,
            points=list(current.points),
        )
        new.results = [*self.results[:-1], new.current]
        return new

    # ------------------------------------------------------------------ queries

    def partners(self, seat: int) -> list[int]:
        """The seat's partners, clockwise from its left."""
        n = self.players
        return [(seat + k) % n for k in range(2, n, 2)]

    def _forced_alone(self, seat: int) -> bool:
        return self._forced_alone_rule and seat != self.dealer and (seat - self.dealer) % 2 == 0

    def _holds_upcard_suit(self, seat: int) -> bool:
        suit = self.upcard >> 3
        return any(c < JOKER and c >> 3 == suit for c in self.hands[seat])

    def _must_hold_suit(self, seat: int) -> bool:
        need = self._needs_suit
        return need == "everyone" or (need == "dealer" and seat == self.dealer)

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
        mode = self.rules.farmers_hand
        if mode == "off":
            return []
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
        phase = self.phase
        seat = self.turn
        if seat is None:
            return ()
        if phase is PLAY_PHASE:
            return self._legal_play(seat)
        if phase is BID1:
            return self._legal_bid1(seat)
        if phase is BID2:
            return self._legal_bid2(seat)
        if phase is DISCARD_PHASE:
            return self._unique([DISCARD[c] for c in self.hands[seat]])
        if phase is ALONE_PHASE:
            return (PASS, ALONE)
        if self.give_step == _ASK:
            asks = [Action("ask", partner=p) for p in self.partners(seat)]
            return asks if self.rules.partners_best else [PASS, *asks]
        return self._unique([GIVE[c] for c in self.hands[seat]])

    def _unique(self, actions: list[Action]) -> list[Action]:
        if not self._dupes:
            return actions
        return list(dict.fromkeys(actions))

    def _legal_play(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        eff = self.eff
        if self.trick_cards:
            led = self.led
            follow = [PLAY[c] for c in hand if eff[c] == led]
            if follow:
                return self._unique(follow) if self._dupes else follow
        elif self._lead_rules and self._trump_lead_barred():
            trump = self.trump
            side = [PLAY[c] for c in hand if eff[c] != trump]
            if side:
                return self._unique(side)
        return self._unique([PLAY[c] for c in hand])

    def _trump_lead_barred(self) -> bool:
        rules = self.rules
        return (rules.no_trump_lead_first_trick and self.trick_no == 0) or (
            rules.trump_must_be_broken and not self.trump_broken
        )

    def _legal_bid1(self, seat: int) -> list[Action]:
        acts = [PASS]
        if not self._must_hold_suit(seat) or self._holds_upcard_suit(seat):
            if self._forced_alone(seat):
                acts.append(ORDER_UP_ALONE)
            else:
                acts += (ORDER_UP, ORDER_UP_ALONE)
        if self.rules.ace_no_face and self.ace_no_face(self.hands[seat]):
            acts.append(REDEAL)
        if not self.swapped[seat]:
            acts += [Action("swap", cards=combo) for combo in self.farmer_swaps(self.hands[seat])]
        return acts

    def _legal_bid2(self, seat: int) -> list[Action]:
        stuck = self.benny_call or (self.rules.stick_the_dealer and seat == self.dealer)
        acts = [] if stuck else [PASS]
        for suit in Suit:
            if suit != self.turned_down:
                acts += (CALL[suit], CALL_ALONE[suit])
        return acts

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action) -> None:
        """Apply a seat's action after checking it; RuleError (state unchanged) when not allowed."""
        self._check(seat, action)
        self.step(action)

    def step(self, action: Action) -> None:
        """Apply an action of the seat to act without checking it: it must come from ``legal()``."""
        seat = self.turn
        assert seat is not None
        self.log.append((seat, action))
        self.deal_log.append((seat, action))
        do = action.do
        if do == "play":
            self._play(seat, action.card)  # type: ignore[arg-type]
        elif do == "pass":
            self._pass(seat)
        elif do == "order_up":
            self._order_up(seat, action.alone)
        elif do == "call":
            self._call(seat, action.suit, bool(action.alone))  # type: ignore[arg-type]
        elif do == "discard":
            self._discard(seat, action.card)  # type: ignore[arg-type]
        elif do == "alone":
            self._alone(seat)
        elif do == "give":
            self._give(seat, action.card)  # type: ignore[arg-type]
        elif do == "ask":
            self.give_step = _GIVE
            self.receiver = seat
            self.turn = action.partner
        elif do == "redeal":
            self.current.result = "redeal"
            self._finish_deal(self.dealer)
        elif do == "swap":
            self._swap(seat, action.cards)  # type: ignore[arg-type]

    def _pass(self, seat: int) -> None:
        n = self.players
        phase = self.phase
        if phase is ALONE_PHASE:
            self.alone_queue.pop(0)
            self._advance_alone()
        elif phase is GIVE_PHASE:
            self.give_queue.pop(0)
            self._advance_give()
        else:
            self.bid_count += 1
            if self.bid_count < n:
                self.turn = (seat + 1) % n
            elif phase is BID1:
                self.phase = BID2
                self.turned_down = self.upcard >> 3
                self.bid_count = 0
                self.turn = (self.dealer + 1) % n
            else:
                self.current.result = "passed"
                self._finish_deal((self.dealer + 1) % n)

    def _make_trump(self, seat: int, suit: int, alone: bool) -> None:
        self.trump = suit
        self.eff = self.ranking.suit[suit]
        self.maker = seat
        self.makers = seat % 2
        self.current.trump = suit
        self.current.maker = seat
        if alone:
            self._go_alone(seat)

    def _go_alone(self, seat: int) -> None:
        self.alone.append(seat)
        self.current.alone.append(seat)
        for p in self.partners(seat):
            self.out[p] = True

    def _order_up(self, seat: int, alone: bool | None) -> None:
        if self._forced_alone(seat):
            alone = True
        self._make_trump(seat, self.upcard >> 3, bool(alone))
        if self.out[self.dealer]:
            self._after_bidding()
        else:
            self._pick_up()

    def _pick_up(self) -> None:
        self.hands[self.dealer].append(self.upcard)
        self.upcard_taken = True
        self.phase = DISCARD_PHASE
        self.discard_kind = _PICKUP
        self.turn = self.dealer

    def _call(self, seat: int, suit: int, alone: bool) -> None:
        self._make_trump(seat, suit, alone)
        if self.benny_call:
            self._pick_up()
        else:
            self._after_bidding()

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.kitty.append(card)
        if self.discard_kind == _PICKUP:
            self._after_bidding()
        else:
            self.give_queue.pop(0)
            self._advance_give()

    def _swap(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        hand += self.kitty[:3]
        self.kitty[:3] = cards
        self.swapped[seat] = True

    def _after_bidding(self) -> None:
        self.alone_stage = 0
        self.alone_queue = []
        if self.rules.alone_declaration == "after_trump" and not self._maker_side_alone():
            self.alone_queue = [self.maker, *self.partners(self.maker)]
        self._advance_alone()

    def _maker_side_alone(self) -> bool:
        return any(s % 2 == self.makers for s in self.alone)

    def _advance_alone(self) -> None:
        while not self.alone_queue:
            if self.alone_stage != 0:
                self._begin_give()
                return
            self.alone_stage = 1
            mode = self.rules.defend_alone
            lone_maker = self._maker_side_alone()
            if mode == "always" or (mode == "vs_lone_maker" and lone_maker):
                start = next((s for s in self.alone if s % 2 == self.makers), self.maker)
                self.alone_queue = [(start + k) % self.players for k in range(1, self.players, 2)]
        self.phase = ALONE_PHASE
        self.turn = self.alone_queue[0]

    def _alone(self, seat: int) -> None:
        self.alone_queue.pop(0)
        self._go_alone(seat)
        self.alone_queue = []
        if seat % 2 != self.makers:
            self.alone_stage = 1
        self._advance_alone()

    def _begin_give(self) -> None:
        if self.players > 4 or self.rules.partners_best:
            self.give_queue = sorted(self.alone, key=lambda s: s % 2 != self.makers)
        self._advance_give()

    def _advance_give(self) -> None:
        if not self.give_queue:
            self._begin_play()
            return
        loner = self.give_queue[0]
        self.phase = GIVE_PHASE
        if self.players > 4:
            self.give_step = _ASK
            self.turn = loner
        else:
            self.give_step = _GIVE
            self.receiver = loner
            self.turn = (loner + 2) % 4

    def _give(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.hands[self.receiver].append(card)
        self.phase = DISCARD_PHASE
        self.discard_kind = _GIVEN
        self.turn = self.receiver

    def _begin_play(self) -> None:
        n = self.players
        out = self.out
        self.next_seat = []
        for s in range(n):
            t = (s + 1) % n
            while out[t]:
                t = (t + 1) % n
            self.next_seat.append(t)
        self.active = n - sum(out)
        self.phase = PLAY_PHASE
        self.turn = self._first_leader()

    def _first_leader(self) -> int:
        if self.alone and self.rules.lone_lead == "left_of_loner":
            if len(self.alone) > 1:
                return next(s for s in self.alone if s % 2 != self.makers)
            return self._active_from(self.alone[0] + 1)
        return self._active_from(self.dealer + 1)

    def _active_from(self, seat: int) -> int:
        n = self.players
        seat %= n
        while self.out[seat]:
            seat = (seat + 1) % n
        return seat

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        cards = self.trick_cards
        cards.append(card)
        self.trick_seats.append(seat)
        if len(cards) == 1:
            self.led = self.eff[card]
        if len(cards) == self.active:
            self._end_trick()
        else:
            self.turn = self.next_seat[seat]

    def _end_trick(self) -> None:
        cards = self.trick_cards
        seats = self.trick_seats
        trump = self.trump
        winner = seats[trick_winner_index(cards, trump, self.ranking)]
        self.tricks_won[winner & 1] += 1
        if not self.trump_broken:
            eff = self.ranking.suit[trump]
            self.trump_broken = any(eff[c] == trump for c in cards)
        self.tricks.append((tuple(seats), tuple(cards), winner))
        self.trick_seats = []
        self.trick_cards = []
        self.trick_no += 1
        if self.trick_no < self.hand_size:
            self.turn = winner
            return
        makers = self.makers
        maker_alone = any(s & 1 == makers for s in self.alone)
        defender_alone = len(self.alone) > int(maker_alone)
        outcome, to_makers, to_defenders = score_deal(
            self.rules, self.tricks_won[makers], maker_alone, defender_alone
        )
        points = self.current.points
        points[makers] = to_makers
        points[1 - makers] = to_defenders
        self.score[0] += points[0]
        self.score[1] += points[1]
        self.current.result = outcome
        self._finish_deal((self.dealer + 1) % self.players)

    # ------------------------------------------------------------------ checking

    def _check(self, seat: int, action: Action) -> None:
        phase = self.phase
        verb = _VERB_WORDS[action.do]
        if phase is None:
            raise RuleError("wrong_phase", f"You can't {verb} now: the game is over.")
        if seat != self.turn:
            raise RuleError("not_your_turn", "It's not your turn.")
        if action.do not in _PHASE_VERBS[phase] or not self._verb_fits_step(action):
            raise RuleError("wrong_phase", f"You can't {verb} now: {_PHASE_WORDS[phase]}.")
        hand = self.hands[seat]
        held = [action.card] if action.card is not None else list(action.cards or ())
        spare = list(hand)
        for c in held:
            if c not in spare:
                raise RuleError("card_not_in_hand", f"You don't hold {card_words(c)}.")
            spare.remove(c)
        check = getattr(self, f"_check_{action.do}")
        check(seat, action)

    def _verb_fits_step(self, action: Action) -> bool:
        if self.phase is not GIVE_PHASE:
            return True
        if self.give_step == _ASK:
            return action.do in ("ask", "pass")
        return action.do == "give"

    def _check_pass(self, seat: int, action: Action) -> None:
        if self.phase is BID2 and self.benny_call:
            raise RuleError(
                "cannot_pass", "The Benny was turned up: as dealer you must name trump."
            )
        if self.phase is BID2 and self.rules.stick_the_dealer and seat == self.dealer:
            raise RuleError(
                "cannot_pass", "Stick the dealer: everyone passed, so you must name trump."
            )
        if self.phase is GIVE_PHASE and self.rules.partners_best:
            raise RuleError("not_allowed", "Partner's best: you must ask a partner for a card.")

    def _check_order_up(self, seat: int, action: Action) -> None:
        suit = Suit(self.upcard >> 3)
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
        if suit == self.turned_down:
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
        if action.partner not in self.partners(seat):
            raise RuleError("not_allowed", "Ask one of your partners for a card.")

    def _check_redeal(self, seat: int, action: Action) -> None:
        if not self.rules.ace_no_face:
            raise RuleError("not_allowed", "Ace-no-face is not played at this table.")
        if not self.ace_no_face(self.hands[seat]):
            raise RuleError(
                "not_allowed",
                "Only a hand with no face card and at most one ace may be thrown in.",
            )

    def _check_swap(self, seat: int, action: Action) -> None:
        if self.rules.farmers_hand == "off":
            raise RuleError("not_allowed", "Farmer's hand is not played at this table.")
        if self.swapped[seat]:
            raise RuleError("not_allowed", "You have already swapped with the kitty this deal.")
        cards = tuple(sorted(action.cards or ()))
        if cards not in self.farmer_swaps(self.hands[seat]):
            what = (
                "three nines or three tens"
                if self.rules.farmers_hand == "three_of_a_rank"
                else "three cards that are nines or tens"
            )
            raise RuleError("not_allowed", f"A farmer's hand swaps exactly {what}.")

    def _check_play(self, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        hand = self.hands[seat]
        trump = self.trump
        eff = self.ranking.suit[trump]
        if self.trick_cards:
            led = self.led
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
                if self.rules.no_trump_lead_first_trick and self.trick_no == 0
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
                f"a {Suit(self.trump).plural[:-1]} this hand, not a {led_name[:-1]}."
            )
        return f"You must follow {led_name}: you hold {card_words(holding[0])}."

    def _trump_word(self, c: int) -> str:
        if c >= JOKER:
            return "a joker" if self.rules.deck.startswith("almonte") else "the Benny"
        return top_rank_word(c, self.trump)


def _printed_suit(c: int) -> int:
    """The suit printed on a card; -1 for a joker that shows none."""
    if c < JOKER:
        return c >> 3
    return Suit.SPADES if c in (TWO_SPADES, THREE_SPADES, FOUR_SPADES) else -1
