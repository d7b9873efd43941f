"""A message's panel as plain data: what Discord draws as an embed, without discord.

Render draws panels; :func:`bot.discord.embeds.embed_of` turns each into a
``discord.Embed`` (the one place that does), so render stays pure text and pictures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Colour", "Panel", "PanelField"]

Colour = Literal["blurple", "dark_green", "dark_grey", "gold", "light_grey"]
"""The colours the bot's embeds use, by the name of discord.py's ``Colour`` of each."""


@dataclass(frozen=True, slots=True)
class PanelField:
    """One titled part of a panel; ``inline`` ones may stand side by side."""

    name: str
    value: str
    inline: bool = True


@dataclass(slots=True)
class Panel:
    """A title, its text, an optional colour and footer line, and titled fields."""

    title: str
    description: str | None = None
    colour: Colour | None = None
    footer: str | None = None
    fields: list[PanelField] = field(default_factory=list)

    def add_field(self, *, name: str, value: str, inline: bool = True) -> None:
        """Add a titled part below the others."""
        self.fields.append(PanelField(name, value, inline))
