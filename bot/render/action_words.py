"""The words for the bids that the table's bidding line and a replay say alike.

Both name whoever made an action and what they bid, ordered up, called or named; they
differ in tense and in how much they show (a replay shows every card), so each says
passes, discards, going alone, swaps and plays its own way and asks here for the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.rules import Action

from .cards import card_text, suit_text, trump_text

__all__ = ["DISCORD_WORDS", "Words", "bid_words"]


@dataclass(frozen=True, slots=True)
class Words:
    """How a line names cards, suits called and trump named."""

    card: Callable[[int], str]
    suit: Callable[[int], str]
    trump: Callable[[int], str]


DISCORD_WORDS: Final = Words(card_text, suit_text, trump_text)
"""Discord's: emoji suits."""


def bid_words(
    who: str,
    action: Action,
    *,
    dealer: bool,
    name_of: Callable[[int], str],
    words: Words = DISCORD_WORDS,
) -> str | None:
    """A bid, an order up, a call, trump named, a card asked for or a hand thrown in.

    ``who`` made ``action`` (``dealer``: from the dealer's seat); ``name_of`` names the
    partner asked for a card. None for any other action.
    """
    alone = " alone" if action.alone else ""
    do = action.do
    if do == "bid":
        return f"{who} bid {action.tricks}"
    if do == "declare":
        assert action.trump is not None
        return f"{who} named {words.trump(action.trump)}"
    if do == "order_up":
        return f"{who} took it up{alone}" if dealer else f"{who} ordered it up{alone}"
    if do == "call":
        assert action.suit is not None
        return f"{who} called {words.suit(action.suit)}{alone}"
    if do == "ask":
        assert action.partner is not None
        return f"{who} asked {name_of(action.partner)} for a card"
    if do == "redeal":
        return f"{who} threw in the hand (ace no face)"
    return None
