"""Bid Euchre's bidding (rule source 003, record-format.md's "Bid Euchre").

One round of numeric bids from the dealer's left (the dealer may match the
highest bid; when everyone passes the dealer must bid the minimum); ``shoot``
outranks every number and ends the bidding. The winner declares a suit, No
Trump High or No Trump Low; a shooter's partners each give one card (the
shooter discarding one for each) and sit out; then every trick of the hand is
played (play.py) and scoring.py scores the contract. Functions over the
``State`` (state.py), as euchre's bidding is, with Bid Euchre's own queries
(``bid_range``, ``must_bid``).

    >>> from bot.rules import HouseRules, new_game
    >>> game = new_game(HouseRules.preset_rules("bid_euchre"), seed=7, dealer=0)
    >>> game.phase, game.turn, [str(a) for a in game.legal()]
    ('bid', 1, ['pass', 'bid.3', 'bid.4', 'bid.5', 'bid.6', 'shoot'])
    >>> bid_range(game.state, 1), must_bid(game.state, 1)
    ((3, 6), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import BID, DECLARE, DISCARD, GIVE, PASS, SHOOT, Action
from .bidding import NO_VERBS, check_turn, go_alone, make_trump
from .errors import RefusedError
from .play import begin_play, cards_once, set_play_order, take_card
from .results import Contract
from .state import (
    BID_PHASE,
    DECLARE_PHASE,
    DISCARD_PHASE,
    GIVE_PHASE,
    PLAY_PHASE,
    Phase,
    State,
)

_PHASE_VERBS: Final[dict[Phase, frozenset[str]]] = {
    BID_PHASE: frozenset({"pass", "bid", "shoot"}),
    DECLARE_PHASE: frozenset({"declare"}),
    GIVE_PHASE: frozenset({"give"}),
    DISCARD_PHASE: frozenset({"discard"}),
    PLAY_PHASE: frozenset({"play"}),
}
_PHASE_WORDS: Final[dict[Phase, str]] = {
    BID_PHASE: "the bidding is on",
    DECLARE_PHASE: "the winner of the bidding is naming trump",
    GIVE_PHASE: "a partner is passing a card to the shooter",
    DISCARD_PHASE: "the shooter is discarding",
    PLAY_PHASE: "the cards are being played",
}
_DECLARES: Final = tuple(DECLARE)


def start(s: State) -> None:
    """A new deal: nobody has bid, the dealer's left bids first."""
    s.phase = BID_PHASE
    s.turn = (s.dealer + 1) % s.fixed.players


# ---------------------------------------------------------------- queries


def bid_range(s: State, seat: int) -> tuple[int, int] | None:
    """The numbers ``seat`` may bid now (lowest, highest); None when it may bid no number."""
    fixed = s.fixed
    high = s.high
    hand_size = fixed.hand_size
    if high == 0:
        low = fixed.bid_minimum
        return (low, low) if seat == s.dealer else (low, hand_size)
    low = high if seat == s.dealer and fixed.dealer_may_match else high + 1
    return None if low > hand_size else (low, hand_size)


def must_bid(s: State, seat: int) -> bool:
    """Whether ``seat`` may not pass: the dealer when everyone else passed."""
    return seat == s.dealer and s.high == 0


def legal(s: State, seat: int) -> Sequence[Action]:
    """The bids, the declarations, or the cards to give or discard."""
    phase = s.phase
    if phase is BID_PHASE:
        acts = [] if must_bid(s, seat) else [PASS]
        span = bid_range(s, seat)
        if span is not None:
            acts += [BID[n] for n in range(span[0], span[1] + 1)]
        if s.fixed.shoot:
            acts.append(SHOOT)
        return acts
    if phase is DECLARE_PHASE:
        return _DECLARES
    table = GIVE if phase is GIVE_PHASE else DISCARD
    return [table[c] for c in cards_once(s, seat)]


# ---------------------------------------------------------------- checking


