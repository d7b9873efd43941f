"""Text in the link pictures: names with emoji, scripts of every kind, nothing turned around.

A name is drawn on its own (so nothing in it can move the text beside it), without its
directional formatting characters, in the first font that has its letters:

- a text font with wide coverage (DejaVu Sans, which Debian and the Docker image ship;
  Pillow's own small font where it is missing);
- an emoji font (Noto Color Emoji, ``fonts-noto-color-emoji`` in the Docker image) for
  emoji, drawn in colour and scaled to the text;
- else a drawn stand-in: a round face for an emoji, an outlined box for a letter no
  font has, so a name never turns into empty boxes.

:func:`find_fonts` looks for the fonts where Debian puts them; tests pass their own.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from .texts import without_controls

__all__ = [
    "FONT_PLACES",
    "Fonts",
    "TextRun",
    "draw_text",
    "find_fonts",
    "fit",
    "runs",
    "text_width",
]

FONT_PLACES: Final = {
    "regular": (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ),
    "bold": (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    ),
    "emoji": (
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        "/usr/share/fonts/noto/NotoColorEmoji.ttf",
    ),
}
"""Where each font is looked for, first found first."""

_EMOJI_STRIKE: Final = 109
"""The one size Noto Color Emoji's bitmaps are drawn at (scaled after)."""

_PICTOGRAPH: Final = (
    "\U0001f000-\U0001faff\u2600-\u27bf\u2300-\u23ff\u2b00-\u2bff\u3030\u303d\u3297\u3299"
)
_MODIFIERS: Final = "\ufe0f\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f"
_EMOJI: Final = re.compile(
    "(?:[\U0001f1e6-\U0001f1ff]{2}"
    "|[#*0-9]\ufe0f?\u20e3"
    f"|[{_PICTOGRAPH}][{_MODIFIERS}]*(?:\u200d[{_PICTOGRAPH}][{_MODIFIERS}]*)*"
    f"|[\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa]\ufe0f)"
)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Colour = tuple[int, int, int] | tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Fonts:
    """The font files the pictures draw with (None: not on this machine)."""

    regular: str | None = None
    bold: str | None = None
    emoji: str | None = None


def find_fonts() -> Fonts:
    """The fonts found in their usual places."""

    def first(kind: str) -> str | None:
        return next((p for p in FONT_PLACES[kind] if Path(p).is_file()), None)

    return Fonts(first("regular"), first("bold"), first("emoji"))


@cache
def _text_font(path: str | None, size: int) -> Font:
    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(path, size)


@cache
def _emoji_font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, _EMOJI_STRIKE)


@cache
def _missing_mark(path: str | None) -> tuple[tuple[int, int], bytes]:
    """What the font draws for a character it lacks (its .notdef glyph)."""
    font = _text_font(path, 40)
    mask = font.getmask("\U0010fffd")
    return mask.size, bytes(mask)


@cache
def _has_glyph(path: str | None, char: str) -> bool:
    if path is None:
        return char.isascii()
    mask = _text_font(path, 40).getmask(char)
    return (mask.size, bytes(mask)) != _missing_mark(path)


@dataclass(frozen=True, slots=True)
class TextRun:
    """A piece of a name drawn one way: ``text`` in the text font, ``emoji``, or ``missing``."""

    kind: str
    text: str


def _pieces(text: str) -> Iterator[tuple[bool, str]]:
    """The text cut into emoji sequences and what lies between them."""
    at = 0
    for match in _EMOJI.finditer(text):
        if match.start() > at:
            yield False, text[at : match.start()]
        yield True, match.group()
        at = match.end()
    if at < len(text):
        yield False, text[at:]


def runs(text: str, fonts: Fonts, *, bold: bool = False) -> list[TextRun]:
    """How ``text`` is drawn: its runs of text, emoji and characters no font has."""
    path = fonts.bold if bold else fonts.regular
    out: list[TextRun] = []

    def add(kind: str, piece: str) -> None:
        if out and out[-1].kind == kind and kind == "text":
            out[-1] = TextRun(kind, out[-1].text + piece)
        else:
            out.append(TextRun(kind, piece))

    for is_emoji, piece in _pieces(without_controls(text)):
        if is_emoji:
            if fonts.emoji is not None:
                add("emoji", piece)
            elif all(_has_glyph(path, c) for c in piece if c not in "\ufe0f\u200d"):
                add("text", piece)
            else:
                add("emoji-missing", piece)
            continue
        for char in piece:
            usable = unicodedata.category(char) in ("Mn", "Me", "Cf") or _has_glyph(path, char)
            add("text" if usable else "missing", char)
    return out


