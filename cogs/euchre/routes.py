"""Every custom_id of the euchre components: its grammar, its ``DynamicItem``, where it goes.

A custom_id carries all a click needs, so the buttons keep working after a restart:

- ``euchre:t:<table>:<verb>``: a button of the public table message (and a hand's Refresh);
- ``euchre:seat:<table>``: the seat picker of the public message;
- ``euchre:lvl:<table>``: the lobby's computer level picker (the host's);
- ``euchre:a:<table>:<seat>:<deal>:<index>:<action>[:<pos>]``: a private hand's action,
  drawn at (deal, action number), so a stale button is recognised;
- ``euchre:lg:st:<season>:<page>:<p|n>[:<family>]``: a page of a family's standings;
- ``euchre:lg:rp:<game>:<deal>:<trick>:<pd|pt|nt|nd>``: a step of a game's replay.

Each item only parses its id and hands the click to the bot's :class:`Clicks` (the euchre
cog, set on ``EuchreBot.clicks`` while it is loaded); every error goes to the funnel.
:data:`TEMPLATES` is the list of these grammars (every id begins with :data:`PREFIX`):
a click whose id fits none of them is answered at once as out of use (the ``Keeping`` cog).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol, TypeGuard, TypeVar

import discord

from bot.app import EuchreBot
from bot.league import DEFAULT_FAMILY, FAMILIES, Family
from bot.render import TABLE_VERBS, TableVerb
from bot.replies import report_error
from bot.rules import ACTION_CODE_PATTERN

__all__ = [
    "ACTION_ID",
    "DYNAMIC_ITEMS",
    "LEVEL_ID",
    "PREFIX",
    "REPLAY_ID",
    "SEAT_ID",
    "STANDINGS_ID",
    "TABLE_ID",
    "TEMPLATES",
    "ActionButton",
    "Clicks",
    "LevelSelect",
    "ReplayButton",
    "SeatSelect",
    "StandingsButton",
    "TableButton",
    "routed",
]

PREFIX: Final = "euchre:"
"""How every custom_id of this bot begins."""

_ID = r"[0-9]{1,19}"
_SMALL = r"[0-9]{1,5}"

TABLE_ID: Final = re.compile(rf"euchre:t:(?P<table>{_ID}):(?P<verb>{'|'.join(TABLE_VERBS)})")
SEAT_ID: Final = re.compile(rf"euchre:seat:(?P<table>{_ID})")
LEVEL_ID: Final = re.compile(rf"euchre:lvl:(?P<table>{_ID})")
ACTION_ID: Final = re.compile(
    rf"euchre:a:(?P<table>{_ID}):(?P<seat>[0-7]):(?P<deal>[0-9]{{1,6}}):(?P<index>[0-9]{{1,7}})"
    rf":(?P<act>{ACTION_CODE_PATTERN})(?::(?P<pos>[0-9]{{1,2}}))?"
)
STANDINGS_ID: Final = re.compile(
    rf"euchre:lg:st:(?P<season>{_ID}):(?P<page>{_SMALL}):(?P<tag>p|n)"
    rf"(?::(?P<family>{'|'.join(FAMILIES)}))?"
)
REPLAY_ID: Final = re.compile(
    rf"euchre:lg:rp:(?P<game>{_ID}):(?P<deal>{_SMALL}):(?P<trick>{_SMALL}):(?P<tag>pd|pt|nt|nd)"
)

TEMPLATES: Final = (TABLE_ID, SEAT_ID, LEVEL_ID, ACTION_ID, STANDINGS_ID, REPLAY_ID)
"""The grammar of every custom_id the euchre components use."""

_VERBS: Final[dict[str, TableVerb]] = {verb: verb for verb in TABLE_VERBS}

ClientT = TypeVar("ClientT", bound=discord.Client)
"""The client of an interaction as discord.py types an item's callback (ours: EuchreBot)."""


def routed(custom_id: str) -> bool:
    """Whether ``custom_id`` fits the grammar of one of the euchre components."""
    return any(template.fullmatch(custom_id) for template in TEMPLATES)


