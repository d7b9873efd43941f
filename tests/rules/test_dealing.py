"""Seeded shuffles: the chunked arithmetic of ``shuffled`` deals exactly the plain Fisher-Yates.

Every record's deals come from these shuffles, so a faster way of computing them
must give the same cards for every seed and pack size.
"""

from __future__ import annotations

from math import factorial

import pytest

from bot.rules.dealing import seeded_int, shuffled


def plain_fisher_yates(cards: list[int], seed: int, purpose: str, index: int) -> list[int]:
    """The shuffle as it was first written: one digit of x (one big division) a card."""
    out = list(cards)
    x = seeded_int(seed, purpose, index) % factorial(len(out))
    for i in range(len(out) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("size", [0, 1, 2, 20, 21, 24, 25, 31, 32, 33, 36, 48, 49, 70, 120])
def test_the_shuffle_is_the_plain_fisher_yates(size: int) -> None:
    cards = list(range(100, 100 + size))
    for seed in range(60):
        for purpose, index in (("deal", seed % 7), ("black_jack", 0)):
            expected = plain_fisher_yates(cards, seed, purpose, index)
            assert shuffled(cards, seed, purpose, index) == expected, (size, seed, purpose)