def _run_width(run: TextRun, font: Font, size: int) -> float:
    if run.kind == "text":
        return font.getlength(run.text)
    return size * 1.15


def text_width(text: str, fonts: Fonts, size: int, *, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size``."""
    font = _text_font(fonts.bold if bold else fonts.regular, size)
    return sum(_run_width(r, font, size) for r in runs(text, fonts, bold=bold))


def fit(text: str, fonts: Fonts, size: int, width: float, *, bold: bool = False) -> str:
    """``text`` cut with "…" to fit ``width`` (cut between characters, emoji kept whole)."""
    if text_width(text, fonts, size, bold=bold) <= width:
        return text
    units: list[str] = []
    for is_emoji, piece in _pieces(without_controls(text)):
        units.extend([piece] if is_emoji else piece)
    while units and text_width("".join(units) + "…", fonts, size, bold=bold) > width:
        units.pop()
    return "".join(units) + "…"


@cache
def _emoji_picture(path: str, sequence: str, height: int) -> Image.Image:
    font = _emoji_font(path)
    box = font.getbbox(sequence)
    picture = Image.new(
        "RGBA", (max(1, math.ceil(box[2])), max(1, math.ceil(box[3]))), (0, 0, 0, 0)
    )
    ImageDraw.Draw(picture).text((0, 0), sequence, font=font, embedded_color=True)
    trimmed = picture.crop(picture.getbbox() or (0, 0, 1, 1))
    scale = height / max(trimmed.height, trimmed.width)
    size = (max(1, round(trimmed.width * scale)), max(1, round(trimmed.height * scale)))
    return trimmed.resize(size, Image.Resampling.LANCZOS)


def _stand_in(
    draw: ImageDraw.ImageDraw, x: float, top: float, size: int, fill: Colour, emoji: bool
) -> None:
    """A drawn mark where no font has the character: a face for an emoji, else a box."""
    side = size * 0.9
    left, upper = x + size * 0.1, top + size * 0.12
    if emoji:
        draw.ellipse(
            (left, upper, left + side, upper + side), fill=(250, 204, 60), outline=(120, 90, 10)
        )
        eye = side * 0.1
        for ex in (left + side * 0.32, left + side * 0.68):
            draw.ellipse(
                (ex - eye, upper + side * 0.35 - eye, ex + eye, upper + side * 0.35 + eye),
                fill=(60, 40, 10),
            )
        draw.arc(
            (left + side * 0.25, upper + side * 0.3, left + side * 0.75, upper + side * 0.75),
            20,
            160,
            fill=(60, 40, 10),
            width=max(1, size // 14),
        )
    else:
        draw.rounded_rectangle(
            (left, upper, left + side * 0.7, upper + side),
            radius=size // 8,
            outline=fill,
            width=max(1, size // 14),
        )


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    fonts: Fonts,
    size: int,
    fill: Colour,
    *,
    bold: bool = False,
) -> float:
    """Draw ``text`` with its top left at ``xy``; how wide it was."""
    draw = ImageDraw.Draw(image)
    font = _text_font(fonts.bold if bold else fonts.regular, size)
    x, top = xy
    for run in runs(text, fonts, bold=bold):
        if run.kind == "text":
            draw.text((x, top), run.text, font=font, fill=fill)
        elif run.kind == "emoji" and fonts.emoji is not None:
            picture = _emoji_picture(fonts.emoji, run.text, round(size * 1.05))
            image.paste(picture, (round(x + size * 0.05), round(top + size * 0.08)), picture)
        else:
            _stand_in(draw, x, top, size, fill, run.kind == "emoji-missing")
        x += _run_width(run, font, size)
    return x - xy[0]
