"""Progressive rotation schedules: who sits where, round by round, at tables of four.

Players are numbered 0..n-1 (n a multiple of four; computers fill the event up to
one). A table is four players in seat order: seats 0 and 2 are partners against
seats 1 and 3. A schedule spreads partners and opponents as evenly as it can:

- where a whist tournament design Wh(n) is known (every pair partners exactly once
  and opposes exactly twice in n-1 rounds) its first rounds are used; the designs are
  cyclic: an initial round over the integers modulo n-1 plus one fixed player,
  developed by adding 1 to every other player round after round;
- otherwise (and past n-1 rounds) a seeded simulated annealing with a fixed number
  of steps, never a time budget, so that a schedule depends only on its inputs.

The cost it lowers is, over every pair of players, ``PARTNER_WEIGHT * C(partnered, 2)
+ C(opposed, 2)``: meetings piled on one pair cost more than the same meetings spread.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

__all__ = [
    "PARTNER_WEIGHT",
    "WHIST_BASES",
    "Schedule",
    "Table",
    "annealing_steps",
    "progressive_schedule",
    "random_rotation",
    "whist_design",
]

Table = tuple[int, int, int, int]
"""Four players in seat order: seats 0 and 2 partner against seats 1 and 3."""
Schedule = tuple[tuple[Table, ...], ...]
"""Rounds, each a tuple of tables that seat every player once."""

PARTNER_WEIGHT: Final = 4
"""How much more a repeated partner costs than a repeated opponent."""

WHIST_BASES: Final[dict[int, tuple[Table, ...]]] = {
    # players: the initial round over 0..n-2 (modulo n-1) and the fixed player n-1.
    8: ((7, 5, 4, 2), (1, 6, 3, 0)),
    12: ((6, 5, 3, 9), (8, 1, 11, 7), (2, 0, 4, 10)),
    16: ((14, 0, 9, 2), (7, 5, 6, 11), (10, 13, 3, 1), (8, 4, 12, 15)),
    20: ((7, 3, 14, 2), (11, 13, 16, 10), (1, 15, 5, 4), (19, 17, 9, 0), (12, 18, 6, 8)),
}
"""Initial rounds of cyclic whist designs Wh(n), found by search and checked by the tests."""


def whist_design(players: int) -> Schedule | None:
    """The n-1 rounds of the known whist design for ``players``, or None if none is known."""
    base = WHIST_BASES.get(players)
    if base is None:
        return None
    modulus = players - 1

    def shift(player: int, k: int) -> int:
        return player if player == modulus else (player + k) % modulus

    return tuple(
        tuple((shift(a, k), shift(b, k), shift(c, k), shift(d, k)) for a, b, c, d in base)
        for k in range(modulus)
    )


def random_rotation(players: int, rounds: int, rng: random.Random) -> Schedule:
    """Everyone seated at random each round: the yardstick schedules are measured against."""
    _check(players, rounds)
    schedule = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        schedule.append(_tables(order))
    return tuple(schedule)


def annealing_steps(players: int, rounds: int) -> int:
    """The fixed number of annealing steps for an event of this size."""
    return min(120_000, 3000 * rounds * players // 4)


def progressive_schedule(
    players: int, rounds: int, *, seed: int = 0, steps: int | None = None
) -> Schedule:
    """The schedule of a progressive event: ``rounds`` rounds for ``players`` players.

    Deterministic: the same arguments give the same schedule. ``steps``: annealing
    steps (default :func:`annealing_steps`); a start already at the lower bound is kept.
    """
    _check(players, rounds)
    start = _start(players, rounds)
    if players == 4:
        return start  # one table: only who partners whom changes, as evenly as it goes
    search = _Annealer(players, start)
    if search.cost > search.bound:
        search.run(
            random.Random(seed), annealing_steps(players, rounds) if steps is None else steps
        )
    return search.schedule()


def _check(players: int, rounds: int) -> None:
    if players < 4 or players % 4:
        raise ValueError(f"players must be a positive multiple of four, not {players}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")


def _tables(order: Sequence[int]) -> tuple[Table, ...]:
    return tuple(
        (order[i], order[i + 1], order[i + 2], order[i + 3]) for i in range(0, len(order), 4)
    )


def _start(players: int, rounds: int) -> Schedule:
    """A whist design (repeated past its end) or the circle method's partners."""
    design = whist_design(players)
    if design is None:
        design = _circle_rounds(players)
    return tuple(design[k % len(design)] for k in range(rounds))


