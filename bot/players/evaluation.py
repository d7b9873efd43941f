"""How good a hand is before the play: bidding strength, sweep chances, discards and gifts.

``strength`` estimates the tricks a hand brings to its side with a given
trump: each trump is worth more the fewer live trumps rank above it, side
aces and guarded kings add a little, voids add ruffing chances. Around 2.0
(three of the five tricks once a partner's usual share is added) is a hand
worth making trump with.

``sweep_chance`` is a rough probability that the hand takes all five tricks
alone: every live trump above one of ours, every live side card above one
of ours, and the chance of a side card being trumped multiply it down.

Counts of cards are lists indexed by card (``counts``), not ``Counter``s:
these run for every bid the expert's samples replay, and compiled by mypyc a
list is native while a ``Counter`` stays a Python-level class.

``sure_trump_tricks`` counts the trumps that win whatever the others hold:
the hand's unbroken run from the top of the pack.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from bot.rules.cards import ACE, CARD_COUNT, KING

from .deck import DeckFacts

HAND = 5

_TRUMP_VALUE = (1.0, 0.8, 0.65, 0.55, 0.5, 0.45, 0.4)
"""A trump's worth by how many live trumps rank above it."""
_EXTRA_TRUMP = 0.15
"""For each trump beyond the second: length draws the opponents' trumps."""
_SIDE_ACE = 0.7
_SIDE_ACE_LONG = 0.55
"""An ace in a side suit of three or more cards is often trumped."""
_GUARDED_KING = 0.3
_BARE_KING = 0.1
_VOID_WITH_TRUMPS = 0.3
_VOID_ONE_TRUMP = 0.1
_DRAWN_LEADING = (0.0, 0.3, 0.5, 0.75, 0.9, 1.0)
_DRAWN_LED_TO = (0.0, 0.15, 0.3, 0.5, 0.6, 1.0)
"""Chance the opponents' trumps are gone before a side suit comes round, by trumps held,
when the loner leads first or an opponent does (and may lead the side suit at once)."""
_UNDER_THREAT = 0.6
"""How likely a live trump ranking among ours (not above all) still takes a trick."""


def counts(cards: Iterable[int]) -> list[int]:
    """How many copies of each card ``cards`` holds, as a list indexed by card."""
    found = [0] * CARD_COUNT
    for c in cards:
        found[c] += 1
    return found


def trumps_in(hand: Iterable[int], trump: int, facts: DeckFacts) -> list[int]:
    """The hand's trumps, highest first."""
    power = facts.ranking.power[trump][trump]
    return sorted((c for c in hand if facts.is_trump(c, trump)), key=lambda c: -power[c])


def _higher_live(
    card: int, trump: int, led: int, hand: list[int], dead: list[int], facts: DeckFacts
) -> float:
    """Copies of cards of ``card``'s suit above it that are neither in ``hand`` nor dead.

    An equal copy counts half: it wins only when played after ours.
    """
    power = facts.ranking.power[trump][led]
    mine = power[card]
    count = 0.0
    for other in facts.suits[trump][led]:
        p = power[other]
        if p < mine:
            break
        live = facts.copies[other] - hand[other] - dead[other]
        if live > 0:
            count += live * (0.5 if other == card else 1.0)
    return count


def _trump_value(higher: float) -> float:
    low = int(higher)
    if low >= len(_TRUMP_VALUE) - 1:
        return _TRUMP_VALUE[-1]
    frac = higher - low
    return _TRUMP_VALUE[low] * (1 - frac) + _TRUMP_VALUE[low + 1] * frac


def trump_value(
    card: int, trump: int, hand: Sequence[int], facts: DeckFacts, dead: Collection[int] = ()
) -> float:
    """What one trump is worth to ``hand`` (see ``strength``)."""
    higher = _higher_live(card, trump, trump, counts(hand), counts(dead), facts)
    return _trump_value(higher)


def strength(
    hand: Sequence[int], trump: int, facts: DeckFacts, dead: Collection[int] = ()
) -> float:
    """Roughly the tricks ``hand`` brings to its side with ``trump`` as trump.

    ``dead`` lists cards known out of play (a turned-down upcard, a discard).
    Rounded, so that the order of the cards in the hand never changes a choice
    between suits of equal strength (floating sums in another order differ).
    """
    held = counts(hand)
    gone = counts(dead)
    trumps = trumps_in(hand, trump, facts)
    total = sum(_trump_value(_higher_live(c, trump, trump, held, gone, facts)) for c in trumps)
    total += _EXTRA_TRUMP * max(0, len(trumps) - 2)
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        s = facts.suit(c, trump)
        if s != trump:
            by_suit.setdefault(s, []).append(c)
    for s, cards in by_suit.items():
        for c in cards:
            higher = _higher_live(c, trump, s, held, gone, facts)
            if higher == 0:
                total += _SIDE_ACE if len(cards) < 3 else _SIDE_ACE_LONG
                if not trumps:
                    total -= 0.15
            elif higher <= 1 and c & 7 >= KING:
                total += _GUARDED_KING if len(cards) > 1 else _BARE_KING
    voids = sum(1 for s in range(4) if s != trump and s not in by_suit and facts.suits[trump][s])
    if len(trumps) >= 2:
        total += _VOID_WITH_TRUMPS * voids
    elif trumps:
        total += _VOID_ONE_TRUMP * voids
    return round(total, 9)


