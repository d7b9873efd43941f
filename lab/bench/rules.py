"""Speed of the rules core: complete random deals per second and the cost of legal actions.

``python -m lab bench rules`` plays random legal actions (bidding included) on
one core for every preset and prints deals per second (and as a share of
north_american's, "vs NA"), actions per second and per deal, and microseconds
per ``legal()`` call. ``--against openspiel`` also plays random hands of OpenSpiel's
C++ euchre and prints both figures and their ratio from the same run.

Both sides are driven from Python by the same loop, ``play_out``, given a game's
two bound methods: our ``Game.legal`` and ``Game.step``, OpenSpiel's
``State.legal_actions`` and ``State.apply_action``. It asks for the legal
actions, applies one drawn uniformly at random (``getrandbits(32)`` modulo their
number) and asks again, until the list comes back empty, which both engines
return once the game is over: neither side makes any other call. OpenSpiel
deals by chance nodes, whose legal actions are the cards that may come next, so
the loop draws its deal card by card (22 of its 43 nodes a hand); ours deals
inside the engine from the game's seed. Each new game is made the same way too:
``new_game(rules, seed=...)`` and ``game.new_initial_state()``. A hand of
OpenSpiel's ends with its deal's score; a game of ours runs to the target score,
counted in deals.

Times are the process's CPU time, so other work on a shared machine disturbs
them less, and the presets take turns in short slices, so a spell of such work
is shared among them rather than falling on one preset's figure. A Bid Euchre
game stops after ``MAX_DEALS`` deals: random Bid Euchre bids wildly, so its
scores drift and a random game rarely reaches 32.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules import game as game_module
from bot.rules.game import Game, new_game
from bot.rules.house_rules import PRESETS, HouseRules

MAX_DEALS = 20
"""Deals of one random game before the bench starts another."""


ROUNDS = 4
"""Slices each preset's time is cut into, the presets taking turns (see ``main``)."""


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
    deals, actions, elapsed = _play(rules, seconds, seed)
    return BenchResult(rules.preset, deals, actions, elapsed, _legal_cost(rules))


def play_out(
    legal_of: Callable[[], Sequence[Any]],
    apply: Callable[[Any], object],
    draw: Callable[[int], int],
) -> None:
    """Play a game to its end: a random legal action at a time, until none is left.

    The one loop both sides run (see the module's docstring); ``draw`` is a
    ``random.Random``'s ``getrandbits``.
    """
    legal = legal_of()
    while legal:
        apply(legal[draw(32) % len(legal)])
        legal = legal_of()


def _play(
    rules: HouseRules, seconds: float, seed: int, first_game: int = 0
) -> tuple[int, int, float]:
    """Random games from game seed ``first_game`` for about ``seconds``: (deals, actions, CPU s)."""
    draw = random.Random(seed).getrandbits
    deals = actions = 0
    game_seed = first_game
    capped = rules.game == "bid_euchre"
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(50):
            game = new_game(rules, seed=game_seed)
            game_seed += 1
            if capped:  # the same loop, stopped after MAX_DEALS deals
                legal_of, apply = game.legal, game.step
                legal = legal_of()
                while legal and game.deal_number <= MAX_DEALS:
                    apply(legal[draw(32) % len(legal)])
                    legal = legal_of()
            else:
                play_out(game.legal, game.step, draw)
            actions += len(game.log)
            deals += game.deal_number if game.over else game.deal_number - 1
    return deals, actions, time.process_time() - start


def count_games(games: int, preset: str = "north_american") -> int:
    """Play ``games`` random games (seeds 0 on) by ``play_out`` after one to warm up; their deals.

    For an instruction counter rather than a clock (``--games``): run it under
    ``valgrind --tool=callgrind`` with N games and with 0; the difference of the
    two counts over the deals printed is the instructions a deal, whatever else
    the machine is doing. Thrown-in deals count, as in ``_play``.
    """
    rules = HouseRules.preset_rules(preset)
    draw = random.Random(1).getrandbits
    warm = new_game(rules, seed=1_000_000)  # what a first game builds stays out of the difference
    play_out(warm.legal, warm.step, draw)
    deals = 0
    for seed in range(games):
        game = new_game(rules, seed=seed)
        play_out(game.legal, game.step, draw)
        deals += game.deal_number
    return deals


