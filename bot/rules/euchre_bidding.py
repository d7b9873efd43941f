"""Euchre's bidding: ordering up and naming trump, the dealer's discard, loners and their gifts.

The phases before the play of record-format.md: ``bid1`` (ordering up; also
ace-no-face and farmer's hand), ``discard``, ``bid2`` (naming a suit),
``alone`` and ``give`` (partner's best, or the six-handed loner's ask).
Functions over the ``State`` (state.py): ``start`` a deal's bidding, its
``legal`` actions, ``act`` on one (euchre_checks.py holds the rules that
refuse one). An act returns None, or how the deal ended unplayed (``passed``,
``redeal``): deals.py then deals the next.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    REDEAL,
    Action,
)
from .bidding import go_alone, make_trump
from .euchre_checks import (
    ASK_STEP,
    GIVE_STEP,
    ace_no_face,
    farmer_swaps,
    forced_alone,
    holds_upcard_suit,
    must_hold_suit,
)
from .play import begin_play, cards_once, take_card
from .results import DealOutcome
from .state import ALONE_PHASE, BID1, BID2, DISCARD_PHASE, GIVE_PHASE, State

_PICKUP: Final = 0
_GIVEN: Final = 1


def start(s: State) -> None:
    """A new deal: the dealer's left bids first (a turned Benny: the dealer names trump)."""
    if s.benny_call:
        s.phase = BID2
        s.turn = s.dealer
    else:
        s.phase = BID1
        s.turn = (s.dealer + 1) % s.fixed.players


def legal(s: State, seat: int) -> Sequence[Action]:
    """The actions ``seat`` (to act) may take in a phase before the play."""
    phase = s.phase
    if phase is BID1:
        return _legal_bid1(s, seat)
    if phase is BID2:
        return _legal_bid2(s, seat)
    if phase is DISCARD_PHASE:
        return [DISCARD[c] for c in cards_once(s, seat)]
    if phase is ALONE_PHASE:
        return (PASS, ALONE)
    if s.give_step == ASK_STEP:
        return list(s.fixed.asks[seat])
    return [GIVE[c] for c in cards_once(s, seat)]


_ONLY_PASS: Final = (PASS,)
_PASS_OR_ALONE: Final = (PASS, ORDER_UP_ALONE)
_ORDER_UP_CHOICES: Final = (PASS, ORDER_UP, ORDER_UP_ALONE)


def _calls(turned_down: int, stuck: bool) -> tuple[Action, ...]:
    acts = [] if stuck else [PASS]
    for suit in range(4):
        if suit != turned_down:
            acts.append(CALL[suit])
            acts.append(CALL_ALONE[suit])
    return tuple(acts)


_CALLS: Final = tuple([(_calls(down, False), _calls(down, True)) for down in range(-1, 8)])
"""The second round's choices, made once, by the turned-down suit (-1 for none) and then stuck.

Indexed by ``turned_down + 1``, up to the highest ``upcard >> 3`` a pack can give.
"""


def _legal_bid1(s: State, seat: int) -> Sequence[Action]:
    if must_hold_suit(s, seat) and not holds_upcard_suit(s, seat):
        acts: tuple[Action, ...] = _ONLY_PASS
    elif forced_alone(s, seat):
        acts = _PASS_OR_ALONE
    else:
        acts = _ORDER_UP_CHOICES
    fixed = s.fixed
    redeal = fixed.ace_no_face and ace_no_face(s.hands[seat])
    swaps = fixed.farmers != "off" and not s.swapped >> seat & 1
    if not redeal and not swaps:  # the common case: a tuple made once, no list
        return acts
    more = list(acts)
    if redeal:
        more.append(REDEAL)
    if swaps:
        more += [Action("swap", cards=combo) for combo in farmer_swaps(s, s.hands[seat])]
    return more


def _legal_bid2(s: State, seat: int) -> Sequence[Action]:
    stuck = s.benny_call or (s.fixed.stick and seat == s.dealer)
    return _CALLS[s.turned_down + 1][1 if stuck else 0]


# ---------------------------------------------------------------- acting


def act(s: State, seat: int, action: Action) -> DealOutcome | None:
    """Apply an action of any verb but ``play``, already logged; how the deal ended, if it did.

    ``passed``: everyone passed twice (the next dealer deals); ``redeal``: ace-no-face
    threw the hands in (the same dealer deals again).
    """
    # Each verb's fields are set (record-format.md): the asserts only tell mypy so.
    do = action.do
    card = action.card
    if do == "pass":
        return _pass(s, seat)
    if do == "order_up":
        _order_up(s, seat, action.alone)
    elif do == "call":
        assert action.suit is not None
        _call(s, seat, action.suit, bool(action.alone))
    elif do == "discard":
        assert card is not None
        _mask_last(s)
        _discard(s, seat, card)
    elif do == "alone":
        _declare_alone(s, seat)
    elif do == "give":
        assert card is not None
        _mask_last(s)
        _give(s, seat, card)
    elif do == "ask":
        assert action.partner is not None
        _mask_last(s)
        s.give_step = GIVE_STEP
        s.receiver = seat
        s.turn = action.partner
    elif do == "redeal":
        return "redeal"
    elif do == "swap":
        assert action.cards is not None
        _mask_last(s)
        _swap(s, seat, action.cards)
    return None


