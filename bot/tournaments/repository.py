"""Tournament events: the event, its entrants, rounds, tables of each round and results.

An event is saved whole after each change, in one transaction, so whatever kills
the bot, reloading finds it as it was after its last change. The champion roles of a
finished event are written in the transaction that saves it finished, and kept until
the roles are taken back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.store._codec import build, dump_json, load_json, row_dict, time_text, time_value
from bot.store.counters import next_number
from bot.store.database import Database, Row
from bot.store.errors import ConstraintError, NotFoundError, OpenEventExistsError
from bot.store.games import GameArchiveRepo
from bot.store.repository import Repository
from bot.tournaments.model import (
    ChampionRole,
    Entrant,
    EventGame,
    EventRound,
    EventSettings,
    RoundTable,
    TableResult,
    TournamentEvent,
)
from bot.tournaments.outreach import EventOutreachRepo

__all__ = ["TournamentRepo"]

_COLUMNS: Final = (
    "id, number, guild_id, channel_id, director_id, name, settings, seed, phase, paused, schedule, "
    "created_at, updated_at"
)
_ENTRANT_COLUMNS: Final = (
    "number, user_id, display_name, partner_id, confirmed, checked_in, slot, replaced_in_round, "
    "joined_in_round"
)
_WAITING: Final = "waiting"
"""The entrants' column that marks the waiting list (schema 24)."""
_OPEN: Final = "phase IN ('signup', 'checkin', 'playing', 'between_rounds')"


