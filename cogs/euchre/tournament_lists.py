"""An event's whole lists answered privately, page by page: the standings, who is in.

The event message's **Standings** and **Who's in** buttons and ``/euchre tournament
standings`` open page one; the page buttons (:class:`.routes.TournamentPageButton`,
whose custom_ids carry the event, the list and the page, so they work after a
restart) redraw the same private message at another page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.league.tournaments import Tournament
from bot.render.tournament_lists import EventList, event_list_page
from bot.replies import send_ephemeral, update_message

from .routes import TournamentPageButton

if TYPE_CHECKING:
    from bot.app import EuchreBot

__all__ = ["list_view", "show_list"]


def list_view(event_id: int, which: EventList, page: int, pages: int) -> discord.ui.View | None:
    """Previous and next page; None when the list has one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    items: list[discord.ui.Item[Any]] = [
        TournamentPageButton(event_id, which, page - 1, "p", disabled=page <= 0),
        TournamentPageButton(event_id, which, page + 1, "n", disabled=page >= pages - 1),
    ]
    for item in items:
        view.add_item(item)
    view.stop()  # clicks reach the items through the dynamic-item registry
    return view


async def show_list(
    interaction: discord.Interaction[EuchreBot],
    event: Tournament,
    which: EventList,
    page: int = 0,
    *,
    redraw: bool = False,
) -> None:
    """Answer with a page of the event's list, privately.

    ``redraw``: the clicked message is redrawn at that page instead of a new one.
    """
    state = event.state
    assert state.id is not None
    standings = event.standings() if which == "st" else []
    embed, shown, pages = event_list_page(state, which, page, standings)
    view = list_view(state.id, which, shown, pages)
    if redraw:
        await update_message(interaction, embed=embed, view=view)
    else:
        await send_ephemeral(interaction, embed=embed, view=view or discord.utils.MISSING)
