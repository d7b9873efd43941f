"""The league commands of ``/euchre``, as a mixin of the euchre cog.

``class Euchre(LeagueCommands, commands.GroupCog, group_name="euchre")``: discord.py
collects app commands from every class of the cog's MRO, so these become
``/euchre standings``, ``/euchre stats``, ``/euchre history``, ``/euchre replay``,
``/euchre export``, ``/euchre web`` and ``/euchre season start|end|settings``. Each one parses the
interaction, asks :class:`bot.league.LeagueService` (``bot.league``), and answers
with what :mod:`bot.render.league` draws.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

import discord
from discord import app_commands

from bot.discord.embeds import embed_of
from bot.discord.fields import editor_of
from bot.discord.league import history_view, replay_view, standings_view
from bot.discord.replies import PUBLIC_ANSWER, send_ephemeral, send_public, update_message
from bot.errors import UserFacingError
from bot.league import (
    DEFAULT_FAMILY,
    FAMILIES,
    Family,
    HistoryPage,
    LeagueService,
    ReplayBook,
    replay_book,
)
from bot.render.fitting import OPTION_TEXT, shorten
from bot.render.league import (
    FAMILY_NAMES,
    export_bytes,
    export_filename,
    history_panel,
    season_ended_panel,
    season_started_text,
    settings_panel,
    standings_panel,
    stats_panel,
)
from bot.render.rating_chart import CHART_FILENAME, rating_chart
from bot.render.replays import replay_panel
from bot.render.web_links import public_base, web_answer
from bot.rules import RecordError
from bot.store import ArchivedGame, Season
from cogs.euchre.mixins import MAX_NUMBER, Mixin, server_id

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

    # For the type checker the mixin is a cog (app_commands wants its methods on one);
    # at run time it is a plain class and the euchre cog brings the Cog base.

__all__ = ["LeagueCommands", "league_of"]

NO_LEAGUE: Final = "The league isn't available on this bot: it needs the bot's database."

_FAMILY_CHOICES: Final = [app_commands.Choice(name=FAMILY_NAMES[f], value=f) for f in FAMILIES]
_FAMILY_HELP: Final = "Which game's ladder (default: four-hand euchre)"


def _family(choice: app_commands.Choice[str] | None) -> Family:
    """The family chosen (Discord only offers the choices; anything else: the default)."""
    if choice is None:
        return DEFAULT_FAMILY
    return next((f for f in FAMILIES if f == choice.value), DEFAULT_FAMILY)


def league_of(bot: EuchreBot) -> LeagueService:
    """The league service the bot was built with (``bot.league``)."""
    if bot.league is None:
        raise UserFacingError(NO_LEAGUE)
    return bot.league


def _name_of(interaction: discord.Interaction[EuchreBot], user_id: int, page: HistoryPage) -> str:
    """A player's display name: the member's, else the one kept by the archive."""
    member = interaction.guild.get_member(user_id) if interaction.guild is not None else None
    if member is not None:
        return member.display_name
    return next((e.name for e in page.entries), "A player")


def _guild_id(interaction: discord.Interaction[EuchreBot]) -> int:
    return server_id(interaction, "The league lives in servers, not in direct messages.")


T = TypeVar("T")


async def _league_reads(
    interaction: discord.Interaction[EuchreBot],
    read: Callable[[LeagueService, int], Awaitable[list[T]]],
) -> list[T]:
    """What ``read`` finds in the server's league, for an autocomplete (else nothing)."""
    if interaction.guild_id is None:
        return []
    try:
        return await read(league_of(interaction.client), interaction.guild_id)
    except UserFacingError:
        return []


async def _season_choices(
    interaction: discord.Interaction[EuchreBot], current: str
) -> list[app_commands.Choice[str]]:
    seasons = await _league_reads(interaction, lambda league, guild: league.seasons(guild))
    typed = current.strip().casefold()
    return [
        app_commands.Choice(name=f"{s.name} ({'running' if s.running else 'ended'})", value=s.name)
        for s in seasons
        if typed in s.name.casefold()
    ][:25]


async def _game_choices(
    interaction: discord.Interaction[EuchreBot], current: str
) -> list[app_commands.Choice[int]]:
    games = await _league_reads(interaction, lambda league, guild: league.recent_games(guild))
    choices = []
    for g in games:
        sides = [" & ".join(p.display_name for p in g.players if p.team == team) for team in (0, 1)]
        label = f"#{g.shown_number} · {sides[0]} {g.score[0]}–{g.score[1]} {sides[1]}"
        if current.strip() and current.strip().lstrip("#") not in label:
            continue
        choices.append(app_commands.Choice(name=shorten(label, OPTION_TEXT), value=g.shown_number))
    return choices[:25]


