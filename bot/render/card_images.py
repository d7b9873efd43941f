"""Small pictures of the cards, drawn with Pillow, to upload as the application's emojis.

Each card is a white card on a transparent square: its rank large at the top and its
suit below, red suits red and black suits black, so the four suits tell apart at a
glance; the Bennies are a star. The four-colour faces (a person's ``four_colour``
preference) draw diamonds blue and clubs green; their other cards are the same
pictures, so only the diamonds and clubs are a second set (:func:`card_pictures` with
``four_colour``; 16 more emojis, far within the 2000 an application may have). The
pictures are drawn the same way every time, and each emoji's name carries a hash of its
picture, so an upload can tell a picture that is missing or changed from one already
there.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass
from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.rules.cards import (
    BLACK_JOKER,
    CARD_COUNT,
    FOUR_SPADES,
    JOKER,
    RANK_LABELS,
    RED_JOKER,
    RED_SUITS,
    THREE_SPADES,
    TWO_SPADES,
    Suit,
    card_label,
)

__all__ = [
    "EMOJI_PREFIX",
    "FOUR_COLOUR_PREFIX",
    "CardPicture",
    "card_picture",
    "card_pictures",
    "draw_card",
    "emoji_pictures",
    "recoloured",
    "suit_colour",
]

EMOJI_PREFIX: Final = "euchre_"
"""Every card emoji's name starts so; then the card's record label, then the hash."""

FOUR_COLOUR_PREFIX: Final = f"{EMOJI_PREFIX}four_"
"""A four-colour face's name starts so (then the label and the hash, as the others)."""

SIZE: Final = 96
_RED: Final = (204, 31, 38, 255)
_BLACK: Final = (24, 24, 24, 255)
_BLUE: Final = (28, 92, 204, 255)
_GREEN: Final = (22, 140, 60, 255)
_PURPLE: Final = (106, 56, 196, 255)
_EDGE: Final = (120, 120, 120, 255)
_WHITE: Final = (255, 255, 255, 255)
_JOKER_RANKS: Final = {TWO_SPADES: "2", THREE_SPADES: "3", FOUR_SPADES: "4"}


@dataclass(frozen=True, slots=True)
class CardPicture:
    """A card's picture and the emoji name it is uploaded under."""

    card: int
    png: bytes
    name: str
    four_colour: bool = False
    """Whether it is the card's four-colour face."""

    @property
    def label_prefix(self) -> str:
        """The name without the hash: every picture of this card starts so."""
        return self.name.rsplit("_", 1)[0] + "_"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _lobes(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    fill: tuple[int, ...],
    lobes: tuple[float, float],
    base: float,
    point: float,
) -> None:
    """Two round lobes side by side and a triangle from ``base`` to its ``point``.

    The heights are fractions of ``r`` below ``cy``: a heart, or upside down a spade's body.
    """
    top, bottom = cy + r * lobes[0], cy + r * lobes[1]
    draw.ellipse((cx - r, top, cx, bottom), fill=fill)
    draw.ellipse((cx, top, cx + r, bottom), fill=fill)
    draw.polygon(
        [(cx - r * 0.97, cy + r * base), (cx + r * 0.97, cy + r * base), (cx, cy + r * point)],
        fill=fill,
    )


def _heart(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]
) -> None:
    _lobes(draw, cx, cy, r, fill, (-0.9, 0.1), -0.2, 1)


def _spade(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]
) -> None:
    _lobes(draw, cx, cy, r, fill, (-0.2, 0.7), 0.3, -1)
    draw.polygon([(cx, cy + r * 0.3), (cx - r * 0.45, cy + r), (cx + r * 0.45, cy + r)], fill=fill)


def _diamond(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]
) -> None:
    draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)


def _club(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    leaf = r * 0.48
    for x, y in ((cx, cy - r * 0.5), (cx - r * 0.5, cy + r * 0.1), (cx + r * 0.5, cy + r * 0.1)):
        draw.ellipse((x - leaf, y - leaf, x + leaf, y + leaf), fill=fill)
    draw.polygon([(cx, cy), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=fill)


_SHAPES: Final = {
    Suit.HEARTS: _heart,
    Suit.SPADES: _spade,
    Suit.DIAMONDS: _diamond,
    Suit.CLUBS: _club,
}


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


def suit_colour(suit: Suit, four_colour: bool = False) -> tuple[int, int, int, int]:
    """A suit's colour: red or black; with ``four_colour`` diamonds blue and clubs green."""
    if four_colour and suit is Suit.DIAMONDS:
        return _BLUE
    if four_colour and suit is Suit.CLUBS:
        return _GREEN
    return _RED if suit in RED_SUITS else _BLACK


def draw_card(card: int, four_colour: bool = False) -> Image.Image:
    """The picture of ``card``: a white card, the rank on top and the suit (or a star) below.

    ``four_colour`` draws diamonds blue and clubs green (hearts stay red, spades black).
    """
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (10, 2, SIZE - 11, SIZE - 3), radius=10, fill=_WHITE, outline=_EDGE, width=2
    )
    middle = SIZE / 2
    if card in (JOKER, RED_JOKER, BLACK_JOKER):
        colour = {JOKER: _PURPLE, RED_JOKER: _RED, BLACK_JOKER: _BLACK}[card]
        _star(draw, middle, middle, SIZE * 0.33, colour)
        return image
    if card >= JOKER:
        rank, suit = _JOKER_RANKS[card], Suit.SPADES
    else:
        rank, suit = RANK_LABELS[card & 7], Suit(card >> 3)
    colour = suit_colour(suit, four_colour)
    size = 40 if len(rank) == 1 else 34
    draw.text(
        (middle, 27),
        rank,
        font=_font(size),
        fill=colour,
        anchor="mm",
        stroke_width=1,
        stroke_fill=colour,
    )
    _SHAPES[suit](draw, middle, 66, 20, colour)
    return image


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def card_picture(card: int, four_colour: bool = False) -> CardPicture:
    """The picture of one card with its emoji name: ``euchre_10H_<hash>``.

    A four-colour face is named ``euchre_four_10D_<hash>``.
    """
    png = _png(draw_card(card, four_colour))
    digest = hashlib.sha256(png).hexdigest()[:10]
    prefix = FOUR_COLOUR_PREFIX if four_colour else EMOJI_PREFIX
    return CardPicture(card, png, f"{prefix}{card_label(card)}_{digest}", four_colour)


def recoloured(card: int) -> bool:
    """Whether the four-colour face of ``card`` differs from its usual one."""
    return card < JOKER and Suit(card >> 3) in (Suit.DIAMONDS, Suit.CLUBS)


@cache
def card_pictures(four_colour: bool = False) -> tuple[CardPicture, ...]:
    """Every card's picture: the 32 suited cards and the jokers of every pack.

    With ``four_colour``, the four-colour faces of the cards they change (the diamonds
    and the clubs); the other cards use their usual picture.
    """
    if four_colour:
        return tuple(card_picture(c, True) for c in range(CARD_COUNT) if recoloured(c))
    return tuple(card_picture(card) for card in range(CARD_COUNT))


def emoji_pictures() -> tuple[CardPicture, ...]:
    """Every picture uploaded as an emoji: the usual faces, then the four-colour ones."""
    return (*card_pictures(), *card_pictures(four_colour=True))
