"""Who plays whom in a pairs event: a round robin when it fits the rounds, else Swiss.

Pairs are numbered 0..p-1. A round robin (the circle method) has every pair meet every
other once in p-1 rounds (p rounds with a bye each when p is odd). Swiss pairs round
by round from the standings: the best pair plays the best one it has not met, and so
down the list; with an odd number of pairs the lowest-placed pair that has not had a
bye sits out. Only when no pairing without a rematch exists is a rematch allowed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = ["Pairing", "round_robin", "round_robin_fits", "swiss_round"]


@dataclass(frozen=True)
class Pairing:
    """One round of a pairs event: the matches and the pair with a bye (None if none)."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None = None


def round_robin(pairs: int) -> list[Pairing]:
    """Every round of a round robin between ``pairs`` pairs (the circle method)."""
    if pairs < 2:
        raise ValueError(f"a round robin needs at least two pairs, not {pairs}")
    ring: list[int | None] = [*range(pairs), *([None] if pairs % 2 else [])]
    size = len(ring)
    rounds = []
    for _ in range(size - 1):
        matches = []
        bye = None
        for i in range(size // 2):
            a, b = ring[i], ring[size - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                matches.append((a, b))
        rounds.append(Pairing(tuple(matches), bye))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def round_robin_fits(pairs: int, rounds: int) -> bool:
    """Whether a whole round robin of ``pairs`` pairs fits in ``rounds`` rounds."""
    return pairs >= 2 and rounds >= pairs - 1 + pairs % 2


def swiss_round(
    ranked: Sequence[int], met: Collection[frozenset[int]], had_bye: Collection[int]
) -> Pairing:
    """The next Swiss round for pairs in standing order (best first).

    ``met``: the matches already played; ``had_bye``: pairs that have sat out before.
    """
    order = list(ranked)
    bye = None
    if len(order) % 2:
        candidates = [p for p in reversed(order) if p not in had_bye] or list(reversed(order))
        bye = candidates[0]
        order.remove(bye)
    matches = _pair(order, met) or _pair(order, ())
    assert matches is not None  # without the rematch rule any even list pairs
    return Pairing(tuple(matches), bye)


def _pair(order: list[int], met: Collection[frozenset[int]]) -> list[tuple[int, int]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None
