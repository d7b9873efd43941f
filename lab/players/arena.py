"""Duplicate matches between two players, and the figures that say which is stronger.

Every game is played twice from the same seed, once with side A in the even
seats and once in the odd seats, so both sides get the same cards and the
luck of the deal cancels out. Each seat decides only from
``seat_view(game, seat)``; an illegal action stops the match with an error
naming the player.

``loner_trials`` measures one level's lone hands alone: it deals many single
deals, lets every seat bid, and plays out only the deals where a maker went
alone.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from bot.players.protocol import Player, make_player
from bot.rules import Game, HouseRules, new_game, seat_view
from bot.rules.scoring import Contract, DealResult

from .ledger import Ledger
from .parallel import Progress, each_index, in_parts


class IllegalActionError(RuntimeError):
    """A player returned an action that is not legal in its view."""


class EndlessGameError(RuntimeError):
    """A game went on past ``MAX_DEALS`` deals (players who never make trump)."""


MAX_DEALS = 1000


@dataclass(slots=True)
class SideStats:
    """One side's figures over a match."""

    wins: int = 0
    points: int = 0
    made_trump: int = 0
    loners: int = 0
    loner_marches: int = 0
    loner_euchres: int = 0
    """Lone hands whose makers took fewer than three tricks (the majority)."""
    loner_points: int = 0
    """Net points of the side's lone hands: its points less the defenders'."""
    lone_defences: int = 0
    lone_defence_euchres: int = 0
    contracts: int = 0
    """Bid Euchre: deals whose bidding the side won, shoots included (then made or set)."""
    contracts_made: int = 0
    contracts_set: int = 0
    shoots: int = 0
    shoots_made: int = 0
    shoots_set: int = 0
    shoot_points: int = 0
    """Net points of the side's shoots: its points less the defenders'."""
    times_ns: list[int] = field(default_factory=list)

    def add(self, other: SideStats) -> None:
        """Fold another part of the same match in: every count summed, the times joined."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass(slots=True)
class MatchResult:
    """A duplicate match: side A's and side B's figures, ``games`` pairs of games."""

    a: str
    b: str
    rules: HouseRules
    games: int
    seed: int
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))
    ties: int = 0
    deals: int = 0
    names: tuple[str, str] = ("", "")

    def to_json(self) -> dict[str, Any]:
        """A part's figures as JSON (``ledger``): the sides' counts, ties, deals, names."""
        return {
            "sides": [asdict(side) for side in self.sides],
            "ties": self.ties,
            "deals": self.deals,
            "names": list(self.names),
        }

    def add_json(self, part: dict[str, Any]) -> None:
        """Fold in a part kept by ``to_json``."""
        other = MatchResult(self.a, self.b, self.rules, 0, self.seed)
        other.sides = (SideStats(**part["sides"][0]), SideStats(**part["sides"][1]))
        other.ties, other.deals = part["ties"], part["deals"]
        other.names = (part["names"][0], part["names"][1])
        self.add(other)

    def add(self, other: MatchResult) -> None:
        """Fold another part of the same match in."""
        self.sides[0].add(other.sides[0])
        self.sides[1].add(other.sides[1])
        self.ties += other.ties
        self.deals += other.deals
        self.names = other.names if not self.names[0] else self.names


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a match seeded by ``seed``."""
    return seed * 1_000_003 + index


def play_game(game: Game, players: Sequence[Player], times_ns: Sequence[list[int]]) -> Game:
    """Play ``game`` to its end, each seat deciding from its own view; CPU times per seat."""
    while not game.over:
        if game.deal_number > MAX_DEALS:
            raise EndlessGameError(
                f"no winner after {MAX_DEALS} deals: {', '.join(p.name for p in players)}"
            )
        step(game, players, times_ns)
    return game


def step(
    game: Game,
    players: Sequence[Player],
    times_ns: Sequence[list[int]] | None = None,
    score: tuple[int, int] | None = None,
) -> None:
    """Let the seat to act decide from its own view and apply it; illegal actions raise.

    ``score`` is the score the seats are shown, where it is not the game's own.
    """
    seat = game.turn
    assert seat is not None
    view = seat_view(game, seat)
    if score is not None:
        view = replace(view, score=score)
    start = time.thread_time_ns()
    action = players[seat].choose(view)
    if times_ns is not None:
        times_ns[seat].append(time.thread_time_ns() - start)
    if action not in view.legal:
        raise IllegalActionError(
            f"{players[seat].name} (seat {seat}) chose {action.to_json()}, not legal in phase "
            f"{view.phase}: {[a.to_json() for a in view.legal]}"
        )
    game.step(action)


