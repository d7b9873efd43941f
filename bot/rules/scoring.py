"""What a played-out deal scores, from the tricks the makers took."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import Suit
from .house_rules import HouseRules

DealOutcome = Literal["made", "march", "euchred", "passed", "redeal", "in_play"]


@dataclass(slots=True)
class DealResult:
    """One deal of a game as the record format reports it; ``tricks`` counts live during play."""

    dealer: int
    trump: int | None = None
    maker: int | None = None
    alone: list[int] = field(default_factory=list)
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    result: DealOutcome = "in_play"

    @property
    def makers(self) -> int | None:
        """The makers' team, once trump is made."""
        return None if self.maker is None else self.maker % 2

    def to_json(self) -> dict[str, Any]:
        """The ``deals`` entry of replay output."""
        return {
            "dealer": self.dealer,
            "trump": None if self.trump is None else Suit(self.trump).letter,
            "maker": self.maker,
            "makers": self.makers,
            "alone": list(self.alone),
            "tricks": list(self.tricks),
            "points": list(self.points),
            "result": self.result,
        }


def score_deal(
    rules: HouseRules,
    maker_tricks: int,
    maker_alone: bool,
    defender_alone: bool,
) -> tuple[DealOutcome, int, int]:
    """The outcome and the points to (makers, defenders) for a deal played to the end.

    A lone maker's march scores ``points_lone_march`` even against a lone
    defender; where a lone defender's euchre and a super-euchre both apply,
    the larger counts.
    """
    if maker_tricks == rules.hand_size:
        return "march", rules.points_lone_march if maker_alone else rules.points_march, 0
    if maker_tricks * 2 > rules.hand_size:
        return "made", rules.points_made, 0
    points = rules.points_lone_defender_euchre if defender_alone else rules.points_euchre
    if maker_tricks == 0 and rules.points_super_euchre is not None:
        points = max(points, rules.points_super_euchre)
    return "euchred", 0, points
