"""The options of ``python -m lab``: one parser, every command's flags and their defaults.

:func:`build_parser` is read by :mod:`.cli`, which runs the command it names.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bot.players.protocol import LEVELS
from bot.players.review import REVIEW_BUDGET
from bot.rules import HouseRules
from lab.options import number, preset, seed, with_default

from .bid_regret import SIZES
from .review_gap import BLOCK, LEAST

__all__ = ["PAIRS", "build_parser", "rules_of"]


def rules_of(text: str) -> HouseRules:
    """The house rules ``--rules`` names: a preset's name or a JSON spec."""
    if text.lstrip().startswith("{"):
        return HouseRules.from_spec(json.loads(text))
    return HouseRules.preset_rules(text)


_EXAMPLES = """\
examples:
  python -m lab arena --a basic --b random --pairs 200 --seed 1 --rules toronto
  python -m lab arena --a mypkg.bots:Greedy --b basic --games 100
  python -m lab loners --level basic --deals 20000 --rules british
  python -m lab ceiling --pairs 400 --rules toronto --bids
  python -m lab ceiling --pairs 200 --foresee --jobs 2
  python -m lab deals --a expert --b basic --deals 1500 --jobs 2
  python -m lab deals --a expert --b basic --deals 2000 --at 6-7
  python -m lab bench search --presets north_american toronto
  python -m lab train-bidding --rules toronto --deals 6000 --seed 1
  python -m lab train-bidding --rules toronto --deals 16000 --replace-shipped
  python -m lab train-bidding --rules toronto --deals 12000 --expert-partner
  python -m lab train-loners --rules toronto --deals 20000 --seed 1
  python -m lab bid-regret --games 300 --data regret.jsonl --jobs 2
  python -m lab review-gap --deals 200 --jobs 2 --progress
  python -m lab review-deal --a basic --b expert --seed 3
  python -m lab calibrate --games 20 --rules north_american bid_euchre

--rules takes a preset name or a JSON spec such as
'{"preset": "north_american", "stick_the_dealer": true}'.
"""