def run_match(
    a: str,
    b: str,
    games: int,
    seed: int = 1,
    rules: HouseRules | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    keep: Path | None = None,
) -> MatchResult:
    """``games`` duplicate pairs of ``a`` against ``b`` (levels or ``module:Class``).

    ``keep`` is a file that keeps each pair's figures as it ends (``ledger``): run
    again with it, the match plays only the pairs it does not have yet.
    """
    rules = rules or HouseRules.preset_rules("north_american")
    result = MatchResult(a, b, rules, games, seed)
    fields = rules.model_dump()
    if keep is None:
        for part in in_parts(_run_part, games, jobs, a, b, fields, seed, progress=progress):
            result.add(part)
        return result
    key = {"run": "arena", "a": a, "b": b, "rules": rules.to_spec(), "seed": seed}
    ledger = Ledger(keep, key)
    todo = [i for i in range(games) if i not in ledger.results]

    def done(index: int, part: MatchResult) -> None:
        ledger.add(index, part.to_json())
        if progress is not None:
            progress(sum(1 for i in ledger.results if i < games), games)

    each_index(_run_part, todo, jobs, a, b, fields, seed, done=done)
    for index in range(games):
        result.add_json(ledger.results[index])
    return result


def _run_part(
    a: str, b: str, fields: dict[str, Any], seed: int, first: int, last: int
) -> MatchResult:
    rules = HouseRules.build(fields)
    result = MatchResult(a, b, rules, last - first, seed)
    for index in range(first, last):
        gseed = game_seed(seed, index)
        for a_team in (0, 1):
            specs = [a if s % 2 == a_team else b for s in range(rules.players)]
            players = [make_player(spec, gseed * 8 + s) for s, spec in enumerate(specs)]
            times: list[list[int]] = [[] for _ in players]
            game = play_game(new_game(rules, seed=gseed), players, times)
            score_game(result, game, a_team, times)
            if not result.names[0]:
                result.names = (players[a_team].name, players[1 - a_team].name)
    return result


def score_game(result: MatchResult, game: Game, a_team: int, times: list[list[int]]) -> None:
    """Add a finished game, side A in team ``a_team``, and its decision times to ``result``."""
    side_of_team = (0, 1) if a_team == 0 else (1, 0)
    if game.winner is None:
        result.ties += 1
    else:
        result.sides[side_of_team[game.winner]].wins += 1
    for seat, seat_times in enumerate(times):
        result.sides[side_of_team[seat % 2]].times_ns.extend(seat_times)
    for deal in game.results:
        result.deals += 1
        for team in (0, 1):
            result.sides[side_of_team[team]].points += deal.points[team]
        if deal.bidding:
            if deal.contract is not None and deal.result in _CONTRACT_KEPT + _CONTRACT_LOST:
                _score_contract(deal, deal.contract, result.sides[side_of_team[deal.contract.team]])
        elif deal.maker is not None and deal.result in ("made", "march", "euchred"):
            _score_loners(
                deal,
                result.sides[side_of_team[deal.maker % 2]],
                result.sides[side_of_team[1 - deal.maker % 2]],
            )


def _score_loners(deal: DealResult, makers: SideStats, defenders: SideStats) -> None:
    makers.made_trump += 1
    maker_team = deal.maker % 2 if deal.maker is not None else 0
    if any(s % 2 == maker_team for s in deal.alone):
        makers.loners += 1
        makers.loner_marches += deal.result == "march"
        makers.loner_euchres += deal.result == "euchred"
        makers.loner_points += deal.points[maker_team] - deal.points[1 - maker_team]
    if any(s % 2 != maker_team for s in deal.alone):
        defenders.lone_defences += 1
        defenders.lone_defence_euchres += deal.result == "euchred"


_CONTRACT_KEPT: Final = ("made", "shot")
_CONTRACT_LOST: Final = ("set", "shot_failed")


def _score_contract(deal: DealResult, contract: Contract, bidders: SideStats) -> None:
    made = deal.result in _CONTRACT_KEPT
    bidders.contracts += 1
    bidders.contracts_made += made
    bidders.contracts_set += not made
    if contract.shoot:
        bidders.shoots += 1
        bidders.shoots_made += made
        bidders.shoots_set += not made
        bidders.shoot_points += deal.points[contract.team] - deal.points[1 - contract.team]


# ---------------------------------------------------------------------- figures


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    # none or all: the bound is exactly 0 or 1, which the float arithmetic only comes near
    low = 0.0 if successes <= 0 else (centre - margin) / denominator
    high = 1.0 if successes >= trials else (centre + margin) / denominator
    return low, high


def percentile(sorted_values: Sequence[int], q: float) -> int:
    """The ``q`` quantile (0..1) of already sorted values, nearest rank."""
    if not sorted_values:
        return 0
    rank = max(0, math.ceil(q * len(sorted_values)) - 1)
    return sorted_values[rank]


def _per(total: int, count: int) -> str:
    return f"{total / count:+.2f}" if count else "-"


