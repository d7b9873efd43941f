"""Speed of the search the expert runs: double-dummy solves and basic-policy rollouts a second.

``python -m lab bench search`` prints three figures, each the process's CPU time
over a fixed set of seeded positions (so a shared machine disturbs them less):

- positions solved a second from 5-card hands (a fresh ``Solver`` valuing every
  legal card of the first lead, as the expert does at its first card);
- the same from mid-deal (the third trick, one card already led);
- rollouts a second: a seeded deal at the first bid, copied, one random legal bid
  applied, and the rest of the deal played by the basic player in every seat
  from its own view (the expert's ``_try``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.players.basic import BasicPlayer
from bot.players.double_dummy import Position, Solver
from bot.rules import Game, HouseRules, new_game, seat_view
from lab.bench.rules import build


@dataclass(frozen=True)
class SearchBench:
    """Figures for one rule set."""

    preset: str
    solves_start: float
    solves_mid: float
    rollouts: float


def positions(rules: HouseRules, count: int, tricks_done: int, cards_led: int) -> list[Position]:
    """Seeded positions of random deals: ``tricks_done`` tricks played and ``cards_led`` more."""
    rng = random.Random(11)
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        game = new_game(rules, seed=seed)
        seed += 1
        while not game.over and not (
            game.phase == "play"
            and len(game.tricks) == tricks_done
            and len(game.trick) == cards_led
        ):
            game.step(rng.choice(list(game.legal())))
        if game.over or game.deal_number > 1 or game.trump is None or game.turn is None:
            continue
        found.append(
            Position(
                rules,
                game.trump,
                [list(h) for h in game.hands],
                list(game.out),
                game.turn,
                list(game.trick),
                rules.hand_size - tricks_done,
                game.trump_broken,
            )
        )
    return found


def solves_per_second(rules: HouseRules, found: list[Position], repeat: int = 1) -> float:
    """Positions valued a second, each by a fresh solver for the seat to play's team."""
    start = time.process_time()
    for _ in range(repeat):
        for pos in found:
            Solver(rules, pos.trump, pos.out, pos.turn % 2).values(pos)
    return repeat * len(found) / (time.process_time() - start)


def bid_games(rules: HouseRules, count: int) -> list[Game]:
    """Seeded games at their first bidding turn."""
    return [new_game(rules, seed=1000 + k) for k in range(count)]


def rollouts_per_second(rules: HouseRules, games: list[Game], repeat: int = 1) -> float:
    """Deals played out a second from the first bid by the basic player in every seat."""
    rng = random.Random(5)
    basic = BasicPlayer(1)
    start = time.process_time()
    for _ in range(repeat):
        for start_game in games:
            game = start_game.copy()
            game.step(rng.choice(list(game.legal())))
            while game.deal_number == 1 and not game.over:
                seat = game.turn
                assert seat is not None
                game.step(basic.choose(seat_view(game, seat)))
    return repeat * len(games) / (time.process_time() - start)


def run(preset: str, scale: int = 1) -> SearchBench:
    """The three figures for one preset; ``scale`` repeats the work for steadier figures."""
    rules = HouseRules.preset_rules(preset)
    start = positions(rules, 40, 0, 0)
    mid = positions(rules, 200, 2, 1)
    games = bid_games(rules, 200)
    return SearchBench(
        preset,
        solves_per_second(rules, start, scale),
        solves_per_second(rules, mid, scale),
        rollouts_per_second(rules, games, scale),
    )


def main(presets: list[str], scale: int = 1) -> None:
    """Print the figures for each preset."""
    print(f"rules core and search: {build()}")
    print(f"{'preset':<16}{'solves/s 5 cards':>18}{'solves/s mid-deal':>19}{'rollouts/s':>12}")
    for name in presets:
        r = run(name, scale)
        print(f"{name:<16}{r.solves_start:>18,.0f}{r.solves_mid:>19,.0f}{r.rollouts:>12,.0f}")
