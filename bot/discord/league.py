"""The league's buttons: standings and history pages, replay steps (items: :mod:`.routes`)."""

from __future__ import annotations

import discord

from bot.discord.buttons import history_button, replay_button, standings_button
from bot.league import DEFAULT_FAMILY, Family, ReplayBook

__all__ = ["history_view", "replay_view", "standings_view"]


def standings_view(
    season_id: int, page: int, pages: int, family: Family = DEFAULT_FAMILY
) -> discord.ui.View | None:
    """Previous and next page buttons; None when everything fits on one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(standings_button(season_id, page - 1, "p", family, page <= 0))
    view.add_item(standings_button(season_id, page + 1, "n", family, page >= pages - 1))
    return view


def history_view(user_id: int, page: int, pages: int) -> discord.ui.View | None:
    """Newer and older games; None when every game fits on one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(history_button(user_id, page - 1, "p", page <= 0))
    view.add_item(history_button(user_id, page + 1, "n", page >= pages - 1))
    return view


def replay_view(game_id: int, book: ReplayBook, index: int) -> discord.ui.View:
    """Previous and next deal, previous and next trick, around step ``index``."""
    step = book.steps[index]
    last = len(book.steps) - 1
    deal_start = book.deal_starts[step.deal]
    back_to = deal_start if index > deal_start else book.deal_starts[max(step.deal - 1, 0)]
    next_deal = step.deal + 1 < len(book.deal_starts)
    targets = [
        ("⏮ Previous deal", "pd", back_to, index == 0),
        ("◀ Previous trick", "pt", max(index - 1, 0), index == 0),
        ("Next trick ▶", "nt", min(index + 1, last), index == last),
        (
            "Next deal ⏭",
            "nd",
            book.deal_starts[step.deal + 1] if next_deal else last,
            not next_deal,
        ),
    ]
    view = discord.ui.View(timeout=None)
    for label, tag, target, disabled in targets:
        to = book.steps[target]
        view.add_item(
            replay_button(game_id, to.deal, to.trick, tag, label=label, disabled=disabled)
        )
    return view
