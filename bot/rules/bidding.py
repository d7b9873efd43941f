"""A deal's phases, and what the game asks of the bidding it is played with.

A ``Game`` is one trick-taking core: the table, the score, the log, the deal's
hands and the play of its tricks. Who makes trump and how is the part that
differs between the games, so the game holds one ``Bidding`` for its rules and
hands it every action but a card played: euchre's ordering up and naming trump
with its loners (``euchre_bidding.py``), or Bid Euchre's numeric bids
(``bid_bidding.py``). A bidding keeps its own progress through the phases
before the play and reads and changes the game's deal through the game; it
ends by starting the play (``Game.begin_play``) and, once the last trick is
taken, scores the deal (``score_deal``).
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Literal, Self

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game

Phase = Literal["bid1", "discard", "bid2", "alone", "give", "play", "bid", "declare"]
"""A deal's phase, as record-format.md names it (a game that is over has none).

``bid1``, ``bid2`` and ``alone`` are euchre's, ``bid`` and ``declare`` Bid
Euchre's; both use ``give``, ``discard`` and ``play``.
"""

BID1: Final[Phase] = "bid1"
DISCARD_PHASE: Final[Phase] = "discard"
BID2: Final[Phase] = "bid2"
ALONE_PHASE: Final[Phase] = "alone"
GIVE_PHASE: Final[Phase] = "give"
PLAY_PHASE: Final[Phase] = "play"
BID_PHASE: Final[Phase] = "bid"
DECLARE_PHASE: Final[Phase] = "declare"


class Bidding(metaclass=ABCMeta):
    """What happens before a deal's play under one game's rules (subclassed by each game)."""

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A blank bidding for ``copy`` (mypyc's own ``__new__`` would run ``__init__``)."""
        return super().__new__(cls)

    @abstractmethod
    def start_deal(self, game: Game) -> None:
        """A new deal is dealt: reset the bidding, set the game's first phase and turn."""

    @abstractmethod
    def legal(self, game: Game, seat: int, phase: Phase | None) -> Sequence[Action]:
        """``Game.legal()`` in every phase before the play (``seat`` to act)."""

    @abstractmethod
    def act(self, game: Game, seat: int, action: Action) -> None:
        """Apply an action of any verb but ``play``, already logged."""

    @abstractmethod
    def check(self, game: Game, seat: int, action: Action) -> None:
        """Raise RuleError where the rules refuse ``seat``'s action (the game unchanged)."""

    @abstractmethod
    def score_deal(self, game: Game) -> None:
        """The last trick is taken: book the deal and end the game or deal the next."""

    @abstractmethod
    def copy(self) -> Bidding:
        """An independent copy, for ``Game.copy``."""
