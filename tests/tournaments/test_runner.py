"""The tournament runner without Discord: whole events on a manual clock, and restarts.

The tests taking ``db_url`` run on SQLite and on PostgreSQL (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.league import LeagueService
from bot.players import make_player
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.store import Database, GameArchiveRepo
from bot.tables import Place, Player, TableService, TableSnapshot
from bot.tables.database import DatabaseTableStore
from bot.tables.scheduler import ManualScheduler
from bot.tournaments import (
    Actor,
    ChannelBusyError,
    EventStateError,
    NotDirectorError,
    SignUpError,
    TooFewPlayersError,
    Tournament,
)
from bot.tournaments.model import EventRound, EventSettings, RoundTable, TournamentEvent
from bot.tournaments.repository import TournamentRepo
from bot.tournaments.runner import TournamentRunner
from bot.tournaments.running import EventChanged

GUILD, CHANNEL, DIRECTOR = 1, 10, 99
EPOCH = datetime(2030, 5, 1, 19, 0, tzinfo=UTC)
PEOPLE = [Player(200 + i, f"Member {i}") for i in range(8)]
SHORT = EventSettings(rounds=3, deals_per_round=2, check_in_minutes=0, round_timer_minutes=None)


class Bench:
    """A table service and a runner on one database, a manual clock, and simulated members."""

    def __init__(self, db: Database, clock: ManualScheduler) -> None:
        self.db = db
        self.clock = clock
        self.tables = TableService(
            DatabaseTableStore(db),
            make_player,
            server_settings=FixedSettings(ServerSettings(allow_hints=False)),
            seeds=itertools.count(7).__next__,
        )
        self.league = LeagueService(db)
        self.tables.listeners.append(self.league.on_table_event)
        self.threads = itertools.count(5000 + 1000 * len(_starts))
        _starts.append(1)
        self.runner = TournamentRunner(
            TournamentRepo(db), self.tables, clock, self.place, clock=self.now
        )
        self.changes: list[EventChanged] = []
        self.runner.listeners.append(self.changes.append)
        self.runner.listeners.append(self.league.on_tournament_change)

    def now(self) -> datetime:
        return EPOCH + timedelta(seconds=self.clock.now())

    async def place(self, event: TournamentEvent, rnd: EventRound, table: RoundTable) -> Place:
        return Place(event.guild_id, event.channel_id, next(self.threads))

    async def create(self, settings: EventSettings = SHORT, **kw: int) -> int:
        event = Tournament.create(
            guild_id=GUILD,
            channel_id=kw.get("channel", CHANNEL),
            director_id=DIRECTOR,
            name="Friday night",
            now=self.now(),
            settings=settings,
            seed=3,
        )
        saved = await self.runner.create(event)
        assert saved.state.id is not None
        return saved.state.id

    async def started(self, settings: EventSettings = SHORT) -> int:
        """An event that all of ``PEOPLE`` joined, started by its director: its id."""
        event_id = await self.create(settings)
        await join_all(self, event_id)
        await self.runner.start(event_id, Actor(DIRECTOR))
        return event_id

    async def play(self, event_id: int, *, moves: int | None = None) -> int:
        """Members play their turns (the first legal action) until the round ends; moves made."""
        made = 0
        while moves is None or made < moves:
            await self.tables.settle()
            await self.runner.settle()
            event = await self.runner.load(event_id)
            rnd = event.current_round
            if event.phase != "playing" or rnd is None:
                return made
            acted = False
            for round_table in rnd.tables:
                if round_table.table_id is None:
                    continue
                table = self.tables.open_tables and next(
                    (t for t in self.tables.open_tables if t.id == round_table.table_id), None
                )
                if not table or table.game is None or table.game.turn is None:
                    continue
                seat = table.seats[table.game.turn]
                if seat is None or seat.user_id is None:
                    continue
                action = table.game.legal()[0]
                await (await self.tables.fetch(table.id)).turns.act(
                    seat.user_id, table.game.turn, table.stamp, action
                )
                made += 1
                acted = True
                if moves is not None and made >= moves:
                    break
            if not acted:
                await self.tables.settle()
                await self.runner.settle()
                if (await self.runner.load(event_id)).phase == "playing" and not self._computing():
                    raise AssertionError("nobody can move and the round does not end")
        return made

    def _computing(self) -> bool:
        return any(t.turns.computing for t in self.tables.open_tables)

    async def stop(self) -> None:
        self.tables.halt()
        await self.tables.settle()
        await self.runner.settle()
        self.runner.close()


_starts: list[int] = []


@contextlib.asynccontextmanager
async def bench_on(path: Path, now: float = 0.0) -> AsyncIterator[Bench]:
    """A bench on the SQLite database at ``path`` (made if new), its clock at ``now``."""
    async with await Database.open(path) as db:
        yield Bench(db, ManualScheduler(now))


@pytest.fixture
async def bench(tmp_path: Path) -> AsyncIterator[Bench]:
    """A bench on a new SQLite database, its clock at 0."""
    async with bench_on(tmp_path / "t.sqlite3") as bench:
        yield bench


def timed(start_in: int, rounds: int = 1, deals: int = 1, **timers: int | None) -> EventSettings:
    """An event starting ``start_in`` minutes after the clock's 0, with 10 minutes of check-in."""
    return EventSettings(
        rounds=rounds,
        deals_per_round=deals,
        start_time=EPOCH + timedelta(minutes=start_in),
        check_in_minutes=10,
        **timers,
    )


