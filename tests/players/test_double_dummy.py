"""The double-dummy solver against brute force on random endgames under several rule sets."""

from __future__ import annotations

import random

import pytest

from bot.players.double_dummy import Position, Solver
from bot.rules import Game, HouseRules


def _brute(
    solver: Solver,
    hands: list[list[int]],
    trick: list[tuple[int, int]],
    seat: int,
    tricks_left: int,
    broken: bool,
) -> int:
    """Plain minimax: no pruning, no table, no equivalent cards."""
    led = solver.eff[trick[0][1]] if trick else -1
    maximizing = seat & 1 == solver.team
    results = []
    for card in solver.legal(hands[seat], led, tricks_left, broken):
        hands[seat].remove(card)
        results.append(_after(solver, hands, [*trick, (seat, card)], seat, tricks_left, broken))
        hands[seat].append(card)
    return max(results) if maximizing else min(results)


def _after(
    solver: Solver,
    hands: list[list[int]],
    now: list[tuple[int, int]],
    seat: int,
    tricks_left: int,
    broken: bool,
) -> int:
    if len(now) < solver.active:
        return _brute(solver, hands, now, solver.next_seat[seat], tricks_left, broken)
    winner = now[solver._winner([c for _, c in now])][0]
    won = 1 if winner & 1 == solver.team else 0
    broken = broken or any(solver.eff[c] == solver.trump for _, c in now)
    return (
        won
        if tricks_left == 1
        else won + _brute(solver, hands, [], winner, tricks_left - 1, broken)
    )


def _random_endgame(rules: HouseRules, rng: random.Random, most: int) -> Position | None:
    game = Game(rules, seed=rng.randrange(10**9))
    target = rng.randint(2, most)
    while not game.over and not (
        game.phase == "play" and game.hand_size - len(game.tricks) <= target
    ):
        game.step(rng.choice(list(game.legal())))
    if game.over or game.phase != "play":
        return None
    return Position(
        rules,
        game.trump,
        [list(h) for h in game.hands],
        list(game.out),
        game.turn or 0,
        list(game.trick),
        game.hand_size - len(game.tricks),
        game.trump_broken,
    )


RULE_SETS = [
    HouseRules.preset_rules("north_american"),
    HouseRules.preset_rules("british"),
    HouseRules.preset_rules("six_player"),
    HouseRules.from_spec(
        {"preset": "six_player", "deck": "24", "packs": 2, "duplicate_card_wins": "first"}
    ),
    HouseRules.from_spec({"preset": "almonte", "players": 4, "deck": "almonte21"}),
    HouseRules.from_spec(
        {
            "preset": "north_american",
            "trump_must_be_broken": True,
            "no_trump_lead_first_trick": True,
        }
    ),
]


@pytest.mark.parametrize(
    "rules", RULE_SETS, ids=lambda r: f"{r.preset}-{r.deck}x{r.packs}-{r.trump_must_be_broken}"
)
def test_solver_matches_brute_force(rules: HouseRules) -> None:
    rng = random.Random(rules.deck + rules.preset + str(rules.trump_must_be_broken))
    checked = 0
    while checked < 40:
        pos = _random_endgame(rules, rng, 3 if rules.players == 4 else 2)
        if pos is None:
            continue
        team = rng.choice([0, 1])
        solver = Solver(rules, pos.trump, pos.out, team)
        values = solver.values(pos)
        for card, value in values.items():
            hands = [list(h) for h in pos.hands]
            hands[pos.turn].remove(card)
            expected = _after(
                solver,
                hands,
                [*pos.trick, (pos.turn, card)],
                pos.turn,
                pos.tricks_left,
                pos.trump_broken,
            )
            assert value == expected, (card, values)
        best = max(values.values()) if pos.turn & 1 == team else min(values.values())
        assert Solver(rules, pos.trump, pos.out, team).tricks(pos) == best
        checked += 1


def test_solver_respects_lead_restrictions_from_the_first_trick() -> None:
    rules = HouseRules.from_spec({"preset": "north_american", "no_trump_lead_first_trick": True})
    rng = random.Random(4)
    for seed in range(20):
        game = Game(rules, seed=seed)
        while not game.over and not (game.phase == "play" and not game.trick and not game.tricks):
            game.step(rng.choice(list(game.legal())))
        if game.over:
            continue
        pos = Position(
            rules, game.trump, [list(h) for h in game.hands], list(game.out), game.turn or 0
        )
        values = Solver(rules, pos.trump, pos.out, 0).values(pos)
        assert set(values) == {a.card for a in game.legal()}