def _rate(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def report(result: MatchResult) -> str:
    """The match's figures as lines of text."""
    a, b = result.sides
    played = 2 * result.games
    decided = a.wins + b.wins
    lo, hi = wilson(a.wins, decided)
    name_a = (
        f"{result.a}" if result.names[0] in ("", result.a) else f"{result.a} ({result.names[0]})"
    )
    name_b = (
        f"{result.b}" if result.names[1] in ("", result.b) else f"{result.b} ({result.names[1]})"
    )
    lines = [
        f"A = {name_a}, B = {name_b}; rules {result.rules.to_spec()}; "
        f"{result.games} duplicate pairs ({played} games), seed {result.seed}",
        f"games won     A {a.wins} ({_rate(a.wins, decided)}, "
        f"95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        f"   B {b.wins} ({_rate(b.wins, decided)})   ties {result.ties}",
        f"points/deal   A {a.points / max(1, result.deals):.3f}   "
        f"B {b.points / max(1, result.deals):.3f}   over {result.deals} deals",
    ]
    for label, side in (("A", a), ("B", b)):
        if result.rules.game == "bid_euchre":
            lines.append(
                f"contracts {label}   taken {side.contracts} "
                f"({_rate(side.contracts, result.deals)} of deals), made {side.contracts_made} "
                f"({_rate(side.contracts_made, side.contracts)}), set {side.contracts_set}; "
                f"shoots {side.shoots}, made {side.shoots_made} "
                f"({_rate(side.shoots_made, side.shoots)}), set {side.shoots_set}, "
                f"net {_per(side.shoot_points, side.shoots)} points a shoot"
            )
            continue
        lines.append(
            f"loners {label}      called {side.loners} ({_rate(side.loners, side.made_trump)} of "
            f"{side.made_trump} deals made), swept {side.loner_marches} "
            f"({_rate(side.loner_marches, side.loners)}), euchred {side.loner_euchres}, "
            f"net {_per(side.loner_points, side.loners)} points a loner; "
            f"defended alone {side.lone_defences}, "
            f"euchred {side.lone_defence_euchres}"
        )
    for label, name, side in (("A", result.a, a), ("B", result.b, b)):
        times = sorted(side.times_ns)
        if not times:
            continue
        lines.append(
            f"decide {label}      {name} (CPU time): p50 {_ms(percentile(times, 0.5))}, "
            f"p95 {_ms(percentile(times, 0.95))}, p99 {_ms(percentile(times, 0.99))}, "
            f"max {_ms(times[-1])} over {len(times)} decisions"
        )
    return "\n".join(lines)


def _ms(ns: float) -> str:
    """A decision time in milliseconds: "0.025 ms" for basic, "104 ms" for the expert."""
    ms = ns / 1e6
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms"


# ---------------------------------------------------------------------- lone hands


@dataclass(slots=True)
class LonerStats:
    """How one level's lone makers fared over single deals."""

    deals: int = 0
    makes: int = 0
    """Deals where trump was made."""
    loners: int = 0
    marches: int = 0
    made: int = 0
    euchred: int = 0
    points: int = 0
    """The lone makers' points less the defenders', over all the lone hands."""

    @property
    def sweep_rate(self) -> float:
        """Share of lone hands that took every trick."""
        return self.marches / self.loners if self.loners else 0.0


def loner_trials(
    level: str, deals: int, seed: int = 1, rules: HouseRules | None = None
) -> LonerStats:
    """Deal ``deals`` single deals, ``level`` in every seat; play out those with a lone maker."""
    rules = rules or HouseRules.preset_rules("north_american")
    stats = LonerStats()
    for index in range(deals):
        gseed = game_seed(seed, index)
        game = new_game(rules, seed=gseed)
        players = [make_player(level, gseed * 8 + s) for s in range(rules.players)]
        while game.results[0].result == "in_play":
            if game.phase == "play" and not any(s % 2 == game.makers for s in game.alone):
                break
            seat = game.turn
            assert seat is not None
            game.step(players[seat].choose(seat_view(game, seat)))
        deal = game.results[0]
        stats.deals += 1
        stats.makes += deal.maker is not None
        team = (deal.maker or 0) % 2
        if deal.result in ("made", "march", "euchred") and any(s % 2 == team for s in deal.alone):
            stats.loners += 1
            stats.marches += deal.result == "march"
            stats.made += deal.result in ("made", "march")
            stats.euchred += deal.result == "euchred"
            stats.points += deal.points[team] - deal.points[1 - team]
    return stats


def loner_report(level: str, stats: LonerStats, rules: HouseRules) -> str:
    """The loner figures as one line."""
    lo, hi = wilson(stats.marches, stats.loners)
    return (
        f"{level} under {rules.to_spec()}: {stats.loners} lone hands in {stats.deals} deals "
        f"({_rate(stats.loners, stats.makes)} of {stats.makes} makes); "
        f"swept {stats.marches} ({_rate(stats.marches, stats.loners)}, "
        f"95% CI {100 * lo:.0f}-{100 * hi:.0f}%), made {stats.made}, euchred {stats.euchred} "
        f"({_rate(stats.euchred, stats.loners)}); net {_per(stats.points, stats.loners)} points "
        f"a loner, {_per(stats.points, stats.makes)} a make"
    )
