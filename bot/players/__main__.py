"""Command line of the players: ``arena`` (duplicate matches) and ``loners`` (lone-hand figures).

    python -m bot.players arena --a basic --b random --games 200 --seed 1 --rules toronto
    python -m bot.players arena --a mypkg.bots:Greedy --b basic --games 100
    python -m bot.players loners --level basic --deals 20000 --rules british
    python -m bot.players ceiling --games 400 --rules toronto [--bids]
    python -m bot.players deals --a expert --b basic --deals 1500 --jobs 2

``--rules`` takes a preset name or a JSON spec such as
``'{"preset": "north_american", "stick_the_dealer": true}'``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bot.rules import HouseRules, RulesError

from .arena import (
    EndlessGameError,
    IllegalActionError,
    deals_report,
    loner_report,
    loner_trials,
    report,
    run_deals,
    run_match,
)
from .ceiling import run_ceiling
from .protocol import PlayerError


def _rules(text: str) -> HouseRules:
    if text.lstrip().startswith("{"):
        return HouseRules.from_spec(json.loads(text))
    return HouseRules.preset_rules(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.players", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    arena = commands.add_parser("arena", help="duplicate match between two players")
    arena.add_argument("--a", default="basic", help="side A: a level or module:Class")
    arena.add_argument("--b", default="random", help="side B: a level or module:Class")
    arena.add_argument("--games", type=int, default=200, help="duplicate pairs (each played twice)")
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--rules", default="north_american", help="preset name or JSON spec")
    arena.add_argument("--jobs", type=int, default=1, help="worker processes")
    loners = commands.add_parser("loners", help="how often a level's lone hands sweep")
    loners.add_argument("--level", default="basic")
    loners.add_argument("--deals", type=int, default=5000)
    loners.add_argument("--seed", type=int, default=1)
    loners.add_argument("--rules", default="north_american", help="preset name or JSON spec")
    ceiling = commands.add_parser(
        "ceiling", help="duplicate games of a side that sees every card against basic"
    )
    ceiling.add_argument("--games", type=int, default=200, help="duplicate pairs")
    ceiling.add_argument("--seed", type=int, default=1)
    ceiling.add_argument("--rules", default="north_american", help="preset name or JSON spec")
    ceiling.add_argument("--bids", action="store_true", help="also bid on the real deal")
    ceiling.add_argument("--jobs", type=int, default=1, help="worker processes")
    single = commands.add_parser(
        "deals", help="duplicate single deals from 0-0: net points a deal, finer than games"
    )
    single.add_argument("--a", default="basic", help="side A: a level or module:Class")
    single.add_argument("--b", default="random", help="side B: a level or module:Class")
    single.add_argument("--deals", type=int, default=2000)
    single.add_argument("--seed", type=int, default=1)
    single.add_argument("--rules", default="north_american", help="preset name or JSON spec")
    single.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    try:
        rules = _rules(args.rules)
        start = time.perf_counter()
        if args.command == "arena":
            result = run_match(args.a, args.b, args.games, args.seed, rules, jobs=args.jobs)
            print(report(result))
        elif args.command == "deals":
            print(deals_report(run_deals(args.a, args.b, args.deals, args.seed, rules, args.jobs)))
        elif args.command == "ceiling":
            print(report(run_ceiling(args.games, args.seed, rules, args.bids, args.jobs)))
        else:
            stats = loner_trials(args.level, args.deals, args.seed, rules)
            print(loner_report(args.level, stats, rules))
        print(f"({time.perf_counter() - start:.1f} s)")
    except (
        RulesError,
        PlayerError,
        IllegalActionError,
        EndlessGameError,
        json.JSONDecodeError,
    ) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
