"""A table's rows as the store keeps them, checked on the way in and built on the way out.

What :class:`~bot.store.tables.TableRepo` writes is checked here first (seats, the
start of the record, each action as the record format has it), and what it reads is
built here into :class:`~bot.store.models.StoredTable` and its actions; a row that does
not make one is :class:`~bot.store.errors.CorruptDataError`. No SQL: the repository
runs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.rules import ActionError, HouseRules, RecordError, action_from_json, parse_record
from bot.store._codec import build, load_json, load_rules, row_dict
from bot.store.database import Row
from bot.store.errors import CorruptDataError, InvalidRecordError
from bot.store.models import Seat, StoredAction, StoredTable

__all__ = [
    "action_object",
    "assembled",
    "check_record_start",
    "check_seats",
    "deal_list",
    "place_taken",
    "stored_actions",
    "stored_table",
]

_MOST_SEATS: Final = 8
"""The largest table (Bid Euchre for eight); the schema checks the same bound."""


def place_taken(channel_id: int, thread_id: int | None, table_id: int | None) -> str:
    place = f"thread {thread_id}" if thread_id is not None else f"channel {channel_id}"
    which = f"table {table_id}" if table_id is not None else "a table"
    return f"{place} already has an open {which}"


def check_seats(rules: HouseRules, seats: Sequence[Seat]) -> None:
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise InvalidRecordError(f"a seat is given twice: {sorted(numbers)}")
    too_far = [n for n in numbers if n >= rules.players]
    if too_far:
        raise InvalidRecordError(f"seat {too_far[0]} is not at a {rules.players}-seat table")
    people = [s.user_id for s in seats if s.user_id is not None]
    if len(set(people)) != len(people):
        raise InvalidRecordError("one person cannot take two seats")


def check_record_start(
    rules: HouseRules, seed: int, dealer: int | None, deals: list[dict[str, Any]] | None
) -> None:
    """Check that rules, seed, first dealer and deals make the start of a valid record."""
    if not 0 <= seed < 2**63:
        raise InvalidRecordError(f"seed {seed} is out of range (0 to 2**63 - 1)")
    doc: dict[str, Any] = {"format": 1, "rules": rules.to_spec(), "seed": seed, "dealer": dealer}
    if deals is not None:
        doc["deals"] = deals
    try:
        parse_record(doc)
    except RecordError as exc:
        raise InvalidRecordError(str(exc)) from None


def action_object(table_id: int, idx: int, seat: int, action: Mapping[str, Any]) -> dict[str, Any]:
    """The action as stored: the record-format object with ``seat`` first, checked."""
    where = f"table {table_id} action {idx}"
    if idx < 0:
        raise InvalidRecordError(f"{where}: the index must be 0 or more")
    if "seat" in action and action["seat"] != seat:
        raise InvalidRecordError(f"{where}: seat {seat} but the action says {action['seat']}")
    stored = {"seat": seat, **{k: v for k, v in action.items() if k != "seat"}}
    try:
        action_from_json(stored)
    except ActionError as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None
    if not 0 <= seat < _MOST_SEATS:
        raise InvalidRecordError(f"{where}: seat {seat} does not exist")
    return stored


def deal_list(table: StoredTable) -> list[dict[str, Any]] | None:
    return None if table.deals is None else [dict(d) for d in table.deals]


def stored_actions(table_id: int, rows: Sequence[Row]) -> list[StoredAction]:
    out = []
    for row in rows:
        where = f"table {table_id} action {row['idx']}"
        obj = load_json(row["action"], where)
        if not isinstance(obj, dict):
            raise CorruptDataError(f"{where}: not a JSON object")
        actor = None if row["actor"] is None else load_json(row["actor"], f"{where} actor")
        if actor is not None and not isinstance(actor, dict):
            raise CorruptDataError(f"{where}: its actor is not a JSON object")
        fields = {"idx": row["idx"], "seat": row["seat"], "action": obj, "actor": actor}
        out.append(build(StoredAction, where, fields))
    return out


def assembled(
    rows: Sequence[Row], seats: Sequence[Row], actions: Sequence[Row]
) -> list[StoredTable]:
    """Tables from their rows, with the seats and actions read for all of them at once."""
    seats_of: dict[int, list[Row]] = {}
    for seat in seats:
        seats_of.setdefault(int(seat["table_id"]), []).append(seat)
    actions_of: dict[int, list[Row]] = {}
    for action in actions:
        actions_of.setdefault(int(action["table_id"]), []).append(action)
    return [
        stored_table(row, seats_of.get(int(row["id"]), []), actions_of.get(int(row["id"]), []))
        for row in rows
    ]


def stored_table(row: Row, seats: Sequence[Row], actions: Sequence[Row]) -> StoredTable:
    fields = row_dict(row)
    table_id = int(fields["id"])
    where = f"table {table_id}"
    fields["rules"] = load_rules(fields["rules"], where)
    if fields["deals"] is not None:
        deals = load_json(fields["deals"], f"{where} deals")
        if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
            raise CorruptDataError(f"{where}: the stored deals are not a list of objects")
        fields["deals"] = deals
    fields["seats"] = [
        build(Seat, f"{where} seat {s['seat']}", without(row_dict(s), "table_id")) for s in seats
    ]
    fields["actions"] = stored_actions(table_id, actions)
    return build(StoredTable, where, fields)


def without(fields: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if k != key}
