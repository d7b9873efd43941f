"""The league of each server: games taken in from the archive, ratings, seasons, reports.

Finished games reach the archive from the table service (``GameArchiveRepo.archive``).
:meth:`LeagueService.take_in` then takes each new game of a server, in archive order,
into the running season (opening an open-ended one when none runs), decides whether
it is ranked (:mod:`bot.league.ranking`) and rates it. The games of a rated tournament
still under way wait: taken in (in play order) once it finishes, casual if cancelled.
Every read and every season command takes in first, so the league is never behind the
archive; wiring :meth:`LeagueService.on_table_event` to the table service takes games in
as they end, and :meth:`LeagueService.on_tournament_change` a tournament's once it ends.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.daily.service import DailyService
from bot.review.service import AccuracyTrend, Reviewer
from bot.store import (
    SEASON_NAME_LENGTH,
    ArchivedGame,
    Database,
    GameArchiveRepo,
    GuildProfileRepo,
    GuildSettingsRepo,
    LeagueSettings,
    LeagueSettingsRepo,
    NotFoundError,
    RatingRepo,
    Season,
    SeasonRepo,
    SeasonStateError,
    SettingsError,
)
from bot.store.league_models import EventGame

from .errors import LeagueError, NoSuchGameError, NoSuchSeasonError, SeasonError
from .facts import GameFacts, game_facts
from .families import DEFAULT_FAMILY, FAMILIES, Family, game_family
from .history import HistoryPage, history_page
from .ladders import rated_rows, team_game
from .listening import TableEventLike, TakeIns, TournamentChangeLike
from .ranking import casual_reason, record_rules
from .ratings import PlayerState, Rating, RatingModel, play, rate_season
from .rebuild import rebuild_ladders
from .standings import Standing, Standings, frozen_rows, rank_players
from .stats import PlayerStats, player_stats

__all__ = [
    "HISTORY_SIZE",
    "OPEN_SEASON_NAME",
    "LeagueService",
    "PlayerReport",
    "SeasonChange",
]

log = logging.getLogger(__name__)

OPEN_SEASON_NAME: Final = "Open play"
"""The name of a season the bot opens by itself (numbered from the second one on)."""

HISTORY_SIZE: Final = 10
"""Games a page of ``/euchre history`` lists."""

_FACTS_CACHED: Final = 4096


def _held(game: ArchivedGame, events: dict[int, EventGame]) -> bool:
    """A game of a rated event still under way: it waits for the event's end."""
    event = None if game.table_id is None else events.get(game.table_id)
    return event is not None and event.held


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """What ``/euchre stats`` shows of one player for one season."""

    stats: PlayerStats
    season: Season | None
    standing: Standing | None
    """The player's line in the season's standings; None when they have no rated game."""
    ratings: tuple[float, ...]
    """The shown rating before their first rated game of the season, then after each."""
    family: Family = DEFAULT_FAMILY
    """The family of games counted and the ladder rated in."""
    accuracy: AccuracyTrend | None = None
    """The player's accuracy in their reviewed games of the server, every season."""


@dataclass(frozen=True, slots=True)
class SeasonChange:
    """A season started, and the open-ended season that ended to make way for it."""

    started: Season
    ended: Season | None


