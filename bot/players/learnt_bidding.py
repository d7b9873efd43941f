"""Bidding learnt from play: expected points of making trump against passing, from the hand's shape.

A model per preset (``bot/players/data/bidding_<preset>.json``, shipped with the
package) predicts, for a decision to make trump with the partner (ordering up,
or naming the count's best suit) or pass, the gain in expected points of making
trump. It is a ridge regression for each round and place in the bidding (0 bids
first, the dealer last) on the decision's features (``features``):

- basic's count of the hand for that bid (the upcard counted as basic counts it);
- the score: this side, or the other, within two points of the game;
- the hand's shape in that trump: which of the seven highest trumps it holds,
  how many trumps, side aces, guarded side kings and voids (the dealer's hand
  after taking the upcard and discarding);
- in the first round, the upcard's rank (a bower, an ace or king, a lower
  card), signed by whether it goes to this side;
- in the second round, whether the suit named is next (the turned-down suit's
  colour).

What the model learns that the count does not: calling next pays for the
dealer's opponents and not for its partner; the dealer's partner needs the
right bower more than a count of strength says. Where the count is outside
``COUNTED`` (a clear pass or a clear bid) or a round and place has too few
decisions, the count decides.

The file holds the regression's sums (decisions, ``XᵀX`` and ``Xᵀy`` with the
features and gains in fixed steps, as integers), so parts of a training add up
exactly in any order and the fit is made when the model is read. Points are
weighed by the score (``stakes``), so near the end of a game making trump is
judged on the game it wins or loses. The model is built by ``python -m
bot.players train-bidding`` (``training``): deals from a seed, every bidding
decision tried both ways on the real deal and played out by the basic player.

A second model per preset (``bidding_<preset>_expert_partner.json``, built with
``--expert-partner``) is learnt where the deciding side bids like the expert
and the other side like basic: what a pass or a bid of an expert partner says
about its hand, and what it will bid later, differ from basic's. The expert
uses it where its partner bids like an expert (``table_reading``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any, Final

from bot.rules import Action, HouseRules, SeatView
from bot.rules.cards import ACE, JACK, KING

from .deck import DeckFacts, deck_facts
from .evaluation import after_pickup

FORMAT: Final = 2
COUNTED: Final = (1.0, 4.0)
"""The counts where the model decides; below, the hand passes, above, it makes trump."""
MIN_DECISIONS: Final = 300
"""Simulated decisions a round and place needs before its regression is trusted."""
RIDGE: Final = 10.0
"""Shrinks the coefficients (all but the constant) towards zero against the noise of the gains."""
TOP_TRUMPS: Final = 7
FEATURE_STEP: Final = 1000
"""Features are stored in thousandths, gains in ten-thousandths: the sums are exact integers."""
GAIN_STEP: Final = 10_000
WIDTH: Final = 12 + TOP_TRUMPS
"""Features of a decision: see ``features``."""

Key = tuple[int, int]
"""(round 1 or 2, place in the bidding; for the loners' model, round and role)."""


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


def place_of(view: SeatView) -> int:
    """The seat's place in the bidding: 0 bids first, the dealer last."""
    return (view.seat - view.dealer - 1) % view.players


def key_of(view: SeatView) -> Key:
    """The round and place of a bidding decision."""
    return (1 if view.phase == "bid1" else 2, place_of(view))


def features(view: SeatView, action: Action, count: float, klass: int) -> list[float]:
    """The decision's features when making trump by ``action``, whose count is ``count``.

    ``klass`` is the score's class (``score_class``).
    In order: a constant 1; the count; the score (this side near the game; the
    other); each of the seven highest trumps held; trumps, side aces, guarded side
    kings and voids; the upcard in the first round (a bower, an ace or king,
    lower), +1 when it goes to this side and -1 when to the other; the suit is next.
    """
    facts = deck_facts(view.rules)
    trump = view.upcard >> 3 if action.do == "order_up" else action.suit
    assert trump is not None
    hand = list(view.hand)
    dealer = view.seat == view.dealer
    if view.phase == "bid1" and dealer:
        hand, _ = after_pickup(hand, view.upcard, trump, facts)
    x = [1.0, count, float(klass == 1), float(klass == 2), *shape(hand, trump, facts)]
    order = facts.trumps[trump]
    upcard = [0.0, 0.0, 0.0]
    if view.phase == "bid1" and not dealer and view.upcard in order:
        sign = 1.0 if (view.seat - view.dealer) % 2 == 0 else -1.0
        rank = view.upcard & 7
        upcard[0 if rank == JACK else 1 if rank in (ACE, KING) else 2] = sign
    x += upcard
    turned = view.turned_down
    x.append(float(turned is not None and facts.is_trump(turned << 3 | JACK, trump)))
    return x


def shape(hand: list[int], trump: int, facts: DeckFacts) -> list[float]:
    """The hand's shape in ``trump``: which top trumps, trumps, side aces, guarded kings, voids.

    In order: each of the seven highest trumps held; how many trumps, side aces,
    guarded side kings and voids.
    """
    order = facts.trumps[trump]
    x = [float(hand.count(order[i])) if i < len(order) else 0.0 for i in range(TOP_TRUMPS)]
    side: dict[int, list[int]] = {}
    trumps = 0
    for c in hand:
        s = facts.suit(c, trump)
        if s == trump:
            trumps += 1
        else:
            side.setdefault(s, []).append(c)
    aces = sum(1 for cards in side.values() for c in cards if c & 7 == ACE)
    kings = sum(1 for cards in side.values() if len(cards) > 1 for c in cards if c & 7 == KING)
    voids = sum(1 for s in range(4) if s != trump and s not in side and facts.suits[trump][s])
    return [*x, float(trumps), float(aces), float(kings), float(voids)]


@dataclass(slots=True)
class Sums:
    """One round and place's regression sums, in fixed steps: exact over any order of adding."""

    n: int = 0
    xx: list[int] = field(default_factory=list)
    """``XᵀX``'s upper triangle, row by row, in millionths."""
    xy: list[int] = field(default_factory=list)
    """``Xᵀy`` in ten-millionths."""
    width: int = WIDTH
    """Features of a decision (the bidding's ``WIDTH``; the loners' model has its own)."""

    def __post_init__(self) -> None:
        if not self.xy:
            self.xx = [0] * (self.width * (self.width + 1) // 2)
            self.xy = [0] * self.width
        if len(self.xy) != self.width or len(self.xx) != self.width * (self.width + 1) // 2:
            raise ValueError("regression sums of another width")

    def add(self, x: list[float], gain: float) -> None:
        """One simulated decision."""
        q = [round(v * FEATURE_STEP) for v in x]
        y = round(gain * GAIN_STEP)
        self.n += 1
        k = 0
        width = self.width
        for i in range(width):
            qi = q[i]
            self.xy[i] += qi * y
            for j in range(i, width):
                self.xx[k] += qi * q[j]
                k += 1

    def merge(self, other: Sums) -> None:
        """Add another part's sums."""
        self.n += other.n
        self.xx = [a + b for a, b in zip(self.xx, other.xx, strict=True)]
        self.xy = [a + b for a, b in zip(self.xy, other.xy, strict=True)]

    def fit(self) -> list[float]:
        """The ridge regression's coefficients."""
        width = self.width
        a = [[0.0] * width for _ in range(width)]
        k = 0
        for i in range(width):
            for j in range(i, width):
                a[i][j] = a[j][i] = self.xx[k] / FEATURE_STEP**2
                k += 1
        for i in range(1, width):
            a[i][i] += RIDGE
        b = [v / (FEATURE_STEP * GAIN_STEP) for v in self.xy]
        return solve(a, b)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is positive definite)."""
    size = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if m[col][col] == 0:
            continue
        for r in range(col + 1, size):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, size + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        if m[r][r] == 0:
            continue
        x[r] = (m[r][size] - sum(m[r][c] * x[c] for c in range(r + 1, size))) / m[r][r]
    return x


@dataclass(slots=True)
class BiddingModel:
    """The regression sums of each round and place, and the coefficients fitted from them."""

    preset: str
    seed: int = 0
    deals: int = 0
    sums: dict[Key, Sums] = field(default_factory=dict)
    width: int = WIDTH
    """Features of a decision: the bidding's, or the loners' (``learnt_loners``)."""
    span: tuple[float, float] = COUNTED
    """Where the model decides, on the decision's second feature (the count; a sweep chance)."""
    _fitted: dict[Key, list[float] | None] = field(default_factory=dict)

    def add(self, key: Key, x: list[float], gain: float) -> None:
        """One simulated decision: making trump gained ``gain`` points over passing."""
        self.sums.setdefault(key, Sums(width=self.width)).add(x, gain)
        self._fitted.pop(key, None)

    def merge(self, other: BiddingModel) -> None:
        """Fold another part of the same training in."""
        self.deals += other.deals
        for key, sums in other.sums.items():
            self.sums.setdefault(key, Sums(width=self.width)).merge(sums)
            self._fitted.pop(key, None)

    def decisions(self) -> int:
        """Simulated decisions behind the model."""
        return sum(s.n for s in self.sums.values())

    def coefficients(self, key: Key) -> list[float] | None:
        """The regression of ``key``; None where it has too few decisions."""
        if key not in self._fitted:
            sums = self.sums.get(key)
            self._fitted[key] = sums.fit() if sums and sums.n >= MIN_DECISIONS else None
        return self._fitted[key]

    def gain(self, key: Key, x: list[float]) -> float | None:
        """Predicted points of making trump over passing; None where the model has no say."""
        if not self.span[0] <= x[1] <= self.span[1]:
            return None
        coef = self.coefficients(key)
        return None if coef is None else sum(c * v for c, v in zip(coef, x, strict=True))

    def to_json(self) -> dict[str, Any]:
        """The model as stored: sums as ``"round:place": {"n", "xx", "xy"}``."""
        return {
            "format": FORMAT,
            "preset": self.preset,
            "seed": self.seed,
            "deals": self.deals,
            "width": self.width,
            "sums": {
                f"{k[0]}:{k[1]}": {"n": s.n, "xx": s.xx, "xy": s.xy}
                for k, s in sorted(self.sums.items())
            },
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], width: int = WIDTH, span: tuple[float, float] = COUNTED
    ) -> BiddingModel:
        """A model read back from :meth:`to_json`, of ``width`` features deciding over ``span``."""
        if data.get("format") != FORMAT or data.get("width") != width:
            raise ValueError("bidding model of another format: rebuild it with train-bidding")
        sums: dict[Key, Sums] = {}
        for text, s in data["sums"].items():
            rnd, place = (int(v) for v in text.split(":"))
            sums[(rnd, place)] = Sums(
                int(s["n"]), [int(v) for v in s["xx"]], [int(v) for v in s["xy"]], width
            )
        return cls(str(data["preset"]), int(data["seed"]), int(data["deals"]), sums, width, span)


def data_name(preset: str, expert_partner: bool = False) -> str:
    """The file name of a preset's model in ``bot/players/data`` (see ``shipped_model``)."""
    return f"bidding_{preset}{'_expert_partner' if expert_partner else ''}.json"


@cache
def shipped_model(preset: str, expert_partner: bool = False) -> BiddingModel | None:
    """The model shipped for ``preset`` (None when there is none).

    ``expert_partner`` asks for the model learnt with the partner bidding like the
    expert (``training``), not like basic.
    """
    resource = files("bot.players").joinpath("data", data_name(preset, expert_partner))
    if not resource.is_file():
        return None
    return BiddingModel.from_json(json.loads(resource.read_text(encoding="utf-8")))
