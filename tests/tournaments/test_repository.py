"""Tournament events in the store: saved whole after each change, reloaded as they were.

Each test runs on SQLite and on PostgreSQL (the ``postgresql`` runs are marked by
tests/conftest.py). Closing the database and opening it again stands for a kill: every
save is one transaction, so a kill leaves the event as its last save did.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.rules import HouseRules
from bot.store import ConstraintError, Database, NotFoundError, OpenEventExistsError
from bot.tournaments import (
    Actor,
    ChannelBusyError,
    Tournament,
    create_event,
    export_event,
    load_event,
    open_events,
    save_event,
)
from bot.tournaments.model import ChampionRole, EventGame, EventSettings, ScheduledEventLink
from bot.tournaments.repository import TournamentRepo
from tests.store.conftest import CHANNEL, GUILD, build_at_version, playing_table, write_rows

NOW = datetime(2026, 5, 1, 19, 0, tzinfo=UTC)
DIRECTOR = Actor(4_000_000_000_000_004, is_director=True)
PEOPLE = [5_000_000_000_000_000 + i for i in range(6)]


def new_event(channel_id: int = CHANNEL, guild_id: int = GUILD, **settings: object) -> Tournament:
    return Tournament.create(
        guild_id=guild_id,
        channel_id=channel_id,
        director_id=DIRECTOR.user_id,
        name="Friday night",
        now=NOW,
        settings=EventSettings.model_validate(settings),
        seed=5,
    )


async def reloaded(db_url: str, event: Tournament) -> Tournament:
    """The event as a bot started afresh on the same database finds it."""
    assert event.state.id is not None
    async with await Database.open(db_url) as db:
        found = await load_event(TournamentRepo(db), event.state.id)
    assert found.state == event.state
    return found


async def test_an_event_reloads_whole_after_a_kill_at_every_phase(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        event = await create_event(repo, new_event(rounds=2, deals_per_round=2))
        for i, user in enumerate(PEOPLE):
            event.join(user, f"Player {i}", NOW)
            await save_event(repo, event)
    event = await reloaded(db_url, event)  # sign-up
    assert event.phase == "signup" and len(event.state.entrants) == 6

    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        event.open_check_in(None, NOW)
        for user in PEOPLE[:5]:
            event.check_in(user, NOW)
        await save_event(repo, event)
    event = await reloaded(db_url, event)  # check-in
    assert event.phase == "checkin"

    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        table_id = await playing_table(db)
        event.start(DIRECTOR, NOW)
        event.set_table_id(1, 1, table_id, NOW)
        event.report(1, 1, [(1, 0), (0, 2)], NOW, finished=True)
        event.report(1, 2, [(4, 0)], NOW, finished=False)
        await save_event(repo, event)
    event = await reloaded(db_url, event)  # mid-round
    assert event.phase == "playing" and event.state.schedule is not None
    current = event.current_round
    assert current is not None and current.tables[0].table_id == table_id

    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        event.end_round(None, NOW + timedelta(minutes=45))
        event.pause(DIRECTOR, NOW)
        await save_event(repo, event)
    event = await reloaded(db_url, event)  # between rounds, paused
    assert event.phase == "between_rounds" and event.state.paused

    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        event.resume(DIRECTOR, NOW)
        event.next_round(DIRECTOR, NOW)
        event.skip(DIRECTOR, PEOPLE[0], NOW)
        current = event.current_round
        assert current is not None
        for table in current.tables:
            event.report(2, table.number, [(0, 1), (1, 0)], NOW, finished=True)
        await save_event(repo, event)
    event = await reloaded(db_url, event)  # finished
    assert event.phase == "finished" and event.champions()
    assert export_event(event.state)["standings"] == export_event(event.state)["standings"]


async def test_one_open_event_per_channel(db: Database) -> None:
    repo = TournamentRepo(db)
    first = await create_event(repo, new_event())
    with pytest.raises(ChannelBusyError, match="already has an event"):
        await create_event(repo, new_event())
    with pytest.raises(OpenEventExistsError):
        await repo.create(new_event().state)
    elsewhere = await create_event(repo, new_event(channel_id=CHANNEL + 1))
    assert await repo.open_in_channel(CHANNEL) == first.state
    first.cancel(DIRECTOR, NOW)
    await save_event(repo, first)
    assert await repo.open_in_channel(CHANNEL) is None
    again = await create_event(repo, new_event())
    assert [e.state.id for e in await open_events(repo, GUILD)] == [
        elsewhere.state.id,
        again.state.id,
    ]
    assert [e.id for e in await repo.list_by_guild(GUILD)] == [
        again.state.id,
        elsewhere.state.id,
        first.state.id,
    ]
    assert await repo.open_events(GUILD + 1) == []
    # a cancelled event brought back to life in a busy channel is refused, nothing saved
    revived = first.state.model_copy(update={"phase": "signup"})
    with pytest.raises(OpenEventExistsError):
        await repo.save(revived)
    assert (await repo.get(first.state.id or 0)).phase == "cancelled"


async def test_a_failed_save_leaves_the_last_saved_event(db: Database) -> None:
    repo = TournamentRepo(db)
    event = await create_event(repo, new_event())
    for user in PEOPLE[:4]:
        event.join(user, str(user), NOW)
    event.start(DIRECTOR, NOW)
    await save_event(repo, event)
    saved = event.state
    event.set_table_id(1, 1, 987_654, NOW)  # no such table: the foreign key refuses it
    event.report(1, 1, [(1, 0)], NOW, finished=False)
    with pytest.raises(ConstraintError):
        await save_event(repo, event)
    assert await repo.get(saved.id or 0) == saved


async def test_the_parts_of_an_event_are_read_on_their_own(db: Database) -> None:
    repo = TournamentRepo(db)
    event = await create_event(repo, new_event(format="pairs", rules="toronto"))
    event.join(PEOPLE[0], "Ann", NOW, partner_id=PEOPLE[1], partner_name="Bob")
    event.confirm_partner(PEOPLE[1], NOW)
    event.join(PEOPLE[2], "Cid", NOW, partner_id=PEOPLE[3], partner_name="Dee")
    event.confirm_partner(PEOPLE[3], NOW)
    event.start(DIRECTOR, NOW)
    event.report(1, 1, [(2, 0)], NOW, finished=False)
    await save_event(repo, event)
    event_id = event.state.id
    assert event_id is not None
    state = await repo.get(event_id)
    assert state.settings.rules == HouseRules.preset_rules("toronto")
    assert [e.display_name for e in await repo.entrants(event_id)] == ["Ann", "Bob", "Cid", "Dee"]
    rounds = await repo.rounds(event_id)
    assert [r.number for r in rounds] == [1] and rounds[0].ended_at is None
    tables = await repo.tables(event_id, 1)
    assert len(tables) == 1 and tables[0].table_id is None
    results = await repo.results(event_id, 1)
    assert results[1].deals == [(2, 0)] and not results[1].finished
    table_id = await playing_table(db)
    await repo.set_table_id(event_id, 1, 1, table_id)
    assert (await repo.tables(event_id, 1))[0].table_id == table_id
    with pytest.raises(NotFoundError, match="no table 2"):
        await repo.set_table_id(event_id, 1, 2, table_id)


async def test_unknown_events_and_misuse_are_clear(db: Database) -> None:
    repo = TournamentRepo(db)
    with pytest.raises(NotFoundError, match="no tournament 77"):
        await repo.get(77)
    with pytest.raises(NotFoundError, match="no tournament 77"):
        await repo.save(new_event().state.model_copy(update={"id": 77}))
    with pytest.raises(ValueError, match="create"):
        await repo.save(new_event().state)
    saved = await repo.create(new_event().state)
    with pytest.raises(ValueError, match="already saved"):
        await repo.create(saved)


async def test_the_event_message_is_kept_apart_from_the_event(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        event = await create_event(repo, new_event())
        await create_event(repo, new_event(channel_id=CHANNEL + 1))  # no message noted
        ended = await create_event(repo, new_event(channel_id=CHANNEL + 2))
        assert event.state.id is not None and ended.state.id is not None
        assert await repo.open_message_ids() == {}
        await repo.set_message_id(event.state.id, 9_000_000_000_000_001)
        await repo.set_message_id(ended.state.id, 9_000_000_000_000_002)
        ended.cancel(DIRECTOR, NOW)
        await save_event(repo, ended)
        event.join(PEOPLE[0], "Player 0", NOW)
        await save_event(repo, event)  # saving the event leaves its message
        with pytest.raises(NotFoundError):
            await repo.set_message_id(event.state.id + 99, 1)
    async with await Database.open(db_url) as db:
        found = await TournamentRepo(db).open_message_ids()
    assert found == {event.state.id: 9_000_000_000_000_001}, "open events only"


async def test_champion_roles_are_noted_with_the_finished_event_until_taken_back(
    db: Database,
) -> None:
    repo = TournamentRepo(db)
    event = await create_event(repo, new_event(champion_role_id=77))
    assert event.state.id is not None
    later, sooner = NOW + timedelta(days=7), NOW + timedelta(days=1)
    roles = [
        ChampionRole(
            tournament_id=event.state.id,
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=person,
            role_id=77,
            expires_at=expires,
        )
        for person, expires in ((PEOPLE[0], later), (PEOPLE[1], sooner))
    ]
    await repo.save(event.state, champion_roles=roles)
    assert await repo.champion_roles() == [roles[1], roles[0]], "by expiry"
    assert await repo.champion_roles([GUILD]) == [roles[1], roles[0]]
    assert await repo.champion_roles([GUILD + 1]) == []
    assert await repo.champion_roles([]) == []
    await repo.champion_role_given(event.state.id, PEOPLE[0])
    await repo.save(event.state, champion_roles=roles)  # noted already: stays as it is
    given = await repo.champion_roles()
    assert [(r.user_id, r.given) for r in given] == [(PEOPLE[1], False), (PEOPLE[0], True)]
    assert given[1].expires_at == later
    await repo.champion_role_done(event.state.id, PEOPLE[1])
    await repo.champion_role_done(event.state.id, PEOPLE[1])  # twice changes nothing
    assert [r.user_id for r in await repo.champion_roles()] == [PEOPLE[0]]


async def test_a_rated_events_tables_are_held_until_it_is_over(db: Database) -> None:
    repo = TournamentRepo(db)
    rated = await create_event(repo, new_event(rated=True, rounds=1, deals_per_round=1))
    casual = await create_event(repo, new_event(channel_id=CHANNEL + 1))
    tables = {}
    for event, channel in ((rated, CHANNEL), (casual, CHANNEL + 1)):
        for user in PEOPLE[:4]:
            event.join(user, str(user), NOW)
        event.start(DIRECTOR, NOW)
        tables[channel] = await playing_table(db, channel_id=channel)
        event.set_table_id(1, 1, tables[channel], NOW)
        await save_event(repo, event)
    found = await repo.table_events([tables[CHANNEL], tables[CHANNEL + 1], 987_654])
    assert found == {
        tables[CHANNEL]: EventGame(rated=True, phase="playing"),
        tables[CHANNEL + 1]: EventGame(rated=False, phase="playing"),
    }, "a table of no event is not in the answer"
    assert found[tables[CHANNEL]].held and not found[tables[CHANNEL + 1]].held
    assert await repo.table_events([]) == {}
    rated.report(1, 1, [(1, 0)], NOW, finished=True)
    await save_event(repo, rated)
    after = await repo.table_events([tables[CHANNEL]])
    assert after[tables[CHANNEL]].phase == "finished" and not after[tables[CHANNEL]].held
    casual.cancel(DIRECTOR, NOW)
    await save_event(repo, casual)
    assert (await repo.table_events([tables[CHANNEL + 1]]))[tables[CHANNEL + 1]].phase == (
        "cancelled"
    )


async def test_the_waiting_list_is_kept_in_its_order_and_moves_up_after_a_kill(
    db_url: str,
) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        event = await create_event(repo, new_event(max_players=4))
        for n, user in enumerate(PEOPLE):
            event.join(user, f"P{n}", NOW)
        await save_event(repo, event)
        assert event.state.id is not None
        waiting = await repo.entrants(event.state.id, waiting=True)
        assert [e.user_id for e in waiting] == PEOPLE[4:]
    found = await reloaded(db_url, event)
    assert found.state.settings.max_players == 4
    assert [e.user_id for e in found.state.waiting] == PEOPLE[4:]
    found.leave(PEOPLE[0], NOW)
    async with await Database.open(db_url) as db:
        await save_event(TournamentRepo(db), found)
    again = await reloaded(db_url, found)
    assert [e.user_id for e in again.state.entrants] == [*PEOPLE[1:4], PEOPLE[4]]
    assert [e.user_id for e in again.state.waiting] == [PEOPLE[5]]


def old_event_row(event_id: int, name: str) -> tuple[str, dict[str, object]]:
    """A progressive event in sign-up as an older schema wrote it."""
    return (
        "tournaments",
        {
            "id": event_id,
            "guild_id": GUILD,
            "channel_id": CHANNEL,
            "director_id": DIRECTOR.user_id,
            "name": name,
            "settings": '{"format": "progressive"}',
            "seed": 1,
            "phase": "signup",
            "paused": False,
            "schedule": None,
            "created_at": NOW.isoformat(),
            "updated_at": NOW.isoformat(),
        },
    )


async def test_an_event_stored_before_the_waiting_list_comes_back_with_none(db_url: str) -> None:
    await build_at_version(db_url, 23)
    rows = [
        old_event_row(7, "Before the list"),
        *(
            (
                "tournament_entrants",
                {
                    "tournament_id": 7,
                    "number": n,
                    "user_id": user,
                    "display_name": f"P{n}",
                    "partner_id": None,
                    "confirmed": True,
                    "checked_in": False,
                    "slot": None,
                    "replaced_in_round": None,
                },
            )
            for n, user in enumerate(PEOPLE[:3])
        ),
    ]
    await write_rows(db_url, rows)
    async with await Database.open(db_url) as db:  # schema 24 on the way
        event = await TournamentRepo(db).get(7)
    assert [e.user_id for e in event.entrants] == PEOPLE[:3]
    assert event.waiting == [] and event.settings.max_players == 64


async def test_an_event_stored_before_schema_25_has_no_outreach_and_nobody_late(
    db_url: str,
) -> None:
    await build_at_version(db_url, 24)
    rows = [
        old_event_row(8, "Before the announcements"),
        (
            "tournament_entrants",
            {
                "tournament_id": 8,
                "number": 0,
                "user_id": PEOPLE[0],
                "display_name": "P0",
                "partner_id": None,
                "confirmed": True,
                "checked_in": False,
                "slot": None,
                "replaced_in_round": None,
                "waiting": False,
            },
        ),
    ]
    await write_rows(db_url, rows)
    async with await Database.open(db_url) as db:  # schema 25 on the way
        repo = TournamentRepo(db)
        event = await repo.get(8)
        assert [e.joined_in_round for e in event.entrants] == [None]
        assert await repo.outreach.scheduled_event(8) is None
        assert await repo.outreach.announced([8]) == {8: set()}
        assert await repo.outreach.unsettled_scheduled_events() == []


async def test_announcements_and_the_scheduled_event_are_kept(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        made = await repo.create(
            Tournament.create(
                guild_id=GUILD, channel_id=CHANNEL, director_id=1, name="Kept", now=NOW
            ).state
        )
        assert made.id is not None
        await repo.outreach.mark_announced(made.id, "checkin", NOW)
        await repo.outreach.mark_announced(made.id, "checkin", NOW)  # twice: noted once
        link = ScheduledEventLink(
            tournament_id=made.id, scheduled_id=2**62, status="scheduled", start=NOW
        )
        await repo.outreach.set_scheduled_event(link)
    async with await Database.open(db_url) as db:
        repo = TournamentRepo(db)
        assert await repo.outreach.announced([made.id]) == {made.id: {"checkin"}}
        assert await repo.outreach.scheduled_event(made.id) == link
        assert await repo.outreach.unsettled_scheduled_events([GUILD]) == [link]
        await repo.outreach.set_scheduled_event(link.model_copy(update={"status": "gone"}))
        assert await repo.outreach.unsettled_scheduled_events() == []
