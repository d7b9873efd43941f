"""Progressive rotations: the whist designs, the annealer, and how they are measured."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments import (
    RotationFigures,
    lower_bound,
    measure,
    progressive_schedule,
    random_figures,
    random_rotation,
    rotation_markdown,
    rotation_table,
    whist_design,
)
from bot.tournaments.rotation import WHIST_BASES, Schedule


def meetings(schedule: Schedule) -> tuple[Counter[frozenset[int]], Counter[frozenset[int]]]:
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for rnd in schedule:
        for a, b, c, d in rnd:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(p) for p in ((a, b), (a, d), (c, b), (c, d)))
    return partners, opponents


def assert_everyone_seated_once_a_round(schedule: Schedule, players: int) -> None:
    for rnd in schedule:
        assert sorted(p for table in rnd for p in table) == list(range(players))


@pytest.mark.parametrize("players", sorted(WHIST_BASES))
def test_each_known_whist_design_has_every_pair_partner_once_and_oppose_twice(
    players: int,
) -> None:
    design = whist_design(players)
    assert design is not None and len(design) == players - 1
    assert_everyone_seated_once_a_round(design, players)
    partners, opponents = meetings(design)
    pairs = {frozenset(p) for p in combinations(range(players), 2)}
    assert set(partners) == set(opponents) == pairs
    assert set(partners.values()) == {1}
    assert set(opponents.values()) == {2}


def test_eight_players_over_seven_rounds_partner_everyone_exactly_once() -> None:
    schedule = progressive_schedule(8, 7)
    assert len(schedule) == 7
    assert_everyone_seated_once_a_round(schedule, 8)
    partners, opponents = meetings(schedule)
    assert len(partners) == 28 and set(partners.values()) == {1}
    assert set(opponents.values()) == {2}
    assert measure(schedule) == lower_bound(8, 7)


def test_sizes_without_a_known_design_have_no_design() -> None:
    assert whist_design(24) is None
    assert whist_design(4) is None


@pytest.mark.parametrize(("players", "rounds"), [(4, 3), (12, 10), (24, 5), (28, 9), (40, 10)])
def test_schedules_reach_the_lower_bound_where_it_is_known_reachable(
    players: int, rounds: int
) -> None:
    schedule = progressive_schedule(players, rounds)
    assert len(schedule) == rounds
    assert_everyone_seated_once_a_round(schedule, players)
    assert measure(schedule) == lower_bound(players, rounds)


def test_the_same_inputs_give_the_same_schedule_and_seeds_differ() -> None:
    first = progressive_schedule(24, 10, seed=3, steps=2000)
    assert progressive_schedule(24, 10, seed=3, steps=2000) == first
    assert progressive_schedule(24, 10, seed=4, steps=2000) != first


@pytest.mark.parametrize(("players", "rounds"), [(8, 10), (16, 9), (24, 10), (36, 6)])
def test_schedules_repeat_less_than_a_random_rotation(players: int, rounds: int) -> None:
    mine = measure(progressive_schedule(players, rounds))
    chance = random_figures(players, rounds, samples=5)
    bound = lower_bound(players, rounds)
    assert bound.repeat_partners <= mine.repeat_partners < max(chance.repeat_partners, 0.5)
    assert bound.repeat_opponents <= mine.repeat_opponents <= chance.repeat_opponents
    assert mine.most_partners <= chance.most_partners
    assert mine.most_opponents <= chance.most_opponents


def test_measure_counts_meetings_beyond_the_first() -> None:
    one_table = ((0, 1, 2, 3),)
    assert measure((one_table,) * 3) == RotationFigures(
        repeat_partners=4, repeat_opponents=8, most_partners=3, most_opponents=3
    )
    assert measure(()) == RotationFigures(0, 0, 0, 0)


def test_lower_bounds_come_from_counting() -> None:
    assert lower_bound(8, 7) == RotationFigures(0, 28, 1, 2)
    assert lower_bound(8, 10) == RotationFigures(12, 52, 2, 3)
    assert lower_bound(40, 10) == RotationFigures(0, 0, 1, 1)


def test_random_rotations_are_seeded() -> None:
    assert random_figures(12, 4, samples=3, seed=1) == random_figures(12, 4, samples=3, seed=1)
    schedule = random_rotation(12, 4, random.Random(0))
    assert_everyone_seated_once_a_round(schedule, 12)


@pytest.mark.parametrize(("players", "rounds"), [(6, 3), (0, 3), (8, 0)])
def test_impossible_sizes_are_refused(players: int, rounds: int) -> None:
    with pytest.raises(ValueError, match="must be"):
        progressive_schedule(players, rounds)


def test_the_rotation_table_has_a_row_per_size_and_prints_as_markdown() -> None:
    rows = rotation_table(players=[8, 12], rounds=[3, 7], samples=2)
    assert [(r.players, r.rounds) for r in rows] == [(8, 3), (8, 7), (12, 3), (12, 7)]
    assert rows[1].schedule == rows[1].bound
    text = rotation_markdown(rows)
    assert text.count("\n") == 6
    assert "| 8 | 7 | 0 / 0 / " in text
