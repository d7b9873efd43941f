"""A table's messages as embeds: the public table and each private hand, drawn by render.

Render draws them as panels (:func:`~bot.render.table_panel`,
:func:`~bot.render.hand_panel`, :func:`~bot.render.closed_hand_panel`); these are the
embeds the presenter and the buttons send.
"""

from __future__ import annotations

import discord

from bot.discord.embeds import embed_of
from bot.render import NO_FACES, CardFaces, closed_hand_panel, hand_panel, table_panel
from bot.rules import SeatView
from bot.tables import PublicTable

__all__ = ["closed_hand_embed", "hand_embed", "table_embed"]


def table_embed(table: PublicTable, faces: CardFaces = NO_FACES, *, web: str = "") -> discord.Embed:
    """The public message of a table at any stage (see :func:`~bot.render.table_panel`)."""
    return embed_of(table_panel(table, faces, web=web))


def hand_embed(table: PublicTable, view: SeatView, four_colour: bool = False) -> discord.Embed:
    """The private hand of one seat (see :func:`~bot.render.hand_panel`)."""
    return embed_of(hand_panel(table, view, four_colour))


def closed_hand_embed(table: PublicTable) -> discord.Embed:
    """The private hand of a closed table: who won and the score, or the score it closed at."""
    return embed_of(closed_hand_panel(table))
