"""What a routed click is handed to: the :class:`Clicks` of the euchre cog.

Each component's click is parsed by :mod:`.routes` and handed to one method here, which the
euchre cog implements. The protocol is generic in the client, so the bot (``EuchreBot``,
which keeps the loaded cog as its ``clicks``) and the routes both name it without either
importing the other for it.
"""

from __future__ import annotations

from datetime import date
from typing import Protocol, TypeVar

import discord

from bot.league import Family
from bot.render import TableVerb
from bot.render.tournament_lists import EventList
from bot.render.tournaments import EventVerb

__all__ = ["Clicks"]

ClientT = TypeVar("ClientT", bound=discord.Client, contravariant=True)
"""The client of the interactions handed over (the euchre bot)."""


class Clicks(Protocol[ClientT]):
    """What the routed components call: the euchre cog."""

    async def table_button(
        self, interaction: discord.Interaction[ClientT], table_id: int, verb: TableVerb
    ) -> None:
        """A public table button (or the hand's Refresh)."""
        ...

    async def seat_chosen(
        self, interaction: discord.Interaction[ClientT], table_id: int, seat: int
    ) -> None:
        """A seat picked in the public message's seat picker (-1: not a seat)."""
        ...

    async def level_chosen(
        self, interaction: discord.Interaction[ClientT], table_id: int, level: str
    ) -> None:
        """A computer level picked in the lobby's level picker."""
        ...

    async def hand_action(
        self,
        interaction: discord.Interaction[ClientT],
        table_id: int,
        seat: int,
        stamp: tuple[int, int],
        code: str,
    ) -> None:
        """An action button of a private hand."""
        ...

    async def standings_page(
        self, interaction: discord.Interaction[ClientT], season_id: int, page: int, family: Family
    ) -> None:
        """Another page of a season's standings of one family."""
        ...

    async def replay_step(
        self, interaction: discord.Interaction[ClientT], game_id: int, deal: int, trick: int
    ) -> None:
        """Another step of a game's replay."""
        ...

    async def history_page(
        self, interaction: discord.Interaction[ClientT], user_id: int, page: int
    ) -> None:
        """Another page of a player's games."""
        ...

    async def tournament_button(
        self, interaction: discord.Interaction[ClientT], event_id: int, verb: EventVerb
    ) -> None:
        """A button of a tournament event's message."""
        ...

    async def review_step(
        self, interaction: discord.Interaction[ClientT], game_id: int, deal: int
    ) -> None:
        """Another deal of the clicker's review of a game."""
        ...

    async def tournament_page(
        self,
        interaction: discord.Interaction[ClientT],
        event_id: int,
        which: EventList,
        page: int,
    ) -> None:
        """Another page of an event's standings or of who is in."""
        ...

    async def tournament_history_page(
        self, interaction: discord.Interaction[ClientT], page: int
    ) -> None:
        """Another page of the server's tournament history."""
        ...

    async def table_review(
        self,
        interaction: discord.Interaction[ClientT],
        table_id: int,
        seat: int,
        deal: int,
        step: bool,
    ) -> None:
        """The review of a seat's deal at a table (``step``: redraw the review clicked)."""
        ...

    async def daily_action(
        self, interaction: discord.Interaction[ClientT], day: date, index: int, code: str
    ) -> None:
        """A move in the clicker's daily deal, drawn at action ``index`` of ``day``."""
        ...

    async def lesson_action(
        self, interaction: discord.Interaction[ClientT], preset: str, step: int, code: str
    ) -> None:
        """A move at step ``step`` of the first lesson, played by ``preset``'s rules."""
        ...
