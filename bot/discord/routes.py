"""Every custom_id of the euchre components: its grammar, how it is drawn, where it goes.

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
- ``euchre:th:<page>:<p|n>``: another page of the server's tournament history;
- ``euchre:rv:<game>:<deal>:<p|n>``: another deal of the clicker's review of a game.
- ``euchre:tr:<table>:<seat>:<deal>[:<p|n>]``: the review of a seat's deal at a table (a
  private hand's Review button; with ``p`` or ``n``, the review's other deals);
- ``euchre:dd:<yyyymmdd>:<index>:<action>[:<pos>]``: a move in the clicker's daily deal,
  drawn at (day, action number), so a stale button is recognised;
- ``euchre:ls:<preset>:<step>:<action>[:<pos>]``: a move at step ``step`` of the first
  lesson played by a preset's rules.

:data:`ROUTES` is the one table of them: each grammar (every id begins with
:data:`PREFIX`) with how the funnel names its component and the handler its click goes
to, which reads the id and hands the click to the bot's :class:`~.clicks.Clicks` (the
euchre cog, set on ``EuchreBot.clicks`` while it is loaded); every error goes to the
funnel. discord.py matches a used component's id with a ``DynamicItem`` class's
template: each route's class is made from the table (:data:`DYNAMIC_ITEMS`), and
:func:`draw` makes a component an item of its route's class (:mod:`.buttons` draws each
kind). A click whose id fits no route is answered at once as out of use (the ``Keeping``
cog).
"""

from __future__ import annotations

import re
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, ClassVar, Final, Self, TypeGuard, TypeVar, cast

import discord

from bot.discord.app import EuchreBot
from bot.discord.clicks import Clicks
from bot.discord.replies import report_error
from bot.league import DEFAULT_FAMILY, FAMILIES, Family
from bot.render import TABLE_VERBS, TableVerb
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
    "ROUTES",
    "SEAT_ID",
    "STANDINGS_ID",
    "TABLE_ID",
    "TABLE_REVIEW_ID",
    "TEMPLATES",
    "TOURNAMENT_HISTORY_ID",
    "TOURNAMENT_ID",
    "TOURNAMENT_PAGE_ID",
    "Route",
    "RoutedItem",
    "draw",
    "routed",
]

PREFIX: Final = "euchre:"
"""How every custom_id of this bot begins."""

_ID = r"[0-9]{1,19}"
_SMALL = r"[0-9]{1,5}"
_MOVE = rf":(?P<act>{ACTION_CODE_PATTERN})(?::(?P<pos>[0-9]{{1,2}}))?"
"""A move's tail: the action's code and, for a card, its place in the hand."""

CLAIM_CODE: Final = "claim"
"""The action part of a private hand's Claim button (no action of the rules is named so)."""

