"""Every custom_id of the euchre components: its grammar, its ``DynamicItem``, where it goes.

A custom_id carries all a click needs, so the buttons keep working after a restart:

- ``euchre:t:<table>:<verb>``: a button of the public table message (and a hand's Refresh);
- ``euchre:seat:<table>``: the seat picker of the public message;
- ``euchre:lvl:<table>``: the lobby's computer level picker (the host's);
- ``euchre:a:<table>:<seat>:<deal>:<index>:<action>[:<pos>]``: a private hand's action
  (the action ``claim``: its Claim button, claiming the rest of the deal),
  drawn at (deal, action number), so a stale button is recognised;
- ``euchre:lg:st:<season>:<page>:<p|n>[:<family>]``: a page of a family's standings;
- ``euchre:lg:rp:<game>:<deal>:<trick>:<pd|pt|nt|nd>``: a step of a game's replay;
- ``euchre:lg:hi:<user>:<page>:<p|n>``: a page of a player's games;
- ``euchre:tn:<event>:<verb>``: a button of a tournament event's message.
- ``euchre:tp:<event>:<st|in>:<page>:<p|n>``: another page of an event's standings
  (``st``) or of who is in and who waits (``in``), answered privately;
- ``euchre:rv:<game>:<deal>:<p|n>``: another deal of the clicker's review of a game.
- ``euchre:tr:<table>:<seat>:<deal>[:<p|n>]``: the review of a seat's deal at a table (a
  private hand's Review button; with ``p`` or ``n``, the review's other deals);
- ``euchre:dd:<yyyymmdd>:<index>:<action>[:<pos>]``: a move in the clicker's daily deal,
  drawn at (day, action number), so a stale button is recognised;
- ``euchre:ls:<preset>:<step>:<action>[:<pos>]``: a move at step ``step`` of the first
  lesson played by a preset's rules.

Each item only parses its id and hands the click to the bot's :class:`Clicks` (the euchre
cog, set on ``EuchreBot.clicks`` while it is loaded); every error goes to the funnel.
:data:`TEMPLATES` is the list of these grammars (every id begins with :data:`PREFIX`):
a click whose id fits none of them is answered at once as out of use (the ``Keeping`` cog).

Longer than 450 lines: every grammar and its item in one place, so that the one list of
them (:data:`TEMPLATES`) is plainly complete.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from typing import Any, ClassVar, Final, Protocol, Self, TypeGuard, TypeVar

import discord

from bot.discord.app import EuchreBot
from bot.discord.replies import report_error
from bot.league import DEFAULT_FAMILY, FAMILIES, Family
from bot.render import TABLE_VERBS, TableVerb
from bot.render.fitting import BUTTON_LABEL, shorten
from bot.render.tournament_lists import EventList
from bot.render.tournaments import EVENT_VERBS, EventVerb
from bot.rules import ACTION_CODE_PATTERN, PRESETS

__all__ = [
    "ACTION_ID",
    "CLAIM_CODE",
    "DAILY_ID",
    "DYNAMIC_ITEMS",
    "HISTORY_ID",
    "LESSON_ID",
    "LEVEL_ID",
    "PREFIX",
    "REPLAY_ID",
    "REVIEW_ID",
    "SEAT_ID",
    "STANDINGS_ID",
    "TABLE_ID",
    "TABLE_REVIEW_ID",
    "TEMPLATES",
    "TOURNAMENT_ID",
    "TOURNAMENT_PAGE_ID",
    "ActionButton",
    "Clicks",
    "DailyButton",
    "HistoryButton",
    "LessonButton",
    "LevelSelect",
    "ReplayButton",
    "ReviewButton",
    "SeatSelect",
    "StandingsButton",
    "TableButton",
    "TableReviewButton",
    "TournamentButton",
    "TournamentPageButton",
    "routed",
]

PREFIX: Final = "euchre:"
"""How every custom_id of this bot begins."""

_ID = r"[0-9]{1,19}"
_SMALL = r"[0-9]{1,5}"

CLAIM_CODE: Final = "claim"
"""The action part of a private hand's Claim button (no action of the rules is named so)."""

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
HISTORY_ID: Final = re.compile(rf"euchre:lg:hi:(?P<user>{_ID}):(?P<page>{_SMALL}):(?P<tag>p|n)")
REVIEW_ID: Final = re.compile(rf"euchre:rv:(?P<game>{_ID}):(?P<deal>{_SMALL}):(?P<tag>p|n)")
TABLE_REVIEW_ID: Final = re.compile(
    rf"euchre:tr:(?P<table>{_ID}):(?P<seat>[0-7]):(?P<deal>{_SMALL})(?::(?P<tag>p|n))?"
)
DAILY_ID: Final = re.compile(
    rf"euchre:dd:(?P<day>[0-9]{{8}}):(?P<index>[0-9]{{1,3}}):(?P<act>{ACTION_CODE_PATTERN})"
    rf"(?::(?P<pos>[0-9]{{1,2}}))?"
)
LESSON_ID: Final = re.compile(
    rf"euchre:ls:(?P<preset>{'|'.join(PRESETS)}):(?P<step>[0-9]{{1,3}})"
    rf":(?P<act>{ACTION_CODE_PATTERN})(?::(?P<pos>[0-9]{{1,2}}))?"
)

