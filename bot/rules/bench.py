"""Speed of the rules core: complete random deals per second and the cost of legal actions.

``python -m bot.rules bench`` plays random legal actions (bidding included) on
one core for every preset and prints deals per second (and as a share of
north_american's, "vs NA"), actions per second and per deal, and microseconds
per ``legal()`` call. ``--against openspiel`` also plays random hands of OpenSpiel's
C++ euchre, driven from Python the same way (its chance nodes, the deal, included),
and prints both figures and their ratio from the same run. Times are the
process's CPU time, so other work on a shared machine disturbs them less. A Bid
Euchre game stops after ``MAX_DEALS`` deals: random Bid Euchre bids wildly, so
its scores drift and a random game rarely reaches 32.
"""

from __future__ import annotations

import importlib
import random
import time
from dataclasses import dataclass
from typing import Any

from . import game as game_module
from .bid_game import make_game
from .game import Game
from .house_rules import PRESETS, HouseRules

MAX_DEALS = 20
"""Deals of one random game before the bench starts another."""


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
    capped = rules.game == "bid_euchre"
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(50):
            game = make_game(rules, seed=game_seed)
            game_seed += 1
            step = game.step
            legal = game.legal()
            if capped:
                while legal and game.deal_number <= MAX_DEALS:
                    step(legal[int(rand() * len(legal))])
                    legal = game.legal()
            else:
                while legal:  # empty once the game is over
                    step(legal[int(rand() * len(legal))])
                    legal = game.legal()
            actions += len(game.log)
            deals += game.deal_number if game.over else game.deal_number - 1
    elapsed = time.process_time() - start
    return BenchResult(rules.preset, deals, actions, elapsed, _legal_cost(rules))


def _legal_cost(rules: HouseRules, samples: int = 20_000) -> float:
    """Microseconds per ``legal()`` call, averaged over positions of random games."""
    rng = random.Random(2)
    games: list[Game] = []
    game = make_game(rules, seed=99)
    while len(games) < 200:
        if game.over or game.deal_number > MAX_DEALS:
            game = make_game(rules, seed=len(games) + 100)
        games.append(game)
        game = _advanced_copy(game, rng)
    start = time.process_time()
    for i in range(samples):
        games[i % len(games)].legal()
    return (time.process_time() - start) / samples * 1e6


def _advanced_copy(game: Game, rng: random.Random) -> Game:
    """A fresh game replayed to the same point and then one random action further."""
    copy = make_game(game.rules, seed=game.seed, dealer=game.first_dealer)
    for _seat, action in game.log:
        copy.step(action)
    if not copy.over:
        copy.step(rng.choice(copy.legal()))
    return copy


def build() -> str:
    """Which build of the engine runs: compiled by mypyc, or the pure-Python sources."""
    source = game_module.__file__ or ""
    return "pure Python" if source.endswith(".py") else "compiled by mypyc"


OPENSPIEL_MISSING = (
    "OpenSpiel is not installed: pip install -e '.[bench]' (or pip install open-spiel) "
    "to compare with its C++ euchre."
)


def openspiel_hands(seconds: float, seed: int = 1) -> float | None:
    """Complete random hands a second of OpenSpiel's euchre; None when it is not installed.

    Driven like ``random_deals``: a uniformly random legal action at every node,
    chance nodes (the deal) included.
    """
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rand = random.Random(seed).random
    hands = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(50):
            state = game.new_initial_state()
            apply = state.apply_action
            while not state.is_terminal():
                legal = state.legal_actions()
                apply(legal[int(rand() * len(legal))])
            hands += 1
    return hands / (time.process_time() - start)


def main(seconds: float = 2.0, against: str | None = None) -> int:
    """Print the figures for every preset (and OpenSpiel's); 2 when the comparison cannot run."""
    theirs: float | None = None
    if against == "openspiel":
        theirs = openspiel_hands(seconds)
        if theirs is None:
            print(OPENSPIEL_MISSING)
            return 2
    print(f"rules core: {build()}")
    print(
        f"{'preset':<16}{'deals/s':>10}{'vs NA':>7}{'actions/s':>12}{'actions/deal':>14}"
        f"{'legal() us':>12}"
    )
    ours = 0.0
    for name in PRESETS:
        r = random_deals(HouseRules.preset_rules(name), seconds)
        if name == "north_american":
            ours = r.deals_per_second
        share = r.deals_per_second / ours if ours else 0.0
        print(
            f"{name:<16}{r.deals_per_second:>10,.0f}{share:>7.2f}{r.actions / r.seconds:>12,.0f}"
            f"{r.actions / max(r.deals, 1):>14.1f}{r.legal_us:>12.2f}"
        )
    if theirs is not None:
        # Measured again after ours, so a machine that grows busier shows in both figures.
        theirs = (theirs + (openspiel_hands(seconds) or theirs)) / 2
        print(
            f"OpenSpiel euchre (C++, from Python): {theirs:,.0f} hands/s; "
            f"north_american {ours:,.0f} deals/s = {ours / theirs:.2f}x"
        )
    return 0
