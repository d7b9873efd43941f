"""The league of each server: ranked games, OpenSkill ratings, seasons, stats and replays.

Pure league logic (ranking rules, ratings, standings, stats, history, replay steps)
lives in small modules without Discord; :class:`LeagueService` keeps it in the store.

    league = LeagueService(db)
    tables.listeners.append(league.on_table_event)      # take finished games in at once
    standings = await league.standings(guild_id)         # the current season
    report = await league.report(guild_id, user_id, "Alice")
"""

from .deal_reviews import (
    ANOTHER_PLAYERS_DEAL,
    DealShown,
    KeptTableGame,
    NotYourDealError,
    finished_deals,
    review_in_pool,
)
from .errors import LeagueError, NoSuchGameError, NoSuchSeasonError, SeasonError
from .facts import DealFacts, GameFacts, game_facts, kept_facts
from .families import DEFAULT_FAMILY, FAMILIES, Family, game_family
from .history import HistoryEntry, HistoryPage, Outcome, SeatedPlayer, history_entry
from .ladders import rate_ladders, rated_rows, team_game
from .ranking import casual_reason, record_rules
from .ratings import PlayerState, Rating, RatingModel, TeamGame, play, rate_game, rate_season
from .rebuild import rebuild_ladders
from .replays import ReplayBook, ReplayStep, TrickPlay, replay_book
from .reviews import AccuracyTrend, Reviewer
from .service import (
    HISTORY_SIZE,
    OPEN_SEASON_NAME,
    LeagueService,
    PlayerReport,
    SeasonChange,
)
from .standings import PAGE_SIZE, Standing, Standings, StandingsPage, frozen_rows, rank_players
from .stats import PartnerRecord, PlayerStats, player_stats

__all__ = [
    "ANOTHER_PLAYERS_DEAL",
    "DEFAULT_FAMILY",
    "FAMILIES",
    "HISTORY_SIZE",
    "OPEN_SEASON_NAME",
    "PAGE_SIZE",
    "AccuracyTrend",
    "DealFacts",
    "DealShown",
    "Family",
    "GameFacts",
    "HistoryEntry",
    "HistoryPage",
    "KeptTableGame",
    "LeagueError",
    "LeagueService",
    "NoSuchGameError",
    "NoSuchSeasonError",
    "NotYourDealError",
    "Outcome",
    "PartnerRecord",
    "PlayerReport",
    "PlayerState",
    "PlayerStats",
    "Rating",
    "RatingModel",
    "ReplayBook",
    "ReplayStep",
    "Reviewer",
    "SeasonChange",
    "SeasonError",
    "SeatedPlayer",
    "Standing",
    "Standings",
    "StandingsPage",
    "TeamGame",
    "TrickPlay",
    "casual_reason",
    "finished_deals",
    "frozen_rows",
    "game_facts",
    "game_family",
    "history_entry",
    "kept_facts",
    "play",
    "player_stats",
    "rank_players",
    "rate_game",
    "rate_ladders",
    "rate_season",
    "rated_rows",
    "rebuild_ladders",
    "record_rules",
    "replay_book",
    "review_in_pool",
    "team_game",
]
