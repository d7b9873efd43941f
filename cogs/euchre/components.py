"""The table's buttons and select as ``DynamicItem`` s: their custom_ids carry all they need.

A public button's id names the table and what it does (``euchre:t:12:join``); a
private-hand button's id names the table, the seat, the deal and action number it was
drawn for, and the action (``euchre:a:12:1:3:17:play.JD:4``), so a stale button is
recognised and the buttons work after a restart. Each item only parses its id and
hands the click to the cog (:class:`ClickHandler`); every error goes to the funnel.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any, Final, Protocol, cast

import discord

from bot.render import (
    TABLE_VERBS,
    HandButton,
    PublicControls,
    played_again_controls,
    public_controls,
)
from bot.replies import report_error
from bot.tables import PublicTable, encode_action
from bot.tables.action_codes import ACTION_CODE_PATTERN

__all__ = [
    "COG_NAME",
    "DYNAMIC_ITEMS",
    "ActionButton",
    "ClickCall",
    "ClickHandler",
    "SeatSelect",
    "TableButton",
    "finished_view",
    "hand_view",
    "public_view",
]

COG_NAME: Final = "Euchre"

_ID = r"[0-9]{1,19}"
TABLE_TEMPLATE: Final = rf"euchre:t:(?P<table>{_ID}):(?P<verb>{'|'.join(TABLE_VERBS)})"
SEAT_TEMPLATE: Final = rf"euchre:seat:(?P<table>{_ID})"
ACTION_TEMPLATE: Final = (
    rf"euchre:a:(?P<table>{_ID}):(?P<seat>[0-5]):(?P<deal>[0-9]{{1,6}}):(?P<index>[0-9]{{1,7}})"
    rf":(?P<act>{ACTION_CODE_PATTERN})(?::(?P<pos>[0-9]{{1,2}}))?"
)

_STYLES: Final = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class ClickHandler(Protocol):
    """What the items call: the euchre cog."""

    async def table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str
    ) -> None:
        """A public table button (or the hand's Refresh)."""
        ...

    async def seat_chosen(
        self, interaction: discord.Interaction[Any], table_id: int, seat: int
    ) -> None:
        """A seat picked in the lobby's select."""
        ...

    async def hand_action(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        seat: int,
        stamp: tuple[int, int],
        code: str,
    ) -> None:
        """An action button of a private hand."""
        ...


async def _dispatch(interaction: discord.Interaction[Any], what: str, call: ClickCall) -> None:
    try:
        cog = interaction.client.get_cog(COG_NAME)
        if cog is None:
            raise RuntimeError(f"the {COG_NAME} cog is not loaded")
        await call(cast(ClickHandler, cog))
    except Exception as exc:
        await report_error(interaction, exc, context=what)


class ClickCall(Protocol):
    """A call on the cog, made by an item."""

    def __call__(self, handler: ClickHandler, /) -> Awaitable[None]:
        """Run it."""
        ...


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_TEMPLATE):
    """A button of the public table message: ``euchre:t:<table>:<verb>``."""

    def __init__(
        self,
        table_id: int,
        verb: str,
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
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        """Parse the id of a clicked button."""
        return cls(int(match["table"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog."""
        await _dispatch(
            interaction,
            f"button {self.custom_id}",
            lambda cog: cog.table_button(interaction, self.table_id, self.verb),
        )


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SEAT_TEMPLATE):
    """The lobby's seat picker: ``euchre:seat:<table>``, one option per seat."""

    def __init__(
        self, table_id: int, options: list[discord.SelectOption] | None = None, row: int = 1
    ) -> None:
        """A select of ``options`` (seat numbers as values) for table ``table_id``."""
        super().__init__(
            discord.ui.Select(
                custom_id=f"euchre:seat:{table_id}",
                placeholder="Choose a seat…",
                options=options or [discord.SelectOption(label="-", value="0")],
                row=row,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SeatSelect:
        """Parse the id of a used select."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen seat to the cog."""
        values = self.item.values

        async def choose(cog: ClickHandler) -> None:
            seat = int(values[0]) if values and values[0].isdigit() else -1
            await cog.seat_chosen(interaction, self.table_id, seat)

        await _dispatch(interaction, f"select {self.custom_id}", choose)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
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
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        """The button taking action ``code`` for ``seat``, drawn at ``stamp``."""
        suffix = "" if position is None else f":{position}"
        custom_id = f"euchre:a:{table_id}:{seat}:{stamp[0]}:{stamp[1]}:{code}{suffix}"
        super().__init__(
            discord.ui.Button(
                label=label or code,
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
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        """Parse the id of a clicked button (the action is decoded by the cog)."""
        stamp = (int(match["deal"]), int(match["index"]))
        return cls(int(match["table"]), int(match["seat"]), stamp, match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the action to the cog."""
        await _dispatch(
            interaction,
            f"button {self.custom_id}",
            lambda cog: cog.hand_action(
                interaction, self.table_id, self.seat, self.stamp, self.code
            ),
        )


DYNAMIC_ITEMS: Final = (TableButton, SeatSelect, ActionButton)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    # Clicks reach the items through the dynamic-item registry, not through this view:
    # a stopped view is sent as components only, and discord.py keeps nothing per message.
    view.stop()
    return view


def _controls_view(table_id: int, controls: PublicControls) -> discord.ui.View:
    """The discord.ui components of what :func:`bot.render.public_controls` describes."""
    items: list[discord.ui.Item[Any]] = [
        TableButton(
            table_id,
            b.verb,
            label=b.label,
            style=_STYLES[b.style],
            disabled=b.disabled,
            row=b.row,
        )
        for b in controls.buttons
    ]
    if controls.seats:
        options = [
            discord.SelectOption(label=o.label, value=str(o.seat), description=o.description)
            for o in controls.seats
        ]
        items.append(SeatSelect(table_id, options, row=1))
    return _view(*items)


def public_view(table: PublicTable) -> discord.ui.View | None:
    """The components of the public table message at its stage (None once it is closed)."""
    controls = public_controls(table)
    return None if controls is None else _controls_view(table.id, controls)


def finished_view(table_id: int) -> discord.ui.View:
    """The components of a result whose "Play again" was used: the rules only."""
    return _controls_view(table_id, played_again_controls())


def hand_view(
    table_id: int, seat: int, stamp: tuple[int, int], buttons: list[HandButton]
) -> discord.ui.View:
    """The components of a private hand, with a Refresh button on the last row."""
    items: list[discord.ui.Item[Any]] = [
        ActionButton(
            table_id,
            seat,
            stamp,
            encode_action(b.action),
            b.position,
            label=b.label,
            style=_STYLES[b.style],
            disabled=b.disabled,
            row=b.row,
        )
        for b in buttons
    ]
    items.append(TableButton(table_id, "hand", label="↻ Refresh", row=4))
    return _view(*items)
