"""The Activity's words: a seat's buttons and prompt, and who is to act, from a seat's view.

Plain text with the suits as symbols (``♥``); the client colours them, in two or four
colours as the person prefers. Names come in as a list by seat, so nothing here reads a
table: :mod:`.feed` passes what a snapshot holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.render.action_words import Words, button_label, goes_alone
from bot.render.turn_words import turn_words
from bot.rules import Action, SeatView
from bot.rules.cards import card_symbol
from bot.rules.ranking import NO_TRUMP_HIGH, build_ranking, top_rank_word

__all__ = ["CARD_VERBS", "action_label", "card_role", "prompt", "trump_name", "whose_turn"]

CARD_VERBS: Final = ("play", "discard", "give")
"""The verbs a click on a card of the hand makes."""

_SUIT_NAMES: Final = ("Clubs", "Diamonds", "Hearts", "Spades")
_SYMBOLS: Final = "♣♦♥♠"
_ROLES: Final = {"the right bower": "right", "the left bower": "left", "the Benny": "Benny"}


def trump_name(trump: int) -> str:
    """Trump as a button or a line says it: "♥ Hearts", "No Trump High"."""
    if trump >= NO_TRUMP_HIGH:
        return "No Trump High" if trump == NO_TRUMP_HIGH else "No Trump Low"
    return f"{_SYMBOLS[trump]} {_SUIT_NAMES[trump]}"


_BUTTON_WORDS: Final = Words(card_symbol, trump_name, trump_name)
"""Plain symbols for the cards, trump (or a suit called) with its name ("♥ Hearts")."""


def card_role(card: int, trump: int | None) -> str:
    """A top trump's short name ("right", "left", "Benny"), else ""."""
    return "" if trump is None else _ROLES.get(top_rank_word(card, trump), "")


def action_label(view: SeatView, action: Action, names: Sequence[str]) -> tuple[str, str]:
    """A non-card action's button: its label and its kind (``main``, ``alone``, ``pass``)."""
    label = button_label(view, action, words=_BUTTON_WORDS, name_of=lambda seat: names[seat])
    if action.do in ("pass", "redeal"):
        return label, "pass"
    return label, "alone" if goes_alone(action) else "main"


def whose_turn(view: SeatView, names: Sequence[str]) -> str:
    """Who acts next, as a line: "Bob is to play", or the game's end."""
    if view.over or view.turn is None:
        return "The game is over."
    return f"{names[view.turn]} is to {turn_words(view)}."


def prompt(view: SeatView, names: Sequence[str]) -> str:
    """What the seat is asked to do now ("" while others act: the table's line says whom)."""
    if view.over:
        return ""
    if not view.my_turn:
        return "Your partner plays alone: you sit out this deal." if view.out[view.seat] else ""
    phase = view.phase
    if phase == "bid1":
        upcard = card_symbol(view.upcard)
        if view.seat == view.dealer:
            return f"Your turn: take up {upcard}, or turn it down."
        return f"Your turn: order the dealer up to take {upcard}, or pass."
    if phase in ("bid2", "bid"):
        if all(a.do != "pass" for a in view.legal):
            return "Your turn: everyone passed, so you must choose."
        return "Your turn: name trump, or pass." if phase == "bid2" else "Your turn: bid, or pass."
    if phase == "declare":
        return "Your turn: name trump, or No Trump High or Low."
    if phase == "discard":
        return "Your turn: choose a card to discard."
    if phase == "alone":
        return "Your turn: go alone?" if view.makers == view.team else "Your turn: defend alone?"
    if phase == "give":
        if view.seat in view.alone:
            return "Your turn: ask a partner for their best card?"
        return "Your turn: give your lone partner a card."
    if not view.trick:
        return "Your turn: lead a card."
    assert view.trump is not None
    led = build_ranking(view.rules).suit[view.trump][view.trick[0][1]]
    return f"Your turn: follow {_SUIT_NAMES[led].lower()} if you can."
