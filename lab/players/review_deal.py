"""One deal's review, every decision with its estimate: the loss, its standard error, the grade.

``python -m lab review-deal --a basic --b expert --seed 3`` plays one single deal from
0-0 (side A in the even seats) and reviews each seat, as the bot's review does
(``bot.players.review``): for every decision the action done, the expert's choice,
the points lost with their standard error (the loss is unbiased, so it may be below
zero), the grade and the reason people read.
"""

from __future__ import annotations

from bot.players.protocol import make_player
from bot.players.review import NOISE_Z, REVIEW_BUDGET, Budget, DealReview, review_deal
from bot.render.hints import action_phrase
from bot.render.reasons import reason
from bot.render.review import moment_words
from bot.rules import HouseRules, game_record, new_game

from .arena import game_seed, step


def review_one_deal(
    a: str, b: str, seed: int, rules: HouseRules, budget: Budget = REVIEW_BUDGET
) -> tuple[list[str], list[DealReview]]:
    """The levels of each seat, and each seat's review of deal ``seed`` (from 0-0)."""
    gseed = game_seed(seed, 0)
    game = new_game(rules, seed=gseed)
    specs = [a if s % 2 == 0 else b for s in range(rules.players)]
    players = [make_player(spec, gseed * 8 + s) for s, spec in enumerate(specs)]
    while game.deal_number == 1 and not game.over:
        step(game, players)
    record = game_record(game)
    return specs, [review_deal(record, seat, 1, budget) for seat in range(rules.players)]


def review_deal_report(specs: list[str], reviews: list[DealReview]) -> str:
    """Every decision of every seat, in the order made, as one line each."""
    lines = [
        "seat level     moment                    done            expert's         lost    "
        "± s.e.   95% interval     grade"
    ]
    for review in reviews:
        for d in sorted(review.decisions, key=lambda d: d.index):
            done = action_phrase(d.view, d.done)[0]
            best = action_phrase(d.view, d.best)[0]
            if d.done == d.best:
                figures = f"{0.0:+.3f}  {'-':>7}   {'(agrees)':<16}"
            else:
                lo, hi = d.lost - 1.96 * d.error, d.lost + 1.96 * d.error
                figures = f"{d.lost:+.3f}  {d.error:7.3f}   {f'{lo:+.2f} to {hi:+.2f}':<16}"
            lines.append(
                f"{review.seat:>4} {specs[review.seat]:<9} {moment_words(d):<25} "
                f"{done:<15} {best:<16} {figures} {d.grade or ''}"
            )
            why = reason(d) if d.grade else None
            if why:
                lines.append(f"{'':>15}why: {why}")
        lines.append(
            f"{review.seat:>4} {specs[review.seat]:<9} deal: {review.points_lost:+.3f} ± "
            f"{review.error:.3f} points lost, {len(review.flagged)} flagged"
        )
    lines.append(f"(a grade counts the loss less {NOISE_Z} standard errors)")
    return "\n".join(lines)
