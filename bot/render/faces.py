"""Card faces as the application's emojis, with the text form wherever there is none.

The pictures are drawn by :mod:`.card_images` and uploaded at start-up; what the
upload returns (card -> emoji) is a :class:`CardFaces`, which the table and the hand
draw their cards with. Without it (:data:`NO_FACES`) every card is written as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import discord

from .cards import card_text

__all__ = ["NO_FACES", "CardFaces"]


@dataclass(frozen=True, slots=True)
class CardFaces:
    """The emoji of each card that has one (the others are written as text)."""

    emojis: Mapping[int, discord.PartialEmoji] = field(default_factory=dict)

    def emoji(self, card: int) -> discord.PartialEmoji | None:
        """The card's emoji, for a button; None where there is none."""
        return self.emojis.get(card)

    def inline(self, card: int) -> str:
        """The card in a message: its emoji, else its text ("10♥️")."""
        emoji = self.emojis.get(card)
        return str(emoji) if emoji is not None else card_text(card)

    def __bool__(self) -> bool:
        return bool(self.emojis)


NO_FACES = CardFaces()
"""No pictures: every card as text."""
