"""Command line of the players: matches, figures, the search's speed, bidding training.

See ``python -m lab --help`` for examples (the options are in :mod:`.parser`);
docs/players.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

from bot.cli import run_main
from bot.players.learnt_bidding import data_name
from bot.players.learnt_loners import data_name as loners_data_name
from bot.players.protocol import PlayerError
from bot.players.review import REVIEW_BUDGET
from bot.rules import RulesError

from .arena import (
    EndlessGameError,
    IllegalActionError,
    loner_report,
    loner_trials,
    report,
    run_match,
)
from .bid_regret import collect, load
from .bid_rules import report as regret_report
from .calibrate import calibration_report, run_calibration
from .ceiling import run_ceiling
from .ledger import LedgerError
from .parser import PAIRS, build_parser, rules_of
from .review_deal import review_deal_report, review_one_deal
from .review_gap import gap_report, run_review_gap
from .single_deals import deals_report, run_deals
from .training import train, train_loners


def _pairs_of(args: argparse.Namespace) -> int:
    if args.pairs is not None:
        return int(args.pairs)
    return PAIRS if args.games is None else int(args.games) // 2


class ProgressLine:
    """Says on stderr how far a long run is: at most every ``every`` seconds, and at its end."""

    def __init__(self, unit: str, every: float = 15.0) -> None:
        self.unit = unit
        self.every = every
        self.start = time.perf_counter()
        self.last = self.start

    def __call__(self, done: int, total: int) -> None:
        """A piece of the run has finished: ``done`` of ``total`` units are."""
        now = time.perf_counter()
        if done < total and now - self.last < self.every:
            return
        self.last = now
        spent = now - self.start
        if done >= total:
            line = f"{done} of {total} {self.unit}, done in {_minutes(spent)}"
        else:
            left = spent * (total - done) / done if done else 0.0
            line = (
                f"{done} of {total} {self.unit} ({100 * done // total}%), "
                f"{_minutes(spent)} so far, about {_minutes(left)} left"
            )
        print(line, file=sys.stderr, flush=True)


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _progress(args: argparse.Namespace, unit: str) -> ProgressLine | None:
    return ProgressLine(unit) if args.progress or sys.stderr.isatty() else None


SHIPPED = Path(str(files("bot.players").joinpath("data")))
"""Where the models the expert ships with are (written only with ``--replace-shipped``)."""


class OutputError(Exception):
    """A training's output file would overwrite what it should not."""


def _training_out(args: argparse.Namespace, name: str) -> Path:
    """The file a training writes, checked before it runs: never a shipped model unasked."""
    shipped = SHIPPED / name
    if args.replace_shipped:
        return shipped
    if args.out is not None:
        if args.out.resolve() == shipped.resolve():
            raise OutputError(
                f"{args.out} is the shipped model: add --replace-shipped to replace it"
            )
        return Path(args.out)
    out = Path(name)  # the working directory
    if out.exists():
        raise OutputError(
            f"{out} exists in the working directory: name another file with --out, or move it away"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "bench":  # python -m lab hands "bench" to lab.bench before this parser
        parser.error("the benchmarks run as python -m lab bench COMMAND")
    try:
        start = time.perf_counter()
        if args.command == "calibrate":
            found = run_calibration(
                args.games,
                args.seed,
                tuple(args.rules),
                at_budget=args.at_budget,
                jobs=args.jobs,
                progress=_progress(args, "games"),
            )
            print(calibration_report(found))
            print(f"({time.perf_counter() - start:.1f} s)")
            return 0
        rules = rules_of(args.rules)
        if args.command == "arena":
            progress = _progress(args, "pairs")
            pairs = _pairs_of(args)
            result = run_match(
                args.a, args.b, pairs, args.seed, rules, args.jobs, progress, args.keep
            )
            print(report(result))
        elif args.command == "deals":
            progress = _progress(args, "deals")
            deals = run_deals(
                args.a, args.b, args.deals, args.seed, rules, args.jobs, progress, args.at
            )
            print(deals_report(deals))
        elif args.command == "review-gap":
            budget = replace(REVIEW_BUDGET, worlds=args.worlds, rollouts=args.rollouts)
            gaps = run_review_gap(
                args.deals,
                args.seed,
                rules,
                budget,
                args.check,
                args.jobs,
                _progress(args, "deals"),
                review=args.review,
                control=args.control,
                until=args.until,
                keep=args.keep,
            )
            print(gap_report(gaps))
        elif args.command == "review-deal":
            specs, reviews = review_one_deal(args.a, args.b, args.seed, rules)
            print(review_deal_report(specs, reviews))
        elif args.command in ("train-bidding", "train-loners"):
            if rules.to_spec() != {"preset": rules.preset}:
                raise RulesError(f"{args.command} takes a preset name: the models are per preset")
            training = args.command == "train-bidding"
            if training:
                name = data_name(rules.preset, args.expert_partner)
            else:
                name = loners_data_name(rules.preset)
            out = _training_out(args, name)
            if training:
                model = train(rules, args.deals, args.seed, args.jobs, args.expert_partner)
            else:
                model = train_loners(rules, args.deals, args.seed, args.jobs)
            out.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(model.to_json(), sort_keys=True, separators=(",", ":"))
            out.write_text(text + "\n", encoding="utf-8")
            decisions = model.decisions()
            print(f"{rules.preset}: {decisions} decisions from {model.deals} deals -> {out}")
        elif args.command == "bid-regret":
            data = Path(args.data)
            collect(
                rules,
                args.games,
                args.seed,
                args.samples,
                data,
                args.jobs,
                _progress(args, "games"),
            )
            print(regret_report(load(data), args.sizes))
        elif args.command == "ceiling":
            progress = _progress(args, "pairs")
            ceiling = run_ceiling(
                _pairs_of(args), args.seed, rules, args.bids, args.jobs, progress, args.foresee
            )
            print(report(ceiling))
        else:
            stats = loner_trials(args.level, args.deals, args.seed, rules)
            print(loner_report(args.level, stats, rules))
        print(f"({time.perf_counter() - start:.1f} s)")
    except (
        RulesError,
        LedgerError,
        OutputError,
        PlayerError,
        IllegalActionError,
        EndlessGameError,
        json.JSONDecodeError,
    ) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    run_main(main)
