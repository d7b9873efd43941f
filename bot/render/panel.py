"""A message's panel as plain data: what Discord draws as an embed, without discord.

Render draws panels; :func:`bot.discord.embeds.embed_of` turns each into a
``discord.Embed`` (the one place that does), so render stays pure text and pictures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

__all__ = ["Colour", "Panel", "PanelField", "moment"]

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
    image: str | None = None
    """The name of a file sent with the message, shown as the panel's picture."""

    def __len__(self) -> int:
        """The characters Discord counts towards an embed's 6,000 (title, text, fields, footer)."""
        parts = [self.title, self.description or "", self.footer or ""]
        return sum(map(len, parts)) + sum(len(f.name) + len(f.value) for f in self.fields)

    def add_field(self, *, name: str, value: str, inline: bool = True) -> None:
        """Add a titled part below the others."""
        self.fields.append(PanelField(name, value, inline))


def moment(when: datetime, style: str = "f") -> str:
    """A time as Discord shows it, in each reader's own time zone (``<t:...:style>``).

    ``style``: ``t`` a short time, ``d`` a short date, ``f`` a date and time, ``F`` with
    the weekday, ``R`` how long from now.
    """
    return f"<t:{int(when.timestamp())}:{style}>"
