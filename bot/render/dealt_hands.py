"""The hands of the deal that has just ended, for anyone who asks (a watcher's view)."""

from __future__ import annotations

import discord

from bot.tables import DealtHands, PublicTable

from .cards import card_text, hand_text, in_colours
from .deals import deal_line
from .teams import seat_label

__all__ = ["dealt_hands_embed"]


def dealt_hands_embed(
    table: PublicTable, dealt: DealtHands, four_colour: bool = False
) -> discord.Embed:
    """Every seat's hand of ``dealt`` as it was dealt, with the deal's outcome."""
    deal = dealt.deal
    lines = []
    for seat, hand in enumerate(dealt.hands):
        dealer = " (dealer)" if seat == deal.dealer else ""
        shown = hand_text(hand, deal.trump)
        lines.append(f"{seat_label(table, seat)}{dealer}: {in_colours(shown, four_colour)}")
    if dealt.upcard is not None:
        lines.append(f"Turned up: {card_text(dealt.upcard, four_colour)}")
    embed = discord.Embed(
        title=f"Table {table.id}: the hands of deal {deal.number}",
        description="\n".join(lines),
    )
    embed.set_footer(text=deal_line(table, deal))
    return embed
