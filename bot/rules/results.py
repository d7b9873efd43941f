"""What a game keeps of its tricks and deals: ``Trick``, ``Contract`` and ``DealResult``.

Values: the state (state.py) holds them and never changes one once made, so a
copy of the state may share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .actions import TRUMP_WORDS

DealOutcome = Literal[
    "made", "march", "euchred", "passed", "redeal", "in_play", "set", "shot", "shot_failed"
]


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who played which card, in play order, and who won it."""

    seats: tuple[int, ...]
    cards: tuple[int, ...]
    winner: int

    def __init__(self, seats: tuple[int, ...], cards: tuple[int, ...], winner: int) -> None:
        # By hand, not dataclass's: compiled by mypyc this one is native code.
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "winner", winner)


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
    """One deal of a game as the record format reports it (the deal in play: as it stands)."""

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
