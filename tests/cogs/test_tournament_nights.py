"""Tournament nights that run themselves, through the real bot and Discord's contract.

Announcements that reach the people concerned (and only them), each once even across
a restart; the Discord scheduled event following its event through a restart; a game
stopped by the round timer kept and replayable; leaving on your own turn; an event's
table nobody else sits down at; late sign-up; the director role; the CSV export.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.discord.app import EuchreBot
from bot.rules import replay
from bot.server.sources import FixedSettings
from bot.store import Database, GameArchiveRepo
from bot.tables.scheduler import ManualScheduler
from bot.tables.stopping import ROUND_TIMER
from bot.tournaments import Tournament
from bot.tournaments.runner import TournamentRunner
from bot.web.events import read_event_rounds
from tests.cogs.test_tournament_commands import (
    DIRECTOR,
    MEMBERS,
    db,
    event_harness,
    new_event,
    settled,
)
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, FakeMember, Harness, StoredMessage
from tests.kit.scheduled_events import ACTIVE, CANCELED, COMPLETED

__all__ = ["db"]


def runner_of(bot: EuchreBot) -> TournamentRunner:
    runner = bot.tournaments
    assert runner is not None
    return runner


def follow(bot: EuchreBot, clock: ManualScheduler, base: datetime) -> Callable[[], datetime]:
    """The runner's clock turned with the test's scheduler, from ``base``."""
    now = lambda: base + timedelta(seconds=clock.now())  # noqa: E731
    runner_of(bot).clock = now
    return now


def member_of(g: FakeGuild, user_id: int) -> FakeMember:
    return next(g.member(n) for n in [DIRECTOR, *MEMBERS] if g.member(n).id == user_id)


def mentioning(h: Harness, g: FakeGuild, *needles: str) -> list[StoredMessage]:
    """The channel's messages holding every one of ``needles``."""
    return [m for m in h.public_messages(g.channel) if all(n in m.text for n in needles)]


def allowed_users(h: Harness, message: StoredMessage) -> set[str]:
    """Whom a posted message was allowed to notify."""
    sent = next(s for s in h.sent if s.kind == "channel_send" and s.message_id == message.id)
    body = sent.body or {}
    mentions = body.get("allowed_mentions") or {}
    assert not mentions.get("parse"), "nobody notified by what the text happens to hold"
    return {str(u) for u in mentions.get("users") or []}


async def joined(h: Harness, g: FakeGuild, message: StoredMessage, names: list[str]) -> None:
    for name in names:
        answer = await h.click(g.member(name), h.message(message.id), label="Join")
        assert answer.ephemeral and "You're in" in answer.content, answer.content


async def started(
    h: Harness, bot: EuchreBot, g: FakeGuild, names: list[str], **options: object
) -> StoredMessage:
    """An event without check-in that ``names`` joined, started (computers in empty seats)."""
    message = await new_event(h, g, check_in=0, **options)
    await joined(h, g, message, names)
    label = "Start now" if len(names) >= 4 else "Start with computers"
    pressed = await h.click(g.member(DIRECTOR), h.message(message.id), label=label)
    assert pressed.ephemeral and "has started" in pressed.content, pressed.content
    await settled(h, bot)
    return message


