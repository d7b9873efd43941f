"""Duplicate single deals: two players told apart in thousands of deals, not games.

Each deal is played twice from the same seed with the sides swapped, and what
side A nets over B is counted: its points from 0-0, or, from a drawn score
(``at``), what the deal did to its chance of winning the game. A deal both
sides play alike counts zero, so small differences in bidding or play show here
long before whole games (``arena``) could show them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from bot.players.protocol import make_player
from bot.players.stakes import win_chance
from bot.rules import HouseRules, RulesError, new_game

from .arena import game_seed, step
from .parallel import Progress, in_parts


@dataclass(slots=True)
class DealsResult:
    """Side A's net points (its points minus B's) on each duplicate single deal.

    With ``at``, each deal starts with one side at points drawn from that range and
    the other at any score short of the game, the points staying with the seats
    when the sides swap (so A and B each play both sides of the same start), and
    its figure is what it changed A's chance of winning the game
    (``stakes.win_chance``), in percentage points.
    """

    a: str
    b: str
    rules: HouseRules
    seed: int
    nets: list[float] = field(default_factory=list)
    at: tuple[int, int] | None = None

    @property
    def mean(self) -> float:
        """A's average net points a deal."""
        return sum(self.nets) / len(self.nets) if self.nets else 0.0

    @property
    def stderr(self) -> float:
        """The standard error of ``mean``."""
        n = len(self.nets)
        if n < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum((x - mean) ** 2 for x in self.nets) / (n - 1) / n)


def run_deals(
    a: str,
    b: str,
    deals: int,
    seed: int = 1,
    rules: HouseRules | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    at: tuple[int, int] | None = None,
) -> DealsResult:
    """``deals`` single deals from a score of 0-0, each played twice with the sides swapped.

    Finer than whole games for comparing two ways of bidding or playing: a deal
    both sides play alike counts zero, so small differences show in thousands
    of deals rather than thousands of games. ``at`` plays them from other
    scores instead, for decisions that only the game's score changes (see
    ``DealsResult``).
    """
    rules = rules or HouseRules.preset_rules("north_american")
    if at is not None:
        if rules.deals_per_game is not None or rules.game == "bid_euchre":
            raise RulesError("deals from a score need a game of euchre played to a target")
        if not 0 <= at[0] <= at[1] < rules.target_score:
            raise RulesError(
                f"the starting points must be a range from 0 to {rules.target_score - 1}, "
                f"low to high, not {at[0]}-{at[1]}"
            )
    result = DealsResult(a, b, rules, seed, at=at)
    fields = rules.model_dump()
    for nets in in_parts(_deal_part, deals, jobs, a, b, fields, seed, at, progress=progress):
        result.nets += nets
    return result


def _deal_part(
    a: str,
    b: str,
    fields: dict[str, Any],
    seed: int,
    at: tuple[int, int] | None,
    first: int,
    last: int,
) -> list[float]:
    rules = HouseRules.build(fields)
    nets = []
    for index in range(first, last):
        gseed = game_seed(seed, index)
        dealer = index % rules.players
        start = (0, 0)
        if at is not None:
            draw = random.Random(gseed)
            start = (draw.randint(*at), draw.randint(0, rules.target_score - 1))
        net = 0.0
        for a_team in (0, 1):
            game = new_game(rules, seed=gseed, dealer=dealer)
            specs = [a if s % 2 == a_team else b for s in range(rules.players)]
            players = [make_player(spec, gseed * 8 + s) for s, spec in enumerate(specs)]
            while game.deal_number == 1 and not game.over:
                step(game, players, score=None if at is None else start)
            points = game.results[0].points
            if at is None:
                net += points[a_team] - points[1 - a_team]
                continue
            mine, theirs = start[a_team], start[1 - a_team]
            before = win_chance(rules, mine, theirs, dealer % 2 == a_team)
            after = win_chance(
                rules,
                mine + points[a_team],
                theirs + points[1 - a_team],
                (dealer + 1) % rules.players % 2 == a_team,
            )
            net += 100 * (after - before)
        nets.append(net / 2)
    return nets


def deals_report(result: DealsResult) -> str:
    """The single-deal figures as one line."""
    head = f"A = {result.a}, B = {result.b}; rules {result.rules.to_spec()}; "
    if result.at is None:
        return (
            f"{head}{len(result.nets)} duplicate deals, seed {result.seed}: A nets "
            f"{result.mean:+.3f} points a deal (± {result.stderr:.3f})"
        )
    low, high = result.at
    return (
        f"{head}{len(result.nets)} duplicate deals from {low}-{high} points, seed "
        f"{result.seed}: A's chance of winning the game moves {result.mean:+.3f} "
        f"percentage points a deal (± {result.stderr:.3f})"
    )
