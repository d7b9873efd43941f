"""The play of a deal's tricks, for every game: what may be played, the one check, a card played.

Functions over a ``State`` (state.py). The biddings begin the play
(``begin_play``); ``play_card`` reports when the deal's last trick is taken, and
scoring.py scores it. ``check_play`` is the only follow-suit check of the
engine, with the sentences that explain it (the left bower and the Bennies
follow trump, not their printed suit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .actions import PLAY, Action
from .cards import FOUR_SPADES, JOKER, SUIT_NAMES, THREE_SPADES, TWO_SPADES, Suit, card_words
from .errors import RefusedError, RulesError
from .ranking import best_card, top_rank_word
from .results import Trick
from .state import NOBODY, PLAY_PHASE, State

if TYPE_CHECKING:  # mypyc's native 64-bit integer; at run time a plain int
    from mypy_extensions import i64

__all__ = [
    "begin_play",
    "cards_once",
    "check_play",
    "legal_plays",
    "play_card",
    "play_order",
    "set_play_order",
    "take_card",
    "trick_seats",
]


def cards_once(s: State, seat: int) -> list[int]:
    """The seat's hand, each card once (a double pack's copies are one choice)."""
    hand = s.hands[seat]
    if not s.fixed.dupes:
        return hand
    once = []
    seen = 0  # a bit per card number (CARD_COUNT < 63: one machine word)
    for c in hand:
        bit = 1 << c
        if not seen & bit:
            seen |= bit
            once.append(c)
    return once


def take_card(hand: list[int], card: int) -> None:
    """Take ``card`` out of ``hand``: its first copy, the others keeping their order.

    Compiled, ``list.remove`` is a method looked up and called, and ``pop(i)``
    cuts a slice; moving the later cards down one and dropping the last is cheaper.
    """
    i: i64 = 0
    for c in hand:  # compiled, a for over the list reads it without a bounds check
        if c == card:
            break
        i += 1
    else:
        raise RulesError(f"the hand does not hold {card_words(card)}")
    moved: list[Any] = hand  # Any: the cards are only moved, never unboxed
    last: i64 = len(moved) - 1
    while i < last:
        moved[i] = moved[i + 1]
        i += 1
    moved.pop()


def legal_plays(s: State, seat: int) -> list[Action]:
    """The cards ``seat`` may play now: its led suit's if it holds any, else any."""
    hand = cards_once(s, seat) if s.fixed.dupes else s.hands[seat]
    if s.trick_cards:
        eff = s.eff
        led = s.led
        for c in hand:
            if eff[c] == led:  # holds the suit led: only those
                return [PLAY[c] for c in hand if eff[c] == led]
    elif s.fixed.lead_rules and trump_lead_barred(s):
        eff = s.eff
        trump = s.trump
        side = [PLAY[c] for c in hand if eff[c] != trump]
        if side:
            return side
    return [PLAY[c] for c in hand]


def trump_lead_barred(s: State) -> bool:
    """Whether the lead rules (euchre's) bar leading trump now, where the leader holds another."""
    fixed = s.fixed
    return (fixed.first_trick_rule and s.trick_no == 0) or (
        fixed.broken_rule and not s.trump_broken
    )


def check_play(s: State, seat: int, card: int) -> None:
    """RefusedError where ``seat`` (to act, holding ``card``) may not play it now."""
    hand = s.hands[seat]
    eff = s.eff
    trump = s.trump
    if s.trick_cards:
        led = s.led
        if eff[card] == led:
            return
        holding = [c for c in hand if eff[c] == led]
        if holding:
            raise RefusedError("must_follow_suit", _follow_message(s, card, holding, led))
        return
    barred = s.fixed.lead_rules and eff[card] == trump and trump_lead_barred(s)
    if barred and any(eff[c] != trump for c in hand):
        why = (
            "trump may not lead the first trick"
            if s.fixed.first_trick_rule and s.trick_no == 0
            else "trump has not been broken yet"
        )
        raise RefusedError("not_allowed", f"You can't lead trump now: {why}.")