def _circle_rounds(players: int) -> Schedule:
    """n-1 rounds whose partners are the circle method's: nobody partners anyone twice."""
    if players == 4:
        return ((0, 1, 2, 3),), ((0, 2, 1, 3),), ((0, 1, 3, 2),)
    others = list(range(1, players))
    m = players - 1
    rounds = []
    for k in range(m):
        pairs = [(0, others[k])]
        pairs += [(others[(k + i) % m], others[(k - i) % m]) for i in range(1, players // 2)]
        # partnerships 2t and 2t+1 share a table: seats (a, c, b, d) for pairs (a, b), (c, d)
        rounds.append(
            tuple(
                (pairs[t][0], pairs[t + 1][0], pairs[t][1], pairs[t + 1][1])
                for t in range(0, len(pairs), 2)
            )
        )
    return tuple(rounds)


def _relations(table: Sequence[int]) -> list[tuple[int, int, bool]]:
    """The pairs a table makes: (a, b, partners?)."""
    a, b, c, d = table
    return [(a, c, True), (b, d, True), (a, b, False), (a, d, False), (c, b, False), (c, d, False)]


def _least_cost(total: int, pairs: int) -> int:
    """The least sum of C(count, 2) over ``pairs`` counts that add up to ``total``."""
    q, rem = divmod(total, pairs)
    return (pairs - rem) * math.comb(q, 2) + rem * math.comb(q + 1, 2)


class _Annealer:
    """Simulated annealing over seat swaps within a round, with counts kept up to date."""

    def __init__(self, players: int, start: Schedule) -> None:
        self.players = players
        self.seats = [[p for table in rnd for p in table] for rnd in start]
        self.partners = [[0] * players for _ in range(players)]
        self.opponents = [[0] * players for _ in range(players)]
        self.cost = 0
        for rnd in self.seats:
            for t in range(0, players, 4):
                self.cost += self._add(rnd[t : t + 4], +1)
        pairs = players * (players - 1) // 2
        rounds = len(start)
        self.best_cost = self.cost
        self.best = [list(r) for r in self.seats]
        self.bound = PARTNER_WEIGHT * _least_cost(rounds * players // 2, pairs) + _least_cost(
            rounds * players, pairs
        )

    def _add(self, table: Sequence[int], sign: int) -> int:
        """Count a table's pairs in (+1) or out (-1); the change of cost."""
        delta = 0
        for a, b, partners in _relations(table):
            counts = self.partners if partners else self.opponents
            weight = PARTNER_WEIGHT if partners else 1
            before = counts[a][b]
            after = before + sign
            counts[a][b] = counts[b][a] = after
            delta += weight * (math.comb(after, 2) - math.comb(before, 2))
        return delta

    def run(self, rng: random.Random, steps: int) -> None:
        """Anneal for ``steps`` proposed swaps (fewer if the lower bound is reached)."""
        hot, cold = 2.0, 0.02
        rounds = len(self.seats)
        players = self.players
        for step in range(steps):
            temperature = hot * (cold / hot) ** (step / steps)
            rnd = self.seats[rng.randrange(rounds)]
            i, j = rng.randrange(players), rng.randrange(players)
            ti, tj = i - i % 4, j - j % 4
            if ti == tj and (i == j or (i - j) % 2 == 0):
                continue  # the same seat, or a swap between partners: nothing changes
            starts = (ti,) if ti == tj else (ti, tj)
            delta = sum(self._add(rnd[t : t + 4], -1) for t in starts)
            rnd[i], rnd[j] = rnd[j], rnd[i]
            delta += sum(self._add(rnd[t : t + 4], +1) for t in starts)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                self.cost += delta
                if self.cost < self.best_cost:
                    self.best_cost = self.cost
                    self.best = [list(r) for r in self.seats]
                    if self.cost <= self.bound:
                        return
                continue
            for t in starts:
                self._add(rnd[t : t + 4], -1)
            rnd[i], rnd[j] = rnd[j], rnd[i]
            for t in starts:
                self._add(rnd[t : t + 4], +1)

    def schedule(self) -> Schedule:
        """The cheapest schedule seen."""
        return tuple(_tables(rnd) for rnd in self.best)
