"""What a played-out deal scores, from the tricks the makers took."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .actions import TRUMP_WORDS
from .house_rules import HouseRules

DealOutcome = Literal[
    "made", "march", "euchred", "passed", "redeal", "in_play", "set", "shot", "shot_failed"
]


@dataclass(frozen=True, slots=True)
class Contract:
    """Bid Euchre: the winning bid: who, how many tricks, and whether it is a shoot."""

    seat: int
    tricks: int
    shoot: bool = False

    def __init__(self, seat: int, tricks: int, shoot: bool = False) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "shoot", shoot)

    @property
    def team(self) -> int:
        """The bidders' team."""
        return self.seat % 2

    def to_json(self) -> dict[str, Any]:
        """The ``bid`` of a deal in replay output."""
        if self.shoot:
            return {"seat": self.seat, "shoot": True}
        return {"seat": self.seat, "tricks": self.tricks}


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
    bidding: bool = False
    """Bid Euchre: the deal is bid for, so its output carries ``bid``."""
    contract: Contract | None = None

    def __init__(
        self,
        dealer: int,
        trump: int | None = None,
        maker: int | None = None,
        alone: list[int] | None = None,
        tricks: list[int] | None = None,
        points: list[int] | None = None,
        result: DealOutcome = "in_play",
        bidding: bool = False,
        contract: Contract | None = None,
    ) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        self.dealer = dealer
        self.trump = trump
        self.maker = maker
        self.alone = [] if alone is None else alone
        self.tricks = [0, 0] if tricks is None else tricks
        self.points = [0, 0] if points is None else points
        self.result = result
        self.bidding = bidding
        self.contract = contract

    @property
    def makers(self) -> int | None:
        """The makers' team, once trump is made."""
        return None if self.maker is None else self.maker % 2

    def to_json(self) -> dict[str, Any]:
        """The ``deals`` entry of replay output (with ``bid`` in Bid Euchre)."""
        out: dict[str, Any] = {"dealer": self.dealer}
        if self.bidding:
            out["bid"] = None if self.contract is None else self.contract.to_json()
        return out | {
            "trump": None if self.trump is None else TRUMP_WORDS[self.trump],
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


def score_bid_deal(
    rules: HouseRules, contract: Contract, bidder_tricks: int, defender_tricks: int
) -> tuple[DealOutcome, int, int]:
    """Bid Euchre: the outcome and the points to (bidders, defenders) of a deal played out.

    Made: each team scores its tricks. Set: the bidders lose their bid, the
    defenders score their tricks. A shoot scores ``shoot_points`` for every
    trick taken, or loses as much, the defenders scoring their tricks.
    """
    if contract.shoot:
        if defender_tricks == 0:
            return "shot", rules.shoot_points, 0
        return "shot_failed", -rules.shoot_points, defender_tricks
    if bidder_tricks >= contract.tricks:
        return "made", bidder_tricks, defender_tricks
    return "set", -contract.tricks, defender_tricks
