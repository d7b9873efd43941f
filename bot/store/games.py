"""The archive of finished games, for a server's history and league.

A game is archived with its record; winner and score are taken from replaying
that record, so the columns the league queries always agree with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final, TypeVar

from bot.rules import Game, RecordError, replay
from bot.store._codec import build, dump_json, load_json, time_text
from bot.store.counters import next_number
from bot.store.database import Row
from bot.store.errors import (
    AlreadyArchivedError,
    ConstraintError,
    CorruptDataError,
    InvalidRecordError,
    NotFoundError,
)
from bot.store.figures import FiguresRepo, seat_figures
from bot.store.league_models import EventGame
from bot.store.models import ArchivedGame, GamePlayer, Seat
from bot.store.repository import Repository

__all__ = ["GameArchiveRepo", "deal_outcomes"]

_GAME_COLUMNS = (
    "id, guild_id, number, table_id, ranked, winner, score_0, score_1, started_at, finished_at, "
    "season_id, stopped"
)
_CHUNK = 500
"""Ids per ``IN (...)`` list, well under SQLite's limit on bound parameters."""

J = TypeVar("J", dict[str, Any], list[dict[str, Any]])
"""What a JSON column of the archive holds: a record (an object) or deal outcomes (a list)."""


def deal_outcomes(game: Game) -> list[dict[str, Any]]:
    """What each deal of a finished game came to, as the archive keeps it beside the record.

    ``maker``, ``alone``, ``result``, ``tricks`` and ``points`` of every deal, in order:
    the record-format's deal results without what the record itself says.
    """
    return [
        {
            "maker": d.maker,
            "alone": list(d.alone),
            "result": d.result,
            "tricks": list(d.tricks),
            "points": list(d.points),
        }
        for d in game.results
    ]


