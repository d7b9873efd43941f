"""``python -m bot copy-db FROM_URL TO_URL``: every row of one store into another, then checked.

For moving a bot from its SQLite file to PostgreSQL (any direction works). The
target must be empty (freshly migrated). The copy is checked before it is kept: the
rows of every table are counted on both sides, and every archived game's record is
replayed on the target and must give the score and winner stored beside it. All of
it is one transaction on the target, so a copy that fails leaves it empty.
Stop the bot while copying: rows written meanwhile would not be copied.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.rules import RecordError, replay
from bot.store._codec import load_json
from bot.store.catalog import Column, describe
from bot.store.database import Database, Params, existing_schema
from bot.store.errors import StoreError
from bot.store.urls import parse_url

__all__ = ["COPY_ORDER", "CopyError", "CopyReport", "copy_database"]

log = logging.getLogger(__name__)

COPY_ORDER: Final[dict[str, tuple[str, ...]]] = {
    "guild_settings": ("guild_id",),
    "league_settings": ("guild_id",),
    "tables": ("id",),
    "table_seats": ("table_id", "seat"),
    "table_actions": ("table_id", "idx"),
    "seasons": ("id",),
    "games": ("id",),
    "game_players": ("game_id", "seat"),
    "seat_figures": ("game_id", "seat"),
    "game_accuracy": ("game_id", "user_id"),
    "deal_accuracy": ("game_id", "user_id", "deal"),
    "league_ratings": ("season_id", "family", "user_id"),
    "league_rating_points": ("game_id", "user_id"),
    "season_standings": ("season_id", "family", "user_id"),
    "league_rebuilds": ("guild_id",),
    "tournaments": ("id",),
    "tournament_entrants": ("tournament_id", "number"),
    "tournament_rounds": ("tournament_id", "number"),
    "tournament_tables": ("tournament_id", "round", "number"),
    "tournament_results": ("tournament_id", "round", "table_number"),
    "champion_roles": ("tournament_id", "user_id"),
    "tournament_announcements": ("tournament_id", "announcement"),
    "preferences": ("user_id",),
    "daily_par": ("guild_id", "day"),
    "daily_results": ("guild_id", "day", "user_id"),
    "daily_weekly_posts": ("guild_id", "week"),
    "guild_profiles": ("guild_id",),
    "guild_counters": ("guild_id",),
}
"""Every table of the schema with its key, parents before children (foreign keys)."""

_IDENTITY_TABLES: Final = ("tables", "seasons", "games", "tournaments")
"""Tables whose ids the database gives: their counters are carried over too."""

_PAGE: Final = 1000


class CopyError(StoreError):
    """The copy was refused, or the check after it found a difference."""


@dataclass
class CopyReport:
    """What was copied: rows per table, and how many archived games replayed."""

    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0

    def lines(self) -> list[str]:
        """One line per table, then the replay."""
        width = max(map(len, self.rows), default=0)
        out = [
            f"  {table:<{width}} {count:>9,} {'row' if count == 1 else 'rows'}"
            for table, count in self.rows.items()
        ]
        out.append(f"  every archived game replayed: {self.games_replayed:,}")
        return out


_COERCE: Final[dict[str, Callable[[Any], Any]]] = {
    "int": int,
    "float": float,
    "bool": bool,
    "text": lambda value: value,
}


async def copy_database(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    progress: Callable[[str], None] = lambda line: None,
) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target``, then check the copy.

    Both are migrated to the newest schema first. Raises :class:`CopyError`, before
    anything is created or changed, when the source does not exist or holds no schema
    (no bot ever used it); and when the target holds data, the schemas differ, or the
    check finds a difference.
    """
    await _check_source(source)
    async with await Database.open(source) as src, await Database.open(target) as dst:
        if src.url.url == dst.url.url:
            raise CopyError("FROM_URL and TO_URL are the same database")
        columns = await _check_tables(src, dst)
        filled = {t: n for t, n in (await _counts(dst)).items() if n}
        if filled:
            listed = ", ".join(f"{n} in {t}" for t, n in filled.items())
            raise CopyError(
                f"{dst.path} already holds rows ({listed}): copy into an empty database"
            )
        report = CopyReport()
        # Checked inside the transaction: a copy that fails its check is rolled back.
        async with dst.transaction(), src.snapshot():
            for table, key in COPY_ORDER.items():
                report.rows[table] = await _copy_table(src, dst, table, key, columns[table])
                count = report.rows[table]
                progress(f"copied {table}: {count:,} {'row' if count == 1 else 'rows'}")
            for table in _IDENTITY_TABLES:
                await dst.set_identity_next(table, await src.identity_next(table))
            await _check_counts(src, dst, report)
            report.games_replayed = await _replay_games(dst)
            progress(f"replayed {report.games_replayed:,} archived games")
    return report


