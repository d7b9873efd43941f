"""``python -m lab``: matches, yardsticks, training and benchmarks (``--help`` lists them)."""

from __future__ import annotations

import sys

from bot.cli import run_main
from lab.bench.cli import main as bench_main
from lab.players.cli import main as players_main


def main(argv: list[str] | None = None) -> int:
    """``bench ...`` goes to the benchmarks' command line, the rest to the players'."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["bench"]:
        return bench_main(args[1:])
    return players_main(args)


if __name__ == "__main__":
    run_main(main)