TOURNAMENT_ID: Final = re.compile(rf"euchre:tn:(?P<event>{_ID}):(?P<verb>{'|'.join(EVENT_VERBS)})")
TOURNAMENT_PAGE_ID: Final = re.compile(
    rf"euchre:tp:(?P<event>{_ID}):(?P<list>st|in):(?P<page>{_SMALL}):(?P<tag>p|n)"
)

TEMPLATES: Final = (
    TABLE_ID,
    SEAT_ID,
    LEVEL_ID,
    ACTION_ID,
    STANDINGS_ID,
    REPLAY_ID,
    TOURNAMENT_ID,
    REVIEW_ID,
    DAILY_ID,
    LESSON_ID,
    TABLE_REVIEW_ID,
    TOURNAMENT_PAGE_ID,
    HISTORY_ID,
)
"""The grammar of every custom_id the euchre components use."""

_VERBS: Final[dict[str, TableVerb]] = {verb: verb for verb in TABLE_VERBS}
_EVENT_VERBS: Final[dict[str, EventVerb]] = {verb: verb for verb in EVENT_VERBS}

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

    async def history_page(
        self, interaction: discord.Interaction[EuchreBot], user_id: int, page: int
    ) -> None:
        """Another page of a player's games."""
        ...

    async def tournament_button(
        self, interaction: discord.Interaction[EuchreBot], event_id: int, verb: EventVerb
    ) -> None:
        """A button of a tournament event's message."""

    async def review_step(
        self, interaction: discord.Interaction[EuchreBot], game_id: int, deal: int
    ) -> None:
        """Another deal of the clicker's review of a game."""
        ...

    async def tournament_page(
        self,
        interaction: discord.Interaction[EuchreBot],
        event_id: int,
        which: EventList,
        page: int,
    ) -> None:
        """Another page of an event's standings or of who is in."""
        ...

    async def table_review(
        self,
        interaction: discord.Interaction[EuchreBot],
        table_id: int,
        seat: int,
        deal: int,
        step: bool,
    ) -> None:
        """The review of a seat's deal at a table (``step``: redraw the review clicked)."""
        ...

    async def daily_action(
        self, interaction: discord.Interaction[EuchreBot], day: date, index: int, code: str
    ) -> None:
        """A move in the clicker's daily deal, drawn at action ``index`` of ``day``."""
        ...

    async def lesson_action(
        self, interaction: discord.Interaction[EuchreBot], preset: str, step: int, code: str
    ) -> None:
        """A move at step ``step`` of the first lesson, played by ``preset``'s rules."""
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


BaseT = TypeVar("BaseT", bound=discord.ui.Item[Any])
"""The component a routed item wraps: a button or a select."""

