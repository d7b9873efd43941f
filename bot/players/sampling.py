"""Sampled worlds: the other seats' hidden cards dealt at random, consistently with one view.

Two kinds of world. During the play, each other active seat gets as many
cards as it holds, never of a suit it has shown out of, and any card known to
be in its hand (the upcard the dealer took, a card passed to a loner). During
the bidding, the whole deal is remade: this seat's hand as dealt, the upcard,
and the rest shuffled among the other seats and the kitty.

Only the view is read; a sample never depends on the real hidden cards.
"""

from __future__ import annotations

import random

from bot.rules import SeatView
from bot.rules.dealing import Deal

from .deck import deck_facts
from .tracking import Knowledge

_TRIES = 30


MAKER_TRUMPS = 2
"""A maker is assumed to have held at least this many trumps (three when alone)."""
UNLIKELY = 0.15
"""The chance of keeping a sample in which a maker made trump on fewer trumps than that."""


def sample_hands(know: Knowledge, rng: random.Random) -> list[list[int]]:
    """Hands for every seat during the play: this seat's own, the others sampled.

    Samples where another seat made trump holding few trumps are mostly
    redrawn: the bidding said something about the maker's hand.
    """
    hands = draw_hands(know, rng)
    for _ in range(_TRIES):
        if _plausible(know, hands) or rng.random() < UNLIKELY:
            break
        hands = draw_hands(know, rng)
    return hands


def _plausible(know: Knowledge, hands: list[list[int]]) -> bool:
    view = know.view
    maker = view.maker
    if maker is None or maker == view.seat or view.out[maker]:
        return True
    played = [c for t in view.tricks for s, c in zip(t.seats, t.cards, strict=True) if s == maker]
    played += [c for s, c in view.trick if s == maker]
    trumps = sum(1 for c in hands[maker] + played if know.is_trump(c))
    return trumps >= (MAKER_TRUMPS + 1 if maker in view.alone else MAKER_TRUMPS)


def draw_hands(know: Knowledge, rng: random.Random) -> list[list[int]]:
    """Hands for every seat now: this seat's own, the others drawn fitting voids and known cards."""
    view = know.view
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    seats = [
        s for s in range(view.players) if s != view.seat and not view.out[s] and view.hand_counts[s]
    ]
    pool = [card for card, copies in know.unseen.items() for _ in range(copies)]
    fixed: dict[int, list[int]] = {s: [] for s in seats}
    for card, seat in know.holder.items():
        if seat in fixed and card in pool:
            fixed[seat].append(card)
            pool.remove(card)
    need = {s: view.hand_counts[s] - len(fixed[s]) for s in seats}
    # the most constrained seats choose first: more voids, then more cards
    order = sorted(seats, key=lambda s: (-len(know.voids[s]), -need[s]))
    suit = know.facts.ranking.suit[know.trump]
    for attempt in range(_TRIES):
        rng.shuffle(pool)
        taken = [False] * len(pool)
        dealt: dict[int, list[int]] = {}
        ok = True
        for seat in order:
            voids = know.voids[seat] if attempt < _TRIES - 1 else set()
            got: list[int] = []
            for i, card in enumerate(pool):
                if len(got) == need[seat]:
                    break
                if not taken[i] and suit[card] not in voids:
                    taken[i] = True
                    got.append(card)
            if len(got) < need[seat]:
                ok = False
                break
            dealt[seat] = got
        if ok:
            for seat in seats:
                hands[seat] = fixed[seat] + dealt[seat]
            return hands
    raise AssertionError("no sample fits the hand sizes")  # unreachable: the last try ignores voids


def dealt_hand(view: SeatView) -> list[int] | None:
    """This seat's hand as dealt, worked out from its view; None when a swap or a gift hides it.

    The cards it has played are part of it, so the deal can be read all through the play.
    """
    if any(a.do in ("swap", "give", "ask") for _, a in view.history):
        return None
    hand = list(view.hand)
    for trick in view.tricks:
        hand += [c for s, c in zip(trick.seats, trick.cards, strict=True) if s == view.seat]
    hand += [c for s, c in view.trick if s == view.seat]
    if view.seat == view.dealer and view.upcard_taken:
        if view.upcard in hand:
            hand.remove(view.upcard)
        discards = [a.card for s, a in view.history if s == view.seat and a.do == "discard"]
        hand += [c for c in discards if c is not None and c != view.upcard]
    return hand if len(hand) == view.rules.hand_size else None


def sample_deal(view: SeatView, mine: list[int], rng: random.Random) -> Deal:
    """A whole deal consistent with what this seat knew when the cards were dealt."""
    rules = view.rules
    pool = dict(deck_facts(rules).copies)
    for card in (*mine, view.upcard):
        pool[card] = pool.get(card, 0) - 1
    cards = [card for card, copies in pool.items() for _ in range(copies)]
    rng.shuffle(cards)
    size = rules.hand_size
    hands: list[tuple[int, ...]] = []
    for seat in range(rules.players):
        if seat == view.seat:
            hands.append(tuple(mine))
        else:
            hands.append(tuple(cards[:size]))
            del cards[:size]
    return Deal(tuple(hands), view.upcard, tuple(cards))