class GameArchiveRepo(Repository):
    """Archive finished games and read them back."""

    async def archive(
        self,
        *,
        guild_id: int,
        record: Mapping[str, Any],
        players: Sequence[Seat],
        ranked: bool,
        table_id: int | None = None,
        started_at: datetime | None = None,
        stopped: str | None = None,
    ) -> ArchivedGame:
        """Archive a finished game: its record (replayed to check it) and who sat where.

        ``stopped``: why a game not over was ended all the same (a round's timer); its
        record holds its finished deals, and it is never ranked.

        Raises InvalidRecordError when the record does not replay to a finished
        game (or, stopped, to the end of a deal) or the players do not fill its
        seats, AlreadyArchivedError when the table's game is already archived.
        """
        doc = dict(record)
        try:
            result = replay(doc)
        except RecordError as exc:
            raise InvalidRecordError(f"not a game record: {exc}") from None
        if result.error is not None:
            raise InvalidRecordError(
                f"action {result.error_index} of the record is rejected: {result.error.message}"
            )
        game = result.game
        if stopped is None and not game.over:
            raise InvalidRecordError("the game is not over: only finished games are archived")
        ranked = ranked and stopped is None
        seats = sorted(p.seat for p in players)
        if seats != list(range(game.players)):
            raise InvalidRecordError(
                f"players must fill seats 0 to {game.players - 1} once each, not {seats}"
            )
        now = time_text(self._db.now())
        async with self._db.transaction():
            if table_id is not None:
                taken = await self._db.fetch_one(
                    "SELECT id FROM games WHERE table_id = ?", (table_id,)
                )
                if taken is not None:
                    raise AlreadyArchivedError(
                        f"table {table_id} is already archived as game {taken['id']}"
                    )
            number = await next_number(self._db, guild_id, "games")
            try:
                row = await self._db.fetch_one(
                    "INSERT INTO games (guild_id, number, table_id, record, deal_outcomes, "
                    "ranked, winner, score_0, score_1, started_at, finished_at, stopped) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        number,
                        table_id,
                        dump_json(doc),
                        dump_json(deal_outcomes(game)),
                        ranked,
                        game.winner,
                        game.score[0],
                        game.score[1],
                        None if started_at is None else time_text(started_at),
                        now,
                        stopped,
                    ),
                )
            except ConstraintError as exc:
                raise NotFoundError(f"there is no table {table_id} to archive ({exc})") from exc
            assert row is not None
            game_id = int(row["id"])
            await self._db.execute_many(
                "INSERT INTO game_players (game_id, seat, team, user_id, is_computer, "
                "computer_level, display_name) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        p.seat,
                        p.team,
                        p.user_id,
                        p.is_computer,
                        p.computer_level,
                        p.display_name,
                    )
                    for p in players
                ],
            )
            await FiguresRepo(self._db).write(
                game_id, [(p.seat, seat_figures(game.results, p.seat, p.team)) for p in players]
            )
            return await self.get(game_id)

    async def get(self, game_id: int) -> ArchivedGame:
        """One archived game with its players (not its record); NotFoundError if none."""
        games = await self._games("id = ?", (game_id,))
        if not games:
            raise NotFoundError(f"there is no archived game {game_id}")
        return games[0]

    async def of_server(self, guild_id: int, game_id: int) -> ArchivedGame | None:
        """The archived game ``game_id`` with its players if server ``guild_id`` played it."""
        return next(iter(await self._games("id = ? AND guild_id = ?", (game_id, guild_id))), None)

    async def numbered(self, guild_id: int, number: int) -> ArchivedGame | None:
        """The server's game people know as ``number``: numbered so, else unnumbered of that id."""
        where = "guild_id = ? AND (number = ? OR (number IS NULL AND id = ?))"
        games = await self._games(where, (guild_id, number, number))
        return next((g for g in games if g.number is not None), next(iter(games), None))

    async def get_with_record(self, game_id: int) -> tuple[ArchivedGame, dict[str, Any]]:
        """One archived game and its record, in one read; NotFoundError if none."""
        found = await self._game_rows("id = ?", (game_id,), extra=", record")
        if not found:
            raise NotFoundError(f"there is no archived game {game_id}")
        game, row = found[0]
        return game, _record(game_id, row["record"])

    async def find_by_table(self, table_id: int) -> ArchivedGame | None:
        """The game archived from table ``table_id``, if its game finished."""
        games = await self._games("table_id = ?", (table_id,))
        return games[0] if games else None

    async def record(self, game_id: int) -> dict[str, Any]:
        """The game record of an archived game (for ``/euchre export``, replays, the league)."""
        row = await self._db.fetch_one("SELECT record FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFoundError(f"there is no archived game {game_id}")
        return _record(game_id, row["record"])

    async def list_by_guild(
        self, guild_id: int, *, limit: int = 50, before_id: int | None = None
    ) -> list[ArchivedGame]:
        """A server's games, newest first; page on with ``before_id`` = the last id seen."""
        if not 1 <= limit <= 500:
            raise ValueError("limit must be 1 to 500")
        if before_id is None:
            return await self._games("guild_id = ?", (guild_id,), newest_first=True, limit=limit)
        return await self._games(
            "guild_id = ? AND id < ?", (guild_id, before_id), newest_first=True, limit=limit
        )

    # ------------------------------------------------------------------ the league

    async def pending(self, guild_id: int) -> list[ArchivedGame]:
        """The server's games not yet taken into a league season, oldest first."""
        return await self._games("guild_id = ? AND season_id IS NULL", (guild_id,))

    async def assign_season(self, game_id: int, season_id: int, *, ranked: bool) -> None:
        """Take a game into a season, with the league's decision on whether it is ranked.

        A game joins one season only: AlreadyArchivedError when it is in one already.
        """
        changed = await self._db.execute(
            "UPDATE games SET season_id = ?, ranked = ? WHERE id = ? AND season_id IS NULL",
            (season_id, ranked, game_id),
        )
        if changed == 0:
            game = await self.get(game_id)
            raise AlreadyArchivedError(f"game {game_id} is already in season {game.season_id}")

    async def list_by_season(
        self, season_id: int, *, ranked_only: bool = False
    ) -> list[ArchivedGame]:
        """A season's games in archive order (the order they are rated in), oldest first."""
        ranked = " AND ranked" if ranked_only else ""
        return await self._games(f"season_id = ?{ranked}", (season_id,))

    async def list_by_player(
        self,
        guild_id: int,
        user_id: int,
        *,
        season_id: int | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ArchivedGame]:
        """The games a person played on a server (in one season if given), newest first.

        ``offset``: how many of the newest to pass over first (with a ``limit``: a page).
        """
        where = f"guild_id = ? AND {_PLAYED_BY}"
        params: tuple[int, ...] = (guild_id, user_id)
        if season_id is not None:
            where += " AND season_id = ?"
            params += (season_id,)
        if limit is not None and limit < 1:
            raise ValueError("limit must be 1 or more")
        return await self._games(where, params, newest_first=True, limit=limit, offset=offset)

    async def player_games(
        self, guild_id: int, user_id: int, *, latest: int, season_id: int | None
    ) -> tuple[list[ArchivedGame], list[ArchivedGame], dict[int, list[dict[str, Any]]]]:
        """A person's ``latest`` games and their games of a season, newest first, in one read.

        With the deal outcomes kept beside the season's games (see :meth:`deal_outcomes`):
        the player's page reads them all at once.
        """
        if latest < 1:
            raise ValueError("latest must be 1 or more")
        inner = (
            f"SELECT {_GAME_COLUMNS}, deal_outcomes, ROW_NUMBER() OVER (ORDER BY id DESC) "
            f"AS newest FROM games WHERE guild_id = ? AND {_PLAYED_BY}"
        )
        found = await self._game_rows(
            "newest <= ? OR season_id = ?",
            (guild_id, user_id, latest, season_id),
            newest_first=True,
            source=f"({inner}) AS mine",
            extra=", newest, CASE WHEN season_id = ? THEN deal_outcomes END AS outcomes",
            extra_params=(season_id,),
        )
        recent = [game for game, row in found if row["newest"] <= latest]
        season = [g for g, _ in found if season_id is not None and g.season_id == season_id]
        outcomes: dict[int, list[dict[str, Any]]] = {}
        for game, row in found:
            if row["outcomes"] is not None:
                outcomes[game.id] = _json_of(game.id, row["outcomes"], list, *_OUTCOMES_SHAPE)
        return recent, season, outcomes

    async def count_by_player(self, guild_id: int, user_id: int) -> int:
        """How many games a person played on a server."""
        row = await self._db.fetch_one(
            "SELECT COUNT(*) AS n FROM games WHERE guild_id = ? AND id IN "
            "(SELECT game_id FROM game_players WHERE user_id = ?)",
            (guild_id, user_id),
        )
        return 0 if row is None else int(row["n"])

    async def records(self, game_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The records of several archived games by id (ids not archived are left out)."""
        return await self._json_by_id(game_ids, "record", dict, "record", "a JSON object")

    async def deal_outcomes(self, game_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        """The deal outcomes kept with those games (see :func:`deal_outcomes`), by id.

        Games archived before they were kept (schema 17) are left out, as are unknown ids:
        replay their records instead.
        """
        return await self._json_by_id(game_ids, "deal_outcomes", list, *_OUTCOMES_SHAPE)

    async def _json_by_id(
        self, game_ids: Sequence[int], column: str, kind: type[J], what: str, shape: str
    ) -> dict[int, J]:
        """A JSON column of several games by id, each ``kind``; games where it is NULL left out."""
        out: dict[int, J] = {}
        ids = sorted(set(game_ids))
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            slots = ", ".join("?" for _ in chunk)
            rows = await self._db.fetch_all(
                f"SELECT id, {column} AS doc FROM games WHERE id IN ({slots}) "
                f"AND {column} IS NOT NULL",
                chunk,
            )
            for row in rows:
                game_id = int(row["id"])
                out[game_id] = _json_of(game_id, row["doc"], kind, what, shape)
        return out

    # ------------------------------------------------------------------ reading

    async def _games(
        self,
        where: str,
        params: tuple[int, ...],
        *,
        newest_first: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ArchivedGame]:
        """The games ``where`` picks, oldest first (or newest), each with its players."""
        found = await self._game_rows(
            where, params, newest_first=newest_first, limit=limit, offset=offset
        )
        return [game for game, _ in found]

    async def _game_rows(
        self,
        where: str,
        params: Sequence[Any],
        *,
        newest_first: bool = False,
        limit: int | None = None,
        offset: int = 0,
        source: str = "games",
        extra: str = "",
        extra_params: Sequence[Any] = (),
    ) -> list[tuple[ArchivedGame, Row]]:
        """The games of ``source`` that ``where`` picks, each with its players and its row.

        One statement: the games, joined to their seats (a game's first row holds the
        ``extra`` columns too), so the games and their players are read as one state.
        """
        order = "DESC" if newest_first else ""
        page = ""
        paged: tuple[int, ...] = ()
        if limit is not None:
            page = " LIMIT ? OFFSET ?"
            paged = (limit, offset)
        rows = await self._db.fetch_all(
            f"SELECT g.*, {_SEAT_COLUMNS} FROM "
            f"(SELECT {_GAME_COLUMNS}{extra} FROM {source} WHERE {where} "
            f"ORDER BY id {order}{page}) AS g "
            f"LEFT JOIN game_players p ON p.game_id = g.id ORDER BY g.id {order}, p.seat",
            (*extra_params, *params, *paged),
        )
        out: list[tuple[ArchivedGame, Row]] = []
        if not rows:
            return out
        # by position: a name is looked up along the row's columns each time
        names = list(rows[0].keys())
        game_at = [names.index(name) for name in _GAME_FIELDS]
        seat_at = [names.index(name) for name in _SEAT_FIELDS]
        game_id, seat = names.index("id"), names.index("seat")
        first = rows[0]
        seats: list[Row] = []
        for row in rows:
            if row[game_id] != first[game_id]:
                out.append((_game(first, seats, game_at, seat_at), first))
                first, seats = row, []
            if row[seat] is not None:
                seats.append(row)
        out.append((_game(first, seats, game_at, seat_at), first))
        return out

    async def table_events(self, table_ids: Sequence[int]) -> dict[int, EventGame]:
        """Of these tables, those that played in an event: whether it is rated, its phase."""
        if not table_ids:
            return {}
        marks = ", ".join("?" for _ in table_ids)
        rows = await self._db.fetch_all(
            "SELECT tt.table_id, t.settings, t.phase FROM tournament_tables tt "
            "JOIN tournaments t ON t.id = tt.tournament_id "
            f"WHERE tt.table_id IN ({marks})",
            tuple(table_ids),
        )
        events = {}
        for row in rows:
            where = f"table {row['table_id']}'s tournament settings"
            settings = load_json(row["settings"], where)
            rated = isinstance(settings, dict) and settings.get("rated") is True
            events[int(row["table_id"])] = EventGame(rated=rated, phase=row["phase"])
        return events


_PLAYED_BY: Final = "id IN (SELECT game_id FROM game_players WHERE user_id = ?)"
_GAME_FIELDS: Final = tuple(c.strip() for c in _GAME_COLUMNS.split(","))
_SEAT_FIELDS: Final = (
    "seat",
    "team",
    "user_id",
    "is_computer",
    "computer_level",
    "display_name",
)
_SEAT_COLUMNS: Final = ", ".join(f"p.{c}" for c in _SEAT_FIELDS)
_OUTCOMES_SHAPE: Final = ("deal outcomes", "a JSON list")


def _json_of(game_id: int, text: str, kind: type[J], what: str, shape: str) -> J:
    doc = load_json(text, f"game {game_id} {what}")
    if not isinstance(doc, kind):
        raise CorruptDataError(f"game {game_id} {what}: not {shape}")
    return doc


def _record(game_id: int, text: str) -> dict[str, Any]:
    return _json_of(game_id, text, dict, "record", "a JSON object")


def _game(
    row: Row, seats: Sequence[Row], game_at: Sequence[int], seat_at: Sequence[int]
) -> ArchivedGame:
    """A game from its joined rows; ``game_at`` and ``seat_at``: where each field's column is."""
    fields = {name: row[at] for name, at in zip(_GAME_FIELDS, game_at, strict=True)}
    where = f"game {fields['id']}"
    fields["score"] = (fields.pop("score_0"), fields.pop("score_1"))
    fields["players"] = [
        build(
            GamePlayer,
            f"{where} seat {p[seat_at[0]]}",
            {name: p[at] for name, at in zip(_SEAT_FIELDS, seat_at, strict=True)},
        )
        for p in seats
    ]
    return build(ArchivedGame, where, fields)