_NEVER: Final = re.compile(r"(?!)")
"""The base's template, which matches nothing: only its subclasses are registered."""


class _Routed(discord.ui.DynamicItem[BaseT], template=_NEVER):
    """A euchre component: its subclass parses its id and says what its click calls.

    Each subclass gives its grammar (``template=``), how it is drawn (``__init__``), how
    its id reads back (:meth:`from_match`) and whom its click goes to (:meth:`click`).
    """

    what: ClassVar[str] = "button"
    """How the funnel names the component in a log line."""

    @classmethod
    @abstractmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The component whose custom_id ``match`` read."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """Parse the id of a used component."""
        return cls.from_match(match)

    @abstractmethod
    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Route the click to :meth:`click`; every error goes to the funnel."""
        await _route(interaction, f"{self.what} {self.custom_id}", self.click)


# ---------------------------------------------------------------------- the table


class TableButton(_Routed[discord.ui.Button[Any]], template=TABLE_ID):
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
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(int(match["table"]), _VERBS[match["verb"]])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.table_button(interaction, self.table_id, self.verb)


class _TableSelect(_Routed[discord.ui.Select[Any]], template=_NEVER):
    """A select of the public table message: ``euchre:<word>:<table>``."""

    what = "select"
    word: ClassVar[str]
    """The custom_id's word after ``euchre:``."""
    placeholder: ClassVar[str]
    blank: ClassVar[str]
    """The value of the one option a select rebuilt from its id carries."""
    default_row: ClassVar[int]

    def __init__(
        self,
        table_id: int,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
        placeholder: str | None = None,
    ) -> None:
        """A select of ``options`` for table ``table_id``."""
        super().__init__(
            discord.ui.Select(
                custom_id=f"euchre:{self.word}:{table_id}",
                placeholder=placeholder or self.placeholder,
                options=options or [discord.SelectOption(label="-", value=self.blank)],
                row=self.default_row if row is None else row,
            )
        )
        self.table_id = table_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used select."""
        return cls(int(match["table"]))

    @property
    def chosen(self) -> str:
        """The value picked ("" if none)."""
        values = self.item.values
        return values[0] if values else ""


class SeatSelect(_TableSelect, template=SEAT_ID):
    """The seat picker: ``euchre:seat:<table>``, one option per seat (its number)."""

    word, placeholder, blank, default_row = "seat", "Choose a seat…", "0", 1

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the chosen seat to the cog (-1: not a seat)."""
        seat = int(self.chosen) if self.chosen.isdigit() else -1
        await clicks.seat_chosen(interaction, self.table_id, seat)


class LevelSelect(_TableSelect, template=LEVEL_ID):
    """The lobby's computer level picker: ``euchre:lvl:<table>``, one option per level."""

    word, placeholder, blank, default_row = "lvl", "How well computers play…", "basic", 2

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the chosen level to the cog."""
        await clicks.level_chosen(interaction, self.table_id, self.chosen)


class ActionButton(_Routed[discord.ui.Button[Any]], template=ACTION_ID):
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
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        stamp = (int(match["deal"]), int(match["index"]))
        return cls(int(match["table"]), int(match["seat"]), stamp, match["act"])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.hand_action(interaction, self.table_id, self.seat, self.stamp, self.code)


# ---------------------------------------------------------------------- the league


class _PageButton(_Routed[discord.ui.Button[Any]], template=_NEVER):
    """A button to another page of a list: its id has ``<page>:<p|n>`` after ``head``."""

    labels: ClassVar[tuple[str, str]] = ("◀ Previous", "Next ▶")
    """The labels of the previous (``p``) and next (``n``) page's buttons."""

    def __init__(self, head: str, page: int, tag: str, disabled: bool, tail: str = "") -> None:
        """A button showing ``page`` (0-based); ``tag`` is ``p`` (previous) or ``n`` (next)."""
        super().__init__(
            discord.ui.Button(
                label=self.labels[tag == "n"],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"{head}:{max(page, 0)}:{tag}{tail}",
            )
        )
        self.page = max(page, 0)