def _legal_cost(rules: HouseRules, samples: int = 20_000) -> float:
    """Microseconds per ``legal()`` call, averaged over positions of random games."""
    rng = random.Random(2)
    games: list[Game] = []
    game = new_game(rules, seed=99)
    while len(games) < 200:
        if game.over or game.deal_number > MAX_DEALS:
            game = new_game(rules, seed=len(games) + 100)
        games.append(game)
        game = _advanced_copy(game, rng)
    start = time.process_time()
    for i in range(samples):
        games[i % len(games)].legal()
    return (time.process_time() - start) / samples * 1e6


def _advanced_copy(game: Game, rng: random.Random) -> Game:
    """A fresh game replayed to the same point and then one random action further."""
    copy = new_game(game.rules, seed=game.seed, dealer=game.first_dealer)
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

    Driven by ``play_out`` as ``random_deals`` drives ours: a random legal action at
    every node, chance nodes (the deal) included.
    """
    played = _openspiel_play(seconds, seed)
    return None if played is None else played[0] / played[1]


def _openspiel_play(seconds: float, seed: int) -> tuple[int, float] | None:
    """Random hands of OpenSpiel's euchre for about ``seconds``: (hands, CPU s); None without it."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    draw = random.Random(seed).getrandbits
    hands = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(50):
            state = game.new_initial_state()
            play_out(state.legal_actions, state.apply_action, draw)
            hands += 1
    return hands, time.process_time() - start


def main(seconds: float = 2.0, against: str | None = None) -> int:
    """Print the figures for every preset (and OpenSpiel's); 2 when the comparison cannot run.

    Each preset's ``seconds`` are played in ``ROUNDS`` slices, the presets (and
    OpenSpiel) taking turns, so that a spell of other work on a shared machine
    slows them all a little rather than one of them a lot.
    """
    if against == "openspiel" and _openspiel_play(0.0, 1) is None:  # not installed
        print(OPENSPIEL_MISSING)
        return 2
    print(f"rules core: {build()}")
    rules = {name: HouseRules.preset_rules(name) for name in PRESETS}
    played = {name: (0, 0, 0.0) for name in PRESETS}
    theirs = (0, 0.0)
    for r in range(ROUNDS):
        for name in PRESETS:
            deals, actions, elapsed = _play(rules[name], seconds / ROUNDS, r + 1, r * 1_000_000)
            d, a, e = played[name]
            played[name] = (d + deals, a + actions, e + elapsed)
        if against == "openspiel":
            hands, elapsed = _openspiel_play(seconds / ROUNDS, r + 1) or (0, 0.0)
            theirs = (theirs[0] + hands, theirs[1] + elapsed)
    print(
        f"{'preset':<16}{'deals/s':>10}{'vs NA':>7}{'actions/s':>12}{'actions/deal':>14}"
        f"{'legal() us':>12}"
    )
    ours = 0.0
    for name in PRESETS:
        deals, actions, elapsed = played[name]
        rate = deals / elapsed
        if name == "north_american":
            ours = rate
        print(
            f"{name:<16}{rate:>10,.0f}{rate / ours if ours else 0.0:>7.2f}"
            f"{actions / elapsed:>12,.0f}{actions / max(deals, 1):>14.1f}"
            f"{_legal_cost(rules[name]):>12.2f}"
        )
    if against == "openspiel":
        hands_per_second = theirs[0] / theirs[1]
        print(
            f"OpenSpiel euchre (C++, from Python): {hands_per_second:,.0f} hands/s; "
            f"north_american {ours:,.0f} deals/s = {ours / hands_per_second:.2f}x"
        )
    return 0