def _mask_last(s: State) -> None:
    """The action just logged holds a card some seats may not see (or is an ask)."""
    # concatenated, not (*masked_at, i): compiled, that would build a list first
    s.masked_at += (len(s.log) - 1,)


def _pass(s: State, seat: int) -> DealOutcome | None:
    n = s.fixed.players
    phase = s.phase
    if phase is ALONE_PHASE:
        s.alone_queue = s.alone_queue[1:]
        _advance_alone(s)
    elif phase is GIVE_PHASE:
        s.give_queue = s.give_queue[1:]
        _advance_give(s)
    else:
        s.passes += 1
        if s.passes < n:
            s.turn = (seat + 1) % n
        elif phase is BID1:
            s.phase = BID2
            s.turned_down = s.upcard >> 3
            s.passes = 0
            s.turn = (s.dealer + 1) % n
        else:
            return "passed"
    return None


def _order_up(s: State, seat: int, alone: bool | None) -> None:
    if forced_alone(s, seat):
        alone = True
    make_trump(s, seat, s.upcard >> 3)
    if alone:
        go_alone(s, seat)
    if s.out[s.dealer]:
        _after_bidding(s)
    else:
        _pick_up(s)


def _pick_up(s: State) -> None:
    s.hands[s.dealer].append(s.upcard)
    s.upcard_taken = True
    s.phase = DISCARD_PHASE
    s.discard_kind = _PICKUP
    s.turn = s.dealer


def _call(s: State, seat: int, suit: int, alone: bool) -> None:
    make_trump(s, seat, suit)
    if alone:
        go_alone(s, seat)
    if s.benny_call:
        _pick_up(s)
    else:
        _after_bidding(s)


def _discard(s: State, seat: int, card: int) -> None:
    take_card(s.hands[seat], card)
    s.kitty.append(card)
    if s.discard_kind == _PICKUP:
        _after_bidding(s)
    else:
        s.give_queue = s.give_queue[1:]
        _advance_give(s)


def _swap(s: State, seat: int, cards: tuple[int, ...]) -> None:
    hand = s.hands[seat]
    for c in cards:
        take_card(hand, c)
    hand += s.kitty[:3]
    s.kitty[:3] = cards
    s.swapped |= 1 << seat


def _after_bidding(s: State) -> None:
    s.alone_stage = 0
    s.alone_queue = ()
    if s.fixed.after_trump and not _maker_side_alone(s):
        s.alone_queue = (s.maker, *s.fixed.partners[s.maker])
    _advance_alone(s)


def _maker_side_alone(s: State) -> bool:
    return any(seat % 2 == s.makers for seat in s.alone)


def _advance_alone(s: State) -> None:
    while not s.alone_queue:
        if s.alone_stage != 0:
            _begin_give(s)
            return
        s.alone_stage = 1
        mode = s.fixed.defend_alone
        if mode == "always" or (mode == "vs_lone_maker" and _maker_side_alone(s)):
            start = s.maker
            for seat in s.alone:
                if seat % 2 == s.makers:
                    start = seat
                    break
            n = s.fixed.players
            s.alone_queue = tuple([(start + k) % n for k in range(1, n, 2)])
    s.phase = ALONE_PHASE
    s.turn = s.alone_queue[0]


def _declare_alone(s: State, seat: int) -> None:
    go_alone(s, seat)
    s.alone_queue = ()
    if seat % 2 != s.makers:
        s.alone_stage = 1
    _advance_alone(s)


def _begin_give(s: State) -> None:
    if s.fixed.players > 4 or s.fixed.partners_best:
        makers = s.makers
        # the makers' loner first, then the defenders'
        first = [seat for seat in s.alone if seat % 2 == makers]
        s.give_queue = (*first, *[seat for seat in s.alone if seat % 2 != makers])
    _advance_give(s)


def _advance_give(s: State) -> None:
    if not s.give_queue:
        begin_play(s, _first_leader(s))
        return
    loner = s.give_queue[0]
    s.phase = GIVE_PHASE
    if s.fixed.players > 4:
        s.give_step = ASK_STEP
        s.turn = loner
    else:
        s.give_step = GIVE_STEP
        s.receiver = loner
        s.turn = (loner + 2) % 4


def _give(s: State, seat: int, card: int) -> None:
    take_card(s.hands[seat], card)
    s.hands[s.receiver].append(card)
    s.phase = DISCARD_PHASE
    s.discard_kind = _GIVEN
    s.turn = s.receiver


def _first_leader(s: State) -> int:
    if s.alone and s.fixed.left_of_loner:
        if len(s.alone) > 1:
            return next(seat for seat in s.alone if seat % 2 != s.makers)
        return _active_from(s, s.alone[0] + 1)
    return _active_from(s, s.dealer + 1)


def _active_from(s: State, seat: int) -> int:
    n = s.fixed.players
    seat %= n
    while s.out[seat]:
        seat = (seat + 1) % n
    return seat