class StandingsButton(_PageButton, template=STANDINGS_ID):
    """Go to page ``page`` of a season's standings of one family."""

    what = "standings page button"

    def __init__(self, season_id: int, page: int, tag: str, family: Family, disabled: bool) -> None:
        """A button showing ``page``; four-hand euchre's ids name no family, as before families."""
        suffix = "" if family == DEFAULT_FAMILY else f":{family}"
        super().__init__(f"euchre:lg:st:{season_id}", page, tag, disabled, suffix)
        self.season_id = season_id
        self.family = family

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        family = next((f for f in FAMILIES if f == match["family"]), DEFAULT_FAMILY)
        return cls(int(match["season"]), int(match["page"]), match["tag"], family, False)

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.standings_page(interaction, self.season_id, self.page, self.family)


class ReplayButton(_Routed[discord.ui.Button[Any]], template=REPLAY_ID):
    """Go to step (``deal``, ``trick``) of a finished game's replay."""

    what = "replay button"

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
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(int(match["game"]), int(match["deal"]), int(match["trick"]), match["tag"])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.replay_step(interaction, self.game_id, self.deal, self.trick)


class HistoryButton(_PageButton, template=HISTORY_ID):
    """Go to page ``page`` of a player's games: ``euchre:lg:hi:<user>:<page>:<p|n>``."""

    what = "history page button"
    labels = ("◀ Newer", "Older ▶")

    def __init__(self, user_id: int, page: int, tag: str, disabled: bool = False) -> None:
        """A button showing ``page`` (0-based) of the player's games, newest first."""
        super().__init__(f"euchre:lg:hi:{user_id}", page, tag, disabled)
        self.user_id = user_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(int(match["user"]), int(match["page"]), match["tag"])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.history_page(interaction, self.user_id, self.page)


# ---------------------------------------------------------------------- tournaments


