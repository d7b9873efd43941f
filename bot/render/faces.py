"""Card faces as the application's emojis, with the text form wherever there is none.

The pictures are drawn by :mod:`.card_images` and uploaded at start-up; what the
upload returns (card -> emoji) is a :class:`CardFaces`, which the table and the hand
draw their cards with. Without it (:data:`NO_FACES`) every card is written as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .cards import card_text

__all__ = ["NO_FACES", "CardEmoji", "CardFaces"]


@dataclass(frozen=True, slots=True)
class CardEmoji:
    """One of the application's emojis, by its name and id."""

    name: str
    id: int

    def __str__(self) -> str:
        """The emoji in a message's text."""
        return f"<:{self.name}:{self.id}>"


@dataclass(frozen=True, slots=True)
class CardFaces:
    """The emoji of each card that has one (the others are written as text).

    ``four_colour_emojis`` are the four-colour faces of the cards they change (diamonds
    and clubs); :meth:`coloured` gives the faces a person's ``four_colour`` preference
    asks for.
    """

    emojis: Mapping[int, CardEmoji] = field(default_factory=dict)
    four_colour_emojis: Mapping[int, CardEmoji] = field(default_factory=dict)
    four_colour: bool = False
    """Whether these draw the cards in four colours (pictures and text)."""

    def coloured(self, four_colour: bool) -> CardFaces:
        """The same faces, drawing the cards in four colours or in two."""
        return self if four_colour == self.four_colour else replace(self, four_colour=four_colour)

    def emoji(self, card: int) -> CardEmoji | None:
        """The card's emoji, for a button; None where there is none."""
        if self.four_colour and card in self.four_colour_emojis:
            return self.four_colour_emojis[card]
        return self.emojis.get(card)

    def inline(self, card: int) -> str:
        """The card in a message: its emoji, else its text ("10♥️")."""
        emoji = self.emoji(card)
        return str(emoji) if emoji is not None else card_text(card, self.four_colour)

    def __bool__(self) -> bool:
        return bool(self.emojis)


NO_FACES = CardFaces()
"""No pictures: every card as text."""
