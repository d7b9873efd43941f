"""A game stopped before its end (a tournament round's timer): what of it is kept.

Its record is cut at the end of its last finished deal, the deal in play dropped
(it never counted), and says why in ``meta.stopped``; the archive keeps it as a
game that can be replayed, never rated. The record format is unchanged: ``meta`` is
the free-form part every reader ignores.
"""

from __future__ import annotations

from typing import Any, Final

from bot.rules import Game, parse_record, replay

__all__ = ["ROUND_TIMER", "finished_deals_record"]

ROUND_TIMER: Final = "stopped by the round timer"
"""Why a tournament table still playing at its round's timer was stopped."""


def finished_deals_record(game: Game, record: dict[str, Any], reason: str) -> dict[str, Any] | None:
    """``record`` (the record of ``game``) up to its last finished deal, with ``reason``.

    None when no deal was finished: nothing to keep.
    """
    deals_done = len(game.results) - (0 if game.over else 1)
    if deals_done <= 0:
        return None
    start = {**record, "actions": []}
    played = replay(start).game
    cut = 0
    for index, (seat, action) in enumerate(parse_record(record).actions):
        if played.deal_number > deals_done or played.over:
            break
        before = played.deal_number
        played.apply(-1 if seat is None else seat, action)
        if played.deal_number != before or played.over:
            cut = index + 1
    meta = {**(record.get("meta") or {}), "stopped": reason}
    return {**record, "actions": record["actions"][:cut], "meta": meta}
