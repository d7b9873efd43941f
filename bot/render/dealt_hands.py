"""The hands of the deal that has just ended, for anyone who asks (a watcher's view)."""

from __future__ import annotations

from bot.tables import DealtHands, PublicTable

from .cards import card_text, hand_text, in_colours
from .deals import deal_line
from .panel import Panel
from .teams import seat_label

__all__ = ["dealt_hands_panel"]


def dealt_hands_panel(table: PublicTable, dealt: DealtHands, four_colour: bool = False) -> Panel:
    """Every seat's hand of ``dealt`` as it was dealt, with the deal's outcome."""
    deal = dealt.deal
    lines = []
    for seat, hand in enumerate(dealt.hands):
        dealer = " (dealer)" if seat == deal.dealer else ""
        shown = hand_text(hand, deal.trump)
        lines.append(f"{seat_label(table, seat)}{dealer}: {in_colours(shown, four_colour)}")
    if dealt.upcard is not None:
        lines.append(f"Turned up: {card_text(dealt.upcard, four_colour)}")
    return Panel(
        title=f"Table {table.number}: the hands of deal {deal.number}",
        description="\n".join(lines),
        footer=deal_line(table, deal),
    )