async def join_all(bench: Bench, event_id: int, people: list[Player] = PEOPLE) -> None:
    for person in people:
        await bench.runner.join(event_id, person)


@pytest.mark.asyncio
async def test_a_progressive_event_plays_to_its_champion(bench: Bench) -> None:
    event_id = await bench.started()
    for number in (1, 2, 3):
        assert bench.runner.get(event_id).current_round.number == number  # type: ignore[union-attr]
        await bench.play(event_id)
        if number < 3:
            assert bench.runner.get(event_id).phase == "between_rounds"
            await bench.runner.next_round(event_id, Actor(DIRECTOR))
    await bench.stop()
    event = await bench.runner.load(event_id)
    assert event.phase == "finished"
    assert all(
        t.result is not None and t.result.finished and len(t.result.deals) == 2
        for rnd in event.state.rounds
        for t in rnd.tables
    )
    assert event.champions()
    kinds = [c.kind for c in bench.changes]
    assert kinds.count("round") == 3 and kinds[-1] == "finished"
    archived = await GameArchiveRepo(bench.db).list_by_guild(GUILD, limit=50)
    assert len(archived) == 6
    # Not rated: the league takes the games in as casual.
    await bench.league.take_in(GUILD)
    assert not any(g.ranked for g in await GameArchiveRepo(bench.db).list_by_guild(GUILD, limit=50))


@pytest.mark.asyncio
async def test_a_round_is_told_with_its_tables_frozen(bench: Bench) -> None:
    event_id = await bench.started()
    (told,) = [c for c in bench.changes if c.kind == "round"]
    rnd = told.event.rounds[-1]
    assert [t.id for t in told.tables] == [t.table_id for t in rnd.tables]
    assert all(isinstance(t, TableSnapshot) and t.status == "playing" for t in told.tables)
    # The change holds its own copy of the event: what happens next leaves it as told.
    await bench.play(event_id)
    assert told.event.rounds[-1].tables[0].result is None
    assert bench.runner.get(event_id).state.rounds[-1].tables[0].result is not None


@pytest.mark.asyncio
async def test_a_rated_event_ranks_its_games(bench: Bench) -> None:
    event_id = await bench.started(SHORT.model_copy(update={"rounds": 1, "rated": True}))
    await bench.play(event_id)
    await bench.stop()
    await bench.league.take_in(GUILD)
    games = await GameArchiveRepo(bench.db).list_by_guild(GUILD, limit=50)
    assert len(games) == 2 and all(g.ranked for g in games)


async def rated_rows(db: Database) -> int:
    row = await db.fetch_one("SELECT COUNT(*) AS n FROM league_rating_points")
    assert row is not None
    return int(row["n"])


