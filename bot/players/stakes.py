"""What a deal's points are worth at this score: the chance of winning the game they leave.

Points are not all alike. At 8-3 a march wins the game and a lone march wins
it no better; at 9-9 making trump is everything and how many tricks does not
matter; with the other side at 9, a euchre ends the game. A club player weighs
a deal's possible results by what they do to the game, and so does the expert.

``win_chance`` is the chance a side wins from a score when a given side deals
next, worked out exactly over the chances of each kind of deal result
(``DEAL_RESULTS``, measured over basic-against-basic deals) turned into points
by the house rules. ``Stakes`` turns a deal's result into that chance and
expresses it in points at the current score, so margins stay in points. A game
of a fixed number of deals is weighed by plain points.
"""

from __future__ import annotations

from functools import lru_cache

from bot.rules import HouseRules

DEAL_RESULTS: tuple[tuple[str, str, bool, float], ...] = (
    ("dealer", "made", False, 0.456),
    ("dealer", "march", False, 0.126),
    ("dealer", "euchred", False, 0.082),
    ("dealer", "made", True, 0.006),
    ("dealer", "march", True, 0.0185),
    ("other", "made", False, 0.194),
    ("other", "march", False, 0.0405),
    ("other", "euchred", False, 0.062),
    ("other", "made", True, 0.002),
    ("other", "march", True, 0.0033),
)
"""(makers' side, result, maker alone, chance) of a deal, by which side deals.

Measured over 20,000 deals of the basic player in every seat under
north_american rules; what is left (about 1%) is thrown in. The shape is much
the same under the other presets, and the points each result scores come from
the house rules.
"""


def _points(rules: HouseRules, result: str, alone: bool) -> tuple[int, int]:
    """Points to (makers, defenders) for a kind of result."""
    if result == "march":
        return (rules.points_lone_march if alone else rules.points_march), 0
    if result == "made":
        return rules.points_made, 0
    return 0, rules.points_euchre


@lru_cache(maxsize=16)
def _table(rules: HouseRules) -> tuple[tuple[tuple[float, float], ...], ...]:
    """``table[a][b][d]``: the chance the side with ``a`` points beats ``b``; ``d`` = it deals."""
    target = rules.target_score
    moves: list[tuple[float, int, int]] = []
    for side, result, alone, chance in DEAL_RESULTS:
        to_makers, to_defenders = _points(rules, result, alone)
        dealer_gets, other_gets = (
            (to_makers, to_defenders) if side == "dealer" else (to_defenders, to_makers)
        )
        moves.append((chance, dealer_gets, other_gets))
    thrown = max(0.0, 1.0 - sum(chance for chance, _, _ in moves))
    table = [[(0.0, 0.0)] * target for _ in range(target)]

    def won(a: int, b: int, deals: bool) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return table[a][b][1 if deals else 0]

    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(total, target - 1) + 1):
            b = total - a
            # the next deal's dealer is the other side, which makes the two values depend on
            # each other only through a thrown-in deal
            base = []
            for deals in (False, True):
                value = 0.0
                for chance, dealer_gets, other_gets in moves:
                    mine, theirs = (dealer_gets, other_gets) if deals else (other_gets, dealer_gets)
                    value += chance * won(a + mine, b + theirs, not deals)
                base.append(value)
            q = thrown
            not_dealing = (base[0] + q * base[1]) / (1 - q * q)
            dealing = (base[1] + q * base[0]) / (1 - q * q)
            table[a][b] = (not_dealing, dealing)
    return tuple(tuple(row) for row in table)


def win_chance(rules: HouseRules, mine: int, theirs: int, deals_next: bool) -> float:
    """The chance that a side with ``mine`` points beats one with ``theirs``.

    ``deals_next`` says whether the side deals the next deal.
    """
    target = rules.target_score
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return _table(rules)[mine][theirs][1 if deals_next else 0]


def march_wins(rules: HouseRules, mine: int) -> bool:
    """Whether, at ``mine`` points, a march with the partner already wins the game.

    Going alone then gains nothing: with the partner's cards a side takes at
    least the tricks it would alone, so it marches at least as often and is
    euchred no more often.
    """
    return rules.deals_per_game is None and mine + rules.points_march >= rules.target_score


def lone_march_decides(rules: HouseRules, mine: int) -> bool:
    """Whether, at ``mine`` points, a lone march would win the game and a march would not."""
    if rules.deals_per_game is not None:
        return False
    return mine + rules.points_march < rules.target_score <= mine + rules.points_lone_march


class Stakes:
    """The worth, in points at this score, of each way the deal in play may end for one side."""

    def __init__(
        self,
        rules: HouseRules,
        score: tuple[int, int],
        team: int,
        next_dealer: int,
        *,
        by_points: bool = False,
    ) -> None:
        self.rules = rules
        self.mine = score[team]
        self.theirs = score[1 - team]
        self.deals_next = next_dealer % 2 == team
        self.by_points = by_points or rules.deals_per_game is not None
        if self.by_points:
            self.point = 1.0
        else:
            up = self._chance(1, 0)
            down = self._chance(0, 1)
            self.point = max((up - down) / 2, 1e-6)

    def _chance(self, gained: int, lost: int) -> float:
        return win_chance(self.rules, self.mine + gained, self.theirs + lost, self.deals_next)

    def value(self, gained: int, lost: int) -> float:
        """The deal ending with ``gained`` points to this side and ``lost`` to the other.

        In points: plain points in a game of fixed deals, else the chance of
        winning the game afterwards divided by what one point is worth now.
        """
        if self.by_points:
            return float(gained - lost)
        return self._chance(gained, lost) / self.point
