"""Each routed component of the euchre bot as it is drawn: its custom_id, label and style.

Every custom_id is one of :mod:`.routes`' grammars (its tests read each one back), and each
component is drawn as an item of its route's class (:func:`~.routes.draw`), so the view that
sends it and the click that comes back meet the same route.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Final

import discord

from bot.discord.routes import RoutedItem, draw
from bot.league import DEFAULT_FAMILY, Family
from bot.render import TableVerb
from bot.render.fitting import BUTTON_LABEL, shorten
from bot.render.tournament_lists import EventList
from bot.render.tournaments import EventVerb

__all__ = [
    "TableSelect",
    "action_button",
    "daily_button",
    "history_button",
    "lesson_button",
    "level_select",
    "replay_button",
    "review_button",
    "seat_select",
    "standings_button",
    "table_button",
    "table_review_button",
    "tournament_button",
    "tournament_history_button",
    "tournament_page_button",
]


def _button(
    custom_id: str,
    label: str | None,
    *,
    emoji: discord.PartialEmoji | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> RoutedItem:
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=label, emoji=emoji, style=style, disabled=disabled, row=row, custom_id=custom_id
    )
    return draw(button)


# ---------------------------------------------------------------------- the table


def table_button(
    table_id: int,
    verb: TableVerb,
    *,
    label: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> RoutedItem:
    """A button of the public table message doing ``verb`` at table ``table_id``."""
    custom_id = f"euchre:t:{table_id}:{verb}"
    return _button(custom_id, label or verb, style=style, disabled=disabled, row=row)


@dataclass(frozen=True, slots=True)
class TableSelect:
    """One kind of a table's select, drawn as ``euchre:<word>:<table>`` by calling it."""

    word: str
    """The custom_id's word, which its route reads."""
    row: int
    """Its row unless the caller names another."""
    placeholder: str
    """What it says before a choice, unless the caller says otherwise."""
    blank: str
    """The value of the one option drawn where no options are given."""

    def __call__(
        self,
        table_id: int,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
        placeholder: str | None = None,
    ) -> RoutedItem:
        """The select of table ``table_id`` with ``options`` (one placeholder option if none)."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"euchre:{self.word}:{table_id}",
            placeholder=placeholder or self.placeholder,
            options=options or [discord.SelectOption(label="-", value=self.blank)],
            row=self.row if row is None else row,
        )
        return draw(select)


seat_select: Final = TableSelect("seat", 1, "Choose a seat…", "0")
"""The seat picker of a table: one option per seat (its number)."""

level_select: Final = TableSelect("lvl", 2, "How well computers play…", "basic")
"""The lobby's computer level picker of a table: one option per level."""


def action_button(
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
) -> RoutedItem:
    """A private hand's button taking action ``code`` for ``seat``, drawn at ``stamp``."""
    suffix = "" if position is None else f":{position}"
    custom_id = f"euchre:a:{table_id}:{seat}:{stamp[0]}:{stamp[1]}:{code}{suffix}"
    text = label or (None if emoji is not None else code)
    return _button(custom_id, text, emoji=emoji, style=style, disabled=disabled, row=row)


def table_review_button(
    table_id: int,
    seat: int,
    deal: int,
    tag: str = "",
    *,
    label: str = "",
    disabled: bool = False,
    row: int | None = None,
) -> RoutedItem:
    """Review ``deal`` of ``seat`` at a table; ``tag`` (``p``, ``n``): a step of a review shown."""
    deal = max(deal, 0)
    suffix = f":{tag}" if tag else ""
    custom_id = f"euchre:tr:{table_id}:{seat}:{deal}{suffix}"
    return _button(custom_id, label or f"Review deal {deal}", disabled=disabled, row=row)


# ---------------------------------------------------------------------- pages and steps

_PAGES: Final = ("◀ Previous", "Next ▶")
"""The labels of the previous (``p``) and next (``n``) page's buttons."""


def _page_button(
    head: str, page: int, tag: str, disabled: bool, tail: str = "", labels: tuple[str, str] = _PAGES
) -> RoutedItem:
    """A button to ``page`` (0-based) of a list: ``<head>:<page>:<p|n><tail>``."""
    custom_id = f"{head}:{max(page, 0)}:{tag}{tail}"
    return _button(custom_id, labels[tag == "n"], disabled=disabled)


def standings_button(
    season_id: int, page: int, tag: str, family: Family, disabled: bool
) -> RoutedItem:
    """Page ``page`` of a season's standings; four-hand euchre's ids name no family."""
    tail = "" if family == DEFAULT_FAMILY else f":{family}"
    return _page_button(f"euchre:lg:st:{season_id}", page, tag, disabled, tail)


def history_button(user_id: int, page: int, tag: str, disabled: bool = False) -> RoutedItem:
    """Page ``page`` (0-based) of a player's games, newest first."""
    labels = ("◀ Newer", "Older ▶")
    return _page_button(f"euchre:lg:hi:{user_id}", page, tag, disabled, labels=labels)


def tournament_history_button(page: int, tag: str, disabled: bool = False) -> RoutedItem:
    """Page ``page`` (0-based) of the server's tournament events, newest first."""
    labels = ("◀ Newer", "Older ▶")
    return _page_button("euchre:th", page, tag, disabled, labels=labels)


def tournament_page_button(
    event_id: int, which: EventList, page: int, tag: str, disabled: bool = False
) -> RoutedItem:
    """Page ``page`` (0-based) of an event's standings or of who is in."""
    return _page_button(f"euchre:tp:{event_id}:{which}", page, tag, disabled)


def replay_button(
    game_id: int, deal: int, trick: int, tag: str, *, label: str = "", disabled: bool = False
) -> RoutedItem:
    """Step (``deal``, ``trick``) of a game's replay; ``tag`` keeps the four buttons apart."""
    custom_id = f"euchre:lg:rp:{game_id}:{deal}:{trick}:{tag}"
    return _button(custom_id, label or tag, disabled=disabled)


def review_button(
    game_id: int, deal: int, tag: str, *, label: str = "", disabled: bool = False
) -> RoutedItem:
    """Deal ``deal`` of the clicker's review of a game; ``tag`` (``p``, ``n``)."""
    custom_id = f"euchre:rv:{game_id}:{max(deal, 0)}:{tag}"
    return _button(custom_id, label or tag, disabled=disabled)


def tournament_button(
    event_id: int,
    verb: EventVerb,
    *,
    label: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> RoutedItem:
    """A button of a tournament event's message doing ``verb``."""
    return _button(f"euchre:tn:{event_id}:{verb}", label or verb, style=style)


# ---------------------------------------------------------------------- deals played alone


def _move_button(head: str, code: str, position: int, label: str) -> RoutedItem:
    """A move of a private deal played alone: the position keeps two equal moves apart."""
    custom_id = f"{head}:{code}:{position}"
    return _button(
        custom_id, shorten(label or code, BUTTON_LABEL), style=discord.ButtonStyle.primary
    )


def daily_button(
    day: date, index: int, code: str, position: int = 0, *, label: str = ""
) -> RoutedItem:
    """The move ``code`` as the person's action number ``index`` in ``day``'s deal."""
    return _move_button(f"euchre:dd:{day:%Y%m%d}:{index}", code, position, label)


def lesson_button(
    preset: str, step: int, code: str, position: int = 0, *, label: str = ""
) -> RoutedItem:
    """The move ``code`` at the first lesson's step ``step``, by ``preset``'s rules."""
    return _move_button(f"euchre:ls:{preset}:{step}", code, position, label)
