"""Small pictures of the cards, drawn with Pillow, to upload as the application's emojis.

Each card is a white card on a transparent square: its rank large at the top and its
suit below, red suits red and black suits black, so the four suits tell apart at a
glance; the Bennies are a star. The pictures are drawn the same way every time, and
each emoji's name carries a hash of its picture (:func:`card_pictures`), so an upload
can tell a picture that is missing or changed from one already there.
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

__all__ = ["EMOJI_PREFIX", "CardPicture", "card_picture", "card_pictures", "draw_card"]

EMOJI_PREFIX: Final = "euchre_"
"""Every card emoji's name starts so; then the card's record label, then the hash."""

SIZE: Final = 96
_RED: Final = (204, 31, 38, 255)
_BLACK: Final = (24, 24, 24, 255)
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

    @property
    def label_prefix(self) -> str:
        """The name without the hash: every picture of this card starts so."""
        return self.name.rsplit("_", 1)[0] + "_"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _heart(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]
) -> None:
    draw.ellipse((cx - r, cy - r * 0.9, cx, cy + r * 0.1), fill=fill)
    draw.ellipse((cx, cy - r * 0.9, cx + r, cy + r * 0.1), fill=fill)
    draw.polygon(
        [(cx - r * 0.97, cy - r * 0.2), (cx + r * 0.97, cy - r * 0.2), (cx, cy + r)], fill=fill
    )


def _spade(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]
) -> None:
    draw.ellipse((cx - r, cy - r * 0.2, cx, cy + r * 0.7), fill=fill)
    draw.ellipse((cx, cy - r * 0.2, cx + r, cy + r * 0.7), fill=fill)
    draw.polygon(
        [(cx - r * 0.97, cy + r * 0.3), (cx + r * 0.97, cy + r * 0.3), (cx, cy - r)], fill=fill
    )
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


def draw_card(card: int) -> Image.Image:
    """The picture of ``card``: a white card, the rank on top and the suit (or a star) below."""
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
    colour = _RED if suit in RED_SUITS else _BLACK
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


def card_picture(card: int) -> CardPicture:
    """The picture of one card with its emoji name: ``euchre_10H_<hash>``."""
    png = _png(draw_card(card))
    digest = hashlib.sha256(png).hexdigest()[:10]
    return CardPicture(card, png, f"{EMOJI_PREFIX}{card_label(card)}_{digest}")


@cache
def card_pictures() -> tuple[CardPicture, ...]:
    """Every card's picture: the 32 suited cards and the jokers of every pack."""
    return tuple(card_picture(card) for card in range(CARD_COUNT))
