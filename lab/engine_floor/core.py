"""The least a rules engine can cost per deal here: north_american euchre on machine words.

An experiment, never imported by the bot: how fast could the rules core be if
its state were nothing but machine integers? ``FloorGame`` plays the
north_american preset (bid1, the dealer's discard, bid2, a throw-in when all
pass twice, going alone, the play, euchre's points, a game to 10) with the
same seeded deals as ``bot.rules`` (the keyed BLAKE2b and the Fisher-Yates
shuffle of ``bot.rules.dealing``), and it keeps a log as the engine does. It
holds hands as bit masks of card numbers and the trick in a few integers, and
reads ``legal()`` off a mask's bits: so its legal actions come in card order,
not in the order the cards were dealt, and it keeps no ``Trick``,
``DealResult`` or undo stack. ``DealOnlyGame`` keeps nothing but the deal.

Compiled by mypyc (``python -m lab.engine_floor`` builds it), it is the floor
the bench's loop can meet: everything the rules core does beyond this is what
its design costs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, final

from bot.rules.dealing import deal_key, shuffle_for
from bot.rules.house_rules import HouseRules, deck_cards
from bot.rules.ranking import build_ranking

if TYPE_CHECKING:  # mypyc's native 64-bit integer; at run time a plain int
    from mypy_extensions import i64

PASS_KIND: Final[i64] = 0
ORDER_KIND: Final[i64] = 1
DISCARD_KIND: Final[i64] = 2
CALL_KIND: Final[i64] = 3
PLAY_KIND: Final[i64] = 4
"""What an ``Act`` does (``Act.kind``): the verbs north_american needs."""

BID1: Final[i64] = 0
DISCARD_PHASE: Final[i64] = 1
BID2: Final[i64] = 2
PLAY_PHASE: Final[i64] = 3
OVER: Final[i64] = 4
"""Where a deal stands (``FloorGame.phase``): ``OVER`` once the game is."""


@final
class Act:
    """An action: its kind, and its card or suit and whether it goes alone."""

    def __init__(self, kind: i64, card: i64 = -1, suit: i64 = -1, alone: bool = False) -> None:
        self.kind = kind
        self.card = card
        self.suit = suit
        self.alone = alone
        # the log's (seat, action) of each seat, made once as the engine's are
        self.entries: tuple[tuple[int, Act], ...] = tuple([(seat, self) for seat in range(4)])


PASS: Final = Act(PASS_KIND)
ORDER_UP: Final = Act(ORDER_KIND)
ORDER_UP_ALONE: Final = Act(ORDER_KIND, alone=True)
PLAYS: Final = tuple([Act(PLAY_KIND, card=c) for c in range(32)])
DISCARDS: Final = tuple([Act(DISCARD_KIND, card=c) for c in range(32)])
BID1_ACTIONS: Final = (PASS, ORDER_UP, ORDER_UP_ALONE)


def _bid2_actions(down: int) -> tuple[Act, ...]:
    suits = [s for s in range(4) if s != down]
    calls = [Act(CALL_KIND, suit=s) for s in suits]
    return (PASS, *calls, *[Act(CALL_KIND, suit=s, alone=True) for s in suits])


BID2_ACTIONS: Final = tuple([_bid2_actions(s) for s in range(4)])


@final
class Tables:
    """What the play looks up, per trump: each card's bit, suit followed and power."""

    def __init__(self) -> None:
        rules = HouseRules.preset_rules("north_american")
        ranking = build_ranking(rules)
        self.pack = deck_cards(rules)
        # follow[trump * 4 + suit]: the cards that follow ``suit`` under ``trump``
        follow = [0] * 16
        for t in range(4):
            for c in self.pack:
                follow[t * 4 + ranking.suit[t][c]] |= 1 << c
        self.follow: list[i64] = follow
        # eff[trump * 32 + card], power[(trump * 4 + led) * 32 + card]
        self.eff: list[i64] = [ranking.suit[t][c] for t in range(4) for c in range(32)]
        self.power: list[i64] = [
            ranking.power[t][led][c] for t in range(4) for led in range(4) for c in range(32)
        ]
        self.shuffle = shuffle_for(len(self.pack))
        # compiled, ``1 << card`` on an i64 is emitted as a shift of a 32-bit C int
        self.bits: list[i64] = [1 << c for c in range(32)]
        # the card of a mask's lowest bit, by that bit modulo 37 (every 1 << c, c < 32, differs)
        low_card = [0] * 37
        for c in range(32):
            low_card[(1 << c) % 37] = c
        self.low_card: list[i64] = low_card

    def actions(self, mask: i64, of: tuple[Act, ...]) -> list[Act]:
        """``of``'s action for each card of ``mask``, in card order."""
        out: list[Act] = []
        low_card = self.low_card
        while mask:
            low = mask & -mask
            out.append(of[low_card[low % 37]])
            mask ^= low
        return out


