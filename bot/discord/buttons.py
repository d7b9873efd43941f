"""Each routed component of the euchre bot as it is drawn: its custom_id, label and style.

Every custom_id is one of :mod:`.routes`' grammars (its tests read each one back), and each
component is drawn as an item of its route's class (:func:`~.routes.draw`), so the view that
sends it and the click that comes back meet the same route.
"""

from __future__ import annotations

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


def _table_select(
    word: str,
    table_id: int,
    options: list[discord.SelectOption] | None,
    row: int,
    placeholder: str,
    blank: str,
) -> RoutedItem:
    """A select of table ``table_id``: ``euchre:<word>:<table>``.

    ``blank`` is the value of the one option drawn where no options are given.
    """
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"euchre:{word}:{table_id}",
        placeholder=placeholder,
        options=options or [discord.SelectOption(label="-", value=blank)],
        row=row,
    )
    return draw(select)


def seat_select(
    table_id: int,
    options: list[discord.SelectOption] | None = None,
    row: int | None = None,
    placeholder: str | None = None,
) -> RoutedItem:
    """The seat picker of table ``table_id``: one option per seat (its number)."""
    return _table_select(
        "seat", table_id, options, 1 if row is None else row, placeholder or "Choose a seat…", "0"
    )


def level_select(
    table_id: int,
    options: list[discord.SelectOption] | None = None,
    row: int | None = None,
    placeholder: str | None = None,
) -> RoutedItem:
    """The lobby's computer level picker of table ``table_id``: one option per level."""
    return _table_select(
        "lvl",
        table_id,
        options,
        2 if row is None else row,
        placeholder or "How well computers play…",
        "basic",
    )


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
