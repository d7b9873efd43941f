"""The league of each server: ranked games, OpenSkill ratings, seasons, stats and replays.

Pure league logic (ranking rules, ratings, standings, stats, history, replay steps)
lives in small modules without Discord; :class:`LeagueService` keeps it in the store.

    league = LeagueService(db)
    tables.listeners.append(league.on_table_event)      # take finished games in at once
    standings = await league.standings(guild_id)         # the current season
    report = await league.report(guild_id, user_id, "Alice")
"""

from .errors import LeagueError, NoSuchGameError, NoSuchSeasonError, SeasonError
from .facts import DealFacts, GameFacts, game_facts, kept_facts
from .families import DEFAULT_FAMILY, FAMILIES, Family, game_family
from .history import HistoryEntry, HistoryPage, Outcome, SeatedPlayer, history_entry
from .ladders import rate_ladders, rated_rows, team_game
from .ranking import casual_reason, record_rules
from .ratings import PlayerState, Rating, RatingModel, TeamGame, play, rate_game, rate_season
from .rebuild import rebuild_ladders
from .replays import ReplayBook, ReplayStep, TrickPlay, replay_book
from .service import (
    HISTORY_SIZE,
    OPEN_SEASON_NAME,
    LeagueService,
    PlayerReport,
    SeasonChange,
)
from .standings import PAGE_SIZE, Standing, Standings, StandingsPage, frozen_rows, rank_players
from .stats import PartnerRecord, PlayerStats, played_stats, player_stats

__all__ = [
    "DEFAULT_FAMILY",
    "FAMILIES",
    "HISTORY_SIZE",
    "OPEN_SEASON_NAME",
    "PAGE_SIZE",
    "DealFacts",
    "Family",
    "GameFacts",
    "HistoryEntry",
    "HistoryPage",
    "LeagueError",
    "LeagueService",
    "NoSuchGameError",
    "NoSuchSeasonError",
    "Outcome",
    "PartnerRecord",
    "PlayerReport",
    "PlayerState",
    "PlayerStats",
    "Rating",
    "RatingModel",
    "ReplayBook",
    "ReplayStep",
    "SeasonChange",
    "SeasonError",
    "SeatedPlayer",
    "Standing",
    "Standings",
    "StandingsPage",
    "TeamGame",
    "TrickPlay",
    "casual_reason",
    "frozen_rows",
    "game_facts",
    "game_family",
    "history_entry",
    "kept_facts",
    "play",
    "played_stats",
    "player_stats",
    "rank_players",
    "rate_game",
    "rate_ladders",
    "rate_season",
    "rated_rows",
    "rebuild_ladders",
    "record_rules",
    "replay_book",
    "team_game",
]
