"""What the seat to act is doing, in words: "play", "name trump", "ask a partner for a card".

One source for every place that says whose turn it is (the table message, the Activity).
"""

from __future__ import annotations

from typing import Final

from bot.rules import SeatView

__all__ = ["turn_words"]

_TURN_WORDS: Final = {
    "bid1": "bid",
    "bid": "bid",
    "declare": "name trump",
    "bid2": "name trump",
    "discard": "discard",
    "alone": "decide on going alone",
    "give": "pass a card",
    "play": "play",
}


def turn_words(view: SeatView) -> str:
    """What the seat to act does now (``view`` may be any seat's, or the public one)."""
    if view.phase == "give" and view.turn in view.alone:
        return "ask a partner for a card"
    return _TURN_WORDS.get(view.phase or "", "act")
