"""Pairs events: the circle method's round robin and Swiss pairing without rematches."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.tournaments import Pairing, round_robin, round_robin_fits, swiss_round


@pytest.mark.parametrize("pairs", [2, 3, 4, 5, 8, 9])
def test_a_round_robin_meets_everyone_once_with_one_bye_a_round_when_odd(pairs: int) -> None:
    rounds = round_robin(pairs)
    assert len(rounds) == pairs - 1 + pairs % 2
    met = [frozenset(m) for rnd in rounds for m in rnd.matches]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(pairs), 2)), key=sorted
    )
    for rnd in rounds:
        seated = [p for m in rnd.matches for p in m] + ([rnd.bye] if rnd.bye is not None else [])
        assert sorted(seated) == list(range(pairs))
    byes = [rnd.bye for rnd in rounds]
    assert (sorted(b for b in byes if b is not None) == list(range(pairs))) == bool(pairs % 2)


def test_round_robin_fits_when_the_rounds_allow_it() -> None:
    assert round_robin_fits(4, 3) and not round_robin_fits(4, 2)
    assert round_robin_fits(5, 5) and not round_robin_fits(5, 4)
    assert not round_robin_fits(1, 9)
    with pytest.raises(ValueError, match="at least two"):
        round_robin(1)


def test_swiss_pairs_by_standing_without_rematch() -> None:
    first = swiss_round([0, 1, 2, 3], met=(), had_bye=())
    assert first == Pairing(((0, 1), (2, 3)))
    second = swiss_round([0, 1, 2, 3], met={frozenset((0, 1)), frozenset((2, 3))}, had_bye=())
    assert second == Pairing(((0, 2), (1, 3)))


def test_swiss_backtracks_when_the_greedy_pairing_would_force_a_rematch() -> None:
    met = {frozenset(p) for p in ((0, 1), (2, 3), (4, 5), (2, 4))}
    # greedy: 0-2, 1-3, then 4-5 have met: 1 takes 4 instead, leaving 3-5
    pairing = swiss_round([0, 1, 2, 3, 4, 5], met=met, had_bye=())
    assert pairing.matches == ((0, 2), (1, 4), (3, 5))


def test_swiss_allows_a_rematch_only_when_nothing_else_is_possible() -> None:
    met = {frozenset(p) for p in combinations(range(4), 2)}
    pairing = swiss_round([3, 2, 1, 0], met=met, had_bye=())
    assert pairing.matches == ((3, 2), (1, 0))


def test_the_lowest_placed_pair_without_a_bye_sits_out() -> None:
    assert swiss_round([0, 1, 2], met=(), had_bye=()).bye == 2
    assert swiss_round([0, 1, 2], met=(), had_bye={2}).bye == 1
    assert swiss_round([0, 1, 2], met=(), had_bye={0, 1, 2}).bye == 2
