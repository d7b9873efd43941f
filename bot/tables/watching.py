"""A watcher's view: every hand of the deal that has just ended, for anyone who asks.

A server may let anyone (seated or not) see, privately, the hands of a casual game's
last deal as they were dealt: only between deals (the next deal has no move yet) and
once the game is over, never while a deal is in play, never in a ranked game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.rules import Game, game_record, parse_card
from bot.server.settings import ServerSettings

from .errors import WrongStageError
from .persistence import TableStatus
from .public import DealSummary, PublicTable

__all__ = ["DealtHands", "Watched", "dealt_hands", "hands_shown"]


class Watched(Protocol):
    """What the watchers' view reads of a table (a :class:`~.table.Table`)."""

    game: Game | None
    settings: ServerSettings
    status: TableStatus

    @property
    def casual(self) -> bool:
        """Whether the game is casual (not ranked)."""
        ...

    @property
    def actors(self) -> Sequence[tuple[int, object]]:
        """Who acted, by deal."""
        ...

    def public(self) -> PublicTable:
        """The table as the public message shows it."""
        ...


@dataclass(frozen=True, slots=True)
class DealtHands:
    """The deal that has just ended: its outcome and each seat's hand as dealt."""

    deal: DealSummary
    hands: tuple[tuple[int, ...], ...]
    upcard: int | None
    """The card turned up (None where the rules turn none)."""


def hands_shown(table: Watched) -> bool:
    """Whether the last deal's hands may be shown now (the server, the game, the moment)."""
    game = table.game
    return (
        game is not None
        and table.settings.watchers_see_hands
        and table.casual
        and table.status in ("playing", "finished")
        and _no_deal_in_play(table, game)
    )


def _no_deal_in_play(table: Watched, game: Game) -> bool:
    if table.status == "finished" or game.over:
        return bool(game.results)
    finished = len(game.results) - 1
    return finished > 0 and not any(deal == game.deal_number for deal, _ in table.actors)


def dealt_hands(table: Watched) -> DealtHands:
    """The hands of the deal that has just ended; a sentence saying why not, if not now."""
    if not table.settings.watchers_see_hands:
        raise WrongStageError("This server doesn't show the hands of a deal.")
    game = table.game
    if game is None or table.status not in ("playing", "finished"):
        raise WrongStageError("No deal has ended at this table yet.")
    if not table.casual:
        raise WrongStageError("The hands of a deal are shown only in casual games.")
    if not _no_deal_in_play(table, game):
        raise WrongStageError(
            "A deal is in play: the hands are shown between deals and after the game."
        )
    public = table.public().game
    assert public is not None and public.last_deal is not None
    summary = public.last_deal
    spec = game_record(game, with_deals=True)["deals"][summary.number - 1]
    hands = tuple(tuple(parse_card(c) for c in hand) for hand in spec["hands"])
    upcard = spec.get("upcard")
    return DealtHands(summary, hands, None if upcard is None else parse_card(upcard))
