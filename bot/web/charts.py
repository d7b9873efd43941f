"""A player's rating over time as an SVG line chart, drawn on the server.

Plain SVG with presentation attributes (no style attribute, no script), so the page's
Content-Security-Policy has nothing to allow; the chart has a title for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from markupsafe import Markup, escape

__all__ = ["rating_svg"]

WIDTH: Final = 640
HEIGHT: Final = 240
_LEFT: Final = 48
_RIGHT: Final = 12
_TOP: Final = 12
_BOTTOM: Final = 28


def _ticks(low: float, high: float, wanted: int = 5) -> list[float]:
    span = high - low or 1.0
    raw = span / wanted
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rating_svg(ratings: Sequence[float], label: str, ident: str = "chart") -> Markup:
    """The ratings (first: before any game) as a line; ``ident`` makes its ids unique."""
    low, high = min(ratings), max(ratings)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    plot_w = WIDTH - _LEFT - _RIGHT
    plot_h = HEIGHT - _TOP - _BOTTOM
    last = max(len(ratings) - 1, 1)

    def x(i: float) -> float:
        return _LEFT + plot_w * i / last

    def y(v: float) -> float:
        return _TOP + plot_h * (high - v) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ident}-title">{escape(label)}</title>',
    ]
    for tick in _ticks(low, high):
        ty = y(tick)
        parts.append(
            f'<line x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" '
            'stroke="#d0d4dc" stroke-width="1"/>'
            f'<text x="{_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end" font-size="12" '
            f'fill="#4a5160">{_number(tick)}</text>'
        )
    parts.append(
        f'<text x="{_LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
        f'font-size="12" fill="#4a5160">rated games played: {len(ratings) - 1}</text>'
    )
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ratings))
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="#3355cc" stroke-width="2.5" '
        'stroke-linejoin="round"/>'
    )
    end_x, end_y = x(len(ratings) - 1), y(ratings[-1])
    parts.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="4" fill="#3355cc"/>')
    parts.append("</svg>")
    return Markup("".join(parts))