@pytest.mark.asyncio
async def test_a_rated_event_rates_its_games_only_once_it_finishes(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        bench = Bench(db, ManualScheduler())
        event_id = await bench.started(SHORT.model_copy(update={"rounds": 2, "rated": True}))
        await bench.play(event_id)
        await bench.tables.settle()
        assert await bench.league.take_in(GUILD) == 0, "held while the event goes on"
        assert len(await GameArchiveRepo(db).pending(GUILD)) == 2
        assert await rated_rows(db) == 0
        await bench.stop()
    async with await Database.open(db_url) as db:  # held across a restart too
        bench = Bench(db, ManualScheduler())
        await bench.tables.restore()
        await bench.runner.resume()
        assert await bench.league.take_in(GUILD) == 0
        await bench.runner.next_round(event_id, Actor(DIRECTOR))
        await bench.play(event_id)
        await bench.stop()
        await bench.league.take_in(GUILD)
        assert (await bench.runner.load(event_id)).phase == "finished"
        games = await GameArchiveRepo(db).list_by_guild(GUILD, limit=50)
        assert len(games) == 4 and all(g.ranked for g in games)
        assert await GameArchiveRepo(db).pending(GUILD) == []
        assert await rated_rows(db) == 16, "four people in each of four games"


@pytest.mark.asyncio
async def test_a_cancelled_rated_event_changes_no_rating(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        bench = Bench(db, ManualScheduler())
        event_id = await bench.started(SHORT.model_copy(update={"rounds": 2, "rated": True}))
        await bench.play(event_id)  # round 1 played out: its two games archived
        await bench.runner.cancel(event_id, Actor(DIRECTOR))
        await bench.stop()
        await bench.league.take_in(GUILD)
        games = await GameArchiveRepo(db).list_by_guild(GUILD, limit=50)
        assert len(games) == 2, "the games stay in the archive, replayable"
        assert not any(g.ranked for g in games)
        assert await GameArchiveRepo(db).pending(GUILD) == []
        assert await rated_rows(db) == 0


@pytest.mark.asyncio
async def test_killed_mid_round_the_event_goes_on_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    async with bench_on(path) as first:
        event_id = await first.started()
        await first.play(event_id)
        await first.runner.next_round(event_id, Actor(DIRECTOR))
        await first.play(event_id, moves=15)  # round 2, some deals in
        before = (await first.runner.load(event_id)).state
        await first.stop()
    async with bench_on(path) as second:
        await second.tables.restore()
        resumed = await second.runner.resume()
        assert [e.state.id for e in resumed] == [event_id]
        again = second.runner.get(event_id).state
        assert again.rounds[:1] == before.rounds[:1]
        assert [t.table_id for t in again.rounds[1].tables] == [
            t.table_id for t in before.rounds[1].tables
        ]
        for round_table in again.rounds[1].tables:
            assert round_table.table_id is not None
            await second.tables.get_any(round_table.table_id).turns.resume()
        await second.play(event_id)
        await second.runner.next_round(event_id, Actor(DIRECTOR))
        await second.play(event_id)
        await second.stop()
        event = await second.runner.load(event_id)
        assert event.phase == "finished" and event.champions()
        assert len(await GameArchiveRepo(second.db).list_by_guild(GUILD, limit=50)) == 6


@pytest.mark.asyncio
async def test_timers_open_check_in_start_end_rounds_and_break(bench: Bench) -> None:
    clock = bench.clock
    settings = timed(30, rounds=2, deals=2, round_timer_minutes=20, break_minutes=5)
    event_id = await bench.create(settings)
    await join_all(bench, event_id, PEOPLE[:5])
    await clock.advance(20 * 60)
    assert bench.runner.get(event_id).phase == "checkin"
    for person in PEOPLE[:4]:
        await bench.runner.check_in(event_id, person.user_id)
    await clock.advance(10 * 60)
    event = bench.runner.get(event_id)
    assert event.phase == "playing"
    assert event.entrant(PEOPLE[4].user_id) is None  # did not check in
    await bench.play(event_id, moves=3)
    await clock.advance(20 * 60)  # the round timer: unfinished deals don't count
    event = bench.runner.get(event_id)
    assert event.phase == "between_rounds" and event.state.rounds[0].ended_by_timer
    assert not bench.tables.open_tables
    await clock.advance(5 * 60)  # the break
    assert bench.runner.get(event_id).phase == "playing"
    await bench.play(event_id)
    await bench.stop()
    assert (await bench.runner.load(event_id)).phase == "finished"


@pytest.mark.asyncio
async def test_check_in_opens_at_once_when_its_time_has_come_before_the_start(
    bench: Bench,
) -> None:
    clock = bench.clock
    soon = timed(5, round_timer_minutes=None)
    event_id = await bench.create(soon)
    await clock.advance(0)
    assert bench.runner.get(event_id).phase == "checkin", "within its check-in window"
    late = soon.model_copy(update={"start_time": EPOCH - timedelta(minutes=1)})
    other = await bench.create(late, channel=CHANNEL + 1)
    await join_all(bench, other, PEOPLE[:4])
    await clock.advance(0)
    event = bench.runner.get(other)
    assert event.phase == "playing", "past its start: no check-in, everyone signed up plays"
    assert len(event.state.entrants) == 4
    await bench.stop()


@pytest.mark.asyncio
async def test_refusals_change_nothing(bench: Bench) -> None:
    event_id = await bench.create()
    await bench.runner.join(event_id, PEOPLE[0])
    saved = (await bench.runner.repo.get(event_id)).model_dump()
    with pytest.raises(SignUpError, match="already signed up"):
        await bench.runner.join(event_id, PEOPLE[0])
    with pytest.raises(NotDirectorError):
        await bench.runner.start(event_id, Actor(PEOPLE[0].user_id))
    with pytest.raises(TooFewPlayersError, match="seat computers"):
        await bench.runner.start(event_id, Actor(DIRECTOR))
    with pytest.raises(ChannelBusyError):
        await bench.create()
    assert (await bench.runner.repo.get(event_id)).model_dump() == saved
    await bench.runner.start(event_id, Actor(DIRECTOR), fill_with_computers=True)
    with pytest.raises(SignUpError, match="already in this event"):
        await bench.runner.join(event_id, PEOPLE[0])
    await bench.runner.cancel(event_id, Actor(DIRECTOR))
    assert not bench.tables.open_tables
    with pytest.raises(EventStateError, match="cancelled"):
        await bench.runner.join(event_id, PEOPLE[1])
    await bench.stop()


@pytest.mark.asyncio
async def test_a_member_who_leaves_mid_event_is_replaced(bench: Bench) -> None:
    event_id = await bench.started()
    await bench.runner.leave(event_id, PEOPLE[0].user_id)
    assert not any(t.seat_of(PEOPLE[0].user_id) for t in bench.tables.open_tables)
    await bench.play(event_id)
    await bench.runner.next_round(event_id, Actor(DIRECTOR))
    assert not any(t.seat_of(PEOPLE[0].user_id) for t in bench.tables.open_tables)
    entry = bench.runner.get(event_id).entrant(PEOPLE[0].user_id)
    assert entry is not None and entry.replaced_in_round == 1
    await bench.stop()


@pytest.mark.asyncio
async def test_stopped_in_check_in_the_event_starts_at_its_time_after_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.sqlite3"
    settings = timed(30, round_timer_minutes=None)
    async with bench_on(path) as first:
        event_id = await first.create(settings)
        await join_all(first, event_id, PEOPLE[:5])
        await first.clock.advance(20 * 60)
        for person in PEOPLE[:4]:
            await first.runner.check_in(event_id, person.user_id)
        await first.stop()
    async with bench_on(path, 20 * 60) as second:  # the same moment: down for no time
        assert [e.state.id for e in await second.runner.resume()] == [event_id]
        event = second.runner.get(event_id)
        assert event.phase == "checkin"
        assert [e.checked_in for e in event.state.entrants] == [True] * 4 + [False]
        await second.clock.advance(10 * 60)
        event = second.runner.get(event_id)
        assert event.phase == "playing" and event.entrant(PEOPLE[4].user_id) is None
        await second.stop()


@pytest.mark.asyncio
async def test_a_process_resumes_only_the_events_of_its_servers(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    async with bench_on(path) as first:
        event_id = await first.create()
        await join_all(first, event_id, PEOPLE[:2])
        await first.stop()
    async with await Database.open(path) as db:
        other = Bench(db, ManualScheduler())
        assert await other.runner.resume(lambda guild_id: guild_id != GUILD) == []
        assert other.runner.running == []
        owner = Bench(db, ManualScheduler())
        assert [e.state.id for e in await owner.runner.resume(lambda g: g == GUILD)] == [event_id]
