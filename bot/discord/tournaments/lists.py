"""An event's whole lists answered privately, page by page: the standings, who is in.

And the server's history of events, ten a page (``/euchre tournament history``).

The event message's **Standings** and **Who's in** buttons and ``/euchre tournament
standings`` open page one; the page buttons (:func:`~bot.discord.buttons.tournament_page_button`,
whose custom_ids carry the event, the list and the page, so they work after a
restart) redraw the same private message at another page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.discord.buttons import tournament_history_button, tournament_page_button
from bot.discord.embeds import embed_of
from bot.discord.replies import send_ephemeral, update_message
from bot.errors import UserFacingError
from bot.render.tournament_lists import EventList, event_list_page
from bot.render.tournaments import HISTORY_EVENTS, history_panel
from bot.tournaments import Tournament
from bot.tournaments.repository import TournamentRepo

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["history_view", "list_view", "show_history", "show_list"]


def list_view(event_id: int, which: EventList, page: int, pages: int) -> discord.ui.View | None:
    """Previous and next page; None when the list has one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    items: list[discord.ui.Item[Any]] = [
        tournament_page_button(event_id, which, page - 1, "p", disabled=page <= 0),
        tournament_page_button(event_id, which, page + 1, "n", disabled=page >= pages - 1),
    ]
    for item in items:
        view.add_item(item)
    view.stop()  # clicks reach the items through the dynamic-item registry
    return view


def history_view(page: int, pages: int) -> discord.ui.View | None:
    """Newer and older events of the server's history; None when they fit on one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(tournament_history_button(page - 1, "p", disabled=page <= 0))
    view.add_item(tournament_history_button(page + 1, "n", disabled=page >= pages - 1))
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
    panel, shown, pages = event_list_page(state, which, page, standings)
    embed = embed_of(panel)
    view = list_view(state.id, which, shown, pages)
    if redraw:
        await update_message(interaction, embed=embed, view=view)
    else:
        await send_ephemeral(interaction, embed=embed, view=view or discord.utils.MISSING)


async def show_history(
    interaction: discord.Interaction[EuchreBot],
    repo: TournamentRepo,
    page: int,
    *,
    redraw: bool = False,
) -> None:
    """Answer with a page of the server's events and their winners, privately.

    ``redraw``: the clicked message is redrawn at that page instead of a new one.
    """
    guild_id = interaction.guild_id
    if guild_id is None:
        raise UserFacingError("Tournaments live in servers, not in direct messages.")
    pages = max(1, -(-await repo.count_by_guild(guild_id) // HISTORY_EVENTS))
    page = min(max(page, 0), pages - 1)
    events = await repo.list_by_guild(guild_id, limit=HISTORY_EVENTS, offset=page * HISTORY_EVENTS)
    embed = embed_of(history_panel([(e, Tournament(e).champions()) for e in events], page, pages))
    view = history_view(page, pages)
    if redraw:
        await update_message(interaction, embed=embed, view=view)
    else:
        await send_ephemeral(interaction, embed=embed, view=view or discord.utils.MISSING)
