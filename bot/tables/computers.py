"""Computer players as the tables use them: anything that picks an action from a seat's view.

A computer decides from ``seat_view(game, seat)`` only, never from other hands. The
table makes a fresh player for every decision, seeded from the table's seed, the seat
and the action number, so a decision depends on nothing but the game so far: a table
replayed after a restart makes the same moves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Final, Protocol, runtime_checkable

from bot.rules import Action, SeatView

__all__ = [
    "HINT_LEVEL",
    "Advice",
    "AdvisingPlayer",
    "ClaimCheck",
    "ComputerPlayer",
    "PlayerFactory",
    "decision_seed",
    "no_claims",
]


ClaimCheck = Callable[[SeatView], bool]
"""Whether a seat's own cards take every remaining trick, decided from its view alone
(``bot.players.claims.can_claim``): a person is offered a claim, a computer makes one."""


def no_claims(view: SeatView) -> bool:
    """The claim check of a service given none: nobody is offered a claim."""
    return False


class ComputerPlayer(Protocol):
    """A computer player: ``choose`` returns one of ``view.legal``."""

    def choose(self, view: SeatView) -> Action:
        """The action to take from this view (it is the seat's turn)."""
        ...


class Advice(Protocol):
    """A searched decision with its figures (``bot.players.advice.Advice``)."""

    @property
    def action(self) -> Action:
        """The choice."""
        ...

    @property
    def values(self) -> Mapping[Action, float]:
        """Expected points a deal of each option searched."""
        ...

    @property
    def samples(self) -> int:
        """Sampled deals behind the figures."""
        ...

    @property
    def tricks(self) -> Mapping[int, float]:
        """Bid Euchre: expected tricks of the seat's side declaring each trump searched."""
        ...

    def runner_up(self) -> Action | None:
        """The best searched option other than the choice."""
        ...

    def margin(self) -> float | None:
        """By how many expected points the choice beats the runner-up."""
        ...


@runtime_checkable
class AdvisingPlayer(Protocol):
    """A computer player that can also say what its choice is worth: it gives hints."""

    def choose(self, view: SeatView) -> Action:
        """The action to take from this view."""
        ...

    def advise(self, view: SeatView) -> Advice:
        """The action with the figures it was chosen by."""
        ...


HINT_LEVEL: Final = "expert"
"""The level whose advice a Hint button gives."""

PlayerFactory = Callable[[str, int], ComputerPlayer]
"""Builds a player from a level (``"basic"``) and a seed: ``bot.players.make_player``."""


def decision_seed(table_seed: int, seat: int, index: int) -> int:
    """The seed of the player deciding action ``index`` for ``seat`` (stable everywhere)."""
    digest = hashlib.blake2b(f"{table_seed}:{seat}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
