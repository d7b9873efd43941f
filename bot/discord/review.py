"""A deal's review on Discord: the buttons that step to the game's other deals.

Each (:func:`~bot.discord.buttons.review_button`) carries the game and the deal; the
command is ``cogs/euchre/learning.py``, the words :mod:`bot.render.review`, the review
:mod:`bot.review`.
"""

from __future__ import annotations

import discord

from bot.discord.buttons import review_button
from bot.review.deal import DealShown

__all__ = ["review_view"]


def review_view(shown: DealShown) -> discord.ui.View | None:
    """Previous and next deal of the review; None for a game of one deal."""
    if shown.deals <= 1:
        return None
    deal = shown.review.deal
    view = discord.ui.View(timeout=None)
    view.add_item(
        review_button(shown.game.id, deal - 1, "p", label="◀ Previous deal", disabled=deal <= 1)
    )
    view.add_item(
        review_button(
            shown.game.id, deal + 1, "n", label="Next deal ▶", disabled=deal >= shown.deals
        )
    )
    view.stop()
    return view
