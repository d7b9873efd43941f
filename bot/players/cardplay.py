"""Which card to play: leads and follows for the basic player.

Leading: the makers draw trump with a sure trump (or from length), then
cash side aces; defenders cash side aces and otherwise lead low from a
short side suit. Following: never overtake a partner who already has the
trick (the highest card left, or nobody after us can beat it); otherwise
win as cheaply as possible, and when the trick cannot be won throw the
lowest card.
"""

from __future__ import annotations

from collections.abc import Sequence

from .tracking import Knowledge


def choose_card(know: Knowledge, cards: Sequence[int]) -> int:
    """The card to play among the legal ``cards``."""
    if len(set(cards)) == 1:
        return cards[0]
    if know.view.trick:
        return _follow(know, cards)
    return _lead(know, cards)


# ---------------------------------------------------------------------- leading


def _lead(know: Knowledge, cards: Sequence[int]) -> int:
    view = know.view
    trumps = sorted(
        (c for c in cards if know.is_trump(c)), key=lambda c: -know.power(c, know.trump)
    )
    side = [c for c in cards if not know.is_trump(c)]
    opponents = know.opponents()
    makers = view.makers == view.team
    if trumps and know.trumps_against():
        sure = not know.beaten_later(trumps[0], know.trump, opponents)
        if view.seat in view.alone and sure:
            return trumps[0]
        if makers and view.maker == view.seat and (sure or len(trumps) >= 3):
            return trumps[0] if sure else trumps[-1]
        if makers and sure and len(trumps) >= 2:
            return trumps[0]
    winners = [c for c in side if know.top_of_suit(c) and not know.ruff_risk(know.suit(c))]
    if winners:
        return max(winners, key=lambda c: (_unplayed_share(know, c), -c))
    if trumps and (not side or not know.trumps_against()):
        return trumps[0] if not know.beaten_later(trumps[0], know.trump, opponents) else trumps[-1]
    if side:
        return _low_from_short_suit(know, side)
    return trumps[-1]


def _unplayed_share(know: Knowledge, card: int) -> int:
    """How many cards of ``card``'s suit are still unseen: the more, the likelier it is followed."""
    suit = know.suit(card)
    return sum(n for c, n in know.unseen.items() if know.suit(c) == suit)


def _suit_lengths(know: Knowledge, cards: Sequence[int]) -> list[int]:
    """How many of ``cards`` follow each suit, by suit."""
    length = [0] * 4
    for c in cards:
        length[know.suit(c)] += 1
    return length


def _low_from_short_suit(know: Knowledge, side: Sequence[int]) -> int:
    length = _suit_lengths(know, side)
    return min(side, key=lambda c: (length[know.suit(c)], c & 7, c))


# ---------------------------------------------------------------------- following


def _follow(know: Knowledge, cards: Sequence[int]) -> int:
    view = know.view
    led = know.suit(view.trick[0][1])
    best_seat, best = _winning(know, led)
    later = know.later_seats()
    later_opponents = [s for s in later if not know.is_partner(s)]
    beating = [c for c in cards if know.facts.beats(c, best, know.trump, led)]
    if know.is_partner(best_seat):
        if not later_opponents or not know.beaten_later(best, led, later_opponents):
            return _lowest(know, cards, led)
        secure = [c for c in beating if not know.beaten_later(c, led, later_opponents)]
        shown_out = any(led in know.voids[s] for s in later_opponents)
        if not know.is_trump(best) and not shown_out:
            # Never trump a partner's winner unless an opponent after us has shown out.
            secure = [c for c in secure if not know.is_trump(c)]
        return _cheapest(know, secure, led) if secure else _lowest(know, cards, led)
    if not beating:
        return _lowest(know, cards, led)
    if later_opponents:
        secure = [c for c in beating if not know.beaten_later(c, led, later_opponents)]
        if secure:
            return _cheapest(know, secure, led)
    return _cheapest(know, beating, led)


def _winning(know: Knowledge, led: int) -> tuple[int, int]:
    """The seat and card winning the current trick so far."""
    trick = know.view.trick
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if know.facts.beats(card, best, know.trump, led):
            best_seat, best = seat, card
    return best_seat, best


def _cheapest(know: Knowledge, cards: Sequence[int], led: int) -> int:
    return min(cards, key=lambda c: (know.power(c, led), c))


def _lowest(know: Knowledge, cards: Sequence[int], led: int) -> int:
    """The card that costs least: a low side card from a short suit, else the lowest trump."""
    if all(know.suit(c) == led for c in cards):
        return _cheapest(know, cards, led)
    side = [c for c in cards if not know.is_trump(c)]
    if not side:
        return _cheapest(know, cards, know.trump)
    length = _suit_lengths(know, side)
    return min(side, key=lambda c: (know.top_of_suit(c), c & 7, length[know.suit(c)], c))
