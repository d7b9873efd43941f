"""Rebuilding a server's ladders from the archive, once, after the upgrade to rating families.

Schema 10 gave ratings a family but could not read the rules inside archived
records in SQL, so every rating kept before it became four-hand euchre's, six-hand
and Bid Euchre games included. Schema 11 marks each server that had ratings.
:func:`rebuild_ladders` classifies every game each season of a marked server rated
by the rules in its record and rates each family's games again from scratch, in
archive order: ratings, rating points and the frozen standings of ended seasons are
written over, and the mark removed, in one transaction. If the process dies
meanwhile nothing has changed and the mark is still there, so the next start does it
again; once it has committed it never runs again.

`python -m bot migrate` and the bot at start-up (before it connects to Discord)
rebuild every marked server (``LeagueService.rebuild_due``), and a server's take-in
rebuilds it too if it is still marked, so no reading of the league ever sees the old
ladders. Removing the
mark is the transaction's first write: on PostgreSQL, when several processes start
at once, one of them rebuilds a server and the others' removal (or take-in) waits
for it to commit, then finds the mark gone.
"""

from __future__ import annotations

import logging
from typing import Final

from bot.store import (
    ArchivedGame,
    Database,
    FrozenStanding,
    GameArchiveRepo,
    PlayerRating,
    RatingRepo,
    Season,
    SeasonRepo,
)

from .families import DEFAULT_FAMILY, FAMILIES, Family, game_family
from .ladders import rate_ladders
from .ranking import record_rules
from .ratings import RatingModel
from .standings import frozen_rows, rank_players

__all__ = ["rebuild_ladders"]

log = logging.getLogger(__name__)

_RECORDS_AT_ONCE: Final = 200
"""Records read (and held) at a time while classifying a season's games."""


async def rebuild_ladders(db: Database, guild_id: int) -> bool:
    """Rebuild the server's ladders if they are due (schema 11); whether they were.

    One transaction: either every season's ladders are rebuilt and the server's mark
    is gone, or nothing changed.
    """
    ratings = RatingRepo(db)
    seasons = SeasonRepo(db)
    async with db.transaction():
        if not await ratings.claim_rebuild(guild_id):
            return False
        moved = 0
        for season in await seasons.list_by_guild(guild_id):
            moved += await _rebuild_season(db, season)
        log.info(
            "guild %d: ladders rebuilt by family from the archive (%d games off four-hand)",
            guild_id,
            moved,
        )
        return True


async def _rebuild_season(db: Database, season: Season) -> int:
    """Rebuild one season's ladders from the games it rated; how many left four-hand's."""
    ratings = RatingRepo(db)
    rated = await ratings.rated_games(season.id)
    if not rated:
        return 0
    archive = GameArchiveRepo(db)
    games = [g for g in await archive.list_by_season(season.id) if g.id in rated]
    families = await _families(archive, games)
    moved = sum(f != DEFAULT_FAMILY for f in families.values())
    if not moved:  # four-hand euchre only: its ladder already is these games', as stored
        return 0
    model = RatingModel.from_spec(season.rating_model)
    rows, points = rate_ladders(model, season.id, ((g, families[g.id]) for g in games))
    await ratings.replace_season(season.id, rows, points)
    if not season.running:
        await SeasonRepo(db).refreeze(season.id, _frozen(model, season, rows))
    return moved


async def _families(archive: GameArchiveRepo, games: list[ArchivedGame]) -> dict[int, Family]:
    """Each game's family, from the rules in its record."""
    out: dict[int, Family] = {}
    ids = [g.id for g in games]
    for start in range(0, len(ids), _RECORDS_AT_ONCE):
        records = await archive.records(ids[start : start + _RECORDS_AT_ONCE])
        out.update({i: game_family(record_rules(r)) for i, r in records.items()})
    return out


def _frozen(model: RatingModel, season: Season, rows: list[PlayerRating]) -> list[FrozenStanding]:
    """An ended season's standings of every family, placed as when it ended."""
    frozen: list[FrozenStanding] = []
    for family in FAMILIES:
        ladder = [r for r in rows if r.family == family]
        placed = rank_players(model, ladder, season.min_games or 0)
        frozen += frozen_rows(season.id, placed, family)
    return frozen