class LeagueService:
    """Standings, stats, history and seasons of every server, kept in ``db``."""

    def __init__(
        self, db: Database, *, model: RatingModel | None = None, reviewer: Reviewer | None = None
    ) -> None:
        """Work on ``db``; new seasons are rated with ``model`` (default: OpenSkill's).

        ``reviewer`` reviews its games (default: the expert at the review's budget), in
        its search pool, where the daily deal searches too.
        """
        self._db = db
        self.reviewer = reviewer or Reviewer(db)
        self.daily = DailyService(db, pool=self.reviewer.pool)
        """The daily deal (tests set one with other computers or another clock)."""
        self.guild_profiles = GuildProfileRepo(db)
        """Servers' names and icons, for the league's web pages."""
        self._model = model or RatingModel()
        self._games = GameArchiveRepo(db)
        self._guilds = GuildSettingsRepo(db)
        self._settings = LeagueSettingsRepo(db)
        self._seasons = SeasonRepo(db)
        self._ratings = RatingRepo(db)
        self._facts: OrderedDict[int, tuple[GameFacts, Family]] = OrderedDict()
        self._rebuilt: set[int] = set()
        self._take_ins = TakeIns(self.take_in)

    @property
    def database(self) -> Database:
        """The league's database, where the features beside it (tournaments) keep theirs too."""
        return self._db

    # ------------------------------------------------------------------ taking games in

    async def take_in(self, guild_id: int) -> int:
        """Take the server's newly archived games into the running season; how many."""
        if guild_id not in self._rebuilt:
            await self._rebuild(guild_id)
        async with self._db.transaction():
            pending = await self._games.pending(guild_id)
            events = await self._games.table_events(
                [g.table_id for g in pending if g.table_id is not None]
            )
            pending = [g for g in pending if not _held(g, events)]
            if not pending:
                return 0
            season = await self._seasons.running(guild_id) or await self._open_season(guild_id)
            settings = await self._settings.get(guild_id)
            server_rules = (await self._guilds.get(guild_id)).rules
            records = await self._games.records([g.id for g in pending])
            model = RatingModel.from_spec(season.rating_model)
            for game in pending:
                rules = record_rules(records[game.id])
                event = None if game.table_id is None else events.get(game.table_id)
                reason = casual_reason(game, rules, server_rules, settings, event=event)
                await self._games.assign_season(game.id, season.id, ranked=reason is None)
                if reason is None:
                    await self._rate(season, model, game, game_family(rules))
                else:
                    log.info("guild %d: game %d is casual: %s", guild_id, game.id, reason)
            return len(pending)

    def on_tournament_change(self, change: TournamentChangeLike) -> None:
        """A tournament runner listener: an event that ended lets its held games in."""
        if change.kind in ("finished", "cancelled"):
            self._take_ins.later(change.event.guild_id)

    def on_table_event(self, event: TableEventLike) -> None:
        """A ``TableService`` listener: take a finished game in as soon as it is archived."""
        if event.kind == "finished":
            self._take_ins.later(event.snapshot.place.guild_id)

    async def settle(self, timeout: float) -> int:
        """Wait up to ``timeout`` s for the take-ins under way (a stop, before the database)."""
        return await self._take_ins.settle(timeout)

    async def rebuild_due(self) -> int:
        """Rebuild every server's ladders the upgrade to families left due; how many.

        For start-up, before any interaction waits on it (a big archive takes a
        while); otherwise a server's first take-in does it.
        """
        done = 0
        for guild_id in await self._ratings.rebuilds_due():
            done += await self._rebuild(guild_id)
        return done

    async def _rebuild(self, guild_id: int) -> bool:
        """Rebuild the server's ladders if the upgrade to families left them due; whether it did."""
        try:
            due = await rebuild_ladders(self._db, guild_id)
        except Exception:  # a record that can't be read: keep the league going as it is
            log.exception("guild %d: could not rebuild the ladders by family", guild_id)
            due = False
        if not due:  # once seen done, it stays done (only a migration marks a server)
            self._rebuilt.add(guild_id)
        return due

    async def _open_season(self, guild_id: int) -> Season:
        taken = {s.name.casefold() for s in await self._seasons.list_by_guild(guild_id)}
        name = OPEN_SEASON_NAME
        number = 1
        while name.casefold() in taken:
            number += 1
            name = f"{OPEN_SEASON_NAME} {number}"
        return await self._seasons.start(
            guild_id, name, rating_model=self._model.to_spec(), open_ended=True
        )

    async def _rate(
        self, season: Season, model: RatingModel, game: ArchivedGame, family: Family
    ) -> None:
        played = team_game(game)
        users = [u for team in played.teams for u in team]
        stored = await self._ratings.players(season.id, users, family)
        before = {u: PlayerState(Rating(r.mu, r.sigma), r.games, r.wins) for u, r in stored.items()}
        after = play(model, before, played)
        await self._ratings.save_game(game.id, rated_rows(season.id, family, game, after))

    async def rerate(
        self, season_id: int, family: Family = DEFAULT_FAMILY
    ) -> dict[int, PlayerState]:
        """Every state of a family's ladder re-rated from scratch from the season's archive."""
        season = await self._seasons.get(season_id)
        games = await self._games.list_by_season(season_id, ranked_only=True)
        families = await self._families_of(games)
        ours = [team_game(g) for g in games if families[g.id] == family]
        return rate_season(RatingModel.from_spec(season.rating_model), ours)

    # ------------------------------------------------------------------ settings

    async def settings(self, guild_id: int) -> LeagueSettings:
        """The server's league settings."""
        return await self._settings.get(guild_id)

    async def update_settings(self, guild_id: int, **changes: Any) -> LeagueSettings:
        """Change league settings by name; games already taken in keep their verdict."""
        await self.take_in(guild_id)
        try:
            return await self._settings.update(guild_id, **changes)
        except SettingsError as exc:
            raise LeagueError(f"That setting can't be used: {exc}.") from None

    # ------------------------------------------------------------------ seasons

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        await self.take_in(guild_id)
        return await self._seasons.list_by_guild(guild_id)

    async def current_season(self, guild_id: int) -> Season | None:
        """The running season, else the latest one; None before the first game."""
        seasons = await self.seasons(guild_id)
        running = next((s for s in seasons if s.running), None)
        return running or (seasons[0] if seasons else None)

    async def season(self, guild_id: int, season_id: int) -> Season:
        """A season of the server by its number."""
        try:
            season = await self._seasons.get(season_id)
        except NotFoundError:
            season = None
        if season is None or season.guild_id != guild_id:
            raise NoSuchSeasonError("That season doesn't exist on this server.")
        await self.take_in(guild_id)
        return await self._seasons.get(season_id)

    async def find_season(self, guild_id: int, text: str) -> Season:
        """A season of the server by name (any case) or number."""
        wanted = text.strip()
        for season in await self.seasons(guild_id):
            if season.name.casefold() == wanted.casefold() or wanted == str(season.id):
                return season
        raise NoSuchSeasonError(f"This server has no season called “{wanted}”.")

    async def start_season(self, guild_id: int, name: str) -> SeasonChange:
        """Start a named season; an open-ended season running is ended (and frozen) first."""
        name = " ".join(name.split())
        if not name:
            raise SeasonError("Give the new season a name.")
        if len(name) > SEASON_NAME_LENGTH:
            raise SeasonError(f"A season's name can be at most {SEASON_NAME_LENGTH} characters.")
        async with self._db.transaction():
            await self.take_in(guild_id)
            running = await self._seasons.running(guild_id)
            if running is not None and not running.open_ended:
                raise SeasonError(
                    f"The season “{running.name}” is still running: "
                    "end it with /euchre season end first."
                )
            if await self._seasons.find(guild_id, name) is not None:
                raise SeasonError(f"There already is a season called “{name}”: pick another name.")
            ended = None if running is None else await self._end(running)
            try:
                started = await self._seasons.start(
                    guild_id, name, rating_model=self._model.to_spec()
                )
            except SeasonStateError as exc:
                raise SeasonError(f"The season can't start: {exc}.") from None
        return SeasonChange(started, ended)

    async def end_season(self, guild_id: int) -> Season:
        """End the running season and freeze its standings."""
        async with self._db.transaction():
            await self.take_in(guild_id)
            running = await self._seasons.running(guild_id)
            if running is None:
                raise SeasonError("No season is running. Start one with /euchre season start.")
            return await self._end(running)

    async def _end(self, season: Season) -> Season:
        settings = await self._settings.get(season.guild_id)
        model = RatingModel.from_spec(season.rating_model)
        frozen = []
        for family in FAMILIES:
            ratings = await self._ratings.season(season.id, family)
            rows = rank_players(model, ratings, settings.min_games)
            frozen += frozen_rows(season.id, rows, family)
        return await self._seasons.end(season.id, frozen, min_games=settings.min_games)

    # ------------------------------------------------------------------ reading

    async def standings(
        self, guild_id: int, season: Season | None = None, family: Family = DEFAULT_FAMILY
    ) -> Standings:
        """A family's standings in a season (default: current): live, or frozen once ended."""
        if season is None:
            season = await self.current_season(guild_id)
        else:
            await self.take_in(guild_id)
        if season is None:
            settings = await self._settings.get(guild_id)
            return Standings(None, (), settings.min_games, family)
        if not season.running:
            frozen = await self._seasons.standings(season.id, family)
            return Standings.frozen(season, frozen, family)
        settings = await self._settings.get(guild_id)
        model = RatingModel.from_spec(season.rating_model)
        ratings = await self._ratings.season(season.id, family)
        rows = rank_players(model, ratings, settings.min_games)
        return Standings(season, tuple(rows), settings.min_games, family)

    async def played_standings(self, guild_id: int, season: Season) -> list[Standings]:
        """A season's standings of each family with rated games in it, in family order."""
        every = [await self.standings(guild_id, season, family) for family in FAMILIES]
        return [standings for standings in every if standings.rows]

    async def report(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        season: Season | None = None,
        family: Family = DEFAULT_FAMILY,
    ) -> PlayerReport:
        """A player's stats, standing and rating over time in one family's games of a season.

        The season defaults to the current one.
        """
        if season is None:
            season = await self.current_season(guild_id)
        else:
            await self.take_in(guild_id)
        games: list[ArchivedGame] = []
        if season is not None:
            games = await self._games.list_by_player(guild_id, user_id, season_id=season.id)
        games.reverse()
        facts = await self._facts_of(games)
        ours = [(g, facts[g.id][0]) for g in games if facts[g.id][1] == family]
        stats = player_stats(user_id, name, ours)
        accuracy = await self.reviewer.trend(guild_id, user_id)
        if season is None:
            return PlayerReport(stats, None, None, (), family, accuracy)
        standings = await self.standings(guild_id, season, family)
        standing = next((s for s in standings.rows if s.user_id == user_id), None)
        model = RatingModel.from_spec(season.rating_model)
        points = await self._ratings.points(season.id, user_id, family)
        ratings = (
            model.conservative(model.initial()),
            *(model.conservative(Rating(p.mu, p.sigma)) for p in points),
        )
        return PlayerReport(stats, season, standing, ratings if points else (), family, accuracy)

    async def history(
        self, guild_id: int, user_id: int, page: int = 0, size: int = HISTORY_SIZE
    ) -> HistoryPage:
        """A page of a player's games on the server, newest first, every season."""
        await self.take_in(guild_id)
        return await history_page(self._games, guild_id, user_id, page, size)

    async def game(self, guild_id: int, number: int) -> tuple[ArchivedGame, dict[str, Any]]:
        """The server's finished game numbered ``number`` (as people see it), with its record."""
        game = await self._games.numbered(guild_id, number)
        if game is None:
            raise NoSuchGameError(f"There is no finished game #{number} on this server.")
        return game, await self._games.record(game.id)

    async def game_of_id(self, guild_id: int, game_id: int) -> tuple[ArchivedGame, dict[str, Any]]:
        """A finished game of the server by its id (a button's), with its record."""
        game = await self._games.of_server(guild_id, game_id)
        if game is None:
            raise NoSuchGameError("That game is no longer in this server's archive.")
        return game, await self._games.record(game_id)

    async def recent_games(self, guild_id: int, limit: int = 25) -> list[ArchivedGame]:
        """The server's latest finished games, newest first (for choosing one by number)."""
        return await self._games.list_by_guild(guild_id, limit=limit)

    async def _families_of(self, games: Sequence[ArchivedGame]) -> dict[int, Family]:
        return {game_id: family for game_id, (_, family) in (await self._facts_of(games)).items()}

    async def _facts_of(self, games: Sequence[ArchivedGame]) -> dict[int, tuple[GameFacts, Family]]:
        """Each game's facts and rating family, read from its record once and cached."""
        out: dict[int, tuple[GameFacts, Family]] = {}
        missing = []
        for g in games:
            cached = self._facts.get(g.id)
            if cached is None:
                missing.append(g.id)
            else:
                out[g.id] = cached
        for game_id, record in (await self._games.records(missing)).items():
            out[game_id] = facts = (game_facts(record), game_family(record_rules(record)))
            self._remember(game_id, facts)
        return out

    def _remember(self, game_id: int, facts: tuple[GameFacts, Family]) -> None:
        self._facts[game_id] = facts
        while len(self._facts) > _FACTS_CACHED:
            self._facts.popitem(last=False)
