"""What a table event carries: a frozen snapshot of the table, never the table itself."""

from __future__ import annotations

import dataclasses
import random

import pydantic
import pytest

from bot.players import make_player
from bot.rules import SeatView
from bot.server.preference_sources import MemoryPreferences
from bot.tables import MemoryTableStore, MoveMade, TableEvent, TableService, TableSnapshot
from tests.tables.util import ALICE, BOB, HERE, started


def everyone_claims(view: SeatView) -> bool:
    return True


async def played(humans: int = 2) -> tuple[TableService, list[TableEvent], MemoryPreferences]:
    """A table of ``humans`` people and computers, a few moves into its game, and its events."""
    preferences = MemoryPreferences()
    await preferences.update(ALICE.user_id, four_colour=True)
    tables = TableService(
        MemoryTableStore(),
        make_player,
        seeds=lambda: 8,
        preferences=preferences,
        claims=everyone_claims,
    )
    heard: list[TableEvent] = []
    tables.listeners.append(heard.append)
    table = await started(tables, people=humans)
    rng = random.Random(2)
    for _ in range(6):
        await tables.get_any(table.id).turns.run_computers()
        assert table.game is not None
        user = next(u for u in table.humans if table.seat_of(u) == table.game.turn)
        seat, view = tables.get_any(table.id).view_for(user)
        await (await tables.fetch(table.id)).turns.act(
            user, seat, table.stamp, rng.choice(view.legal)
        )
    return tables, heard, preferences


async def test_a_snapshot_cannot_be_changed() -> None:
    _, heard, _ = await played()
    snapshot = next(e.snapshot for e in heard if isinstance(e, MoveMade))
    person = snapshot.seats[0]
    assert isinstance(snapshot.seats, tuple) and isinstance(snapshot.public.seats, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.stamp = (9, 9)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.public.status = "aborted"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        person.claim = False  # type: ignore[misc]
    assert person.view is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        person.view.hand = ()  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        person.preferences.four_colour = False  # type: ignore[misc]


async def test_a_snapshot_stays_as_the_table_was_when_it_was_told() -> None:
    tables, heard, _ = await played()
    table = tables.get(heard[-1].snapshot.id)
    moves = [e for e in heard if isinstance(e, MoveMade)]
    stamps = [e.snapshot.stamp for e in moves]
    assert [index for _, index in stamps] == [m.move.index + 1 for m in moves]
    assert stamps[-1] == table.stamp and len(set(stamps)) == len(stamps)
    versions = [e.snapshot.version for e in heard]
    assert versions == sorted(versions), "each snapshot is newer than the one told before"


async def test_each_person_gets_their_own_view_preferences_and_claim() -> None:
    tables, heard, _ = await played()
    snapshot: TableSnapshot = heard[-1].snapshot
    table = tables.get(snapshot.id)
    assert [p.user_id for p in snapshot.seats] == table.humans == [ALICE.user_id, BOB.user_id]
    for person in snapshot.seats:
        _, view = table.view_for(person.user_id)
        assert person.view == view and person.seat == table.seat_of(person.user_id)
        assert person.claim, "the service's claim check decides the offer"
        assert person.hint == (table.hints_allowed and view.my_turn)
    alice, bob = (snapshot.person(u) for u in (ALICE.user_id, BOB.user_id))
    assert alice is not None and alice.four_colour
    assert bob is not None and not bob.four_colour
    assert snapshot.public == table.public() and snapshot.to_act in (None, *table.humans)


async def test_a_lobby_snapshot_has_no_hands() -> None:
    tables = TableService(MemoryTableStore(), make_player)
    heard: list[TableEvent] = []
    tables.listeners.append(heard.append)
    table = await tables.open(HERE, ALICE)
    await (await tables.fetch(table.id)).lobby.join(BOB)
    (person, other) = heard[-1].snapshot.seats
    assert person.view is None and other.view is None
    assert not person.claim and not person.hint
