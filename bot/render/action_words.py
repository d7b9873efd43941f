"""The words for actions that more than one place says alike.

The table's bidding line and a replay both name whoever made an action and what they
bid, ordered up, called or named (:func:`bid_words`); they differ in tense and in how much
they show (a replay shows every card), so each says passes, discards, going alone, swaps
and plays its own way and asks here for the rest. The hand's buttons on Discord and in
the Activity label a seat's actions alike (:func:`button_label`), each in its own look.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.rules import Action, SeatView

from .cards import card_text, suit_text, trump_text

__all__ = ["DISCORD_WORDS", "Words", "bid_words", "button_label", "goes_alone"]


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


def button_label(
    view: SeatView, action: Action, *, words: Words, name_of: Callable[[int], str]
) -> str:
    """The button of a non-card action from the seat of ``view``: "Order up 9♥ alone", "Pass".

    ``words`` names the cards and trump (its ``suit`` a suit called); ``name_of`` the partner
    asked for a card.
    """
    dealer = view.seat == view.dealer
    maker_side = view.makers == view.team
    do = action.do
    if do == "pass":
        if view.phase == "bid1":
            return "Turn it down" if dealer else "Pass"
        if view.phase == "alone":
            return "Play with partner" if maker_side else "Defend together"
        return "Don't ask" if view.phase == "give" else "Pass"
    if do == "bid":
        return f"Bid {action.tricks}"
    if do == "shoot":
        return "Shoot (all tricks)"
    if do == "declare":
        assert action.trump is not None
        return words.trump(action.trump)
    if do == "order_up":
        label = f"{'Take it up' if dealer else 'Order up'} {words.card(view.upcard)}"
        return f"{label} alone" if action.alone else label
    if do == "call":
        assert action.suit is not None
        return f"{words.suit(action.suit)} alone" if action.alone else words.suit(action.suit)
    if do == "alone":
        return "Go alone" if maker_side else "Defend alone"
    if do == "ask":
        assert action.partner is not None
        return f"Ask {name_of(action.partner)}"
    if do == "redeal":
        return "Throw in (ace no face)"
    if do == "swap":
        return "Swap " + " ".join(words.card(c) for c in action.cards or ())
    raise ValueError(f"{do} is a card's action")


def goes_alone(action: Action) -> bool:
    """Whether the action plays or defends alone, or bids every trick: its button stands out."""
    return action.do in ("shoot", "alone") or (
        action.do in ("order_up", "call") and bool(action.alone)
    )
