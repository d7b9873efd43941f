"""A message's panel as plain data: what Discord draws as an embed, without discord.

Render draws panels; :func:`bot.discord.embeds.embed_of` turns each into a
``discord.Embed`` (the one place that does), so render stays pure text and pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Colour", "Panel"]

Colour = Literal["blurple", "dark_green", "dark_grey", "gold", "light_grey"]
"""The colours the bot's embeds use, by the name of discord.py's ``Colour`` of each."""


@dataclass(frozen=True, slots=True)
class Panel:
    """A title, its text, an optional colour and an optional footer line."""

    title: str
    description: str
    colour: Colour | None = None
    footer: str | None = None
