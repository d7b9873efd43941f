"""Every card the pages show, in one SVG file: a card is ``cards.<hash>.svg#JD``.

The faces follow the ones the bot uploads as emojis (:mod:`bot.render.card_images`): a
white card, red suits red and black suits black, the Bennies a star; the rank and a small
suit sit in the top left corner, so that a hand can overlap its cards and still show
them. Each card is a ``<view>`` of the sprite, so an ``<img>`` shows one card by the
fragment of its address and the browser loads the file once for all of them.
Drawn here as text at start-up, the same every time, so its hashed name is stable.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from bot.render.card_images import suit_colour
from bot.rules.cards import (
    BLACK_JOKER,
    CARD_COUNT,
    FOUR_SPADES,
    JOKER,
    RANK_LABELS,
    RED_JOKER,
    THREE_SPADES,
    TWO_SPADES,
    Suit,
    card_label,
)

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "cards_svg"]

CARD_WIDTH: Final = 50
CARD_HEIGHT: Final = 70
_GAP: Final = 2

_SUITS: Final = {
    Suit.HEARTS: (
        "M0 1C-.3 .7-1 .2-1-.35-1-.75-.7-1-.45-1-.2-1-.05-.85 0-.62"
        ".05-.85.2-1 .45-1 .7-1 1-.75 1-.35 1 .2.3.7 0 1Z"
    ),
    Suit.DIAMONDS: "M0-1 .75 0 0 1-.75 0Z",
    Suit.SPADES: (
        "M0-1C-.3-.6-1-.2-1 .25-1 .6-.7.8-.45.8-.25.8-.12.7-.06.6L-.32 1H.32L.06.6"
        "C.12.7.25.8.45.8.7.8 1 .6 1 .25 1-.2.3-.6 0-1Z"
    ),
    Suit.CLUBS: (
        "M0-.94A.42.42 0 1 1 0-.1 .42.42 0 1 1 0-.94ZM-.5-.32A.42.42 0 1 1-.5.52"
        ".42.42 0 1 1-.5-.32ZM.5-.32A.42.42 0 1 1 .5.52.42.42 0 1 1 .5-.32Z"
        "M-.25-.2H.25V.2H-.25ZM0 0 .33 1H-.33Z"
    ),
}
_STAR: Final = "M0-1 .24-.33.95-.31.38.11.59.81 0 .4-.59.81-.38.11-.95-.31-.24-.33Z"
_JOKER_RANKS: Final = {TWO_SPADES: "2", THREE_SPADES: "3", FOUR_SPADES: "4"}
_JOKER_COLOURS: Final = {JOKER: "#6a38c4", RED_JOKER: "#cc1f26", BLACK_JOKER: "#181818"}


def _hex(colour: tuple[int, ...]) -> str:
    return "#" + "".join(f"{c:02x}" for c in colour[:3])


def _card(card: int, x: int, four_colour: bool) -> str:
    """One card's drawing at ``x`` in the sprite, and its view."""
    label = card_label(card)
    parts = [
        f'<view id="{label}" viewBox="{x} 0 {CARD_WIDTH} {CARD_HEIGHT}"/>',
        f'<g transform="translate({x} 0)">',
        f'<rect x="1" y="1" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}" rx="5" '
        'fill="#fff" stroke="#787878" stroke-width="1.5"/>',
    ]
    if card in _JOKER_COLOURS:
        parts.append(
            f'<use href="#star" transform="translate(28 38) scale(16)" '
            f'fill="{_JOKER_COLOURS[card]}"/>'
        )
    else:
        if card >= JOKER:
            rank, suit = _JOKER_RANKS[card], Suit.SPADES
        else:
            rank, suit = RANK_LABELS[card & 7], Suit(card >> 3)
        colour = _hex(suit_colour(suit, four_colour))
        size, spacing = (18, "0") if len(rank) == 1 else (15, "-1")
        parts.append(
            f'<text x="4" y="19" font-size="{size}" letter-spacing="{spacing}" fill="{colour}" '
            f'font-weight="700" font-family="DejaVu Sans,Arial,sans-serif">{rank}</text>'
            f'<use href="#{suit.name.lower()}" transform="translate(10.5 28) scale(5.5)" '
            f'fill="{colour}"/>'
            f'<use href="#{suit.name.lower()}" transform="translate(30 48) scale(13)" '
            f'fill="{colour}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


@cache
def cards_svg(four_colour: bool = False) -> bytes:
    """The sprite: every card of every pack side by side, each a view named by its label.

    ``four_colour``: diamonds blue and clubs green (a person's preference, in the Activity).
    """
    step = CARD_WIDTH + _GAP
    width = step * CARD_COUNT
    defs = "".join(f'<path id="{suit.name.lower()}" d="{d}"/>' for suit, d in _SUITS.items())
    cards = "".join(_card(card, n * step, four_colour) for n, card in enumerate(range(CARD_COUNT)))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {CARD_HEIGHT}" width="{width}" height="{CARD_HEIGHT}">'
        f'<defs>{defs}<path id="star" d="{_STAR}"/></defs>{cards}</svg>\n'
    ).encode()
