"""How well a rotation spreads partners and opponents, against the best possible and chance.

For every pair of players a schedule counts the rounds they partner and the rounds
they oppose. *Repeats* are meetings beyond a pair's first (a pair that partners
three times makes two repeated partners); *most* is the most meetings of any one
pair. The lower bounds follow from counting alone: ``n*r/2`` partner meetings and
``n*r`` opponent meetings shared among ``n*(n-1)/2`` pairs (a bound, not always
reachable). A random rotation (everyone reseated at random each round) is the
yardstick, averaged over seeded samples.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bot.tournaments.rotation import Schedule, progressive_schedule, random_rotation

__all__ = [
    "RotationFigures",
    "RotationRow",
    "lower_bound",
    "measure",
    "random_figures",
    "rotation_markdown",
    "rotation_table",
]


@dataclass(frozen=True)
class RotationFigures:
    """Repeated and most meetings of partners and of opponents (averages may be fractional)."""

    repeat_partners: float
    repeat_opponents: float
    most_partners: float
    most_opponents: float


@dataclass(frozen=True)
class RotationRow:
    """One event size: the bot's schedule, the lower bound and a random rotation."""

    players: int
    rounds: int
    schedule: RotationFigures
    bound: RotationFigures
    random: RotationFigures


def measure(schedule: Schedule) -> RotationFigures:
    """Repeats and most meetings of a schedule."""
    partners: Counter[tuple[int, int]] = Counter()
    opponents: Counter[tuple[int, int]] = Counter()
    for rnd in schedule:
        for a, b, c, d in rnd:
            for x, y in ((a, c), (b, d)):
                partners[min(x, y), max(x, y)] += 1
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opponents[min(x, y), max(x, y)] += 1
    return RotationFigures(
        repeat_partners=sum(n - 1 for n in partners.values()),
        repeat_opponents=sum(n - 1 for n in opponents.values()),
        most_partners=max(partners.values(), default=0),
        most_opponents=max(opponents.values(), default=0),
    )


def lower_bound(players: int, rounds: int) -> RotationFigures:
    """The fewest repeats and the lowest most-meetings any schedule of this size can have."""
    pairs = players * (players - 1) // 2
    partner_meetings = players * rounds // 2
    opponent_meetings = players * rounds
    return RotationFigures(
        repeat_partners=max(0, partner_meetings - pairs),
        repeat_opponents=max(0, opponent_meetings - pairs),
        most_partners=-(-partner_meetings // pairs),
        most_opponents=-(-opponent_meetings // pairs),
    )


def random_figures(
    players: int, rounds: int, *, samples: int = 20, seed: int = 0
) -> RotationFigures:
    """The average figures of ``samples`` random rotations drawn from ``seed``."""
    rng = random.Random(seed)
    found = [measure(random_rotation(players, rounds, rng)) for _ in range(samples)]
    return RotationFigures(
        repeat_partners=sum(f.repeat_partners for f in found) / samples,
        repeat_opponents=sum(f.repeat_opponents for f in found) / samples,
        most_partners=sum(f.most_partners for f in found) / samples,
        most_opponents=sum(f.most_opponents for f in found) / samples,
    )


def rotation_table(
    players: Iterable[int] = range(8, 41, 4),
    rounds: Iterable[int] = range(3, 11),
    *,
    samples: int = 20,
    seed: int = 0,
) -> list[RotationRow]:
    """The figures of every event size: the bot's schedule, the bound and chance."""
    sizes = list(rounds)
    return [
        RotationRow(
            players=n,
            rounds=r,
            schedule=measure(progressive_schedule(n, r, seed=seed)),
            bound=lower_bound(n, r),
            random=random_figures(n, r, samples=samples, seed=seed),
        )
        for n in players
        for r in sizes
    ]


def rotation_markdown(rows: Iterable[RotationRow]) -> str:
    """The rows as a Markdown table: repeated partners and opponents, then the most of each."""
    lines = [
        "| players | rounds | repeated partners: bot / best / random "
        "| repeated opponents: bot / best / random | most partners / opponents: bot / random |",
        "|---:|---:|---|---|---|",
    ]
    for row in rows:
        s, b, r = row.schedule, row.bound, row.random
        lines.append(
            f"| {row.players} | {row.rounds} "
            f"| {s.repeat_partners:g} / {b.repeat_partners:g} / {r.repeat_partners:.1f} "
            f"| {s.repeat_opponents:g} / {b.repeat_opponents:g} / {r.repeat_opponents:.1f} "
            f"| {s.most_partners:g} / {s.most_opponents:g} : "
            f"{r.most_partners:.1f} / {r.most_opponents:.1f} |"
        )
    return "\n".join(lines) + "\n"
