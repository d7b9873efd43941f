"""A phone's reading of an embed: every line wrapped at about 40 characters, counted."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

import discord

PHONE_COLUMNS: Final = 40
"""About what a phone shows of an embed's line, in characters of the message font."""

_CUSTOM_EMOJI: Final = re.compile(r"<a?:\w+:\d+>")
_MARKUP: Final = re.compile(r"\*\*|__|~~|`")


def _width(ch: str) -> int:
    if ch == "\ufe0f" or unicodedata.category(ch) == "Mn":
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F") or ord(ch) >= 0x1F000:
        return 2
    return 1


def shown(text: str) -> str:
    """Text as Discord shows it: markup gone, a custom emoji as one picture (two columns)."""
    return _MARKUP.sub("", _CUSTOM_EMOJI.sub("🂠", text))


def wrapped_lines(line: str, columns: int = PHONE_COLUMNS) -> int:
    """How many lines ``line`` takes on a phone, wrapped at spaces."""
    count, used = 1, 0
    for word in shown(line).split(" "):
        width = sum(_width(ch) for ch in word)
        if used and used + 1 + width > columns:
            count, used = count + 1, 0
        used += width + (1 if used else 0)
        while used > columns:
            count, used = count + 1, used - columns
    return count


def phone_lines(embed: discord.Embed) -> int:
    """The lines an embed takes on a phone: title, description, each field, footer."""
    texts = [embed.title or "", embed.description or ""]
    for field in embed.fields:
        texts += [field.name or "", field.value or ""]
    texts.append(embed.footer.text or "")
    return sum(wrapped_lines(line) for text in texts if text for line in text.split("\n"))