def check(s: State, seat: int, action: Action) -> None:
    """RefusedError where Bid Euchre's rules refuse ``seat``'s action (play.py checks a card)."""
    phase = s.phase
    verbs = NO_VERBS if phase is None else _PHASE_VERBS.get(phase, NO_VERBS)
    check_turn(s, seat, action, verbs, _PHASE_WORDS)
    do = action.do
    if do == "bid":
        _check_bid(s, seat, action.tricks)
    elif do == "pass" and must_bid(s, seat):
        raise RefusedError(
            "cannot_pass",
            f"Everyone passed: as dealer you must bid {s.fixed.bid_minimum} (or shoot).",
        )
    elif do == "shoot" and not s.fixed.shoot:
        raise RefusedError("not_allowed", "Shooting is not played at this table.")
    elif do == "declare" and action.trump is None:
        raise RefusedError("not_allowed", "Name a suit, No Trump High or No Trump Low.")


def _check_bid(s: State, seat: int, tricks: int | None) -> None:
    fixed = s.fixed
    low = fixed.bid_minimum
    size = fixed.hand_size
    if tricks is None:
        raise RefusedError("not_allowed", "Say how many tricks you bid.")
    if tricks > size:
        raise RefusedError("not_allowed", f"You can bid at most {size}: a hand has {size} tricks.")
    if tricks < low:
        raise RefusedError("bid_too_low", f"Bids start at {low} tricks.")
    if must_bid(s, seat) and tricks != low:
        raise RefusedError(
            "not_allowed", f"Everyone passed: as dealer you must bid exactly {low} (or shoot)."
        )
    high = s.high
    if high and seat == s.dealer and fixed.dealer_may_match:
        if tricks < high:
            raise RefusedError(
                "bid_too_low",
                f"The highest bid is {high}: as dealer you may match it, bid more or pass.",
            )
    elif tricks <= high:
        raise RefusedError("bid_too_low", f"The highest bid is {high}: bid more or pass.")


# ---------------------------------------------------------------- acting


def act(s: State, seat: int, action: Action) -> None:
    """Apply a bid, a pass, a shoot, a declaration, a gift or a discard (already logged)."""
    # Each verb's fields are set (record-format.md): the asserts only tell mypy so.
    do = action.do
    card = action.card
    if do == "bid":
        assert action.tricks is not None
        s.high = action.tricks
        s.contract = Contract(seat, action.tricks)
        _next_bidder(s, seat)
    elif do == "pass":
        _next_bidder(s, seat)
    elif do == "shoot":
        s.contract = Contract(seat, s.fixed.hand_size, shoot=True)
        go_alone(s, seat)
        _end_bidding(s, seat)
    elif do == "declare":
        assert action.trump is not None
        _declare(s, action.trump)
    elif do == "give":
        assert card is not None
        take_card(s.hands[seat], card)
        s.hands[s.maker].append(card)
        s.phase = DISCARD_PHASE
        s.turn = s.maker
    elif do == "discard":
        assert card is not None
        take_card(s.hands[seat], card)
        s.kitty.append(card)
        s.give_queue = s.give_queue[1:]
        _advance_give(s)


def _next_bidder(s: State, seat: int) -> None:
    if seat != s.dealer:
        s.turn = (seat + 1) % s.fixed.players
        return
    contract = s.contract
    assert contract is not None
    _end_bidding(s, contract.seat)


def _end_bidding(s: State, seat: int) -> None:
    s.maker = seat
    s.makers = seat % 2
    s.phase = DECLARE_PHASE
    s.turn = seat


def _declare(s: State, trump: int) -> None:
    make_trump(s, s.maker, trump)
    if s.alone and s.fixed.partners_best:
        s.give_queue = s.fixed.partners[s.maker]
    _advance_give(s)


def _advance_give(s: State) -> None:
    if s.give_queue:
        s.phase = GIVE_PHASE
        s.turn = s.give_queue[0]
        return
    if s.fixed.bidder_leads:
        begin_play(s, s.maker)
    else:
        set_play_order(s)
        lead = (s.dealer + 1) % s.fixed.players
        begin_play(s, lead if not s.out[lead] else s.next_seat[lead])
