"""The league's buttons as ``DynamicItem`` s: standings pages and replay steps.

Each custom_id carries everything the click needs (``euchre:lg:st:<season>:<page>:<p|n>``,
``euchre:lg:rp:<game>:<deal>:<trick>:<pd|pt|nt|nd>``), so the buttons keep working
after a restart. Each item only parses its id and hands the click to the cog.
"""

from __future__ import annotations

import re
from typing import Any, Final, Protocol, cast

import discord

from bot.league import ReplayBook
from bot.replies import report_error

__all__ = [
    "LEAGUE_DYNAMIC_ITEMS",
    "LeagueClickHandler",
    "ReplayButton",
    "StandingsButton",
    "replay_view",
    "standings_view",
]

COG_NAME: Final = "Euchre"

_ID = r"[0-9]{1,19}"
_SMALL = r"[0-9]{1,5}"
STANDINGS_TEMPLATE: Final = rf"euchre:lg:st:(?P<season>{_ID}):(?P<page>{_SMALL}):(?P<tag>p|n)"
REPLAY_TEMPLATE: Final = (
    rf"euchre:lg:rp:(?P<game>{_ID}):(?P<deal>{_SMALL}):(?P<trick>{_SMALL}):(?P<tag>pd|pt|nt|nd)"
)


class LeagueClickHandler(Protocol):
    """What the items call: the euchre cog with the league commands."""

    async def standings_page(
        self, interaction: discord.Interaction[Any], season_id: int, page: int
    ) -> None:
        """Show another page of a season's standings."""
        ...

    async def replay_step(
        self, interaction: discord.Interaction[Any], game_id: int, deal: int, trick: int
    ) -> None:
        """Show another step of a game's replay."""
        ...


def _handler(interaction: discord.Interaction[Any]) -> LeagueClickHandler:
    cog = interaction.client.get_cog(COG_NAME)
    if cog is None:
        raise RuntimeError(f"the {COG_NAME} cog is not loaded")
    return cast(LeagueClickHandler, cog)


class StandingsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=STANDINGS_TEMPLATE):
    """Go to page ``page`` of a season's standings."""

    def __init__(
        self, season_id: int, page: int, tag: str, *, label: str = "", disabled: bool = False
    ) -> None:
        """A button showing ``page`` (0-based); ``tag`` is ``p`` (previous) or ``n`` (next)."""
        super().__init__(
            discord.ui.Button(
                label=label or ("◀ Previous" if tag == "p" else "Next ▶"),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"euchre:lg:st:{season_id}:{max(page, 0)}:{tag}",
            )
        )
        self.season_id = season_id
        self.page = max(page, 0)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> StandingsButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["season"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the page."""
        try:
            await _handler(interaction).standings_page(interaction, self.season_id, self.page)
        except Exception as exc:
            await report_error(interaction, exc, context="standings page button")


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_TEMPLATE):
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
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["deal"]), int(match["trick"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the step."""
        try:
            handler = _handler(interaction)
            await handler.replay_step(interaction, self.game_id, self.deal, self.trick)
        except Exception as exc:
            await report_error(interaction, exc, context="replay button")


LEAGUE_DYNAMIC_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (
    StandingsButton,
    ReplayButton,
)
"""Register with ``bot.add_dynamic_items`` so the league's buttons are routed after a restart."""


def standings_view(season_id: int, page: int, pages: int) -> discord.ui.View | None:
    """Previous and next page buttons; None when everything fits on one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(StandingsButton(season_id, page - 1, "p", disabled=page <= 0))
    view.add_item(StandingsButton(season_id, page + 1, "n", disabled=page >= pages - 1))
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
        view.add_item(ReplayButton(game_id, to.deal, to.trick, tag, label=label, disabled=disabled))
    return view