TABLE_ID: Final = re.compile(rf"euchre:t:(?P<table>{_ID}):(?P<verb>{'|'.join(TABLE_VERBS)})")
SEAT_ID: Final = re.compile(rf"euchre:seat:(?P<table>{_ID})")
LEVEL_ID: Final = re.compile(rf"euchre:lvl:(?P<table>{_ID})")
ACTION_ID: Final = re.compile(
    rf"euchre:a:(?P<table>{_ID}):(?P<seat>[0-7]):(?P<deal>[0-9]{{1,6}}):(?P<index>[0-9]{{1,7}})"
    + _MOVE
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
DAILY_ID: Final = re.compile(r"euchre:dd:(?P<day>[0-9]{8}):(?P<index>[0-9]{1,3})" + _MOVE)
LESSON_ID: Final = re.compile(
    rf"euchre:ls:(?P<preset>{'|'.join(PRESETS)}):(?P<step>[0-9]{{1,3}})" + _MOVE
)

TOURNAMENT_ID: Final = re.compile(rf"euchre:tn:(?P<event>{_ID}):(?P<verb>{'|'.join(EVENT_VERBS)})")
TOURNAMENT_PAGE_ID: Final = re.compile(
    rf"euchre:tp:(?P<event>{_ID}):(?P<list>st|in):(?P<page>{_SMALL}):(?P<tag>p|n)"
)
TOURNAMENT_HISTORY_ID: Final = re.compile(rf"euchre:th:(?P<page>{_SMALL}):(?P<tag>p|n)")

_VERBS: Final[dict[str, TableVerb]] = {verb: verb for verb in TABLE_VERBS}
_EVENT_VERBS: Final[dict[str, EventVerb]] = {verb: verb for verb in EVENT_VERBS}

Interaction = discord.Interaction[EuchreBot]
Handler = Callable[
    [Clicks[EuchreBot], Interaction, re.Match[str], discord.ui.Item[Any]], Awaitable[None]
]
"""What a click does: the cog's method it calls, with what its id (and its item) say."""


@dataclass(frozen=True, slots=True)
class Route:
    """One grammar of custom_id and where its click goes."""

    template: re.Pattern[str]
    what: str
    """How the funnel names the component in a log line."""
    go: Handler


def _chosen(item: discord.ui.Item[Any]) -> str:
    """The value picked in a select ("" if none)."""
    values = item.values if isinstance(item, discord.ui.Select) else []
    return values[0] if values else ""


def _seat(item: discord.ui.Item[Any]) -> int:
    chosen = _chosen(item)
    return int(chosen) if chosen.isdigit() else -1


def _stamp(match: re.Match[str]) -> tuple[int, int]:
    return int(match["deal"]), int(match["index"])


def _family(match: re.Match[str]) -> Family:
    return next((f for f in FAMILIES if f == match["family"]), DEFAULT_FAMILY)


def _list(match: re.Match[str]) -> EventList:
    return "st" if match["list"] == "st" else "in"


def _day(text: str) -> date:
    """The day of a daily deal's id (an impossible date reads as day one)."""
    try:
        return datetime.strptime(text, "%Y%m%d").date()
    except ValueError:
        return date.min


ROUTES: Final[tuple[Route, ...]] = (
    Route(
        TABLE_ID, "button", lambda c, i, m, _: c.table_button(i, int(m["table"]), _VERBS[m["verb"]])
    ),
    Route(SEAT_ID, "select", lambda c, i, m, item: c.seat_chosen(i, int(m["table"]), _seat(item))),
    Route(
        LEVEL_ID, "select", lambda c, i, m, item: c.level_chosen(i, int(m["table"]), _chosen(item))
    ),
    Route(
        ACTION_ID,
        "button",
        lambda c, i, m, _: c.hand_action(i, int(m["table"]), int(m["seat"]), _stamp(m), m["act"]),
    ),
    Route(
        STANDINGS_ID,
        "standings page button",
        lambda c, i, m, _: c.standings_page(i, int(m["season"]), int(m["page"]), _family(m)),
    ),
    Route(
        REPLAY_ID,
        "replay button",
        lambda c, i, m, _: c.replay_step(i, int(m["game"]), int(m["deal"]), int(m["trick"])),
    ),
    Route(
        TOURNAMENT_ID,
        "tournament button",
        lambda c, i, m, _: c.tournament_button(i, int(m["event"]), _EVENT_VERBS[m["verb"]]),
    ),
    Route(
        REVIEW_ID,
        "review button",
        lambda c, i, m, _: c.review_step(i, int(m["game"]), int(m["deal"])),
    ),
    Route(
        DAILY_ID,
        "daily deal button",
        lambda c, i, m, _: c.daily_action(i, _day(m["day"]), int(m["index"]), m["act"]),
    ),
    Route(
        LESSON_ID,
        "lesson button",
        lambda c, i, m, _: c.lesson_action(i, m["preset"], int(m["step"]), m["act"]),
    ),
    Route(
        TABLE_REVIEW_ID,
        "table review button",
        lambda c, i, m, _: c.table_review(
            i, int(m["table"]), int(m["seat"]), int(m["deal"]), bool(m["tag"])
        ),
    ),
    Route(
        TOURNAMENT_PAGE_ID,
        "tournament page button",
        lambda c, i, m, _: c.tournament_page(i, int(m["event"]), _list(m), int(m["page"])),
    ),
    Route(
        HISTORY_ID,
        "history page button",
        lambda c, i, m, _: c.history_page(i, int(m["user"]), int(m["page"])),
    ),
    Route(
        TOURNAMENT_HISTORY_ID,
        "tournament history button",
        lambda c, i, m, _: c.tournament_history_page(i, int(m["page"])),
    ),
)
"""Every custom_id grammar of the euchre components and where its click goes."""

TEMPLATES: Final = tuple(route.template for route in ROUTES)
"""The grammar of every custom_id the euchre components use."""


def routed(custom_id: str) -> bool:
    """Whether ``custom_id`` fits the grammar of one of the euchre components."""
    return any(template.fullmatch(custom_id) for template in TEMPLATES)


ClientT = TypeVar("ClientT", bound=discord.Client)
"""The client of an interaction as discord.py types an item's callback (ours: EuchreBot)."""


def _ours(interaction: discord.Interaction[ClientT]) -> TypeGuard[Interaction]:
    return isinstance(interaction.client, EuchreBot)


_NEVER: Final = re.compile(r"(?!)")
"""The base's template, which matches nothing: only the routes' classes are registered."""


class RoutedItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=_NEVER):
    """A euchre component: a button or a select whose custom_id fits its class's route."""

    route: ClassVar[Route]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """The used component, as it came."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        """Hand the click to the bot's cog (unless it stops); every error goes to the funnel."""
        what = f"{self.route.what} {self.custom_id}"
        try:
            if not _ours(interaction):
                raise RuntimeError(f"{what} reached a client that is not the euchre bot")
            clicks = interaction.client.clicks
            if clicks is None:
                raise RuntimeError("the euchre cog is not loaded")
            if not await interaction.client.take(interaction):
                return
            match = self.route.template.fullmatch(self.custom_id)
            assert match is not None, "an item is only made for an id its route reads"
            await self.route.go(clicks, interaction, match, self.item)
        except Exception as exc:
            await report_error(interaction, exc, context=what)


def _item_class(route: Route) -> type[RoutedItem]:
    """The ``DynamicItem`` class of ``route``: discord.py matches used ids with its template."""
    name = "Routed" + "".join(w.title() for w in route.what.split())
    made = types.new_class(
        name,
        (RoutedItem,),
        {"template": route.template},
        lambda namespace: namespace.update(route=route, __module__=__name__),
    )
    return cast(type[RoutedItem], made)


_ITEMS: Final = tuple(_item_class(route) for route in ROUTES)

DYNAMIC_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = _ITEMS
"""Register with ``bot.add_dynamic_items`` so every euchre component is routed after a restart."""


def draw(component: discord.ui.Button[Any] | discord.ui.Select[Any]) -> RoutedItem:
    """``component`` as an item of the route its custom_id fits (a ValueError if none)."""
    custom_id = component.custom_id or ""
    for made in _ITEMS:
        if made.route.template.fullmatch(custom_id):
            return made(component)
    raise ValueError(f"{custom_id!r} fits no route of the euchre components")