def sure_trump_tricks(
    hand: Sequence[int], trump: int, facts: DeckFacts, dead: Collection[int] = ()
) -> int:
    """How many of the hand's trumps win whatever the other seats hold: its run from the top."""
    held = counts(hand)
    gone = counts(dead)
    sure = 0
    for c in facts.trumps[trump]:
        outside = facts.copies[c] - held[c] - gone[c]
        if held[c] and outside == 0:
            sure += held[c]
        elif outside > 0:
            break
    return sure


def sweep_chance(
    hand: Sequence[int],
    trump: int,
    facts: DeckFacts,
    *,
    opponents: int,
    leads: bool = False,
    dead: Collection[int] = (),
    live: Collection[int] = (),
    floor: float = 0.0,
) -> float:
    """A rough chance that ``hand`` takes every trick playing alone.

    ``opponents`` is how many seats play against it and ``leads`` whether the
    loner leads the first trick; ``live`` lists cards known to be in an
    opponent's hand (the upcard an opposing dealer takes), ``dead`` cards known
    out of play. The other unknown cards are in a live hand with the
    probability that the opponents' share of the unknown cards gives.

    The chance is a product of factors in [0, 1]: given a ``floor``, it stops
    as soon as the product falls below it and returns that partial product
    (still below the floor), so a caller comparing with ``floor`` gets the
    same answer for less work.
    """
    trumps = trumps_in(hand, trump, facts)
    if not trumps:
        return 0.0
    held = counts(hand)
    gone = counts(dead)
    known = counts(live)
    unknown = sum(facts.copies.values()) - len(hand) - len(dead) - len(live)
    p = min(1.0, max(0.0, (opponents * HAND - len(live)) / max(1, unknown)))
    chance = 1.0
    trump_power = facts.ranking.power[trump][trump]
    top, low = trump_power[trumps[0]], trump_power[trumps[-1]]
    for c in facts.trumps[trump]:
        pc = trump_power[c]
        if pc < low:
            break
        risk = 1.0 if pc > top or (pc == top and facts.later_equal_wins) else _UNDER_THREAT
        chance *= _survive(facts.copies[c] - held[c] - gone[c] - known[c], known[c], p, risk)
        if chance < floor:
            return chance
    share = HAND / max(HAND, unknown)
    drawn = (_DRAWN_LEADING if leads else _DRAWN_LED_TO)[min(len(trumps), HAND)]
    trumps_out = _outside(facts.trumps[trump], held, gone, facts)
    for c in hand:
        s = facts.suit(c, trump)
        if s == trump:
            continue
        void = (1 - share) ** _outside(facts.suits[trump][s], held, gone, facts)
        ruff = void * (1 - (1 - share) ** trumps_out) * (1 - drawn)
        chance *= (1 - ruff) ** opponents
        if chance < floor:
            return chance
        power = facts.ranking.power[trump][s]
        for other in facts.suits[trump][s]:
            if power[other] < power[c] or (other == c and not facts.later_equal_wins):
                break
            chance *= _survive(
                facts.copies[other] - held[other] - gone[other] - known[other], known[other], p, 1.0
            )
            if chance < floor:
                return chance
    return chance


def _outside(cards: Iterable[int], held: list[int], gone: list[int], facts: DeckFacts) -> int:
    """Copies of ``cards`` neither held nor dead."""
    return sum(facts.copies[c] - held[c] - gone[c] for c in cards)


def _survive(unknown: int, live: int, p: float, risk: float) -> float:
    """The chance that ``unknown`` possibly-live and ``live`` surely-live threats all miss."""
    return (1 - p * risk) ** max(0, unknown) * (1 - risk) ** live


def best_discard(hand: Sequence[int], trump: int, facts: DeckFacts) -> int:
    """The card to throw away: the lowest side singleton (a void), else the lowest side card.

    Side aces are kept while another side card can go; a trump goes only from
    an all-trump hand, and then the lowest.
    """
    power = facts.ranking.power[trump][trump]
    side = [c for c in hand if not facts.is_trump(c, trump)]
    if not side:
        return min(hand, key=lambda c: (power[c], c))
    length = [0] * 4
    for c in side:
        length[facts.suit(c, trump)] += 1
    spare = [c for c in side if c & 7 != ACE] or side
    singles = [c for c in spare if length[facts.suit(c, trump)] == 1]
    return min(singles or spare, key=lambda c: (c & 7, length[facts.suit(c, trump)], c))


def after_pickup(
    hand: Sequence[int], upcard: int, trump: int, facts: DeckFacts
) -> tuple[list[int], int]:
    """The dealer's hand after taking ``upcard`` and discarding, and the discard."""
    six = [*hand, upcard]
    discard = best_discard(six, trump, facts)
    six.remove(discard)
    return six, discard


def best_gift(hand: Sequence[int], trump: int, facts: DeckFacts) -> int:
    """The card to pass a lone partner: the best trump, else a side ace, else the highest card."""
    trumps = trumps_in(hand, trump, facts)
    if trumps:
        return trumps[0]
    return max(hand, key=lambda c: (c & 7, -c))