class TournamentRepo(Repository):
    """Create, save and load tournament events."""

    def __init__(self, db: Database) -> None:
        """Work on ``db``."""
        super().__init__(db)
        self.outreach = EventOutreachRepo(db)
        """What the events said and showed outside their message (announcements...)."""

    async def create(self, event: TournamentEvent) -> TournamentEvent:
        """Save a new event; it comes back with its id and its number on the server.

        OpenEventExistsError when its channel holds an event that has not ended.
        """
        if event.id is not None:
            raise ValueError(f"event {event.id} is already saved: save() it")
        async with self._db.transaction():
            busy = await self.open_in_channel(event.channel_id)
            if busy is not None:
                raise OpenEventExistsError(_busy(event.channel_id, busy.id))
            number = await next_number(self._db, event.guild_id, "events")
            try:
                row = await self._db.fetch_one(
                    f"INSERT INTO tournaments ({_COLUMNS.removeprefix('id, ')}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (number, *_event_values(event)),
                )
            except ConstraintError as exc:
                raise OpenEventExistsError(_busy(event.channel_id, None)) from exc
            assert row is not None
            saved = event.model_copy(update={"id": int(row["id"]), "number": number})
            await self._save_children(saved)
        return saved

    async def save(
        self, event: TournamentEvent, champion_roles: Sequence[ChampionRole] = ()
    ) -> None:
        """Replace the stored event by ``event``, all of it in one transaction.

        ``champion_roles``: the roles its champions are to hold, noted in the same
        transaction (one already noted stays as it is).
        """
        if event.id is None:
            raise ValueError("the event has no id yet: create() it")
        async with self._db.transaction():
            try:
                changed = await self._db.execute(
                    "UPDATE tournaments SET guild_id = ?, channel_id = ?, director_id = ?, "
                    "name = ?, settings = ?, seed = ?, phase = ?, paused = ?, schedule = ?, "
                    "created_at = ?, updated_at = ? WHERE id = ?",
                    (*_event_values(event), event.id),
                )
            except ConstraintError as exc:
                raise OpenEventExistsError(_busy(event.channel_id, None)) from exc
            if not changed:
                raise NotFoundError(f"there is no tournament {event.id}")
            await self._db.execute(
                "DELETE FROM tournament_rounds WHERE tournament_id = ?", (event.id,)
            )
            await self._db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ?", (event.id,)
            )
            await self._save_children(event)
            await self._db.execute_many(
                "INSERT INTO champion_roles "
                "(tournament_id, user_id, role_id, expires_at, given) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (tournament_id, user_id) DO NOTHING",
                [
                    (event.id, c.user_id, c.role_id, time_text(c.expires_at), c.given)
                    for c in champion_roles
                ],
            )

    async def _save_children(self, event: TournamentEvent) -> None:
        eid = event.id
        await self._db.execute_many(
            f"INSERT INTO tournament_entrants (tournament_id, {_ENTRANT_COLUMNS}, {_WAITING}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    eid,
                    e.number,
                    e.user_id,
                    e.display_name,
                    e.partner_id,
                    e.confirmed,
                    e.checked_in,
                    e.slot,
                    e.replaced_in_round,
                    e.joined_in_round,
                    waiting,
                )
                for waiting, entries in ((False, event.entrants), (True, event.waiting))
                for e in entries
            ],
        )
        await self._db.execute_many(
            "INSERT INTO tournament_rounds "
            "(tournament_id, number, bye, started_at, ended_at, ended_by_timer) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    eid,
                    r.number,
                    r.bye,
                    time_text(r.started_at),
                    None if r.ended_at is None else time_text(r.ended_at),
                    r.ended_by_timer,
                )
                for r in event.rounds
            ],
        )
        await self._db.execute_many(
            "INSERT INTO tournament_tables (tournament_id, round, number, "
            "seat_0, seat_1, seat_2, seat_3, table_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (eid, r.number, t.number, *t.seats, t.table_id)
                for r in event.rounds
                for t in r.tables
            ],
        )
        await self._db.execute_many(
            "INSERT INTO tournament_results (tournament_id, round, table_number, deals, finished) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (eid, r.number, t.number, dump_json(t.result.deals), t.result.finished)
                for r in event.rounds
                for t in r.tables
                if t.result is not None
            ],
        )

    async def set_table_id(
        self, event_id: int, round_number: int, table_number: int, table_id: int
    ) -> None:
        """Note the bot's table that plays one table of a round."""
        changed = await self._db.execute(
            "UPDATE tournament_tables SET table_id = ? "
            "WHERE tournament_id = ? AND round = ? AND number = ?",
            (table_id, event_id, round_number, table_number),
        )
        if not changed:
            raise NotFoundError(
                f"tournament {event_id} has no table {table_number} in round {round_number}"
            )

    async def set_message_id(self, event_id: int, message_id: int) -> None:
        """Note the event's live message (kept apart from the event: saving leaves it)."""
        changed = await self._db.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, event_id)
        )
        if not changed:
            raise NotFoundError(f"there is no tournament {event_id}")

    async def open_message_ids(self) -> dict[int, int]:
        """The live message of every event that has not ended and has one noted."""
        rows = await self._db.fetch_all(
            f"SELECT id, message_id FROM tournaments WHERE {_OPEN} AND message_id IS NOT NULL"
        )
        return {int(row["id"]): int(row["message_id"]) for row in rows}

    # ------------------------------------------------------------------ champion roles

    async def champion_roles(self, guild_ids: Sequence[int] | None = None) -> list[ChampionRole]:
        """Every champion role not taken back yet (of these servers, or all), by expiry."""
        where = ""
        if guild_ids is not None:
            if not guild_ids:
                return []
            where = f"WHERE t.guild_id IN ({', '.join('?' for _ in guild_ids)}) "
        rows = await self._db.fetch_all(
            "SELECT c.tournament_id, t.guild_id, t.channel_id, c.user_id, c.role_id, "
            "c.expires_at, c.given FROM champion_roles c "
            f"JOIN tournaments t ON t.id = c.tournament_id {where}"
            "ORDER BY c.expires_at, c.tournament_id, c.user_id",
            tuple(guild_ids or ()),
        )
        out = []
        for row in rows:
            fields = row_dict(row)
            fields["expires_at"] = time_value(fields["expires_at"])
            out.append(build(ChampionRole, f"tournament {row['tournament_id']} role", fields))
        return out

    async def champion_role_given(self, tournament_id: int, user_id: int) -> None:
        """Note that the champion now holds the role."""
        await self._db.execute(
            "UPDATE champion_roles SET given = ? WHERE tournament_id = ? AND user_id = ?",
            (True, tournament_id, user_id),
        )

    async def champion_role_done(self, tournament_id: int, user_id: int) -> None:
        """Forget a champion role: taken back, or it could not be given."""
        await self._db.execute(
            "DELETE FROM champion_roles WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )

    # ------------------------------------------------------------------ reading

    async def table_events(self, table_ids: Sequence[int]) -> dict[int, EventGame]:
        """Of these tables, those that played in an event: whether it is rated, its phase."""
        return await GameArchiveRepo(self._db).table_events(table_ids)

    async def get(self, event_id: int) -> TournamentEvent:
        """The whole event; NotFoundError if there is none."""
        async with self._db.transaction():
            row = await self._db.fetch_one(
                f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (event_id,)
            )
            if row is None:
                raise NotFoundError(f"there is no tournament {event_id}")
            return await self._event(row)

    async def numbered(self, guild_id: int, number: int) -> TournamentEvent | None:
        """The server's event people know as ``number``: numbered so, else unnumbered of that id."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM tournaments "
            "WHERE guild_id = ? AND (number = ? OR (number IS NULL AND id = ?)) "
            "ORDER BY number IS NULL",
            (guild_id, number, number),
        )
        return None if not rows else await self._event(rows[0])

    async def open_in_channel(self, channel_id: int) -> TournamentEvent | None:
        """The channel's event that has not ended, if any."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM tournaments WHERE channel_id = ? AND {_OPEN}", (channel_id,)
        )
        return None if row is None else await self._event(row)

    async def open_events(self, guild_id: int | None = None) -> list[TournamentEvent]:
        """Events that have not ended (of one server, or all): what to resume at start-up."""
        where = _OPEN if guild_id is None else f"guild_id = ? AND {_OPEN}"
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM tournaments WHERE {where} ORDER BY id",
            () if guild_id is None else (guild_id,),
        )
        return [await self._event(row) for row in rows]

    async def list_by_guild(
        self, guild_id: int, *, limit: int = 25, offset: int = 0
    ) -> list[TournamentEvent]:
        """The server's events, newest first (``offset``: skipping that many)."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? "
            "ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [await self._event(row) for row in rows]

    async def count_by_guild(self, guild_id: int) -> int:
        """How many events the server has had."""
        row = await self._db.fetch_one(
            "SELECT COUNT(*) AS n FROM tournaments WHERE guild_id = ?", (guild_id,)
        )
        return 0 if row is None else int(row["n"])

    async def entrants(self, event_id: int, *, waiting: bool = False) -> list[Entrant]:
        """The event's entrants by number (``waiting``: its waiting list, first in line first)."""
        rows = await self._db.fetch_all(
            f"SELECT {_ENTRANT_COLUMNS} FROM tournament_entrants "
            f"WHERE tournament_id = ? AND {_WAITING} = ? ORDER BY number",
            (event_id, waiting),
        )
        return [build(Entrant, f"tournament {event_id} entrant", row_dict(r)) for r in rows]

    async def rounds(self, event_id: int) -> list[EventRound]:
        """The event's rounds by number, each with its tables and their results."""
        rounds = await self._db.fetch_all(
            "SELECT number, bye, started_at, ended_at, ended_by_timer FROM tournament_rounds "
            "WHERE tournament_id = ? ORDER BY number",
            (event_id,),
        )
        tables: dict[int, list[RoundTable]] = {}
        for number in {int(r["number"]) for r in rounds}:
            tables[number] = await self.tables(event_id, number)
        out = []
        for row in rounds:
            fields = row_dict(row)
            fields["started_at"] = time_value(fields["started_at"])
            fields["ended_at"] = time_value(fields["ended_at"])
            fields["tables"] = tables[int(row["number"])]
            out.append(build(EventRound, f"tournament {event_id} round", fields))
        return out

    async def tables(self, event_id: int, round_number: int) -> list[RoundTable]:
        """The tables of one round, with their table ids once opened and their results."""
        rows = await self._db.fetch_all(
            "SELECT number, seat_0, seat_1, seat_2, seat_3, table_id FROM tournament_tables "
            "WHERE tournament_id = ? AND round = ? ORDER BY number",
            (event_id, round_number),
        )
        results = await self.results(event_id, round_number)
        return [
            build(
                RoundTable,
                f"tournament {event_id} round {round_number} table",
                {
                    "number": r["number"],
                    "seats": (r["seat_0"], r["seat_1"], r["seat_2"], r["seat_3"]),
                    "table_id": r["table_id"],
                    "result": results.get(int(r["number"])),
                },
            )
            for r in rows
        ]

    async def results(self, event_id: int, round_number: int) -> dict[int, TableResult]:
        """The results entered for a round's tables, by table number."""
        rows = await self._db.fetch_all(
            "SELECT table_number, deals, finished FROM tournament_results "
            "WHERE tournament_id = ? AND round = ? ORDER BY table_number",
            (event_id, round_number),
        )
        where = f"tournament {event_id} round {round_number} result"
        return {
            int(r["table_number"]): build(
                TableResult,
                where,
                {"deals": load_json(r["deals"], where), "finished": r["finished"]},
            )
            for r in rows
        }

    async def _event(self, row: Row) -> TournamentEvent:
        fields: dict[str, Any] = row_dict(row)
        event_id = int(fields["id"])
        where = f"tournament {event_id}"
        settings = load_json(fields["settings"], f"{where} settings")
        fields["settings"] = build(EventSettings, f"{where} settings", settings)
        if fields["schedule"] is not None:
            fields["schedule"] = load_json(fields["schedule"], f"{where} schedule")
        fields["created_at"] = time_value(fields["created_at"])
        fields["updated_at"] = time_value(fields["updated_at"])
        fields["entrants"] = await self.entrants(event_id)
        fields["waiting"] = await self.entrants(event_id, waiting=True)
        fields["rounds"] = await self.rounds(event_id)
        return build(TournamentEvent, where, fields)


def _event_values(event: TournamentEvent) -> Sequence[Any]:
    return (
        event.guild_id,
        event.channel_id,
        event.director_id,
        event.name,
        dump_json(event.settings.model_dump(mode="json")),
        event.seed,
        event.phase,
        event.paused,
        None if event.schedule is None else dump_json(event.schedule),
        time_text(event.created_at),
        time_text(event.updated_at),
    )


def _busy(channel_id: int, event_id: int | None) -> str:
    which = "an event" if event_id is None else f"event {event_id}"
    return f"channel {channel_id} already holds {which} that has not ended"
