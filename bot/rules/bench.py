"""Speed of the rules core: complete random deals per second and the cost of legal actions.

``python -m bot.rules bench`` plays random legal actions (bidding included) on
one core for every preset and prints deals per second and microseconds per
``legal()`` call.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .game import Game
from .house_rules import PRESETS, HouseRules


@dataclass(frozen=True)
class BenchResult:
    """Figures for one preset."""

    preset: str
    deals: int
    actions: int
    seconds: float
    legal_us: float

    @property
    def deals_per_second(self) -> float:
        """Complete deals per second, thrown-in deals included."""
        return self.deals / self.seconds


def random_deals(rules: HouseRules, seconds: float, seed: int = 1) -> BenchResult:
    """Play random legal actions for about ``seconds`` and count the deals completed."""
    rng = random.Random(seed)
    rand = rng.random
    deals = actions = 0
    game_seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            game = Game(rules, seed=game_seed)
            game_seed += 1
            while not game.over:
                legal = game.legal()
                game.step(legal[int(rand() * len(legal))])
                actions += 1
            deals += game.deal_number
    elapsed = time.perf_counter() - start
    return BenchResult(rules.preset, deals, actions, elapsed, _legal_cost(rules))


def _legal_cost(rules: HouseRules, samples: int = 20_000) -> float:
    """Microseconds per ``legal()`` call, averaged over positions of random games."""
    rng = random.Random(2)
    games: list[Game] = []
    game = Game(rules, seed=99)
    while len(games) < 200:
        if game.over:
            game = Game(rules, seed=len(games) + 100)
        games.append(game)
        game = _advanced_copy(game, rng)
    start = time.perf_counter()
    for i in range(samples):
        games[i % len(games)].legal()
    return (time.perf_counter() - start) / samples * 1e6


def _advanced_copy(game: Game, rng: random.Random) -> Game:
    """A fresh game replayed to the same point and then one random action further."""
    copy = Game(game.rules, seed=game.seed, dealer=game.first_dealer)
    for _seat, action in game.log:
        copy.step(action)
    if not copy.over:
        copy.step(rng.choice(copy.legal()))
    return copy


def main(seconds: float = 2.0) -> None:
    """Print the figures for every preset."""
    print(f"{'preset':<16}{'deals/s':>10}{'actions/s':>12}{'legal() us':>12}")
    for name in PRESETS:
        r = random_deals(HouseRules.preset_rules(name), seconds)
        rate = r.actions / r.seconds
        print(f"{name:<16}{r.deals_per_second:>10,.0f}{rate:>12,.0f}{r.legal_us:>12.2f}")
