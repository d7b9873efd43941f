"""Tables from lobby to end: where they are, their seats, rules, seed and every action.

A table in progress is stored as its game record: restoring it is replaying
``StoredTable.record()``. Saving a move is :meth:`TableRepo.append_action`.

Longer than 450 lines on purpose: every SQL statement on a table's rows (the table,
its seats, its actions) is in this one repository, each beside the check that keeps
those rows consistent (status changes, seats, action numbers). How a row is checked
before it is written and built into a model after it is read is :mod:`.table_rows`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NoReturn

from bot.rules import HouseRules
from bot.store._codec import (
    dump_json,
    load_json,
    rules_text,
    time_text,
)
from bot.store.counters import next_number
from bot.store.database import Row
from bot.store.errors import (
    ActionIndexError,
    ConnectionLostError,
    ConstraintError,
    DuplicateActionError,
    InvalidRecordError,
    NotFoundError,
    OpenTableExistsError,
    TableStateError,
)
from bot.store.models import Seat, StoredAction, StoredTable, TableStatus
from bot.store.repository import Repository
from bot.store.table_rows import (
    action_object,
    assembled,
    check_record_start,
    check_seats,
    deal_list,
    place_taken,
    stored_actions,
    stored_table,
)

__all__ = ["TableRepo"]

log = logging.getLogger(__name__)

_NEXT_STATUSES: Final[dict[str, frozenset[str]]] = {
    "lobby": frozenset({"playing", "aborted"}),
    "playing": frozenset({"finished", "aborted"}),
    "finished": frozenset(),
    "aborted": frozenset(),
}

_TABLE_COLUMNS: Final = (
    "id, guild_id, number, channel_id, thread_id, message_id, host_id, status, rules, "
    "rules_overridden, hinted, seed, first_dealer, deals, created_at, updated_at, finished_at"
)
_SEAT_COLUMNS: Final = "table_id, seat, user_id, is_computer, computer_level, display_name, away"
_OPEN: Final = "status IN ('lobby', 'playing')"

# One statement checks and inserts atomically, in one trip to the database thread:
# saving a move is the hot path of every table.
_INSERT_ACTION: Final = (
    "INSERT INTO table_actions (table_id, idx, seat, action, actor, created_at) "
    "SELECT t.id, ?, ?, ?, ?, ? FROM tables t "
    "WHERE t.id = ? AND t.status = 'playing' AND ? = "
    "(SELECT COALESCE(MAX(a.idx) + 1, 0) FROM table_actions a "
    "WHERE a.table_id = t.id) RETURNING idx"
)


class TableRepo(Repository):
    """Create, change and load tables; append and load their actions."""

    # ------------------------------------------------------------------ create and load

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: HouseRules,
        seed: int,
        thread_id: int | None = None,
        first_dealer: int | None = None,
        deals: Sequence[Mapping[str, Any]] | None = None,
        seats: Sequence[Seat] = (),
        rules_overridden: bool = False,
    ) -> StoredTable:
        """Open a table in the lobby with a copy of ``rules``.

        ``rules_overridden``: the host changed the server's rules for this table.

        Raises OpenTableExistsError when the channel (thread) already has an open
        table, InvalidRecordError when first dealer or deals do not fit the rules.
        """
        deal_list = None if deals is None else [dict(d) for d in deals]
        check_record_start(rules, seed, first_dealer, deal_list)
        check_seats(rules, seats)
        now = time_text(self._db.now())
        async with self._db.transaction():
            existing = await self.find_open(channel_id, thread_id)
            if existing is not None:
                raise OpenTableExistsError(place_taken(channel_id, thread_id, existing.id))
            number = await next_number(self._db, guild_id, "tables")
            try:
                row = await self._db.fetch_one(
                    "INSERT INTO tables (guild_id, number, channel_id, thread_id, host_id, status, "
                    "rules, rules_overridden, seed, first_dealer, deals, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        number,
                        channel_id,
                        thread_id,
                        host_id,
                        rules_text(rules),
                        rules_overridden,
                        seed,
                        first_dealer,
                        None if deal_list is None else dump_json(deal_list),
                        now,
                        now,
                    ),
                )
            except ConstraintError as exc:
                taken = place_taken(channel_id, thread_id, None)
                raise OpenTableExistsError(f"{taken} ({exc})") from exc
            assert row is not None
            table_id = int(row["id"])
            await self._insert_seats(table_id, seats)
            return await self.get(table_id)

    async def get(self, table_id: int) -> StoredTable:
        """The table with its seats and actions; NotFoundError if there is none."""
        async with self._db.snapshot():
            row = await self._db.fetch_one(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            )
            if row is None:
                raise NotFoundError(f"there is no table {table_id}")
            seats = await self._db.fetch_all(
                f"SELECT {_SEAT_COLUMNS} FROM table_seats WHERE table_id = ? ORDER BY seat",
                (table_id,),
            )
            actions = await self._db.fetch_all(
                "SELECT table_id, idx, seat, action, actor FROM table_actions "
                "WHERE table_id = ? ORDER BY idx",
                (table_id,),
            )
        return stored_table(row, seats, actions)

    async def find_open(self, channel_id: int, thread_id: int | None = None) -> StoredTable | None:
        """The open (lobby or playing) table of a channel, or of a thread in it."""
        if thread_id is None:
            row = await self._db.fetch_one(
                f"SELECT id FROM tables WHERE channel_id = ? AND thread_id IS NULL AND {_OPEN}",
                (channel_id,),
            )
        else:
            row = await self._db.fetch_one(
                f"SELECT id FROM tables WHERE channel_id = ? AND thread_id = ? AND {_OPEN}",
                (channel_id, thread_id),
            )
        return None if row is None else await self.get(int(row["id"]))

    async def list_open_counted(
        self, guild_id: int, *, limit: int = 10
    ) -> list[tuple[StoredTable, int]]:
        """A server's open tables with their seats but not their actions, newest first.

        Each comes with the number of actions it has saved: actions are only ever appended,
        so a table and that number say which actions it holds (:meth:`load_actions`).
        """
        async with self._db.snapshot():
            rows, seats, slots, ids = await self._open_of_guild(guild_id, limit)
            if not rows:
                return []
            counts = await self._db.fetch_all(
                "SELECT table_id, COUNT(*) AS saved FROM table_actions "
                f"WHERE table_id IN ({slots}) GROUP BY table_id",
                ids,
            )
        saved = {int(c["table_id"]): int(c["saved"]) for c in counts}
        return [(t, saved.get(t.id, 0)) for t in assembled(rows, seats, [])]

    async def _open_of_guild(
        self, guild_id: int, limit: int
    ) -> tuple[list[Row], list[Row], str, list[int]]:
        """A server's newest open tables' rows and their seats' (inside a snapshot).

        Also the ids' placeholders and the ids, for reading more of those tables.
        """
        if not 1 <= limit <= 100:
            raise ValueError("limit must be 1 to 100")
        rows = await self._db.fetch_all(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND {_OPEN} "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        if not rows:
            return [], [], "", []
        ids = [int(row["id"]) for row in rows]
        slots = ", ".join("?" for _ in ids)
        seats = await self._db.fetch_all(
            f"SELECT {_SEAT_COLUMNS} FROM table_seats WHERE table_id IN ({slots}) "
            "ORDER BY table_id, seat",
            ids,
        )
        return rows, seats, slots, ids

    async def list_open_tables(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredTable]:
        """Every table in the lobby or in play, fully loaded, oldest first (restore at start-up).

        ``guild_filter`` keeps only the guilds it accepts (those of this process's shards).
        """
        async with self._db.snapshot():
            rows = await self._db.fetch_all(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {_OPEN} ORDER BY id"
            )
            if guild_filter is not None:
                rows = [row for row in rows if guild_filter(int(row["guild_id"]))]
            if not rows:
                return []
            seats = await self._db.fetch_all(
                "SELECT s.table_id, s.seat, s.user_id, s.is_computer, s.computer_level, "
                "s.display_name, s.away FROM table_seats s JOIN tables t ON t.id = s.table_id "
                f"WHERE t.{_OPEN} ORDER BY s.table_id, s.seat"
            )
            actions = await self._db.fetch_all(
                "SELECT a.table_id, a.idx, a.seat, a.action, a.actor "
                "FROM table_actions a JOIN tables t ON t.id = a.table_id "
                f"WHERE t.{_OPEN} ORDER BY a.table_id, a.idx"
            )
        return assembled(rows, seats, actions)

    async def open_guild_ids(self) -> set[int]:
        """The guilds that have a table in the lobby or in play."""
        rows = await self._db.fetch_all(f"SELECT DISTINCT guild_id FROM tables WHERE {_OPEN}")
        return {int(row["guild_id"]) for row in rows}

    # ------------------------------------------------------------------ change

    async def set_seats(self, table_id: int, seats: Sequence[Seat]) -> StoredTable:
        """Replace the table's taken seats by ``seats`` (an empty seat is left out)."""
        async with self._db.transaction():
            table = await self._header(table_id)
            if not table.is_open:
                raise TableStateError(f"table {table_id} is {table.status}: its seats are final")
            check_seats(table.rules, seats)
            await self._db.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
            await self._insert_seats(table_id, seats)
            await self._touch(table_id)
            return await self.get(table_id)

    async def set_message_ids(
        self, table_id: int, *, message_id: int | None = None, thread_id: int | None = None
    ) -> None:
        """Record the public table message and/or the table's thread (None: leave as is)."""
        async with self._db.transaction():
            table = await self._header(table_id)
            if thread_id is not None and thread_id != table.thread_id and table.is_open:
                other = await self.find_open(table.channel_id, thread_id)
                if other is not None:
                    raise OpenTableExistsError(place_taken(table.channel_id, thread_id, other.id))
            await self._db.execute(
                "UPDATE tables SET message_id = COALESCE(?, message_id), "
                "thread_id = COALESCE(?, thread_id), updated_at = ? WHERE id = ?",
                (message_id, thread_id, time_text(self._db.now()), table_id),
            )

    async def set_hinted(self, table_id: int) -> None:
        """Note that someone at the table asked for a hint (its game is then casual)."""
        async with self._db.transaction():
            await self._header(table_id)
            await self._db.execute(
                "UPDATE tables SET hinted = TRUE, updated_at = ? WHERE id = ?",
                (time_text(self._db.now()), table_id),
            )

    async def set_host(self, table_id: int, host_id: int) -> None:
        """Hand an open table to another host (the host left, say)."""
        async with self._db.transaction():
            table = await self._header(table_id)
            if not table.is_open:
                raise TableStateError(f"table {table_id} is {table.status}: its host is final")
            await self._db.execute(
                "UPDATE tables SET host_id = ?, updated_at = ? WHERE id = ?",
                (host_id, time_text(self._db.now()), table_id),
            )

    async def set_rules(self, table_id: int, rules: HouseRules) -> StoredTable:
        """Change the rules of a table still in its lobby (seats beyond the new size are freed)."""
        async with self._db.transaction():
            table = await self._header(table_id)
            if table.status != "lobby":
                raise TableStateError(
                    f"table {table_id} is {table.status}: rules change only in the lobby"
                )
            check_record_start(rules, table.seed, table.first_dealer, deal_list(table))
            await self._db.execute(
                "UPDATE tables SET rules = ?, updated_at = ? WHERE id = ?",
                (rules_text(rules), time_text(self._db.now()), table_id),
            )
            await self._db.execute(
                "DELETE FROM table_seats WHERE table_id = ? AND seat >= ?",
                (table_id, rules.players),
            )
            return await self.get(table_id)

    async def set_status(self, table_id: int, status: TableStatus) -> StoredTable:
        """Move the table on: lobby -> playing (all seats taken) -> finished; or -> aborted."""
        async with self._db.transaction():
            table = await self._header(table_id)
            if status not in _NEXT_STATUSES[table.status]:
                raise TableStateError(
                    f"table {table_id} is {table.status}: it cannot become {status}"
                )
            if status == "playing":
                count = await self._db.fetch_one(
                    "SELECT COUNT(*) AS n FROM table_seats WHERE table_id = ?", (table_id,)
                )
                taken = 0 if count is None else int(count["n"])
                if taken != table.rules.players:
                    raise TableStateError(
                        f"table {table_id} has {taken} of {table.rules.players} seats taken: "
                        "fill them before it starts"
                    )
            now = time_text(self._db.now())
            finished = now if status in ("finished", "aborted") else None
            await self._db.execute(
                "UPDATE tables SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?",
                (status, now, finished, table_id),
            )
            return await self.get(table_id)

    # ------------------------------------------------------------------ actions

    async def append_action(
        self,
        table_id: int,
        idx: int,
        seat: int,
        action: Mapping[str, Any],
        actor: Mapping[str, Any] | None = None,
    ) -> StoredAction:
        """Save action number ``idx`` (0-based) of a table in play: one INSERT, all or nothing.

        ``action`` is the record-format object (``Action.to_json(seat)``); ``actor``
        who sat in the seat then (kept as given, for the table's history). Raises
        DuplicateActionError if ``idx`` is already stored (the stored action stays),
        ActionIndexError if it would leave a gap, TableStateError unless playing.

        If the server connection drops before the answer comes, the action is read
        back on a new connection: found, it was saved; missing, it is saved now.
        """
        stored = action_object(table_id, idx, seat, action)
        params = (
            idx,
            seat,
            dump_json(stored),
            None if actor is None else dump_json(dict(actor)),
            time_text(self._db.now()),
            table_id,
            idx,
        )
        try:
            added = await self._insert_action(params)
        except ConnectionLostError as lost:
            if not lost.unsure:
                raise
            added = await self._settle_lost_action(table_id, idx, stored, params, lost)
        if added != 1:
            await self._refuse_action(table_id, idx)
        return StoredAction(
            idx=idx, seat=seat, action=stored, actor=None if actor is None else dict(actor)
        )

    async def load_actions(self, table_id: int) -> list[StoredAction]:
        """The table's actions in order; NotFoundError if there is no such table."""
        rows = await self._db.fetch_all(
            "SELECT table_id, idx, seat, action, actor FROM table_actions "
            "WHERE table_id = ? ORDER BY idx",
            (table_id,),
        )
        if not rows:
            await self._header(table_id)
        return stored_actions(table_id, rows)

    # ------------------------------------------------------------------ helpers

    async def _insert_action(self, params: tuple[Any, ...]) -> int:
        """Insert one action; the number of rows inserted (0: refused, say why after)."""
        try:
            return len(await self._db.write_returning(_INSERT_ACTION, params))
        except ConstraintError:
            return 0  # the primary key's backstop

    async def _settle_lost_action(
        self,
        table_id: int,
        idx: int,
        stored: Mapping[str, Any],
        params: tuple[Any, ...],
        lost: ConnectionLostError,
    ) -> int:
        """After an insert's answer was lost: 1 if action ``idx`` is ``stored`` or is saved now."""
        try:
            row = await self._db.fetch_one(
                "SELECT seat, action FROM table_actions WHERE table_id = ? AND idx = ?",
                (table_id, idx),
            )
        except ConnectionLostError:
            raise lost from None  # still unreachable: whether it was saved stays unknown
        where = f"table {table_id} action {idx}"
        if row is None:
            log.info("%s was not saved before the connection dropped: saving it now", where)
            return await self._insert_action(params)
        same = int(row["seat"]) == stored["seat"] and load_json(row["action"], where) == stored
        if same:
            log.info("%s was saved before the connection dropped", where)
        return 1 if same else 0

    async def _refuse_action(self, table_id: int, idx: int) -> NoReturn:
        row = await self._db.fetch_one(
            "SELECT t.status, (SELECT COALESCE(MAX(a.idx) + 1, 0) FROM table_actions a "
            "WHERE a.table_id = t.id) AS next_idx FROM tables t WHERE t.id = ?",
            (table_id,),
        )
        if row is None:
            raise NotFoundError(f"there is no table {table_id}")
        if row["status"] != "playing":
            raise TableStateError(
                f"table {table_id} is {row['status']}: actions are saved only while playing"
            )
        expected = int(row["next_idx"])
        if idx < expected:
            raise DuplicateActionError(
                f"table {table_id} already has action {idx} (the next one is {expected})",
                table_id=table_id,
                index=idx,
                expected=expected,
            )
        raise ActionIndexError(
            f"table {table_id}: action {idx} would leave a gap (the next one is {expected})",
            table_id=table_id,
            index=idx,
            expected=expected,
        )

    async def _header(self, table_id: int) -> StoredTable:
        """The table without seats and actions."""
        row = await self._db.fetch_one(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        if row is None:
            raise NotFoundError(f"there is no table {table_id}")
        return stored_table(row, [], [])

    async def _insert_seats(self, table_id: int, seats: Sequence[Seat]) -> None:
        if not seats:
            return
        try:
            await self._db.execute_many(
                f"INSERT INTO table_seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        table_id,
                        s.seat,
                        s.user_id,
                        s.is_computer,
                        s.computer_level,
                        s.display_name,
                        s.away,
                    )
                    for s in seats
                ],
            )
        except ConstraintError as exc:
            raise InvalidRecordError(f"table {table_id}: seats do not fit ({exc})") from exc

    async def _touch(self, table_id: int) -> None:
        await self._db.execute(
            "UPDATE tables SET updated_at = ? WHERE id = ?",
            (time_text(self._db.now()), table_id),
        )