async def _check_source(source: str | os.PathLike[str]) -> None:
    """Refuse a source that does not exist or holds no schema, before anything is opened."""
    try:
        version = await existing_schema(source)
    except StoreError as exc:
        raise CopyError(f"FROM_URL: {exc}: name the database the bot ran on") from None
    if version == 0:
        shown = parse_url(source).shown
        raise CopyError(
            f"FROM_URL: {shown} holds no schema (no bot has used it): "
            "name the database the bot ran on"
        )


async def _check_tables(src: Database, dst: Database) -> dict[str, tuple[Column, ...]]:
    """The columns of every table of the target; both must hold the tables copy-db knows."""
    shapes = {db: await describe(db) for db in (src, dst)}
    for db, tables in shapes.items():
        unknown = sorted(set(tables) - set(COPY_ORDER))
        missing = sorted(set(COPY_ORDER) - set(tables))
        if unknown or missing:
            raise CopyError(
                f"{db.path}: copy-db does not know the tables {unknown or ''} "
                f"{'and lacks ' + str(missing) if missing else ''}: it needs this bot's schema"
            )
    for table in COPY_ORDER:
        theirs = {c.name for c in shapes[src][table].columns}
        if theirs != {c.name for c in shapes[dst][table].columns}:
            raise CopyError(f"table {table} has other columns in {src.path} than in {dst.path}")
    return {table: shape.columns for table, shape in shapes[dst].items()}


async def _counts(db: Database) -> dict[str, int]:
    counts = {}
    for table in COPY_ORDER:
        row = await db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")
        counts[table] = 0 if row is None else int(row["n"])
    return counts


async def _copy_table(
    src: Database, dst: Database, table: str, key: tuple[str, ...], columns: tuple[Column, ...]
) -> int:
    names = ", ".join(column.name for column in columns)
    slots = ", ".join("?" for _ in columns)
    coerce = [_COERCE[column.kind] for column in columns]
    order = ", ".join(key)
    copied = 0
    while True:
        rows = await src.fetch_all(
            f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (_PAGE, copied)
        )
        if not rows:
            return copied
        values: list[Params] = [
            tuple(None if row[i] is None else coerce[i](row[i]) for i in range(len(columns)))
            for row in rows
        ]
        await dst.execute_many(f"INSERT INTO {table} ({names}) VALUES ({slots})", values)
        copied += len(rows)


async def _check_counts(src: Database, dst: Database, report: CopyReport) -> None:
    theirs, ours = await _counts(src), await _counts(dst)
    wrong = [t for t in COPY_ORDER if not theirs[t] == ours[t] == report.rows[t]]
    if wrong:
        detail = ", ".join(f"{t}: {theirs[t]} in the source, {ours[t]} copied" for t in wrong)
        raise CopyError(f"the row counts differ after the copy ({detail})")


async def _replay_games(db: Database) -> int:
    """Replay every archived record; its result must match the columns stored beside it."""
    replayed = 0
    last = 0
    while True:
        rows = await db.fetch_all(
            "SELECT id, record, winner, score_0, score_1 FROM games WHERE id > ? "
            "ORDER BY id LIMIT ?",
            (last, _PAGE),
        )
        if not rows:
            return replayed
        for row in rows:
            game_id = int(row["id"])
            where = f"game {game_id}"
            doc = load_json(row["record"], f"{where} record")
            try:
                result = replay(doc)
            except RecordError as exc:
                raise CopyError(f"{where}: its record no longer replays ({exc})") from None
            game = result.game
            stored = (row["winner"], (row["score_0"], row["score_1"]))
            if result.error is not None or (game.winner, tuple(game.score)) != stored:
                raise CopyError(
                    f"{where}: its record replays to {game.winner=} {game.score=}, "
                    f"but the archive says {stored}"
                )
            replayed += 1
            last = game_id