class LeagueCommands(Mixin):
    """``/euchre standings|stats|history|replay|export`` and ``/euchre season ...``."""

    bot: EuchreBot

    season = app_commands.Group(name="season", description="League seasons of this server")

    @property
    def league(self) -> LeagueService:
        """The bot's league service."""
        return league_of(self.bot)

    async def _require_admin(self, interaction: discord.Interaction[EuchreBot], what: str) -> None:
        """Refuse, in the bot's words, anyone who may not change the server's league."""
        server = await self.bot.tables.server_settings.get(_guild_id(interaction))
        if not server.may_change(editor_of(interaction)):
            raise UserFacingError(
                f"{what} needs a server admin (Manage Server, or the role the server names). "
                "Anyone may see the league settings with /euchre season settings."
            )

    async def _web(self, interaction: discord.Interaction[EuchreBot], guild_id: int) -> str:
        """The pages' address when this server's are on the web, else ""."""
        settings = await interaction.client.tables.server_settings.get(guild_id)
        return public_base(interaction.client.settings.web_base_url, settings.web_public)

    async def _season(self, guild_id: int, name: str | None) -> Season | None:
        return None if name is None else await self.league.find_season(guild_id, name)

    # ------------------------------------------------------------------ standings

    @app_commands.command(
        name="standings", description="The league standings of this server", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(
        season="A season of this server (default: the current one)", family=_FAMILY_HELP
    )
    @app_commands.autocomplete(season=_season_choices)
    @app_commands.choices(family=_FAMILY_CHOICES)
    async def standings(
        self,
        interaction: discord.Interaction[EuchreBot],
        season: str | None = None,
        family: app_commands.Choice[str] | None = None,
    ) -> None:
        """The first page of a family's standings, with page buttons past one page."""
        guild_id = _guild_id(interaction)
        chosen = await self._season(guild_id, season)
        table = await self.league.standings(guild_id, chosen, _family(family))
        page = table.page(0)
        view = None
        if table.season is not None:
            view = standings_view(table.season.id, 0, page.pages, table.family)
        await send_public(
            interaction, embed=embed_of(standings_panel(page)), view=view or discord.utils.MISSING
        )

    async def standings_page(
        self,
        interaction: discord.Interaction[EuchreBot],
        season_id: int,
        page: int,
        family: Family = DEFAULT_FAMILY,
    ) -> None:
        """A page button of the standings: redraw the message at that page."""
        guild_id = _guild_id(interaction)
        season = await self.league.season(guild_id, season_id)
        shown = (await self.league.standings(guild_id, season, family)).page(page)
        view = standings_view(season.id, shown.page, shown.pages, family)
        await update_message(interaction, embed=embed_of(standings_panel(shown)), view=view)

    # ------------------------------------------------------------------ a player

    @app_commands.command(
        name="stats", description="A player's statistics and rating", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(
        member="Whose statistics (default: yours)",
        season="A season of this server (default: the current one)",
        family=_FAMILY_HELP,
    )
    @app_commands.autocomplete(season=_season_choices)
    @app_commands.choices(family=_FAMILY_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[EuchreBot],
        member: discord.Member | None = None,
        season: str | None = None,
        family: app_commands.Choice[str] | None = None,
    ) -> None:
        """Stats embed with the rating-over-time picture attached."""
        guild_id = _guild_id(interaction)
        who = member or interaction.user
        chosen = await self._season(guild_id, season)
        report = await self.league.report(
            guild_id, who.id, who.display_name, chosen, _family(family)
        )
        picture = discord.File(io.BytesIO(rating_chart(report.ratings)), filename=CHART_FILENAME)
        await send_public(
            interaction, embed=embed_of(stats_panel(report, image=CHART_FILENAME)), file=picture
        )

    @app_commands.command(
        name="history", description="A player's latest games", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(member="Whose games (default: yours)")
    async def history(
        self, interaction: discord.Interaction[EuchreBot], member: discord.Member | None = None
    ) -> None:
        """The latest games with score, partners and opponents; older ones on later pages."""
        guild_id = _guild_id(interaction)
        who = member or interaction.user
        page = await self.league.history(guild_id, who.id)
        view = history_view(who.id, page.page, page.pages)
        await send_public(
            interaction,
            embed=embed_of(history_panel(who.display_name, page)),
            view=view or discord.utils.MISSING,
        )

    async def history_page(
        self, interaction: discord.Interaction[EuchreBot], user_id: int, page: int
    ) -> None:
        """A page button of a player's games: redraw the message at that page."""
        guild_id = _guild_id(interaction)
        shown = await self.league.history(guild_id, user_id, page)
        name = _name_of(interaction, user_id, shown)
        view = history_view(user_id, shown.page, shown.pages)
        await update_message(interaction, embed=embed_of(history_panel(name, shown)), view=view)

    @app_commands.command(
        name="web",
        description="The link to this server's league on the web",
        extras=PUBLIC_ANSWER,
    )
    async def web(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """The server's web page, when the bot has an address and the server made it public."""
        guild_id = _guild_id(interaction)
        settings = await interaction.client.tables.server_settings.get(guild_id)
        text, public = web_answer(
            interaction.client.settings.web_base_url, guild_id, settings.web_public
        )
        if public:
            await send_public(interaction, text)
        else:
            await send_ephemeral(interaction, text)

    # ------------------------------------------------------------------ one game

    @staticmethod
    def _book(found: tuple[ArchivedGame, dict[str, Any]]) -> tuple[ArchivedGame, ReplayBook]:
        game, record = found
        try:
            return game, replay_book(record)
        except RecordError as exc:
            raise UserFacingError(f"Game #{game.shown_number} can't be replayed: {exc}.") from None

    @app_commands.command(name="replay", description="Step through a finished game, hands up")
    @app_commands.describe(game="The game's number (see /euchre history)")
    @app_commands.autocomplete(game=_game_choices)
    async def replay(
        self,
        interaction: discord.Interaction[EuchreBot],
        game: app_commands.Range[int, 1, MAX_NUMBER],
    ) -> None:
        """The first step of the game, privately, with buttons to step through it."""
        archived, book = self._book(await self.league.game(_guild_id(interaction), game))
        await send_ephemeral(
            interaction,
            embed=embed_of(replay_panel(archived, book, 0)),
            view=replay_view(archived.id, book, 0),
        )

    async def replay_step(
        self, interaction: discord.Interaction[EuchreBot], game_id: int, deal: int, trick: int
    ) -> None:
        """A replay button (it carries the game's id): redraw the message at that step."""
        archived, book = self._book(await self.league.game_of_id(_guild_id(interaction), game_id))
        index = book.index(deal, trick)
        await update_message(
            interaction,
            embed=embed_of(replay_panel(archived, book, index)),
            view=replay_view(archived.id, book, index),
        )

    @app_commands.command(name="export", description="A finished game's record as a JSON file")
    @app_commands.describe(game="The game's number (see /euchre history)")
    @app_commands.autocomplete(game=_game_choices)
    async def export(
        self,
        interaction: discord.Interaction[EuchreBot],
        game: app_commands.Range[int, 1, MAX_NUMBER],
    ) -> None:
        """The game's record as a file, to keep or to share."""
        archived, record = await self.league.game(_guild_id(interaction), game)
        number = archived.shown_number
        name = export_filename(number)
        await send_ephemeral(
            interaction,
            f"The record of game #{number}: every card dealt and every move, to keep "
            f"or share. Step through it here with `/euchre replay game:{number}`.",
            file=discord.File(io.BytesIO(export_bytes(record)), filename=name),
        )

    # ------------------------------------------------------------------ seasons

    @season.command(
        name="start",
        description="Start a new season: everyone starts fresh (admins)",
        extras=PUBLIC_ANSWER,
    )
    @app_commands.describe(name="The season's name")
    async def season_start(
        self, interaction: discord.Interaction[EuchreBot], name: app_commands.Range[str, 1, 50]
    ) -> None:
        """Start a named season (admins)."""
        await self._require_admin(interaction, "Starting a season")
        guild_id = _guild_id(interaction)
        change = await self.league.start_season(guild_id, name)
        web = await self._web(interaction, guild_id)
        await send_public(interaction, season_started_text(change, web))

    @season.command(
        name="end",
        description="End the season and freeze its standings (admins)",
        extras=PUBLIC_ANSWER,
    )
    async def season_end(self, interaction: discord.Interaction[EuchreBot]) -> None:
        """End the running season (admins)."""
        await self._require_admin(interaction, "Ending the season")
        guild_id = _guild_id(interaction)
        ended = await self.league.end_season(guild_id)
        finals = await self.league.played_standings(guild_id, ended)
        web = await self._web(interaction, guild_id)
        await send_public(interaction, embed=embed_of(season_ended_panel(ended, finals, web=web)))

    @season.command(name="settings", description="See the league settings; admins may change them")
    @app_commands.describe(
        min_games="Ranked games a player needs to be placed in the standings",
        all_casual="Make every game casual (no ratings)",
        rank_custom_rules="Rate games played under other rules than the server's",
    )
    async def season_settings(
        self,
        interaction: discord.Interaction[EuchreBot],
        min_games: app_commands.Range[int, 0, 1000] | None = None,
        all_casual: bool | None = None,
        rank_custom_rules: bool | None = None,
    ) -> None:
        """Show the league settings, changing those given (admins)."""
        guild_id = _guild_id(interaction)
        changes = {
            name: value
            for name, value in (
                ("min_games", min_games),
                ("all_casual", all_casual),
                ("rank_custom_rules", rank_custom_rules),
            )
            if value is not None
        }
        if changes:
            await self._require_admin(interaction, "Changing the league settings")
            settings = await self.league.update_settings(guild_id, **changes)
        else:
            settings = await self.league.settings(guild_id)
        await send_ephemeral(interaction, embed=embed_of(settings_panel(settings)))