class TournamentButton(_Routed[discord.ui.Button[Any]], template=TOURNAMENT_ID):
    """A button of a tournament event's message: ``euchre:tn:<event>:<verb>``."""

    what = "tournament button"

    def __init__(
        self,
        event_id: int,
        verb: EventVerb,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        """A button doing ``verb`` in event ``event_id``."""
        super().__init__(
            discord.ui.Button(
                label=label or verb, style=style, custom_id=f"euchre:tn:{event_id}:{verb}"
            )
        )
        self.event_id = event_id
        self.verb = verb

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(int(match["event"]), _EVENT_VERBS[match["verb"]])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.tournament_button(interaction, self.event_id, self.verb)


class TournamentPageButton(_PageButton, template=TOURNAMENT_PAGE_ID):
    """Go to page ``page`` of an event's list: ``euchre:tp:<event>:<st|in>:<page>:<p|n>``."""

    what = "tournament page button"

    def __init__(
        self, event_id: int, which: EventList, page: int, tag: str, disabled: bool = False
    ) -> None:
        """A button showing ``page`` (0-based) of the event's standings or who is in."""
        super().__init__(f"euchre:tp:{event_id}:{which}", page, tag, disabled)
        self.event_id = event_id
        self.which: EventList = which

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        which: EventList = "st" if match["list"] == "st" else "in"
        return cls(int(match["event"]), which, int(match["page"]), match["tag"])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.tournament_page(interaction, self.event_id, self.which, self.page)


class ReviewButton(_Routed[discord.ui.Button[Any]], template=REVIEW_ID):
    """Go to deal ``deal`` of the clicker's review of a game: ``euchre:rv:<game>:<deal>:<p|n>``."""

    what = "review button"

    def __init__(
        self, game_id: int, deal: int, tag: str, *, label: str = "", disabled: bool = False
    ) -> None:
        """A button reviewing ``deal``; ``tag`` (``p``, ``n``) keeps the two ids apart."""
        super().__init__(
            discord.ui.Button(
                label=label or tag,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"euchre:rv:{game_id}:{max(deal, 0)}:{tag}",
            )
        )
        self.game_id = game_id
        self.deal = max(deal, 0)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(int(match["game"]), int(match["deal"]), match["tag"])

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.review_step(interaction, self.game_id, self.deal)


class TableReviewButton(_Routed[discord.ui.Button[Any]], template=TABLE_REVIEW_ID):
    """Review a seat's deal at a table: ``euchre:tr:<table>:<seat>:<deal>[:<p|n>]``."""

    what = "table review button"

    def __init__(
        self,
        table_id: int,
        seat: int,
        deal: int,
        tag: str = "",
        *,
        label: str = "",
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        """A button reviewing ``deal``; ``tag`` (``p``, ``n``): a step of a review shown."""
        deal = max(deal, 0)
        suffix = f":{tag}" if tag else ""
        super().__init__(
            discord.ui.Button(
                label=label or f"Review deal {deal}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=row,
                custom_id=f"euchre:tr:{table_id}:{seat}:{deal}{suffix}",
            )
        )
        self.table_id = table_id
        self.seat = seat
        self.deal = deal
        self.step = bool(tag)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(int(match["table"]), int(match["seat"]), int(match["deal"]), match["tag"] or "")

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.table_review(interaction, self.table_id, self.seat, self.deal, self.step)


class _MoveButton(_Routed[discord.ui.Button[Any]], template=_NEVER):
    """A move of a private deal played alone: the id ends ``<action>[:<pos>]``."""

    def __init__(self, head: str, code: str, position: int, label: str) -> None:
        """A button ``head:code:position``; the position keeps two equal moves apart."""
        super().__init__(
            discord.ui.Button(
                label=shorten(label or code, BUTTON_LABEL),
                style=discord.ButtonStyle.primary,
                custom_id=f"{head}:{code}:{position}",
            )
        )
        self.code = code


class DailyButton(_MoveButton, template=DAILY_ID):
    """A move in the daily deal: ``euchre:dd:<yyyymmdd>:<index>:<action>[:<pos>]``."""

    what = "daily deal button"

    def __init__(
        self, day: date, index: int, code: str, position: int = 0, *, label: str = ""
    ) -> None:
        """The move ``code`` as the person's action number ``index`` on ``day``."""
        super().__init__(f"euchre:dd:{day:%Y%m%d}:{index}", code, position, label)
        self.day = day
        self.index = index

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component (an impossible date reads as day one)."""
        try:
            day = datetime.strptime(match["day"], "%Y%m%d").date()
        except ValueError:
            day = date.min
        return cls(day, int(match["index"]), match["act"], int(match["pos"] or 0))

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.daily_action(interaction, self.day, self.index, self.code)


class LessonButton(_MoveButton, template=LESSON_ID):
    """A move in the first lesson: ``euchre:ls:<preset>:<step>:<action>[:<pos>]``."""

    what = "lesson button"

    def __init__(
        self, preset: str, step: int, code: str, position: int = 0, *, label: str = ""
    ) -> None:
        """The move ``code`` at the lesson's step ``step``, by ``preset``'s rules."""
        super().__init__(f"euchre:ls:{preset}:{step}", code, position, label)
        self.preset = preset
        self.step = step

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """Parse the id of a used component."""
        return cls(match["preset"], int(match["step"]), match["act"], int(match["pos"] or 0))

    async def click(self, clicks: Clicks, interaction: discord.Interaction[EuchreBot]) -> None:
        """Hand the click to the cog."""
        await clicks.lesson_action(interaction, self.preset, self.step, self.code)


DYNAMIC_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (
    TableButton,
    SeatSelect,
    LevelSelect,
    ActionButton,
    StandingsButton,
    ReplayButton,
    TournamentButton,
    ReviewButton,
    DailyButton,
    LessonButton,
    TableReviewButton,
    TournamentPageButton,
    HistoryButton,
)
"""Register with ``bot.add_dynamic_items`` so every euchre component is routed after a restart."""