TABLES: Final = Tables()
_BLAKE2B: Final = hashlib.blake2b
_COPY: Final = hashlib.blake2b.copy
_UPDATE: Final = hashlib.blake2b.update
_DIGEST: Final = hashlib.blake2b.digest
_FROM_BYTES: Final = int.from_bytes


def shuffled(hashed: Any, number: i64) -> list[Any]:
    """The pack as deal ``number`` (0-based) deals it, ``hashed`` a BLAKE2b of the game's key.

    The same cards as ``bot.rules.dealing.Dealer.shuffled``.
    """
    h = _COPY(hashed)
    _UPDATE(h, str(number).encode())
    out: list[Any] = list(TABLES.pack)
    TABLES.shuffle.apply(out, _FROM_BYTES(_DIGEST(h)))
    return out


@final
class FloorGame:
    """One game of north_american euchre from a seed (see the module's docstring)."""

    def __init__(self, seed: int, dealer: int) -> None:
        self.tables = TABLES
        self.hashed: Any = _BLAKE2B(deal_key(seed))
        self.log: list[tuple[int, Act]] = []
        self.deal_number: i64 = 0
        self.dealer: i64 = dealer
        self.score0: i64 = 0
        self.score1: i64 = 0
        self.over = False
        self.hand0: i64 = 0
        self.hand1: i64 = 0
        self.hand2: i64 = 0
        self.hand3: i64 = 0
        self.upcard: i64 = 0
        self.phase: i64 = BID1
        self.turn: i64 = 0
        self.passes: i64 = 0
        self.trump: i64 = -1
        self.maker: i64 = -1
        self.out: i64 = -1
        self.led: i64 = -1
        self.played: i64 = 0
        self.best_power: i64 = -1
        self.best_seat: i64 = -1
        self.tricks_no: i64 = 0
        self.won0: i64 = 0
        self.won1: i64 = 0
        self._deal()

    def _deal(self) -> None:
        out = shuffled(self.hashed, self.deal_number)
        self.deal_number += 1
        bits = self.tables.bits
        hands: list[i64] = [0, 0, 0, 0]
        for seat in range(4):
            mask: i64 = 0
            for i in range(seat * 5, seat * 5 + 5):
                c: i64 = out[i]
                mask |= bits[c]
            hands[seat] = mask
        self.hand0, self.hand1, self.hand2, self.hand3 = hands[0], hands[1], hands[2], hands[3]
        self.upcard = out[20]
        self.phase = BID1
        self.turn = (self.dealer + 1) & 3
        self.passes = 0
        self.trump = self.maker = self.out = self.led = -1
        self.played = self.tricks_no = self.won0 = self.won1 = 0

    def hand(self, seat: i64) -> i64:
        """A seat's cards as a mask."""
        if seat == 0:
            return self.hand0
        if seat == 1:
            return self.hand1
        if seat == 2:
            return self.hand2
        return self.hand3

    def _set_hand(self, seat: i64, mask: i64) -> None:
        if seat == 0:
            self.hand0 = mask
        elif seat == 1:
            self.hand1 = mask
        elif seat == 2:
            self.hand2 = mask
        else:
            self.hand3 = mask

    def legal(self) -> Sequence[Act]:
        """Every action the seat to act may take; empty once the game is over."""
        phase = self.phase
        if phase == PLAY_PHASE:
            mask = self.hand(self.turn)
            if self.played:
                follow = mask & self.tables.follow[self.trump * 4 + self.led]
                if follow:
                    mask = follow
            return self.tables.actions(mask, PLAYS)
        if phase == BID1:
            return BID1_ACTIONS
        if phase == BID2:
            return BID2_ACTIONS[self.upcard >> 3]
        if phase == DISCARD_PHASE:
            return self.tables.actions(self.hand(self.turn), DISCARDS)
        return ()

    def step(self, action: Act) -> None:
        """Apply one of ``legal()``'s actions."""
        seat = self.turn
        self.log.append(action.entries[seat])
        kind = action.kind
        if kind == PLAY_KIND:
            self._play(seat, action.card)
        elif kind == PASS_KIND:
            self.passes += 1
            if self.passes < 4:
                self.turn = (seat + 1) & 3
            elif self.phase == BID1:
                self.phase = BID2
                self.passes = 0
                self.turn = (self.dealer + 1) & 3
            else:  # thrown in
                self.dealer = (self.dealer + 1) & 3
                self._deal()
        elif kind == ORDER_KIND:
            self._make(seat, self.upcard >> 3, action.alone)
            dealer = self.dealer
            if dealer == self.out:  # a loner's partner deals: the upcard stays down
                self._begin_play()
                return
            self._set_hand(dealer, self.hand(dealer) | self.tables.bits[self.upcard])
            self.phase = DISCARD_PHASE
            self.turn = dealer
        elif kind == DISCARD_KIND:
            self._set_hand(seat, self.hand(seat) & ~self.tables.bits[action.card])
            self._begin_play()
        else:
            self._make(seat, action.suit, action.alone)
            self._begin_play()

    def _make(self, seat: i64, trump: i64, alone: bool) -> None:
        self.trump = trump
        self.maker = seat
        self.out = (seat + 2) & 3 if alone else -1

    def _begin_play(self) -> None:
        self.phase = PLAY_PHASE
        lead = (self.dealer + 1) & 3
        self.turn = (lead + 1) & 3 if lead == self.out else lead

    def _play(self, seat: i64, card: i64) -> None:
        self._set_hand(seat, self.hand(seat) & ~self.tables.bits[card])
        tables = self.tables
        trump = self.trump
        if not self.played:
            self.led = tables.eff[trump * 32 + card]
        power = tables.power[(trump * 4 + self.led) * 32 + card]
        if power > self.best_power:
            self.best_power = power
            self.best_seat = seat
        self.played += 1
        if self.played < (4 if self.out < 0 else 3):
            nxt = (seat + 1) & 3
            self.turn = (nxt + 1) & 3 if nxt == self.out else nxt
            return
        winner = self.best_seat
        if winner & 1:
            self.won1 += 1
        else:
            self.won0 += 1
        self.played = 0
        self.best_power = -1
        self.tricks_no += 1
        self.turn = winner
        if self.tricks_no == 5:
            self._score()

    def _score(self) -> None:
        makers = self.maker & 1
        made = self.won1 if makers else self.won0
        alone = self.out >= 0
        if made == 5:
            points, to = (4 if alone else 2), makers
        elif made >= 3:
            points, to = 1, makers
        else:
            points, to = 2, 1 - makers
        if to:
            self.score1 += points
        else:
            self.score0 += points
        if self.score0 >= 10 or self.score1 >= 10:
            self.over = True
            self.phase = OVER
            return
        self.dealer = (self.dealer + 1) & 3
        self._deal()


