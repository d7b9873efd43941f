"""Bidding learnt from play: expected points of making trump against passing, by hand and seat.

A table per preset (``bot/players/data/bidding_<preset>.json``, shipped with the
package) holds, for each cell of coarse features, how many decisions were
simulated and the summed difference in expected points between making trump
(ordering up, or naming the count's best suit) and passing. The features:

- the round (first: ordering up; second: naming a suit);
- the seat's place in the bidding (0 bids first, the dealer bids last);
- the hand: basic's count of it for that bid (upcard included as basic counts it),
  in steps of ``BUCKET``;
- the score: open, this side within two points of the game, or the other side.

Points are weighed by the score (``stakes``), so near the end of a game making
trump is judged on the game it wins or loses. The table is built by
``python -m bot.players train-bidding`` (``training``): deals from a seed, every
bidding decision tried both ways on the real deal and played out by the basic
player. A cell with few decisions borrows from its neighbours in hand strength,
then from the open score; where even that is thin, the count of the hand
(``BIDDING``'s threshold) decides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any, Final

from bot.rules import Action, HouseRules, SeatView

from .basic import BasicPlayer, Tuning

BUCKET: Final = 0.25
"""Width of a step of the hand's count."""
MAX_BUCKET: Final = 24
MIN_DECISIONS: Final = 40
"""Simulated decisions a cell (with its borrowed neighbours) needs to be trusted."""
REACH: Final = 3
"""How many steps of hand strength a thin cell may borrow from on either side."""
FORMAT: Final = 1

Key = tuple[int, int, int, int]
"""(round 1 or 2, place in the bidding, count step, score class)."""


def score_class(rules: HouseRules, score: tuple[int, int], team: int) -> int:
    """0: the game is open; 1: this side is within two points of winning; 2: the other side is."""
    if rules.deals_per_game is not None:
        return 0
    target = rules.target_score
    if target - score[team] <= 2:
        return 1
    if target - score[1 - team] <= 2:
        return 2
    return 0


def step_of(count: float) -> int:
    """The step of the hand's count."""
    return max(0, min(MAX_BUCKET, int(count / BUCKET)))


def place_of(view: SeatView) -> int:
    """The seat's place in the bidding: 0 bids first, the dealer last."""
    return (view.seat - view.dealer - 1) % view.players


@dataclass(slots=True)
class BiddingTable:
    """Simulated decisions per cell: how many, and the summed gain of making trump over passing."""

    preset: str
    seed: int = 0
    deals: int = 0
    cells: dict[Key, list[float]] = field(default_factory=dict)
    """``[decisions, summed gain]`` per cell."""

    def add(self, key: Key, gain: float) -> None:
        """One simulated decision: making trump gained ``gain`` points over passing."""
        cell = self.cells.setdefault(key, [0.0, 0.0])
        cell[0] += 1
        cell[1] += gain

    def merge(self, other: BiddingTable) -> None:
        """Fold another part of the same training in."""
        self.deals += other.deals
        for key, (n, total) in other.cells.items():
            cell = self.cells.setdefault(key, [0.0, 0.0])
            cell[0] += n
            cell[1] += total

    def gain(self, key: Key) -> tuple[float, int] | None:
        """Expected points of making trump over passing in ``key``'s cell, and decisions behind it.

        Borrows from neighbouring counts, then from the open score, when the cell is thin.
        """
        rnd, place, step, score = key
        for klass in dict.fromkeys((score, 0)):
            n = total = 0.0
            for reach in range(REACH + 1):
                for s in {step - reach, step + reach}:
                    cell = self.cells.get((rnd, place, s, klass))
                    if cell is not None:
                        n += cell[0]
                        total += cell[1]
                if n >= MIN_DECISIONS:
                    return total / n, int(n)
        return None

    def to_json(self) -> dict[str, Any]:
        """The table as stored: cells as ``"round:place:step:score": [n, sum]``."""
        return {
            "format": FORMAT,
            "preset": self.preset,
            "seed": self.seed,
            "deals": self.deals,
            "bucket": BUCKET,
            "cells": {
                ":".join(map(str, k)): [int(v[0]), round(v[1], 4)]
                for k, v in sorted(self.cells.items())
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BiddingTable:
        """A table read back from :meth:`to_json`."""
        if data.get("format") != FORMAT or data.get("bucket") != BUCKET:
            raise ValueError("bidding table of another format: rebuild it with train-bidding")
        cells: dict[Key, list[float]] = {}
        for text, (n, total) in data["cells"].items():
            a, b, c, d = (int(x) for x in text.split(":"))
            cells[(a, b, c, d)] = [float(n), float(total)]
        return cls(str(data["preset"]), int(data["seed"]), int(data["deals"]), cells)


def data_name(preset: str) -> str:
    """The file name of a preset's table in ``bot/players/data``."""
    return f"bidding_{preset}.json"


@cache
def shipped_table(preset: str) -> BiddingTable | None:
    """The table shipped for ``preset`` (None when there is none)."""
    resource = files("bot.players").joinpath("data", data_name(preset))
    if not resource.is_file():
        return None
    return BiddingTable.from_json(json.loads(resource.read_text(encoding="utf-8")))


class LearntBidder:
    """Makes trump or passes by the learnt table; everything else by the count (``tuning``).

    Loners stay with the count: it calls them where its sweep chance says so.
    """

    name: str = "learnt-bidder"

    def __init__(self, seed: int, tuning: Tuning, table: BiddingTable | None) -> None:
        self.count = BasicPlayer(seed, tuning)
        self.table = table

    def estimate(self, view: SeatView) -> tuple[Action, float] | None:
        """The bid that makes trump with the partner and its learnt gain over passing."""
        if self.table is None or view.phase not in ("bid1", "bid2"):
            return None
        made = self.count.make_count(view)
        if made is None:
            return None
        action, count = made
        rnd = 1 if view.phase == "bid1" else 2
        key = (rnd, place_of(view), step_of(count), score_class(view.rules, view.score, view.team))
        found = self.table.gain(key)
        return None if found is None else (action, found[0])

    def choose(self, view: SeatView) -> Action:
        """The count's action, with the learnt table deciding between making trump and passing."""
        counted = self.count.choose(view)
        if view.phase not in ("bid1", "bid2") or counted.alone or counted.do in ("redeal", "swap"):
            return counted
        passing = next((a for a in view.legal if a.do == "pass"), None)
        estimate = self.estimate(view)
        if estimate is None or passing is None:
            return counted
        action, gain = estimate
        return action if gain > 0 else passing