def _follow_message(s: State, card: int, holding: list[int], led: int) -> str:
    """Why ``card`` does not follow ``led`` while the hand holds ``holding`` of it."""
    led_name = SUIT_NAMES[led]
    if _printed_suit(card) == led:  # a card that shows the suit led but follows trump
        return (
            f"You must follow {led_name}: {card_words(card)} is {_top_word(s, card)}, "
            f"a {SUIT_NAMES[s.trump][:-1]} this hand, not a {led_name[:-1]}."
        )
    plain = [c for c in holding if _printed_suit(c) == led]
    if plain:
        return f"You must follow {led_name}: you hold {card_words(plain[0])}."
    return (
        f"You must follow {led_name}: {card_words(holding[0])} is a "
        f"{led_name[:-1]} this hand ({_top_word(s, holding[0])})."
    )


def _top_word(s: State, c: int) -> str:
    """What makes a card follow trump: "the left bower", "the Benny" or "a joker"."""
    if c >= JOKER:
        return s.fixed.jokers_word
    return top_rank_word(c, s.trump)


def _printed_suit(c: int) -> int:
    """The suit printed on a card; -1 for a joker that shows none."""
    if c < JOKER:
        return c >> 3
    return Suit.SPADES if c in (TWO_SPADES, THREE_SPADES, FOUR_SPADES) else -1


def begin_play(s: State, leader: int) -> None:
    """The bidding is over: the play begins, ``leader`` to lead (a seat in the play)."""
    set_play_order(s)
    s.phase = PLAY_PHASE
    s.turn = leader


def set_play_order(s: State) -> None:
    """The seats in the play: who plays after each seat, each leader's trick, how many play."""
    out = s.out
    fixed = s.fixed
    if out is fixed.nobody_out:  # nobody alone: every seat plays, the common case
        s.next_seat = fixed.everyone_order
        s.trick_rows = fixed.trick_rows
        s.active = fixed.players
        return
    found = _PLAY_ORDER.get(out)
    if found is None:
        order = play_order(out)
        found = _PLAY_ORDER[out] = (order, _trick_rows(order, out))
    s.next_seat, s.trick_rows = found
    s.active = len(out) - sum(out)


def play_card(s: State, seat: int, card: int) -> bool:
    """``seat`` (to act) plays ``card``; True when that took the deal's last trick."""
    take_card(s.hands[seat], card)
    cards = s.trick_cards
    cards.append(card)
    played = len(cards)
    if played == 1:
        s.led = s.eff[card]
        s.trick_leader = seat
    if played != s.active:
        s.turn = s.next_seat[seat]
        return False
    return _end_trick(s)


def trick_seats(s: State) -> tuple[int, ...]:
    """The seats that played to the trick in play, in play order: its leader's, then on."""
    played = len(s.trick_cards)
    if not played:
        return ()
    row = s.trick_rows[s.trick_leader]
    return row if played == len(row) else row[:played]


def _end_trick(s: State) -> bool:
    cards = s.trick_cards
    seats = s.trick_rows[s.trick_leader]  # a whole trick: its leader's whole row
    best = best_card(cards, s.power[s.led], s.fixed.later_equal_wins)
    winner = seats[best]
    won = s.tricks_won
    team = winner & 1
    won[team] = won[team] + 1
    fixed = s.fixed
    if fixed.lead_rules and not s.trump_broken:
        eff = s.eff
        trump = s.trump
        s.trump_broken = any(eff[c] == trump for c in cards)
    done = Trick(seats, tuple(cards), winner)
    s.tricks.append(done)
    s.last_trick = done
    cards.clear()
    s.trick_leader = NOBODY
    s.trick_no += 1
    if s.trick_no < fixed.hand_size:
        s.turn = winner
        return False
    return True


_Order = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
"""Who plays after each seat, and each seat's trick row (``set_play_order``)."""
_PLAY_ORDER: Final[dict[tuple[bool, ...], _Order]] = {}
"""Per set of seats sitting out: the next seat after each seat, and each seat's trick row."""


def play_order(out: Sequence[bool]) -> tuple[int, ...]:
    """Who plays after each seat, skipping the seats that sit out (``out``)."""
    n = len(out)
    order = []
    for s in range(n):
        t = (s + 1) % n
        while out[t]:
            t = (t + 1) % n
        order.append(t)
    return tuple(order)


def _trick_rows(order: tuple[int, ...], out: Sequence[bool]) -> tuple[tuple[int, ...], ...]:
    """Per seat, the seats of a whole trick it leads (``order``: ``play_order(out)``)."""
    active = len(out) - sum(out)
    rows = []
    for leader in range(len(out)):
        row = [leader]
        for _ in range(active - 1):
            row.append(order[row[-1]])
        rows.append(tuple(row))
    return tuple(rows)
