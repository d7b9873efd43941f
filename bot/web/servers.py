"""What every page reads of its server: whether its pages are public, its name, its seasons.

And who hides from the pages: a person with the ``hide_from_web`` preference is read as
:data:`~bot.server.preferences.HIDDEN_NAME` wherever they appear, with no link (their
user id becomes 0, which no page has), and their own page is a 404. A server is named as
Discord last showed it to the bot (``GuildProfileRepo``), with :data:`DEFAULT_NAME` until
then.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote

from bot.league import Family, RatingModel, Standings, rank_players
from bot.server.preferences import HIDDEN_NAME
from bot.store import (
    ArchivedGame,
    Database,
    GuildProfile,
    GuildProfileRepo,
    GuildSettingsRepo,
    PreferenceRepo,
    RatingRepo,
    Season,
    SeasonRepo,
)

from .answers import PageNotFound

__all__ = [
    "DEFAULT_NAME",
    "ServerHeader",
    "ServerName",
    "current_season",
    "hidden_among",
    "masked",
    "people_of",
    "read_header",
    "read_icon",
    "read_server_name",
    "require_public",
    "season_standings",
    "server_is_public",
]

DEFAULT_NAME: Final = "A Discord server"
"""A server's name on its pages until the bot has seen the server."""


@dataclass(frozen=True, slots=True)
class ServerName:
    """How a page names its server: its name and, if kept, its icon's address."""

    guild_id: int
    name: str
    icon_url: str | None
    """``/s/<id>/icon.png?v=<key>``: the key changes the address when the icon changes."""

    @property
    def home(self) -> str:
        """The server page's path."""
        return f"/s/{self.guild_id}"


async def hidden_among(db: Database, user_ids: Iterable[int | None]) -> frozenset[int]:
    """Which of these people hide from the pages."""
    return await PreferenceRepo(db).hidden_among(u for u in user_ids if u is not None)


def people_of(games: Iterable[ArchivedGame]) -> set[int | None]:
    """Everyone who sat at these games."""
    return {p.user_id for g in games for p in g.players}


def masked(game: ArchivedGame, hidden: frozenset[int]) -> ArchivedGame:
    """The game with each hidden person as "a player", without their id."""
    if not any(p.user_id in hidden for p in game.players):
        return game
    players = [
        p.model_copy(update={"display_name": HIDDEN_NAME, "user_id": None})
        if p.user_id in hidden
        else p
        for p in game.players
    ]
    return game.model_copy(update={"players": players})


async def server_is_public(db: Database, guild_id: int) -> bool:
    """Whether the server's admins turned its web pages on."""
    return (await GuildSettingsRepo(db).get(guild_id)).web_public


async def require_public(db: Database, guild_id: int) -> None:
    """PageNotFound unless the server's pages are public."""
    if not 0 < guild_id < 2**63 or not await server_is_public(db, guild_id):
        raise PageNotFound(f"server {guild_id} has no public pages")


@dataclass(frozen=True, slots=True)
class ServerHeader:
    """What a page reads of its server before anything else: its name, its league's minimum."""

    name: ServerName
    min_games: int
    """Rated games before a player is placed in the standings."""


async def read_header(db: Database, guild_id: int) -> ServerHeader:
    """The server's name and ``min_games``, in one read; PageNotFound unless it is public."""
    if not 0 < guild_id < 2**63:
        raise PageNotFound(f"server {guild_id} has no public pages")
    facts = await GuildProfileRepo(db).page_facts(guild_id)
    if not facts.public:
        raise PageNotFound(f"server {guild_id} has no public pages")
    return ServerHeader(_named(guild_id, facts.profile), facts.min_games)


async def read_server_name(db: Database, guild_id: int) -> ServerName:
    """How the server's pages name it: its name and icon as the bot last saw them."""
    return _named(guild_id, await GuildProfileRepo(db).get(guild_id))


def _named(guild_id: int, profile: GuildProfile | None) -> ServerName:
    if profile is None:
        return ServerName(guild_id, DEFAULT_NAME, None)
    icon = None
    if profile.has_icon and profile.icon_key is not None:
        icon = f"/s/{guild_id}/icon.png?v={quote(profile.icon_key, safe='')}"
    return ServerName(guild_id, profile.name, icon)


async def read_icon(db: Database, guild_id: int) -> bytes | None:
    """The server's icon as a PNG, if the bot kept one."""
    return await GuildProfileRepo(db).icon(guild_id)


async def current_season(db: Database, guild_id: int) -> tuple[Season | None, list[Season]]:
    """The running season (else the latest), and all of the server's seasons."""
    seasons = await SeasonRepo(db).list_by_guild(guild_id)
    running = next((s for s in seasons if s.running), None)
    return running or (seasons[0] if seasons else None), seasons


async def season_standings(
    db: Database, season: Season, family: Family, min_games: int
) -> Standings:
    """A family's whole standings in a season: frozen once it ended, else ranked now."""
    if not season.running:
        return Standings.frozen(season, await SeasonRepo(db).standings(season.id, family), family)
    model = RatingModel.from_spec(season.rating_model)
    ratings = await RatingRepo(db).season(season.id, family)
    return Standings(season, tuple(rank_players(model, ratings, min_games)), min_games, family)
