"""The pictures a link shows when it is pasted in Discord (Open Graph): PNGs made here.

A server's (and a player's) link shows the current season's top five of a family; a
game's shows a deal, every hand face up, with the cards the project draws for its
emojis (:mod:`bot.render.card_images`). 1200 x 630, the size link previews expect.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.league import Standing
from bot.render.card_images import draw_card
from bot.rules.cards import parse_card

from .replay_view import TEAM_NAMES, StepView

__all__ = ["SIZE", "deal_card", "standings_card"]

SIZE: Final = (1200, 630)
_BACKGROUND: Final = (24, 60, 40)
_INK: Final = (245, 245, 240)
_SOFT: Final = (190, 210, 195)
_TEAMS: Final = ((120, 160, 255), (255, 170, 80))

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font(size: int) -> Font:
    return ImageFont.load_default(size=size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def standings_card(title: str, rows: Sequence[Standing]) -> bytes:
    """A season's leaders: place, name, rating and record of the first five."""
    image = Image.new("RGB", SIZE, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((60, 50), _fit(draw, title, _font(52), 1080), font=_font(52), fill=_INK)
    if not rows:
        draw.text((60, 170), "No standings yet this season.", font=_font(40), fill=_SOFT)
    for n, s in enumerate(rows[:5]):
        y = 150 + n * 90
        draw.text((60, y), f"{s.place or '-'}.", font=_font(44), fill=_SOFT)
        draw.text((140, y), _fit(draw, s.name, _font(44), 640), font=_font(44), fill=_INK)
        losses = s.games - s.wins
        draw.text((820, y), f"{s.rating:.1f}", font=_font(44), fill=_INK)
        draw.text((980, y + 6), f"{s.wins}-{losses}", font=_font(36), fill=_SOFT)
    return _png(image)


@cache
def _card(label: str, height: int) -> Image.Image:
    picture = draw_card(parse_card(label))
    return picture.resize((height, height), Image.Resampling.LANCZOS)


def deal_card(title: str, step: StepView) -> bytes:
    """One step of a game: every seat's hand face up, with the game's title and score."""
    image = Image.new("RGB", SIZE, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((40, 24), _fit(draw, title, _font(40), 1120), font=_font(40), fill=_INK)
    score = f"{TEAM_NAMES[0]} {step.score[0]} · {TEAM_NAMES[1]} {step.score[1]}"
    draw.text((40, 74), score, font=_font(30), fill=_SOFT)
    top = 120
    row = (SIZE[1] - top - 10) // max(len(step.seats), 1)
    height = min(110, row - 6)
    for n, seat in enumerate(step.seats):
        y = top + n * row
        colour = _TEAMS[seat.team]
        name = seat.name + (" (dealer)" if seat.dealer else "")
        font = _font(max(18, min(32, height // 3)))
        draw.text((40, y + height // 3), _fit(draw, name, font, 330), font=font, fill=colour)
        if seat.out:
            draw.text((390, y + height // 3), "sits out", font=font, fill=_SOFT)
            continue
        for k, card in enumerate(seat.cards):
            picture = _card(card.label, height)
            image.paste(picture, (390 + k * (height - 8), y), picture)
    return _png(image)
