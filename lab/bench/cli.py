"""Benchmarks' command line: one subcommand for each bench of lab/bench.

``python -m lab bench rules [--seconds S] [--against openspiel] [--games N]``: random deals a second
of every preset through the rules core. ``python -m lab bench search [--presets ...]``:
the expert's search speed.
``python -m lab bench tables [--tables N] [--clicks K] [--think S] ...``: N concurrent
tables through the interaction harness; ``--database-url URL`` runs it on an empty
database (PostgreSQL), not a temp SQLite file.
``python -m lab bench writes [--processes P] [--seconds S] [--database-url URL]``: the
moves a second the store itself saves.
``python -m lab bench hints [--hints N] [--rules PRESET]`` times the Hint button's answer.
``python -m lab bench review [--deals N] [--rules PRESET]`` times a whole deal's review.
``python -m lab bench web [--players N] [--games G] [--database-url URL]``: the web
pages' server time, weight and requests a second over a big league (:mod:`.web`).
``python -m lab bench pace [--moves M] [--think S] [--delay S] [--only SCENARIO]
[--waiter-seconds S]``: the public table's pace and turn pings under Discord's rate
limits (:mod:`.pace`).
``python -m lab bench activity [--moves N] [--spectators S] [--buttons F]``: a move's
time to every socket of the Activity's live table (:mod:`.activity`); with ``--browsers``,
a click's time until four Chromium pages have drawn it (:mod:`.activity_browsers`).
``python -m lab bench tournament [--players N] [--gap S] [--through]``: a started event's
tables and pings under the same limits, and what Discord refused over the whole run
(:mod:`.tournament`). ``python -m lab bench night [--players N] [--casual C] [--web-rate R]
...``: a whole night on one bot process (:mod:`.night`). The help texts are
plain text with every default shown (``--help``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Protocol

from bot.cli import run_main
from bot.rules import PRESETS, HouseRules
from bot.store import StoreError
from lab.options import database_url, number, preset, seed

from .activity import ActivityBenchOptions
from .activity import run as run_activity
from .activity_browsers import run_browsers
from .hints import time_hints
from .night import add_night_parser, night
from .pace import PaceOptions
from .pace import run as run_pace
from .review import time_reviews
from .rules import build as rules_build
from .rules import count_games
from .rules import main as rules_bench
from .search import main as search_bench
from .tables import BenchDatabaseError, BenchOptions, run
from .tournament import TournamentOptions
from .tournament import run as run_tournament
from .web import WebBenchOptions
from .web import run as run_web
from .writes import run_writes


class Report(Protocol):
    """A bench's figures, as it prints them."""

    def text(self) -> str:
        """The figures in lines of text."""
        ...


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m lab bench``, every option's default in its help."""
    parser = argparse.ArgumentParser(
        prog="python -m lab bench",
        description="Benchmarks of the bot that print figures: the rules core, the search, "
        "and the whole bot in-process through the interaction harness (from a source checkout).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    tp = sub.add_parser(
        "tables",
        help="N concurrent tables of four simulated people, stored in a database",
        description="N concurrent tables, each with four simulated people who click "
        "through a game, every move stored in SQLite (or the database of --database-url); "
        "prints click latency, storage, memory and restore figures.",
    )
    number(tp, "--tables", 100, "concurrent tables")
    number(tp, "--clicks", 30, "moves per table")
    number(
        tp, "--think", 5.0, "mean seconds a simulated person thinks before a move, 0 for no pause"
    )
    seed(tp, "seed of the people's choices")
    tp.add_argument(
        "--db", type=Path, default=None, help="SQLite file to use (default: a temporary file)"
    )
    database_url(
        tp,
        "an empty database to use instead: sqlite:///PATH or "
        "postgresql://user:password@host/db (default: none)",
    )
    ap = sub.add_parser(
        "activity",
        help="the Activity's live table: a move's time to every socket, with watchers",
        description="The Activity at its shipped defaults over loopback websockets: four "
        "people play random moves (a share of them by the buttons' service call), S more "
        "sockets watch; prints the time from a move to the last player's socket and to the "
        "last socket of all, p50/p95 with the p95's 95%% interval (goal: p95 150 ms).",
    )
    number(ap, "--moves", 400, "moves to time")
    number(ap, "--spectators", 100, "watching sockets")
    number(ap, "--buttons", 0.25, "share of the moves made through the buttons' call")
    seed(ap)
    ap.add_argument(
        "--browsers",
        action="store_true",
        help="four people in Chromium pages instead of sockets, clicking (needs chromium)",
    )
    wp = sub.add_parser(
        "writes",
        help="moves a second the store saves, on P connections at once",
        description="Save the moves of whole games with append_action, the one write a "
        "click makes, as fast as possible on P connections; prints moves saved a second.",
    )
    number(wp, "--processes", 1, "connections at once")
    number(wp, "--seconds", 5.0, "how long to run")
    database_url(wp, "the database to write to (default: a temporary SQLite file)")
    hp = sub.add_parser(
        "hints",
        help="time of a hint (the expert's advice and its line) at real positions",
        description="Games played by basic; at each decision with a choice, the time the "
        "Hint button's answer takes to work out (goal: within 1 s).",
    )
    number(hp, "--hints", 200, "hints to time")
    preset(hp)
    seed(hp)
    rp = sub.add_parser(
        "review",
        help="time of a whole deal's review (one seat's decisions), on one core",
        description="Deals played by basic; one seat's decisions in each reviewed at the "
        "review's budget, words included: CPU time of the whole deal's review and of each "
        "decision, p50/p95/max (goal: a deal within 3 s p95).",
    )
    number(rp, "--deals", 40, "deals to review")
    preset(rp)
    seed(rp)
    pp = sub.add_parser(
        "pace",
        help="click-to-table lag under Discord's rate limits, on the e2e fake Discord",
        description="The bot as a process against a fake Discord that answers rate limits "
        "as Discord does: four people at one table, one person with three computers, and "
        "three tables sharing one channel; with --waiter-seconds (or --only waiter), four "
        "people of whom one waits on each turn. Prints click-to-table lag p50/p95/max, "
        "channel edits per 5 s, 429 answers and turn pings (with a waiter: pings per waited "
        "turn and each ping's lateness after ping_after, p50/p95/max).",
    )
    number(pp, "--moves", 40, "moves per table")
    number(pp, "--think", 0.8, "seconds a person thinks before each move")
    number(pp, "--delay", 1.0, "computer_move_delay in seconds, as the bot has it")
    pp.add_argument(
        "--only",
        choices=("four", "computers", "shared", "waiter"),
        action="append",
        help="run only this scenario (repeat for more; default: four, computers, shared)",
    )
    pp.add_argument(
        "--waiter-seconds",
        type=float,
        default=None,
        help="also run the waiter scenario: one of four people waits this many seconds on "
        "each of their turns (default: not run; 20 s under --only waiter)",
    )
    bp = sub.add_parser(
        "rules",
        help="measure random deals per second for every preset",
        description="Play random deals of every preset for a while and print deals per "
        "second and the time legal() takes; --against openspiel also times OpenSpiel's "
        "euchre in the same run and prints the ratio.",
    )
    number(bp, "--seconds", 2.0, "time per preset")
    bp.add_argument(
        "--against",
        choices=["openspiel"],
        help="also time OpenSpiel's C++ euchre (the optional 'bench' extra) and print the ratio",
    )
    bp.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="instead, play exactly N random north_american games and print their deals, "
        "for an instruction counter: valgrind --tool=callgrind with N and with 0, the "
        "difference over the deals is the instructions a deal (default: timed, as above)",
    )
    sp = sub.add_parser(
        "search",
        help="search speed: double-dummy solves and basic rollouts a second",
        description="The expert's search speed on one core: positions solved double dummy a "
        "second from 5-card hands and from mid-deal, and deals played out a second by the "
        "basic player from the first bid (CPU time, seeded positions).",
    )
    sp.add_argument(
        "--presets",
        nargs="+",
        choices=list(PRESETS),
        metavar="PRESET",
        help=f"presets to time, of {', '.join(PRESETS)}; north_american when not given",
    )
    number(sp, "--repeat", 1, "times each position is solved and each deal played out")
    _web_parser(sub)
    _tournament_parser(sub)
    add_night_parser(sub)
    return parser


