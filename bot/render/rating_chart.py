"""The rating-over-time picture of ``/euchre stats``: a PNG drawn in-process with Pillow.

No browser, no network and no system font: the text uses the font Pillow ships.
The picture only holds numbers and plain words (names go in the embed), so any
player's chart draws the same on every machine.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw, ImageFont

__all__ = ["CHART_FILENAME", "CHART_SIZE", "rating_chart"]

CHART_FILENAME: Final = "rating.png"
CHART_SIZE: Final = (800, 360)

_BACKGROUND: Final = (47, 49, 54)
_GRID: Final = (79, 84, 92)
_TEXT: Final = (220, 221, 222)
_MUTED: Final = (142, 146, 151)
_LINE: Final = (250, 166, 26)
_ZERO: Final = (114, 137, 218)
_MARGIN: Final = (64, 44, 36, 36)
"""Left, top, right, bottom: room for the axis labels."""
_DOTS_UP_TO: Final = 40

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int) -> Font:
    try:
        return ImageFont.load_default(size)
    except (ImportError, OSError):  # Pillow built without FreeType: its bitmap font
        return ImageFont.load_default()


def _ticks(low: float, high: float, wanted: int = 5) -> list[float]:
    """Round values spanning ``low`` to ``high`` for the grid lines."""
    span = high - low
    raw = span / max(wanted - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    out = []
    value = first
    while value <= high + step * 1e-9:
        out.append(round(value, 10))
        value += step
    return out


def _label(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def rating_chart(ratings: Sequence[float], *, size: tuple[int, int] = CHART_SIZE) -> bytes:
    """A PNG of ``ratings`` (before the first game, then after each), or "No rated games yet"."""
    width, height = size
    image = Image.new("RGB", size, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, large = _font(14), _font(20)
    if len(ratings) < 2:
        message = "No rated games yet"
        box = draw.textbbox((0, 0), message, font=large)
        draw.text(
            ((width - (box[2] - box[0])) / 2, (height - (box[3] - box[1])) / 2),
            message,
            font=large,
            fill=_MUTED,
        )
        return _png(image)

    left, top, right, bottom = _MARGIN
    plot_w, plot_h = width - left - right, height - top - bottom
    low, high = min(ratings), max(ratings)
    if high - low < 1:
        middle = (high + low) / 2
        low, high = middle - 0.5, middle + 0.5
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    games = len(ratings) - 1

    def x_of(index: float) -> float:
        return left + plot_w * index / games

    def y_of(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    for tick in _ticks(low, high, 6):
        y = y_of(tick)
        colour = _ZERO if tick == 0 else _GRID
        draw.line([(left, y), (left + plot_w, y)], fill=colour, width=1)
        text = _label(tick)
        box = draw.textbbox((0, 0), text, font=small)
        draw.text(
            (left - 8 - (box[2] - box[0]), y - (box[3] - box[1]) / 2 - box[1]),
            text,
            font=small,
            fill=_MUTED,
        )
    for tick in _ticks(0, games, 6):
        if not float(tick).is_integer():
            continue
        x = x_of(tick)
        draw.line([(x, top + plot_h), (x, top + plot_h + 4)], fill=_GRID, width=1)
        text = _label(tick)
        box = draw.textbbox((0, 0), text, font=small)
        draw.text((x - (box[2] - box[0]) / 2, top + plot_h + 8), text, font=small, fill=_MUTED)
    caption = f"Rating after each ranked game ({games} played)"
    draw.text((left, 12), caption, font=small, fill=_TEXT)

    points = [(x_of(i), y_of(v)) for i, v in enumerate(ratings)]
    draw.line(points, fill=_LINE, width=3, joint="curve")
    if len(points) <= _DOTS_UP_TO:
        for x, y in points:
            draw.ellipse([(x - 4, y - 4), (x + 4, y + 4)], fill=_LINE)
    last_x, last_y = points[-1]
    text = _label(round(ratings[-1], 1))
    box = draw.textbbox((0, 0), text, font=large)
    draw.text(
        (min(last_x + 6, width - (box[2] - box[0]) - 4), max(last_y - 28, top - 8)),
        text,
        font=large,
        fill=_TEXT,
    )
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
