"""Night benchmark: a whole community night on one bot process, measured end to end.

Runs the unmodified bot as a process against the fake Discord of ``tests/e2e`` with
Discord's limits on, at the settings people get: a progressive tournament of
``--players`` members in threads, ``--casual`` tables of one member and three expert
computers, every member clicking Review after each game, ``--web-rate`` page requests a
second to the bot's pages. Printed, each against its goal: every interaction's first
answer, a member's card on the table per table, a computer's move after its turn
began, the 429 answers (the global limit included), the reviews delivered, and the
bot's memory, CPU per table and tables per core. The measures are
:mod:`tests.kit.night`'s.

Like ``tournament``, it needs a source checkout: the fake Discord is the test kit's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

from lab.options import number, seed
from tests.kit import night as night_kit

__all__ = ["add_night_parser", "night"]


def add_night_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``python -m lab bench night``'s options, each default in its help."""
    np = sub.add_parser(
        "night",
        help="a whole night on one bot process: tournament, casual tables, reviews, pages",
        description="The bot as a process against the fake Discord with Discord's limits "
        "on: a progressive tournament in threads, casual tables of one member and three "
        "experts, a Review after every game, page requests to the bot's web pages; prints "
        "first answers, cards and computer moves on the table, 429s, reviews delivered, "
        "memory, CPU per table and tables per core, each against its goal.",
    )
    number(np, "--players", 64, "tournament members, a multiple of 4")
    number(np, "--casual", 8, "casual tables")
    number(np, "--rounds", 3, "tournament rounds")
    number(np, "--deals", 2, "deals a tournament game lasts")
    number(np, "--think", 1.0, "mean seconds a member thinks before a move")
    number(np, "--web-rate", 20.0, "page requests a second")
    number(np, "--delay", 1.0, "seconds between computer moves, the bot's computer_move_delay")
    seed(np, "seed of the members' choices")


def night(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the night of ``args``; print its figures."""
    if args.players < 4 or args.players % 4 or args.casual < 0 or args.rounds < 1:
        parser.error(
            "--players must be a multiple of 4 from 4 up, --casual at least 0, --rounds at least 1"
        )
    if args.deals < 1 or args.think < 0 or args.web_rate <= 0 or not 0 <= args.delay <= 60:
        parser.error(
            "--deals must be at least 1, --think at least 0, --web-rate above 0, "
            "--delay from 0 to 60"
        )
    options = night_kit.Night(
        players=args.players,
        casual=args.casual,
        rounds=args.rounds,
        deals=args.deals,
        think=args.think,
        web_rate=args.web_rate,
        computer_move_delay=args.delay,
        seed=args.seed,
    )
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="euchre-night-") as folder:
        figures = asyncio.run(night_kit.run_night(Path(folder), options))
    print(figures.text())
    print(
        f"  load average: {before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
        f"({os.cpu_count()} cores)"
    )
    return 0
