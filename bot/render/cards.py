"""Cards as players read them: suit symbols, bowers named, hands sorted with trump first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bot.rules import Suit
from bot.rules.cards import JOKER, SUIT_NAMES, card_symbol, card_words
from bot.rules.ranking import NO_TRUMP_HIGH, top_rank_word

__all__ = [
    "BOWER_SHORT",
    "EMOJI_SUITS",
    "FOUR_COLOUR_SUITS",
    "bower_word",
    "card_name",
    "card_symbol",
    "card_text",
    "card_words",
    "hand_text",
    "in_colours",
    "sort_hand",
    "suit_text",
    "trump_text",
    "trump_words",
]

BOWER_SHORT: Final = {"the right bower": "right", "the left bower": "left", "the Benny": "Benny"}

EMOJI_SUITS: Final = {symbol: f"{symbol}\ufe0f" for symbol in "♣♦♥♠"}
"""Each suit symbol in its emoji form (with U+FE0F), which Discord draws in colour."""

FOUR_COLOUR_SUITS: Final = {**EMOJI_SUITS, "♦": "🔷", "♣": "☘️"}
"""The suits in four colours: hearts red, diamonds blue, clubs green, spades black."""

# Suits alternate colours in a sorted hand: spades, hearts, clubs, diamonds.
_SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def _coloured(text: str, four_colour: bool = False) -> str:
    suits = FOUR_COLOUR_SUITS if four_colour else EMOJI_SUITS
    return "".join(suits.get(ch, ch) for ch in text)


def in_colours(text: str, four_colour: bool) -> str:
    """Text written with the two-colour suits (:func:`card_text`...), in four colours if asked."""
    if not four_colour:
        return text
    for symbol in "♦♣":
        text = text.replace(EMOJI_SUITS[symbol], FOUR_COLOUR_SUITS[symbol])
    return text


def suit_text(suit: int, four_colour: bool = False) -> str:
    """A suit with its symbol in colour: "♥️ hearts" (four colours: "🔷 diamonds")."""
    s = Suit(suit)
    return f"{_coloured(s.symbol, four_colour)} {s.plural}"


def trump_text(trump: int, four_colour: bool = False) -> str:
    """Trump as declared: a suit ("♥️ hearts"), or Bid Euchre's "No Trump High" / "No Trump Low"."""
    if trump >= NO_TRUMP_HIGH:
        return "No Trump High" if trump == NO_TRUMP_HIGH else "No Trump Low"
    return suit_text(trump, four_colour)


def card_text(card: int, four_colour: bool = False) -> str:
    """The short form of a card, its suit in colour: "10♥️", "J♦️", "🃏" (four colours: "J🔷")."""
    return _coloured(card_symbol(card), four_colour)


def bower_word(card: int, trump: int | None) -> str:
    """A top trump's short name ("right", "left", "Benny"), or "" for any other card."""
    return "" if trump is None else BOWER_SHORT.get(top_rank_word(card, trump), "")


def card_name(card: int, trump: int | None) -> str:
    """A card with its role once trump is known: "J♦️ (left bower)"."""
    if trump is None:
        return card_text(card)
    role = top_rank_word(card, trump)
    return f"{card_text(card)} ({role.removeprefix('the ')})" if role else card_text(card)


def _sort_key(card: int, trump: int | None) -> tuple[int, int]:
    if card >= JOKER:
        return (0, -card)
    suit, rank = card >> 3, card & 7
    if trump is not None and trump >= NO_TRUMP_HIGH:
        trump = None
    if trump is not None:
        role = top_rank_word(card, trump)
        if role == "the right bower":
            return (1, 0)
        if role == "the left bower":
            return (1, 1)
        if suit == trump:
            return (1, 10 - rank)
    order = list(_SUIT_ORDER)
    if trump is not None:
        order.remove(Suit(trump))
    return (2 + order.index(Suit(suit)), 10 - rank)


def sort_hand(cards: Iterable[int], trump: int | None) -> list[int]:
    """A hand in reading order: Bennies and trump first (bowers on top), then suit by suit."""
    return sorted(cards, key=lambda c: _sort_key(c, trump))


def hand_text(cards: Iterable[int], trump: int | None) -> str:
    """A sorted hand on one line, bowers named: "J♥️ (right bower) · J♦️ (left bower) · A♥️"."""
    return " · ".join(card_name(c, trump) for c in sort_hand(cards, trump)) or "no cards"


def trump_words(trump: int) -> str:
    """What a declared trump is called in a sentence: "hearts", "No Trump High"."""
    if trump >= NO_TRUMP_HIGH:
        return "No Trump High" if trump == NO_TRUMP_HIGH else "No Trump Low"
    return SUIT_NAMES[trump]