def new_floor_game(seed: int, dealer: int = 0) -> FloorGame:
    """A game seeded as ``bot.rules.new_game(rules, seed=seed, dealer=dealer)`` deals it."""
    return FloorGame(seed, dealer)


@final
class DealOnlyGame:
    """No rules at all: it deals as ``FloorGame`` does, then takes any 20 actions a deal.

    The ceiling of the bench's loop: what is left of a deal's cost is the loop,
    the two calls an action and the seeded deal. A game runs 8 or 10 deals, 9.4 on
    average, as random north_american games do.
    """

    def __init__(self, seed: int) -> None:
        self.hashed: Any = _BLAKE2B(deal_key(seed))
        self.log: list[tuple[int, Act]] = []
        self.deal_number: i64 = 0
        self.left: i64 = 0
        self.deals: i64 = 10 if seed % 10 < 7 else 8  # 9.4 deals a game on average
        self.actions: list[Act] = [PLAYS[2], PLAYS[3], PLAYS[4]]
        self.hand: i64 = 0
        self._deal()

    def _deal(self) -> None:
        out = shuffled(self.hashed, self.deal_number)
        self.deal_number += 1
        self.hand = TABLES.bits[out[0]]
        self.left = 20

    def legal(self) -> Sequence[Act]:
        """Three actions until the game's deals are done, then none."""
        return self.actions[:] if self.left else []

    def step(self, action: Act) -> None:
        """Log the action; a deal's 20th deals the next, or ends the game."""
        self.log.append(action.entries[0])
        self.left -= 1
        if not self.left and self.deal_number < self.deals:
            self._deal()