def _tournament_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tp = sub.add_parser(
        "tournament",
        help="a started event's tables and pings under Discord's rate limits, on the fake",
        description="The bot as a process against a fake Discord that answers rate limits "
        "as Discord does: a director opens a progressive event, N members press Join, the "
        "director presses Start now; prints the seconds from the Start click until every "
        "table is posted in its thread and every seated person pinged, the 429 answers, and "
        "how far behind the event's states the live event message ever was.",
    )
    number(tp, "--players", 64, "members who sign up, a multiple of 4")
    number(tp, "--gap", 0.02, "seconds between two Join clicks")
    tp.add_argument(
        "--through",
        action="store_true",
        help="then play the event through to its champion, the members at every table",
    )
    number(tp, "--rounds", 3, "rounds")
    number(tp, "--deals", 2, "deals a round")


def _tournament(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.players < 4 or args.players % 4 or args.gap < 0:
        parser.error("--players must be a multiple of 4 from 4 up, --gap at least 0")
    if args.rounds < 1 or args.deals < 1:
        parser.error("--rounds and --deals must be at least 1")
    options = TournamentOptions(args.players, args.gap, args.through, args.rounds, args.deals)
    figures = asyncio.run(run_tournament(options))
    print(figures.text())
    return 1 if figures.problems else 0  # Discord would have refused something


def _web_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    wb = sub.add_parser(
        "web",
        help="the web pages' server time, weight and requests a second over a big league",
        description="Seed a store (a temporary SQLite file, or --database-url) with one "
        "public server: rated players, archived games (real records of the rules core, "
        "reused under other ids and players) and a few open tables; then serve the pages "
        "on loopback and print the server time p50/p95 of the server, player and game "
        "pages (cold: made from the store; warm: from the page cache), each page's weight "
        "with everything it loads, requests a second on the server page, cache warm, and "
        "pages made fresh a second, from a client in another process: every request from "
        "a loopback address of its own visitor, at the shipped rate limit.",
    )
    number(wb, "--players", 10_000, "rated players")
    number(wb, "--games", 100_000, "archived games")
    number(wb, "--records", 300, "distinct game records the games reuse")
    number(wb, "--samples", 200, "requests timed per page kind, cold and warm each")
    number(wb, "--load", 5_000, "requests of the server page's load, 0 for none")
    number(wb, "--concurrency", 32, "load requests at once")
    number(wb, "--fresh", 1_200, "requests of each load of pages no cache holds, 0 for none")
    number(wb, "--fresh-clients", 8, "fresh-page requests at once")
    number(
        wb,
        "--web-processes",
        0,
        "page processes of python -m bot web serving the loads (0: the setting's default, "
        "one per core)",
    )
    database_url(
        wb,
        "an empty database to seed instead: postgresql://user:password@host/db "
        "(default: a temporary SQLite file)",
    )


def _web(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.players < 4 or args.games < 1 or args.records < 1 or args.samples < 1:
        parser.error("--players must be at least 4, --games, --records and --samples at least 1")
    if args.load < 0 or args.concurrency < 1 or args.fresh < 0 or args.fresh_clients < 1:
        parser.error(
            "--load and --fresh must be at least 0, --concurrency and --fresh-clients at least 1"
        )
    if args.web_processes < 0:
        parser.error("--web-processes must be at least 0")
    options = WebBenchOptions(
        players=args.players,
        games=args.games,
        records=args.records,
        samples=args.samples,
        load=args.load,
        concurrency=args.concurrency,
        fresh=args.fresh,
        fresh_clients=args.fresh_clients,
        web_processes=args.web_processes,
        database_url=args.database_url,
    )
    return _report(run_web(options))


def _writes(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.processes < 1 or args.seconds <= 0:
        parser.error("--processes must be at least 1, --seconds above 0")
    return _report(run_writes(args.database_url, processes=args.processes, seconds=args.seconds))


def _report(bench: Coroutine[Any, Any, Report]) -> int:
    """Run a bench of a store and print its report; 2 and one line when the store refuses."""
    try:
        report = asyncio.run(bench)
    except (BenchDatabaseError, StoreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report.text())
    return 0


def _pace(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.moves < 1 or args.think < 0 or args.delay < 0:
        parser.error("--moves must be at least 1, --think and --delay at least 0")
    if args.waiter_seconds is not None and args.waiter_seconds <= 0:
        parser.error("--waiter-seconds must be above 0")
    defaults = PaceOptions()
    scenarios = tuple(dict.fromkeys(args.only or defaults.scenarios))
    if args.waiter_seconds is not None and "waiter" not in scenarios:
        scenarios += ("waiter",)
    waiter = defaults.waiter if args.waiter_seconds is None else args.waiter_seconds
    options = PaceOptions(args.moves, args.think, args.delay, scenarios, waiter)
    figures = asyncio.run(run_pace(options))
    print("\n".join(f.text() for f in figures))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the benchmark, print its figures; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "rules":
        if args.games is not None:
            print(f"rules core: {rules_build()}; deals: {count_games(args.games)}")
            return 0
        return rules_bench(args.seconds, args.against)
    if args.command == "search":
        search_bench(args.presets or ["north_american"], max(1, args.repeat))
        return 0
    if args.command == "writes":
        return _writes(parser, args)
    if args.command == "hints":
        print(time_hints(HouseRules.preset_rules(args.rules), args.hints, args.seed).report())
        return 0
    if args.command == "review":
        rules = HouseRules.preset_rules(args.rules)
        print(time_reviews(rules, args.deals, args.seed).report())
        return 0
    if args.command == "pace":
        return _pace(args, parser)
    if args.command == "web":
        return _web(parser, args)
    if args.command == "tournament":
        return _tournament(args, parser)
    if args.command == "night":
        return night(args, parser)
    if args.command == "activity":
        if args.moves < 1 or args.spectators < 0 or not 0 <= args.buttons <= 1:
            parser.error("--moves must be at least 1, --spectators at least 0, --buttons 0 to 1")
        if args.browsers:
            print(asyncio.run(run_browsers(args.moves, args.seed)))
            return 0
        wanted = ActivityBenchOptions(args.moves, args.spectators, args.buttons, args.seed)
        print(asyncio.run(run_activity(wanted)).text())
        return 0
    if args.tables < 1 or args.clicks < 1 or args.think < 0:
        parser.error("--tables and --clicks must be at least 1, --think at least 0")
    options = BenchOptions(
        args.tables, args.clicks, args.think, args.seed, args.db, args.database_url
    )
    return _report(run(options))


if __name__ == "__main__":
    run_main(main)
