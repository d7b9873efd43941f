"""How much a searched bid must beat the bidder's own choice by, to replace it.

Samples of a whole deal vary a lot, and the bidder's thresholds were tuned over
thousands of duplicate deals: the expert's search (``expert``) overrules them only
by a margin, fixed (``BID_MARGIN``) or in standard errors of the rollouts' paired
difference where the learnt model decides (``MODEL_MARGIN``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["BID_MARGIN", "MODEL_MARGIN", "Margin"]

BID_MARGIN = 0.3
"""Points on average by which a searched bid must beat the basic player's count to replace it.

Samples of a whole deal vary a lot, and the basic player's thresholds were tuned
over thousands of duplicate deals: search overrules them only when it is clear.
"""


@dataclass(frozen=True, slots=True)
class Margin:
    """By how much a searched option must beat the fallback on average to replace it."""

    points: float
    errors: float = 0.0
    """Standard errors of the paired difference over the rollouts, on top of ``points``."""

    def beaten(self, total: float, squares: float, n: int) -> bool:
        """Whether ``n`` paired rollouts clear the margin.

        ``total`` is the sum of the option's worth less the fallback's over the
        rollouts, ``squares`` the sum of the squares of those differences.
        """
        if self.errors == 0.0:
            return total > self.points * n
        if n < 2:
            return False
        mean = total / n
        var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
        return mean > self.points + self.errors * math.sqrt(var / n)


MODEL_MARGIN = Margin(0.0, 0.5)
"""The margin where the learnt model decides making trump or passing: half a standard error.

Where the model (``learnt_bidding``) has its say, about 150 rollouts in the
budget estimate a bid's gain better than the model does (its error against a
search of 1,050 rollouts has an SD of about 0.28 points; 150 rollouts, about
0.12): a margin of half a standard error of the paired difference loses less
than half the points the fixed 0.3 lost against that search, and as little as
shrinking the rollouts towards the model (``bid_rules``; docs/players.md).
"""