def _points_range(text: str) -> tuple[int, int]:
    """``"6-7"`` or ``"6"``: one side's points at the start of ``deals --at``."""
    low, _, high = text.partition("-")
    try:
        points = (int(low), int(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a range of points such as 6-7 or 8"
        ) from None
    return points


def _sides(command: argparse.ArgumentParser, b: str = "random") -> None:
    """--a and --b: the two sides of a match, each a level or a player of one's own."""
    for flag, side, default in (("--a", "A", "basic"), ("--b", "B", b)):
        command.add_argument(
            flag,
            default=default,
            help=with_default(f"side {side}: a level ({', '.join(LEVELS)}) or module:Class"),
        )


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m lab``, every option's default in its help."""
    parser = argparse.ArgumentParser(
        prog="python -m lab",
        description="Computer players from the command line: duplicate matches between\n"
        "two players, and figures about lone hands and the ceiling of card play.",
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    arena = commands.add_parser(
        "arena",
        help="duplicate match between two players",
        description="Duplicate games between two players: every deal is played twice, the "
        f"sides swapping seats. Player levels: {', '.join(LEVELS)}; or module:Class for "
        "a player of your own (docs/players.md).",
    )
    _sides(arena)
    _pairs(arena)
    _common(arena)
    _parallel(arena)
    _keep(arena, "pair")
    loners = commands.add_parser(
        "loners",
        help="how often a level's lone hands sweep",
        description="Single deals played by one level in every seat: how often its lone "
        "hands are called and sweep.",
    )
    loners.add_argument(
        "--level", default="basic", help=with_default(f"a level ({', '.join(LEVELS)})")
    )
    number(loners, "--deals", 5000, "deals")
    _common(loners)
    ceiling = commands.add_parser(
        "ceiling",
        help="duplicate games of a side that sees every card against basic",
        description="Duplicate games of a side that sees every card and plays it "
        "double dummy against basic, or (--foresee) into the cards basic will play: "
        "the most card play can win.",
    )
    _pairs(ceiling)
    _common(ceiling)
    ceiling.add_argument("--bids", action="store_true", help="also bid on the real deal")
    ceiling.add_argument(
        "--foresee",
        action="store_true",
        help="play into the cards basic will play, not against perfect defence",
    )
    _parallel(ceiling)
    single = commands.add_parser(
        "deals",
        help="duplicate single deals from 0-0: net points a deal, finer than games",
        description="Duplicate single deals from 0-0, each played twice with the sides "
        f"swapped: side A's net points a deal. Player levels: {', '.join(LEVELS)}.",
    )
    _sides(single)
    number(single, "--deals", 2000, "deals")
    single.add_argument(
        "--at",
        type=_points_range,
        metavar="LOW-HIGH",
        help="start each deal with one side at these points (the other at any score short of "
        "the game; A and B play both sides) and count the change in A's chance of winning the "
        "game instead of points",
    )
    _common(single)
    _parallel(single)
    gap = commands.add_parser(
        "review-gap",
        help="the review's points lost against the measured gap between expert and basic",
        description="Duplicate single deals of the expert against basic: the measured gap a "
        "deal, and each side's expected points lost by the review of its decisions (the "
        "expert's own must be about 0, basic's less the expert's the gap); with --control, "
        "the beginner and the random player on the same deals, in their order; and how "
        "often a larger search confirms a blunder.",
    )
    number(gap, "--deals", 200, "deals at most")
    gap.add_argument(
        "--until",
        type=float,
        default=None,
        metavar="SHARE",
        help="stop once the gap's 95%% half-width is at most SHARE of the gap, looked at "
        f"every {BLOCK} deals from {LEAST} on (default: play --deals)",
    )
    gap.add_argument(
        "--review",
        type=int,
        default=None,
        metavar="N",
        help="review the first N deals only, the rest measure the gap (default: every deal)",
    )
    number(
        gap,
        "--control",
        0,
        "the beginner and the random player also play the first N deals against basic, reviewed",
        metavar="N",
    )
    number(gap, "--worlds", REVIEW_BUDGET.worlds, "sampled deals a card is valued on")
    number(gap, "--rollouts", REVIEW_BUDGET.rollouts, "sampled deals a bid is valued on")
    number(
        gap,
        "--check",
        4,
        "each blunder judged again by a search this many times as large, 0 for none",
    )
    _common(gap)
    _parallel(gap)
    _keep(gap, "deal")
    one = commands.add_parser(
        "review-deal",
        help="one deal reviewed: each decision's loss with its standard error",
        description="Plays one single deal from 0-0 (side A in the even seats) and reviews "
        "every seat as the bot does: each decision's action, the expert's choice, the points "
        "lost with its standard error and 95%% interval, the grade and its reason.",
    )
    _sides(one, b="expert")
    _common(one)
    calibrate = commands.add_parser(
        "calibrate",
        help="the prices of the expert's work on this machine (bot/players/effort.py)",
        description="Games of the expert against basic: every searched decision's "
        "counts of work and its CPU time, and the prices a least-squares fit gives each "
        "kind of work. Run it on an idle core.",
    )
    number(calibrate, "--games", 20, "games of each preset")
    seed(calibrate)
    calibrate.add_argument(
        "--rules",
        nargs="+",
        default=["north_american", "bid_euchre"],
        help=with_default("presets"),
    )
    calibrate.add_argument(
        "--at-budget",
        action="store_true",
        help="search every decision at the expert's own budget and print its times",
    )
    _parallel(calibrate)
    bench = commands.add_parser(
        "bench",
        help="benchmarks of the rules core, the search, the bot, its pages and its nights "
        "(python -m lab bench --help lists them)",
        add_help=False,
    )
    bench.add_argument("rest", nargs=argparse.REMAINDER)
    for name, what, file in (
        ("train-bidding", "bidding", "bidding"),
        ("train-loners", "loners", "loners"),
    ):
        learn = commands.add_parser(
            name,
            help=f"learn the expert's {what} model of a preset by simulation",
            description=_TRAINING[name],
        )
        number(learn, "--deals", 6000, "deals")
        _common(learn)
        _jobs(learn)
        where = learn.add_mutually_exclusive_group()
        where.add_argument(
            "--out",
            type=Path,
            default=None,
            help=f"file to write (default: {file}_PRESET.json in the working directory, "
            "which must not exist yet)",
        )
        where.add_argument(
            "--replace-shipped",
            action="store_true",
            help=f"write the model the expert ships with (bot/players/data/{file}_PRESET.json) "
            "over the one there",
        )
        if name == "train-bidding":
            learn.add_argument(
                "--expert-partner",
                action="store_true",
                help="learn the model of a seat whose partner bids like the expert "
                "(default file: bidding_PRESET_expert_partner.json)",
            )
    regret = commands.add_parser(
        "bid-regret",
        help="points each way of deciding the expert's bids loses against a precise search",
        description="Seeded games in which the expert's side bids by its fallback: each of its "
        "decisions where the learnt model has its say is searched for many rollouts and "
        "played out on the real deal, kept in --data (taken up again where a run stopped). "
        "Then each rule (the model, the search with a margin, shrinkage of one towards the "
        "other) decides from folds of the rollouts a budget affords and is scored against "
        "the other rollouts (docs/players.md).",
    )
    number(regret, "--games", 300, "games to collect")
    number(regret, "--samples", 1050, "rollouts a decision, the truth's and the folds'")
    regret.add_argument("--data", required=True, help="the decisions' file (JSON lines)")
    regret.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=list(SIZES),
        help=with_default("rollouts a fold, as a decision's budget affords"),
    )
    _common(regret)
    _parallel(regret)
    return parser


_TRAINING = {
    "train-bidding": "Deals from the seed, each bidding decision tried both ways on the real "
    "deal and played out by basic: the expected points of making trump over passing by "
    "hand shape, seat and score: the model the expert ships with (docs/players.md), written to "
    "--out, or over the shipped one with --replace-shipped.",
    "train-loners": "Deals from the seed bid by the expert's bidder, each decision to go alone "
    "tried both ways on the real deal and played out by basic: the expected points of going "
    "alone over playing with the partner by sweep chance, hand shape, seat and score: the "
    "model the expert ships with (docs/players.md), written to --out, or over the shipped one "
    "with --replace-shipped.",
}


PAIRS = 200
"""Duplicate pairs a match plays when neither --pairs nor --games is given."""


def _pairs(command: argparse.ArgumentParser) -> None:
    """--pairs N (duplicate pairs, 2N games) or --games N (games, an even number)."""
    size = command.add_mutually_exclusive_group()
    size.add_argument(
        "--pairs",
        type=_count,
        help=f"duplicate pairs: each deal is played twice, the sides swapping seats, so "
        f"N pairs are 2N games (default: {PAIRS} pairs)",
    )
    size.add_argument(
        "--games",
        type=_even,
        help="games in all, an even number (the same as --pairs N/2)",
    )


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of at least 1")
    return value


def _even(text: str) -> int:
    value = _count(text)
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"{value} games: duplicate games come in pairs, so give an even number "
            f"(or --pairs {value})"
        )
    return value


def _common(command: argparse.ArgumentParser) -> None:
    seed(command)
    preset(command, "a preset name or a JSON spec")


def _jobs(command: argparse.ArgumentParser) -> None:
    number(command, "--jobs", 1, "worker processes")


def _parallel(command: argparse.ArgumentParser) -> None:
    _jobs(command)
    command.add_argument(
        "--progress",
        action="store_true",
        help="say how far the run is on stderr (the default where stderr is a terminal)",
    )


def _keep(command: argparse.ArgumentParser, unit: str) -> None:
    command.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"keep each {unit}'s result in FILE (JSON lines) as it ends; run again with the "
        f"same FILE, the run plays only the {unit}s it does not have yet",
    )