async def test_leaving_on_your_own_turn_logs_nothing_and_takes_the_hands_buttons(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await started(h, bot, g, MEMBERS[:4])
    (table,) = bot.tables.open_tables
    assert table.game is not None and table.game.turn is not None and table.message_id
    seat = table.seats[table.game.turn]
    assert seat is not None and seat.user_id is not None
    leaver = member_of(g, seat.user_id)
    hand = (await h.click(leaver, h.message(table.message_id), label="Your hand")).message
    assert hand.buttons, "their cards, live"

    left = await h.click(leaver, h.message(message.id), label="Leave")
    assert left.ephemeral and left.content == "You left the event."
    await settled(h, bot)  # a task that raised would fail the harness here
    redrawn = h.message(hand.id)
    assert not redrawn.buttons, "no card to press any more"
    assert "You left this table" in redrawn.text
    now = bot.tables.get(table.id)
    assert now.seat_of(leaver.id) is None and now.game is not None


async def test_nobody_else_sits_down_at_an_events_table(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    await started(h, bot, g, MEMBERS[:3])
    (table,) = bot.tables.open_tables
    assert any(s is not None and s.is_computer for s in table.seats)
    assert table.message_id is not None
    shown = h.message(table.message_id)
    assert "Take a computer's seat" not in [b.label for b in shown.buttons]

    outsider = g.member(MEMBERS[5])
    hand_id, take_id = f"euchre:t:{table.id}:hand", f"euchre:t:{table.id}:join"
    # a seat asked for
    refused = await h.dispatch(
        h.build_forged_component(outsider, shown, take_id, custom_id=hand_id)
    )
    assert refused.reply.ephemeral
    assert refused.reply.content.startswith("This is a tournament table"), refused.reply.content
    assert bot.tables.get(table.id).seat_of(outsider.id) is None


async def test_pairs_announcements_reach_the_people_concerned_once_across_a_restart(
    make_harness: MakeHarness, db: Database
) -> None:
    clock = ManualScheduler()
    base = datetime.now(UTC).replace(microsecond=0)
    h, bot, g = await event_harness(make_harness, db, scheduler=clock)
    follow(bot, clock, base)
    await clock.advance(0)
    message = await new_event(h, g, format="pairs", start_in=60, check_in=20)
    ada, bob, cy, di = (g.member(n) for n in MEMBERS[:4])
    named = await h.slash(ada, "euchre tournament join", {"partner": bob})
    assert named.ephemeral and "asked here to confirm" in named.content
    await h.slash(cy, "euchre tournament join", {"partner": di})
    await settled(h, bot)
    (asked,) = mentioning(h, g, bob.mention, "as their partner")
    assert allowed_users(h, asked) == {str(bob.id)}, "only the partner named"
    assert ada.mention in asked.text, "who named them, said but not pinged"
    pressed = await h.click(bob, asked, label="Confirm partner")
    assert pressed.ephemeral and "are a pair" in pressed.content
    await h.click(di, h.message(message.id), label="Confirm partner")
    await settled(h, bot)

    await clock.advance(40 * 60)  # check-in opens
    await settled(h, bot)
    (opened,) = mentioning(h, g, "Check-in for")
    assert allowed_users(h, opened) == {str(m.id) for m in (ada, bob, cy, di)}
    assert "Check in" in [b.label for b in opened.buttons]
    checked = await h.click(ada, opened, label="Check in")
    assert checked.ephemeral and checked.content == "You're checked in."
    await settled(h, bot)
    before = len(h.public_messages(g.channel))
    await h.close()  # the bot stops; it starts again on the same database

    clock2 = ManualScheduler()
    h2, bot2, g2 = await event_harness(make_harness, db, scheduler=clock2, like=g)
    h2.add_message(g2.channel, like=h.message(message.id))
    for old in h.public_messages(g.channel):
        if old.id != message.id:
            h2.add_message(g2.channel, like=old)
    follow(bot2, clock2, base + timedelta(minutes=40))
    await clock2.advance(0)
    await settled(h2, bot2)
    assert not mentioning(h2, g2, "Check-in for") or len(mentioning(h2, g2, "Check-in for")) == 1
    assert len(h2.public_messages(g2.channel)) == before, "nothing announced twice"

    await clock2.advance(10 * 60)  # ten minutes before the start
    await settled(h2, bot2)
    (reminded,) = mentioning(h2, g2, "starts", "See you at the tables")
    everyone = {str(g2.member(n).id) for n in MEMBERS[:4]}
    assert allowed_users(h2, reminded) == everyone

    runner = runner_of(bot2)
    event_id = runner.running[0].state.id
    assert event_id is not None
    made = (await runner.repo.outreach.announced([event_id]))[event_id]
    assert made == {"partner:1", "partner:3", "checkin", f"reminder:{start_of(bot2)}"}


def start_of(bot: EuchreBot) -> str:
    start = runner_of(bot).running[0].state.settings.start_time
    assert start is not None
    return start.isoformat()


async def test_an_announcement_posted_but_not_noted_is_not_posted_twice(
    make_harness: MakeHarness, db: Database
) -> None:
    """The bot killed between posting and noting: Discord's nonce keeps one message."""
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g, format="pairs")
    ada, bob = g.member(MEMBERS[0]), g.member(MEMBERS[1])
    repo = runner_of(bot).repo
    noted = repo.outreach.mark_announced

    async def killed(*args: object) -> None:
        raise asyncio.CancelledError  # the process dies right after the post

    repo.outreach.mark_announced = killed  # type: ignore[method-assign]
    await h.slash(ada, "euchre tournament join", {"partner": bob})
    await settled(h, bot)
    repo.outreach.mark_announced = noted  # type: ignore[method-assign]
    desk = bot.get_cog("Euchre").desk  # type: ignore[union-attr]
    desk.announcer._made.clear()  # what a restarted process knows: only the store
    await h.click(g.member(MEMBERS[2]), h.message(message.id), label="Who's in")
    await h.slash(g.member(MEMBERS[2]), "euchre tournament join", {"partner": g.member(MEMBERS[3])})
    await settled(h, bot)
    assert len(mentioning(h, g, "as their partner", bob.mention)) == 1
    nonces = [
        (s.body or {}).get("nonce")
        for s in h.sent
        if s.kind == "channel_send"
        and "as their partner" in str(s.body)
        and bob.mention in str(s.body)
    ]
    assert nonces and all(n and len(n) <= 25 for n in nonces)
    assert len(nonces) == 2 and len(set(nonces)) == 1, "posted again, answered with the first"


async def test_a_rounds_end_tells_everyone_still_playing_when_the_next_starts(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    await started(h, bot, g, MEMBERS[:4], rounds=2, deals=1, break_minutes=5)
    await play_round(h, bot)
    (ended,) = mentioning(h, g, "round 1 of 2 is over")
    assert allowed_users(h, ended) == {str(g.member(n).id) for n in MEMBERS[:4]}
    assert "round 2 starts at <t:" in ended.text


async def play_round(h: Harness, bot: EuchreBot) -> None:
    """Members take their turns (the first legal action) until no table is left."""
    for _ in range(3000):
        await settled(h, bot)
        tables = [t for t in bot.tables.open_tables if t.game is not None]
        if not tables:
            return
        for table in tables:
            game = table.game
            if game is None or game.turn is None or table.computer_to_act() is not None:
                continue
            seat = table.seats[game.turn]
            assert seat is not None and seat.user_id is not None
            await (await bot.tables.fetch(table.id)).turns.act(
                seat.user_id, game.turn, table.stamp, game.legal()[0]
            )
    raise AssertionError("the round never ended")


async def test_a_game_stopped_by_the_round_timer_is_kept_replayable_and_unrated(
    make_harness: MakeHarness, db: Database
) -> None:
    clock = ManualScheduler()
    h, bot, g = await event_harness(make_harness, db, scheduler=clock)
    await clock.advance(0)
    await started(h, bot, g, MEMBERS[:4], rounds=1, deals=8, round_timer=5, rated=True)
    event_id = runner_of(bot).running[0].state.id
    assert event_id is not None
    (table,) = bot.tables.open_tables
    while table.game is not None and len(table.game.results) < 3:  # two deals done
        game = table.game
        assert game.turn is not None
        seat = table.seats[game.turn]
        assert seat is not None and seat.user_id is not None
        await (await bot.tables.fetch(table.id)).turns.act(
            seat.user_id, game.turn, table.stamp, game.legal()[0]
        )
        await settled(h, bot)
    await clock.advance(5 * 60)  # the round's timer, the last round's: the event ends
    await settled(h, bot)
    assert not bot.tables.open_tables

    archived = await GameArchiveRepo(db).find_by_table(table.id)
    assert archived is not None and archived.stopped == ROUND_TIMER
    record = await GameArchiveRepo(db).record(archived.id)
    assert record["meta"]["stopped"] == ROUND_TIMER
    replayed = replay(record)
    assert replayed.error is None and len(replayed.game.results) == 3
    assert [r.result for r in replayed.game.results][-1] == "in_play"
    event = (await runner_of(bot).load(event_id)).state
    assert event.phase == "finished"
    result = event.rounds[0].tables[0].result
    assert result is not None and len(result.deals) == 2, "the finished deals counted"

    _, rounds = await read_event_rounds(db, event)
    (shown,) = rounds[-1].tables
    assert shown.game_id == archived.id and shown.stopped == ROUND_TIMER
    assert bot.league is not None
    await bot.league.take_in(g.id)  # the rated event finished: its games are taken in
    taken = await GameArchiveRepo(db).get(archived.id)
    assert taken.season_id is not None and not taken.ranked, "kept, never rated"


async def test_the_scheduled_event_follows_its_event_through_a_restart(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g, start_in=120, check_in=0, rounds=1, deals=1)
    (scheduled_id,) = h.scheduled_events.events
    moved = await h.slash(g.member(DIRECTOR), "euchre tournament reschedule", {"start_in": 90})
    assert moved.ephemeral and moved.content.startswith("The event now starts")
    await settled(h, bot)
    await desk_settled(bot)
    start = runner_of(bot).running[0].state.settings.start_time
    assert start is not None
    shown = h.scheduled_events.events[scheduled_id]["scheduled_start_time"]
    assert datetime.fromisoformat(shown) == start, "its time moved with the start"
    await joined(h, g, message, MEMBERS[:4])
    event_id = runner_of(bot).running[0].state.id
    assert event_id is not None
    stored = h.message(message.id)
    await h.close()

    clock = ManualScheduler()  # the restart's resume waits for the clock
    h2, bot2, g2 = await event_harness(make_harness, db, scheduler=clock, like=g)
    h2.scheduled_events.events.update(h.scheduled_events.events)  # Discord keeps them
    h2.add_message(g2.channel, like=stored)
    await clock.advance(0)
    await settled(h2, bot2)
    await h2.click(g2.member(DIRECTOR), h2.message(message.id), label="Start now")
    await settled(h2, bot2)
    await desk_settled(bot2)
    assert h2.scheduled_events.events[scheduled_id]["status"] == ACTIVE
    await play_round(h2, bot2)
    await desk_settled(bot2)
    assert h2.scheduled_events.events[scheduled_id]["status"] == COMPLETED
    link = await runner_of(bot2).repo.outreach.scheduled_event(event_id)
    assert link is not None and link.status == "completed"


async def test_an_event_that_ended_while_the_bot_was_down_ends_its_scheduled_event(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    await new_event(h, g, start_in=120)
    (scheduled_id,) = h.scheduled_events.events
    runner = runner_of(bot)
    event_id = runner.running[0].state.id
    assert event_id is not None
    desk = bot.get_cog("Euchre").desk  # type: ignore[union-attr]
    desk.scheduled.follow = lambda event: None  # the bot dies before it can follow
    await h.click(
        g.member(DIRECTOR), h.message(h.last_public_message(g.channel).id), label="Cancel"
    )
    await settled(h, bot)
    assert h.scheduled_events.events[scheduled_id]["status"] == 1
    await h.close()

    clock = ManualScheduler()  # the restart's resume waits for the clock
    h2, bot2, _g2 = await event_harness(make_harness, db, scheduler=clock, like=g)
    h2.scheduled_events.events.update(h.scheduled_events.events)  # Discord keeps them
    await clock.advance(0)
    await settled(h2, bot2)
    await desk_settled(bot2)
    assert h2.scheduled_events.events[scheduled_id]["status"] == CANCELED


async def test_a_scheduled_event_deleted_by_hand_is_left_alone(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g, start_in=120, check_in=0)
    (scheduled_id,) = h.scheduled_events.events
    h.scheduled_events.delete_by_hand(scheduled_id)
    await joined(h, g, message, MEMBERS[:4])
    started = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    assert started.ephemeral and "has started" in started.content
    await settled(h, bot)
    await desk_settled(bot)
    event_id = runner_of(bot).running[0].state.id
    assert event_id is not None
    link = await runner_of(bot).repo.outreach.scheduled_event(event_id)
    assert link is not None and link.status == "gone"
    edits = [s for s in h.sent if s.kind == "scheduled_event_edit"]
    assert len(edits) == 1, "tried once, then left alone"


async def desk_settled(bot: EuchreBot) -> None:
    desk = bot.get_cog("Euchre").desk  # type: ignore[union-attr]
    await desk.scheduled.settle()


async def test_a_late_comer_joins_a_running_event_from_the_next_round(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await started(h, bot, g, MEMBERS[:3], rounds=2, deals=1)
    late = await h.click(g.member(MEMBERS[4]), h.message(message.id), label="Join")
    assert late.ephemeral and late.content == (
        "You're in from round 2, in a computer's seat. Good luck!"
    )
    await play_round(h, bot)
    await h.click(g.member(DIRECTOR), h.message(message.id), label="Next round")
    await settled(h, bot)
    (table,) = bot.tables.open_tables
    assert table.seat_of(g.member(MEMBERS[4]).id) is not None
    await play_round(h, bot)
    pages = (await h.slash(g.member(DIRECTOR), "euchre tournament standings")).message.text
    assert "(joined in round 2, missed round 1)" in pages
    assert "/euchre tournament standings" not in pages, "no page points at itself"


async def test_the_director_role_directs_and_the_export_has_a_csv(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    role = g.add_role("Tournament directors")
    director = g.member(MEMBERS[6])
    director.role_ids.append(role)
    refused = await h.slash(director, "euchre tournament new")
    assert refused.ephemeral and "tournament director role" in refused.content
    settings = bot.tables.server_settings
    assert isinstance(settings, FixedSettings)
    settings.settings = settings.settings.model_copy(update={"tournament_director_role_id": role})
    made = await h.slash(director, "euchre tournament new", {"name": "Role night", "check_in": 0})
    assert not made.ephemeral
    await joined(h, g, h.last_public_message(g.channel), MEMBERS[:2])
    exported = await h.slash(g.member(MEMBERS[0]), "euchre tournament export")
    names = [name for name, _ in exported.reply.files]
    assert names[0].endswith(".json") and names[1].endswith("-standings.csv")
    rows = list(csv.reader(io.StringIO(exported.reply.files[1][1].decode())))
    assert rows[0][0] == "place"


async def test_the_history_pages_through_every_event(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    repo = runner_of(bot).repo
    for number in range(23):
        made = Tournament.create(
            guild_id=g.id,
            channel_id=10_000 + number,
            director_id=g.member(DIRECTOR).id,
            name=f"Night {number + 1}",
            now=datetime.now(UTC),
        )
        await repo.create(made.state)
    first = (await h.slash(g.member(MEMBERS[0]), "euchre tournament history")).message
    assert "Page 1 of 3" in first.text and "Night 23" in first.text
    seen = [first.text]
    message = first
    while any(b.label == "Older ▶" and not b.disabled for b in message.buttons):
        message = (await h.click(g.member(MEMBERS[0]), message, label="Older ▶")).message
        seen.append(message.text)
    assert len(seen) == 3 and "Page 3 of 3" in seen[-1]
    assert all(f"Night {n} " in "\n".join(seen) for n in range(1, 24)), "every event, once"
