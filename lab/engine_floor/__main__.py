"""``python -m lab.engine_floor``: the floor engines, the rules core and OpenSpiel, in one run.

Compiles ``core.py`` with mypyc into a temporary folder, then plays random
games of each by the rules bench's ``play_out`` loop, each side's
``--seconds`` of CPU time cut into ``ROUNDS`` turns, the sides taking turns.
It prints deals (OpenSpiel: hands) a second and, where OpenSpiel is installed
(the ``bench`` extra), each rate over OpenSpiel's: what an engine whose state
is nothing but machine integers reaches under the same loop on this machine,
and what the loop and the deal alone reach.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.cli import run_main
from bot.rules.house_rules import HouseRules
from lab.bench.rules import OPENSPIEL_MISSING, _openspiel_play, _play, build, play_out

ROUNDS = 4
"""Turns each side's time is cut into, the three taking turns."""

ROOT = Path(__file__).resolve().parents[2]


def compile_floor(folder: Path) -> ModuleType:
    """``core.py`` compiled by mypyc in ``folder``, imported as ``floor_core``."""
    shutil.copy(Path(__file__).with_name("core.py"), folder / "floor_core.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MYPYPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, "-m", "mypyc", "floor_core.py"],
        cwd=folder,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (folder / "floor_core.py").unlink()  # so that the import finds the extension
    built = next(folder.glob("floor_core.*.so"))
    spec = importlib.util.spec_from_file_location("floor_core", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def floor_play(
    make: Callable[[int], Any], seconds: float, seed: int, first_game: int
) -> tuple[int, float]:
    """Random games of ``make(seed)`` for about ``seconds``: (deals, CPU s), as ``_play`` counts."""
    draw = random.Random(seed).getrandbits
    deals = 0
    game_seed = first_game
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(50):
            game = make(game_seed)
            game_seed += 1
            play_out(game.legal, game.step, draw)
            deals += game.deal_number
    return deals, time.process_time() - start


WARM_GAMES = 300
"""Games each side plays before ``--games`` counts: the dealing's and the loop's caches filled."""


def count_games(core: ModuleType, side: str, games: int) -> int:
    """Play ``games`` random games of ``side`` after ``WARM_GAMES``; the deals (hands) played.

    For an instruction counter, as ``python -m lab bench rules --games``: under
    ``valgrind --tool=callgrind``, N games less 0, over the deals printed.
    """
    draw = random.Random(1).getrandbits
    if side == "openspiel":
        game: Any = importlib.import_module("pyspiel").load_game("euchre")
        for _ in range(WARM_GAMES + games):
            state = game.new_initial_state()
            play_out(state.legal_actions, state.apply_action, draw)
        return games
    make = core.new_floor_game if side == "floor" else core.DealOnlyGame
    for seed in range(WARM_GAMES):
        warm = make(1_000_000 + seed)
        play_out(warm.legal, warm.step, draw)
    deals = 0
    for seed in range(games):
        played = make(seed)
        play_out(played.legal, played.step, draw)
        deals += int(played.deal_number)
    return deals


def main(argv: list[str] | None = None) -> int:
    """Print the rates, and each over OpenSpiel's where it is installed."""
    parser = argparse.ArgumentParser(prog="python -m lab.engine_floor", description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="each side's CPU seconds")
    parser.add_argument(
        "--games",
        type=int,
        help="instead: play this many games of --side after a warm-up and print its deals "
        "(for valgrind's instruction count)",
    )
    parser.add_argument("--side", choices=("floor", "deals", "openspiel"), default="floor")
    args = parser.parse_args(argv)
    with_openspiel = _openspiel_play(0.0, 1) is not None
    if args.side == "openspiel" and args.games is not None and not with_openspiel:
        print(OPENSPIEL_MISSING)
        return 2
    rules = HouseRules.preset_rules("north_american")
    with tempfile.TemporaryDirectory() as folder:
        core = compile_floor(Path(folder))
        if args.games is not None:
            print(f"{args.side}: deals {count_games(core, args.side, args.games)}")
            return 0
        floor, dealing, ours, theirs = (0, 0.0), (0, 0.0), (0, 0.0), (0, 0.0)
        share = args.seconds / ROUNDS
        for r in range(ROUNDS):
            deals, elapsed = floor_play(core.DealOnlyGame, share, r + 1, r * 1_000_000)
            dealing = (dealing[0] + deals, dealing[1] + elapsed)
            deals, elapsed = floor_play(core.new_floor_game, share, r + 1, r * 1_000_000)
            floor = (floor[0] + deals, floor[1] + elapsed)
            deals, _actions, elapsed = _play(rules, share, r + 1, r * 1_000_000)
            ours = (ours[0] + deals, ours[1] + elapsed)
            if with_openspiel:
                hands, elapsed = _openspiel_play(share, r + 1) or (0, 0.0)
                theirs = (theirs[0] + hands, theirs[1] + elapsed)
    openspiel = theirs[0] / theirs[1] if theirs[1] else 0.0
    print(f"rules core: {build()}")
    sides = (("deals only", dealing), ("floor engine", floor), ("rules core", ours))
    for name, (count, seconds) in sides:
        rate = count / seconds
        versus = f"  {rate / openspiel:.2f}x OpenSpiel" if openspiel else ""
        print(f"{name:<14}{rate:>10,.0f} deals/s{versus}")
    print(f"{'OpenSpiel':<14}{openspiel:>10,.0f} hands/s" if openspiel else OPENSPIEL_MISSING)
    return 0


if __name__ == "__main__":
    run_main(main)
