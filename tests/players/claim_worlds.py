"""Checking a claim against every deal the claimer cannot tell apart from the real one.

A world is the real deal with the cards no action ever named (never played,
discarded, passed or swapped, and not the upcard) dealt again among the other
hands and the kitty. It counts only if the game's actions replay in it, each
checked by the rules, and the claimer's view comes out the same: so the rules
core, not the code under test, says which worlds fit what the claimer knows.
In each world the claimer plays its highest legal card and every other seat
any legal card (all of them on small endgames, random ones otherwise); the
claimer's own card must take every trick.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator

from bot.rules import Deal, Game, RefusedError, new_game, seat_view
from bot.rules.actions import PLAY
from bot.rules.claims import highest_card
from bot.rules.state import PLAY_PHASE

EXHAUSTIVE_WORLDS = 200
"""Worlds enumerated one by one when there are at most this many; else sampled."""
EXHAUSTIVE_PLAYS = 2000
"""Ways the other seats can play out enumerated when there are at most this many."""


def _slots(deal: Deal, seat: int, named: set[int]) -> list[tuple[int, int]]:
    """(container, index) of every card that may move: another hand's (container = seat) or
    the kitty's (container = -1), never named by an action."""
    found = [
        (s, i)
        for s, hand in enumerate(deal.hands)
        if s != seat
        for i, c in enumerate(hand)
        if c not in named
    ]
    found += [(-1, i) for i, c in enumerate(deal.kitty) if c not in named]
    return found


def _card_at(deal: Deal, slot: tuple[int, int]) -> int:
    where, i = slot
    return deal.kitty[i] if where < 0 else deal.hands[where][i]


def _rebuilt(deal: Deal, slots: list[tuple[int, int]], cards: list[int]) -> Deal:
    hands = [list(h) for h in deal.hands]
    kitty = list(deal.kitty)
    for (where, i), c in zip(slots, cards, strict=True):
        if where < 0:
            kitty[i] = c
        else:
            hands[where][i] = c
    return Deal(tuple(tuple(h) for h in hands), deal.upcard, tuple(kitty))


def _arrangements(slots: list[tuple[int, int]], cards: list[int]) -> Iterator[list[int]]:
    """Every distinct way to put ``cards`` in ``slots``, order within a container aside."""
    groups: dict[int, list[int]] = {}
    for n, (where, _) in enumerate(slots):
        groups.setdefault(where, []).append(n)
    order = list(groups.values())

    def place(g: int, left: Counter[int], acc: list[int]) -> Iterator[list[int]]:
        if g == len(order):
            yield acc
            return
        positions = order[g]
        for combo in _multisets(sorted(left.elements()), len(positions)):
            rest = left - Counter(combo)
            nxt = list(acc)
            for p, c in zip(positions, combo, strict=True):
                nxt[p] = c
            yield from place(g + 1, rest, nxt)

    yield from place(0, Counter(cards), [0] * len(slots))


def _multisets(pool: list[int], k: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        yield ()
        return
    seen: set[int] = set()
    for i, c in enumerate(pool):
        if c in seen:
            continue
        seen.add(c)
        for tail in _multisets(pool[i + 1 :], k - 1):
            yield (c, *tail)


def _count(slots: list[tuple[int, int]], cards: list[int]) -> int:
    sizes = Counter(where for where, _ in slots)
    total = math.factorial(len(cards))
    for n in sizes.values():
        total //= math.factorial(n)
    return total


def worlds(
    game: Game, deal: Deal, dealer: int, seat: int, rng: random.Random, samples: int
) -> Iterator[Game]:
    """Games at this moment whose deal ``seat`` cannot tell from ``deal`` (the real one first)."""
    view = seat_view(game, seat)
    log = list(game.log)
    named = {c for _, a in log for c in ([a.card] if a.card is not None else list(a.cards or ()))}
    named.add(deal.upcard)
    slots = _slots(deal, seat, named)
    cards = [_card_at(deal, s) for s in slots]
    if _count(slots, cards) <= EXHAUSTIVE_WORLDS:
        arrangements: Iterator[list[int]] = _arrangements(slots, cards)
    else:
        arrangements = iter([cards] + [rng.sample(cards, len(cards)) for _ in range(samples)])
    for arrangement in arrangements:
        other = new_game(game.rules, dealer=dealer, deals=[_rebuilt(deal, slots, arrangement)])
        try:
            for actor, action in log:
                other.apply(actor, action)
        except RefusedError:
            continue
        if seat_view(other, seat) == view:
            yield other


def claimer_takes_every_trick(game: Game, seat: int, rng: random.Random) -> None:
    """Assert that ``seat``, playing its highest card, takes every trick whatever the others play."""
    active = [s for s in range(game.players) if not game.out[s]]
    leaves = math.prod(math.factorial(len(game.hands[s])) for s in active if s != seat)
    if leaves <= EXHAUSTIVE_PLAYS:
        _every_play(game, seat, None)
    else:
        for _ in range(20):
            _every_play(game, seat, rng)


def _every_play(game: Game, seat: int, rng: random.Random | None) -> None:
    if game.phase != PLAY_PHASE:
        return
    turn = game.turn
    assert turn is not None and game.trump is not None
    cards = list(dict.fromkeys(a.card for a in game.legal() if a.card is not None))
    if turn == seat:
        trick = game.trick
        led = game.ranking.suit[game.trump][trick[0][1]] if trick else -1
        cards = [highest_card(cards, game.trump, led, game.ranking)]
    elif rng is not None:
        cards = [rng.choice(cards)]
    for card in cards:
        after = game.copy()
        number = after.deal_number
        after.apply(turn, PLAY[card])
        if not after.trick:
            done = after.last_trick
            assert done is not None
            assert done.winner == seat, f"seat {done.winner} took {done} from the claimer {seat}"
        if after.deal_number == number and not after.over:
            _every_play(after, seat, rng)
