"""Euchre's bidding rules: who may order up, throw in or swap, and every refusal with its reason.

What euchre_bidding.py offers (``legal``) and what it refuses (``check``)
rest on the same rules, here: ordering up while holding the suit or going
alone as the dealer's partner, ace-no-face, farmer's hand, the turned-down
suit, stick the dealer, partner's best. Functions over the ``State``
(state.py); a card played is play.py's to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from .actions import Action
from .bidding import NO_VERBS, check_turn
from .cards import ACE, JACK, JOKER, KING, NINE, QUEEN, TEN, Suit
from .errors import RefusedError
from .state import (
    ALONE_PHASE,
    BID1,
    BID2,
    DISCARD_PHASE,
    GIVE_PHASE,
    PLAY_PHASE,
    Phase,
    State,
)

ASK_STEP: Final = 0
"""The give phase's first step: the loner asks a partner (six seats), or passes."""
GIVE_STEP: Final = 1
"""The give phase's second step: the partner gives a card."""

_PHASE_VERBS: Final[dict[Phase, frozenset[str]]] = {
    BID1: frozenset({"pass", "order_up", "redeal", "swap"}),
    DISCARD_PHASE: frozenset({"discard"}),
    BID2: frozenset({"pass", "call"}),
    ALONE_PHASE: frozenset({"pass", "alone"}),
    PLAY_PHASE: frozenset({"play"}),
}
_ASKING: Final = frozenset({"ask", "pass"})
_GIVING: Final = frozenset({"give"})
_PHASE_WORDS: Final[dict[Phase, str]] = {
    BID1: "the first round of bidding is on",
    DISCARD_PHASE: "the dealer is discarding",
    BID2: "the second round of bidding is on",
    ALONE_PHASE: "players are choosing whether to go alone",
    GIVE_PHASE: "a card is being passed to the lone player",
    PLAY_PHASE: "the cards are being played",
}
_FACES: Final = frozenset((JACK, QUEEN, KING))


def ace_no_face(hand: Sequence[int]) -> bool:
    """Whether a hand may be thrown in: no face card (nor Benny) and at most one ace."""
    aces = 0
    for c in hand:
        if c >= JOKER or c & 7 in _FACES:
            return False
        aces += c & 7 == ACE
    return aces <= 1


def farmer_swaps(s: State, hand: Sequence[int]) -> list[tuple[int, ...]]:
    """Every set of three cards this hand may swap with the kitty (none without farmer's hand)."""
    mode = s.fixed.farmers
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


def forced_alone(s: State, seat: int) -> bool:
    """Whether ``seat``, the dealer's partner, may only order up by going alone."""
    dealer = s.dealer
    return s.fixed.forced_alone and seat != dealer and (seat - dealer) % 2 == 0


def holds_upcard_suit(s: State, seat: int) -> bool:
    """Whether ``seat`` holds a card of the upcard's suit (the left bower not counted)."""
    suit = s.upcard >> 3
    return any(c < JOKER and c >> 3 == suit for c in s.hands[seat])


def must_hold_suit(s: State, seat: int) -> bool:
    """Whether ``seat`` may only order up holding the upcard's suit."""
    need = s.fixed.needs_suit
    return need == "everyone" or (need == "dealer" and seat == s.dealer)


def check(s: State, seat: int, action: Action) -> None:
    """RefusedError where euchre's rules refuse ``seat``'s action (play.py checks a card played)."""
    phase = s.phase
    if phase is GIVE_PHASE:
        verbs = _ASKING if s.give_step == ASK_STEP else _GIVING
    else:
        verbs = NO_VERBS if phase is None else _PHASE_VERBS.get(phase, NO_VERBS)
    check_turn(s, seat, action, verbs, _PHASE_WORDS)
    do = action.do
    if do == "pass":
        _check_pass(s, seat)
    elif do == "order_up":
        _check_order_up(s, seat, action)
    elif do == "call":
        suit = action.suit
        assert suit is not None
        if suit == s.turned_down:
            raise RefusedError(
                "suit_turned_down",
                f"{Suit(suit).plural.capitalize()} were turned down this deal: name another suit.",
            )
    elif do == "ask":
        if action.partner not in s.fixed.partners[seat]:
            raise RefusedError("not_allowed", "Ask one of your partners for a card.")
    elif do == "redeal":
        _check_redeal(s, seat)
    elif do == "swap":
        _check_swap(s, seat, action)


def _check_pass(s: State, seat: int) -> None:
    if s.phase is BID2 and s.benny_call:
        raise RefusedError("cannot_pass", "The Benny was turned up: as dealer you must name trump.")
    if s.phase is BID2 and s.fixed.stick and seat == s.dealer:
        raise RefusedError(
            "cannot_pass", "Stick the dealer: everyone passed, so you must name trump."
        )
    if s.phase is GIVE_PHASE and s.fixed.partners_best:
        raise RefusedError("not_allowed", "Partner's best: you must ask a partner for a card.")


def _check_order_up(s: State, seat: int, action: Action) -> None:
    suit = Suit(s.upcard >> 3)
    if must_hold_suit(s, seat) and not holds_upcard_suit(s, seat):
        raise RefusedError(
            "needs_suit",
            f"You can only order up {suit.plural} while holding one "
            "(the left bower does not count).",
        )
    if forced_alone(s, seat) and action.alone is False:
        raise RefusedError(
            "not_allowed",
            "As the dealer's partner you can only order up by going alone.",
        )


def _check_redeal(s: State, seat: int) -> None:
    if not s.fixed.ace_no_face:
        raise RefusedError("not_allowed", "Ace-no-face is not played at this table.")
    if not ace_no_face(s.hands[seat]):
        raise RefusedError(
            "not_allowed",
            "Only a hand with no face card and at most one ace may be thrown in.",
        )


def _check_swap(s: State, seat: int, action: Action) -> None:
    mode = s.fixed.farmers
    if mode == "off":
        raise RefusedError("not_allowed", "Farmer's hand is not played at this table.")
    if s.swapped >> seat & 1:
        raise RefusedError("not_allowed", "You have already swapped with the kitty this deal.")
    cards = tuple(sorted(action.cards or ()))
    if cards not in farmer_swaps(s, s.hands[seat]):
        what = (
            "three nines or three tens"
            if mode == "three_of_a_rank"
            else "three cards that are nines or tens"
        )
        raise RefusedError("not_allowed", f"A farmer's hand swaps exactly {what}.")