class Clicks(Protocol):
    """What the items call: the euchre cog."""

    async def table_button(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, verb: TableVerb
    ) -> None:
        """A public table button (or the hand's Refresh)."""
        ...

    async def seat_chosen(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, seat: int
    ) -> None:
        """A seat picked in the public message's seat picker."""
        ...

    async def level_chosen(
        self, interaction: discord.Interaction[EuchreBot], table_id: int, level: str
    ) -> None:
        """A computer level picked in the lobby's level picker."""
        ...

    async def hand_action(
        self,
        interaction: discord.Interaction[EuchreBot],
        table_id: int,
        seat: int,
        stamp: tuple[int, int],
        code: str,
    ) -> None:
        """An action button of a private hand."""
        ...

    async def standings_page(
        self, interaction: discord.Interaction[EuchreBot], season_id: int, page: int, family: Family
    ) -> None:
        """Another page of a season's standings of one family."""
        ...

    async def replay_step(
        self, interaction: discord.Interaction[EuchreBot], game_id: int, deal: int, trick: int
    ) -> None:
        """Another step of a game's replay."""
        ...


def _ours(interaction: discord.Interaction[ClientT]) -> TypeGuard[discord.Interaction[EuchreBot]]:
    return isinstance(interaction.client, EuchreBot)


Call = Callable[[Clicks, discord.Interaction[EuchreBot]], Awaitable[None]]


async def _route(interaction: discord.Interaction[ClientT], what: str, call: Call) -> None:
    """Hand the click to the bot's :class:`Clicks` (unless it stops); errors go to the funnel."""
    try:
        if not _ours(interaction):
            raise RuntimeError(f"{what} reached a client that is not the euchre bot")
        clicks = interaction.client.clicks
        if clicks is None:
            raise RuntimeError("the euchre cog is not loaded")
        if not await interaction.client.take(interaction):
            return
        await call(clicks, interaction)
    except Exception as exc:
        await report_error(interaction, exc, context=what)


# ---------------------------------------------------------------------- the table


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_ID):
    """A button of the public table message: ``euchre:t:<table>:<verb>``."""

    def __init__(
        self,
        table_id: int,
        verb: TableVerb,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        """A button doing ``verb`` at table ``table_id``."""
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=style,
                disabled=disabled,
                row=row,
                custom_id=f"euchre:t:{table_id}:{verb}",
            )
        )
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        """Parse the id of a clicked button."""
        return cls(int(match["table"]), _VERBS[match["verb"]])

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Hand the click to the cog."""
        await _route(
            interaction,
            f"button {self.custom_id}",
            lambda clicks, i: clicks.table_button(i, self.table_id, self.verb),
        )


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SEAT_ID):
    """The seat picker: ``euchre:seat:<table>``, one option per seat."""

    def __init__(
        self,
        table_id: int,
        options: list[discord.SelectOption] | None = None,
        row: int = 1,
        placeholder: str = "Choose a seat…",
    ) -> None:
        """A select of ``options`` (seat numbers as values) for table ``table_id``."""
        super().__init__(
            discord.ui.Select(
                custom_id=f"euchre:seat:{table_id}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="0")],
                row=row,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SeatSelect:
        """Parse the id of a used select."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Hand the chosen seat to the cog."""
        values = self.item.values
        seat = int(values[0]) if values and values[0].isdigit() else -1
        await _route(
            interaction,
            f"select {self.custom_id}",
            lambda clicks, i: clicks.seat_chosen(i, self.table_id, seat),
        )


class LevelSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=LEVEL_ID):
    """The lobby's computer level picker: ``euchre:lvl:<table>``, one option per level."""

    def __init__(
        self, table_id: int, options: list[discord.SelectOption] | None = None, row: int = 2
    ) -> None:
        """A select of ``options`` (level names as values) for table ``table_id``."""
        super().__init__(
            discord.ui.Select(
                custom_id=f"euchre:lvl:{table_id}",
                placeholder="How well computers play…",
                options=options or [discord.SelectOption(label="-", value="basic")],
                row=row,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LevelSelect:
        """Parse the id of a used select."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Hand the chosen level to the cog."""
        values = self.item.values
        level = values[0] if values else ""
        await _route(
            interaction,
            f"select {self.custom_id}",
            lambda clicks, i: clicks.level_chosen(i, self.table_id, level),
        )


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID):
    """A private-hand button: ``euchre:a:<table>:<seat>:<deal>:<index>:<action>[:<pos>]``."""

    def __init__(
        self,
        table_id: int,
        seat: int,
        stamp: tuple[int, int],
        code: str,
        position: int | None = None,
        *,
        label: str = "",
        emoji: discord.PartialEmoji | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        """The button taking action ``code`` for ``seat``, drawn at ``stamp``."""
        suffix = "" if position is None else f":{position}"
        custom_id = f"euchre:a:{table_id}:{seat}:{stamp[0]}:{stamp[1]}:{code}{suffix}"
        super().__init__(
            discord.ui.Button(
                label=label or (None if emoji is not None else code),
                emoji=emoji,
                style=style,
                disabled=disabled,
                row=row,
                custom_id=custom_id,
            )
        )
        self.table_id = table_id
        self.seat = seat
        self.stamp = stamp
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        """Parse the id of a clicked button (the action is decoded by the cog)."""
        stamp = (int(match["deal"]), int(match["index"]))
        return cls(int(match["table"]), int(match["seat"]), stamp, match["act"])

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Hand the action to the cog."""
        await _route(
            interaction,
            f"button {self.custom_id}",
            lambda clicks, i: clicks.hand_action(
                i, self.table_id, self.seat, self.stamp, self.code
            ),
        )


# ---------------------------------------------------------------------- the league


class StandingsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=STANDINGS_ID):
    """Go to page ``page`` of a season's standings of one family."""

    def __init__(self, season_id: int, page: int, tag: str, family: Family, disabled: bool) -> None:
        """A button showing ``page`` (0-based); ``tag`` is ``p`` (previous) or ``n`` (next).

        Four-hand euchre's buttons name no family, as those drawn before families did.
        """
        suffix = "" if family == DEFAULT_FAMILY else f":{family}"
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if tag == "p" else "Next ▶",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"euchre:lg:st:{season_id}:{max(page, 0)}:{tag}{suffix}",
            )
        )
        self.season_id = season_id
        self.page = max(page, 0)
        self.family = family

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> StandingsButton:
        """Rebuild the button from its custom_id."""
        family = next((f for f in FAMILIES if f == match["family"]), DEFAULT_FAMILY)
        return cls(int(match["season"]), int(match["page"]), match["tag"], family, False)

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Show the page."""
        await _route(
            interaction,
            "standings page button",
            lambda clicks, i: clicks.standings_page(i, self.season_id, self.page, self.family),
        )


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_ID):
    """Go to step (``deal``, ``trick``) of a finished game's replay."""

    def __init__(
        self,
        game_id: int,
        deal: int,
        trick: int,
        tag: str,
        *,
        label: str = "",
        disabled: bool = False,
    ) -> None:
        """A button showing ``trick`` of ``deal``; ``tag`` keeps the four buttons' ids apart."""
        super().__init__(
            discord.ui.Button(
                label=label or tag,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"euchre:lg:rp:{game_id}:{deal}:{trick}:{tag}",
            )
        )
        self.game_id = game_id
        self.deal = deal
        self.trick = trick

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["deal"]), int(match["trick"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Show the step."""
        await _route(
            interaction,
            "replay button",
            lambda clicks, i: clicks.replay_step(i, self.game_id, self.deal, self.trick),
        )


DYNAMIC_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (
    TableButton,
    SeatSelect,
    LevelSelect,
    ActionButton,
    StandingsButton,
    ReplayButton,
)
"""Register with ``bot.add_dynamic_items`` so every euchre component is routed after a restart."""
