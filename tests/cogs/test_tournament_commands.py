"""Tournament nights through the real bot: sign-up, the start, rounds in threads, the champion.

Members sign up and are refused through the harness as they would in Discord; the
tables' turns are then taken by simulated members (the first legal action, through
the table service) and computers, until the event's champion is announced.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import timedelta

import discord
import pytest

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.league import LeagueService
from bot.players import make_player
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database
from bot.tables import TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.scheduler import ManualScheduler
from bot.tournaments.model import EventSettings
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness
from tests.kit.harness import (
    DEFAULT_BOT_PERMISSIONS,
    FakeGuild,
    Harness,
    MemberSpec,
    StoredMessage,
)
from tests.sqlite_only import db

__all__ = ["db"]

DIRECTOR = "dee"
MEMBERS = ["ada", "bob", "cy", "di", "eve", "fay", "gus", "hal"]


async def event_harness(
    make_harness: MakeHarness,
    db: Database | None,
    *,
    scheduler: ManualScheduler | None = None,
    like: FakeGuild | None = None,
    bot_permissions: discord.Permissions | None = None,
    members: Sequence[MemberSpec] = (),
    **harness_options: object,
) -> tuple[Harness, EuchreBot, FakeGuild]:
    """The bot on ``db``; ``like``: a restart, in the guild of a first life (same ids).

    ``bot_permissions``: the bot's in the guild (default: the harness's, the invite's and more).
    ``members``: the guild's members after the director (default: :data:`MEMBERS`).
    """
    bot = build_bot(3)
    if db is not None:  # as the bot runs: tables and events in one database
        tables = TableService(
            DatabaseTableStore(db),
            make_player,
            server_settings=FixedSettings(ServerSettings(allow_hints=False)),
            seeds=lambda: 3,
        )
        bot = EuchreBot(
            Settings(computer_move_delay=0),
            tables=tables,
            channel_limits=ChannelLimits.unlimited(),
            **({} if scheduler is None else {"scheduler": scheduler}),
        )
        bot.league = LeagueService(db)
        tables.listeners.append(bot.league.on_table_event)
    h = await make_harness(bot, **harness_options)
    if db is not None and scheduler is None:
        await settled(h, bot)  # the start-up's resume, done before the database can close
    if like is None:
        g = h.guild(
            members=[(DIRECTOR, {"manage_guild": True}), *(members or MEMBERS)],
            bot_permissions=bot_permissions,
        )
    else:
        director = MemberSpec(DIRECTOR, {"manage_guild": True}, id=like.member(DIRECTOR).id)
        g = h.guild(
            members=[director, *(MemberSpec(n, id=like.member(n).id) for n in MEMBERS)],
            id=like.id,
            name=like.name,
            channel_ids={like.channel.name: like.channel.id},
            bot_permissions=bot_permissions,
        )
    return h, bot, g


async def settled(h: Harness, bot: EuchreBot) -> None:
    """Everything the bot set going is done: tables, results, timers, messages."""
    runner = bot.tournaments
    assert runner is not None
    for _ in range(3):
        await asyncio.sleep(0)
        await bot.tables.settle(10.0)
        await runner.settle()
        assert await bot.scheduler.settle(10.0) == 0
        assert await bot.pacers.flush(10.0)
        await h.settle()


async def new_event(h: Harness, g: FakeGuild, **options: object) -> StoredMessage:
    result = await h.slash(
        g.member(DIRECTOR),
        "euchre tournament new",
        {"name": "Friday night", "rounds": 3, "deals": 2, **options},
    )
    assert not result.ephemeral, result.content
    return h.last_public_message(g.channel)


async def join(
    h: Harness, bot: EuchreBot, g: FakeGuild, message: StoredMessage, names: Sequence[str]
) -> None:
    """``names`` click Join on the event ``message``, then everything settles."""
    for name in names:
        await h.click(g.member(name), h.message(message.id), label="Join")
    await settled(h, bot)


async def play_out(
    h: Harness, bot: EuchreBot, g: FakeGuild, message_id: int, event_id: int
) -> None:
    """Members take their turns (the first legal action) until the event ends.

    Between rounds the director presses Next round on the event's message.
    """
    runner = bot.tournaments
    assert runner is not None
    for _ in range(5000):
        await settled(h, bot)
        event = await runner.load(event_id)
        if event.phase != "playing":
            if event.phase == "between_rounds":
                director = g.member(DIRECTOR)
                pressed = await h.click(director, h.message(message_id), label="Next round")
                assert pressed.ephemeral and "next round" in pressed.content
                continue
            return
        moved = False
        for table in list(bot.tables.open_tables):
            game = table.game
            if game is None or game.turn is None:
                continue
            seat = table.seats[game.turn]
            if seat is None or seat.user_id is None or table.computer_to_act() is not None:
                continue
            await (await bot.tables.fetch(table.id)).turns.act(
                seat.user_id, game.turn, table.stamp, game.legal()[0]
            )
            moved = True
        if not moved:
            await asyncio.sleep(0.01)
    raise AssertionError("the event never ended")


async def test_a_progressive_event_plays_from_sign_up_to_its_champion(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g)
    assert "Sign-up is open" in message.text and "Progressive, 3 rounds of 2 deals" in message.text
    for name in MEMBERS:
        joined = await h.click(g.member(name), h.message(message.id), label="Join")
        assert joined.ephemeral and "You're in" in joined.content
    await settled(h, bot)
    shown = h.message(message.id).text
    assert all(g.member(name).mention in shown for name in MEMBERS), shown
    assert "Signed up (8 of 64)" in shown

    started = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    assert started.ephemeral and "has started" in started.content
    await settled(h, bot)
    threads = [s for s in h.sent if s.kind == "thread_create"]
    assert len(threads) == 2, "a thread per table"
    for thread in threads:
        assert thread.channel_id is not None
        ping = h.public_messages(thread.channel_id)
        pinged = " ".join(m.text for m in ping)
        assert pinged.count("<@") >= 4, pinged
    assert "round 1 of 3 begins at 2 tables" in " ".join(
        m.text for m in h.public_messages(g.channel)
    )

    runner = bot.tournaments
    assert runner is not None
    event_id = runner.running[0].state.id
    assert event_id is not None
    await play_out(h, bot, g, message.id, event_id)

    event = await runner.load(event_id)
    assert event.phase == "finished"
    champions = event.champions()
    assert champions
    texts = " ".join(m.text for m in h.public_messages(g.channel))
    assert "has finished" in texts and champions[0].names[0] in texts
    final = h.message(message.id).text
    assert "Final standings" in final
    (standings,) = h.message(message.id).buttons  # only the whole standings once it has ended
    assert standings.label == "Standings"


async def test_bad_input_gets_a_private_sentence_and_changes_nothing(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g)
    ada, bob = g.member("ada"), g.member("bob")
    runner = bot.tournaments
    assert runner is not None
    event_id = runner.running[0].state.id
    assert event_id is not None

    await h.click(ada, h.message(message.id), label="Join")
    before = (await runner.load(event_id)).state
    again = await h.click(ada, h.message(message.id), label="Join")
    assert again.ephemeral and again.content == "You are already signed up for this event."

    refused = await h.click(bob, h.message(message.id), label="Start now")
    assert (
        refused.ephemeral and refused.content == "Only the event's directors can use that button."
    )

    second = await h.slash(g.member(DIRECTOR), "euchre tournament new", {"name": "Another"})
    assert second.ephemeral and "already" in second.content, second.content

    not_director = await h.slash(bob, "euchre tournament new")
    assert not_director.ephemeral and "Manage Server" in not_director.content

    few = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    assert few.ephemeral and "Only 1 of the 4 people" in few.content
    assert (await runner.load(event_id)).state == before

    # A forged id, the cancel button of an event that does not exist, on the message.
    cancel_id = f"euchre:tn:{event_id}:cancel"
    forged_id = f"euchre:tn:{event_id + 999}:cancel"
    forged = await h.dispatch(
        h.build_forged_component(g.member(DIRECTOR), message, forged_id, custom_id=cancel_id)
    )
    assert forged.reply.ephemeral and forged.reply.content == "There is no such event."
    assert (await runner.load(event_id)).state == before

    for name in MEMBERS[1:4]:
        await h.click(g.member(name), h.message(message.id), label="Join")
    await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    late = await h.slash(g.member("eve"), "euchre tournament join")
    assert late.ephemeral and late.content == (
        "You're in, but every seat is taken: you sit out until a computer's seat is free."
    )
    again = await h.slash(g.member("eve"), "euchre tournament join")
    assert again.ephemeral and again.content == "You are already in this event."


async def test_without_a_database_tournaments_are_refused(make_harness: MakeHarness) -> None:
    h, bot, g = await event_harness(make_harness, None)
    assert bot.tournaments is None
    result = await h.slash(g.member(DIRECTOR), "euchre tournament new")
    assert result.ephemeral and "need the bot's database" in result.content


async def test_a_start_time_creates_a_scheduled_event(
    make_harness: MakeHarness, db: Database
) -> None:
    h, _, g = await event_harness(make_harness, db)
    result = await h.slash(
        g.member(DIRECTOR), "euchre tournament new", {"name": "Friday night", "start_in": 60}
    )
    created = [s for s in h.sent if s.kind == "scheduled_event"]
    assert len(created) == 1 and created[0].status == 200
    body = created[0].body
    assert body["entity_type"] == 3 and body["entity_metadata"]["location"] == g.channel.mention
    assert body["name"] == "Friday night"
    assert not result.followups, "nothing to tell the director"


def without_create_events() -> discord.Permissions:
    """The bot's permissions in a server that added it before the invite asked for Create Events."""
    perms = discord.Permissions(DEFAULT_BOT_PERMISSIONS.value)
    perms.create_events = False
    return perms


async def test_without_create_events_the_director_is_told_and_the_event_opens(
    make_harness: MakeHarness, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    h, bot, g = await event_harness(make_harness, db, bot_permissions=without_create_events())
    with caplog.at_level(logging.WARNING):
        result = await h.slash(
            g.member(DIRECTOR), "euchre tournament new", {"name": "Friday night", "start_in": 60}
        )
    assert not result.ephemeral and "Sign-up is open" in result.text
    assert not [s for s in h.sent if s.kind == "scheduled_event"], "nothing Discord refuses"
    [told] = result.followups
    assert told.ephemeral
    assert told.content == (
        "Discord's own reminder of this event (a scheduled event) was not created: "
        "the bot lacks the Create Events permission in this server: "
        "grant it, or remind people yourself."
    )
    assert bot.tournaments is not None and len(bot.tournaments.running) == 1
    assert "Did not create the scheduled event" in caplog.text


async def test_a_scheduled_event_that_fails_does_not_stop_the_event(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    h.fail_http(
        "POST",
        "/guilds/{guild_id}/scheduled-events",
        status=400,
        code=50035,
        message="Invalid Form Body",
    )
    result = await h.slash(
        g.member(DIRECTOR),
        "euchre tournament new",
        {"name": "Friday night", "start_in": 60},
        allow_errors=True,  # the refusal is logged as an error
    )
    assert "Sign-up is open" in result.text
    [logged] = h.take_errors("the scheduled event")
    assert "400 (code 50035): Invalid Form Body" in logged.getMessage()
    assert [s.content for s in result.followups] == [
        "Discord's own reminder of this event (a scheduled event) was not created: "
        "Discord refused it (HTTP 400: Invalid Form Body): remind people yourself."
    ]
    assert bot.tournaments is not None and len(bot.tournaments.running) == 1


async def test_an_event_without_a_start_time_has_no_scheduled_event(
    make_harness: MakeHarness, db: Database
) -> None:
    h, _, g = await event_harness(make_harness, db, bot_permissions=without_create_events())
    result = await h.slash(g.member(DIRECTOR), "euchre tournament new", {"name": "Now"})
    assert not [s for s in h.sent if s.kind == "scheduled_event"]
    assert not result.followups, "no reminder to miss"


async def test_the_director_starts_with_computers_when_fewer_than_four_are_in(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g)
    runner = bot.tournaments
    assert runner is not None
    event_id = runner.running[0].state.id
    assert event_id is not None

    def labels() -> list[str]:
        return [b.label or "" for b in h.message(message.id).buttons]

    assert "Start with computers" not in labels(), "nobody is in yet"
    await join(h, bot, g, message, MEMBERS[:2])
    assert "Start with computers" in labels()
    before = (await runner.load(event_id)).state
    refused = await h.click(g.member("cy"), h.message(message.id), label="Start with computers")
    assert (
        refused.ephemeral and refused.content == "Only the event's directors can use that button."
    )
    assert (await runner.load(event_id)).state == before

    started = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start with computers")
    assert started.ephemeral and "computers in the empty seats" in started.content
    await settled(h, bot)
    event = await runner.load(event_id)
    assert event.phase == "playing"
    seated = event.state.rounds[0].tables
    assert len(seated) == 1, "two people and two computers at one table"
    assert "Start with computers" not in labels()


async def test_four_people_need_no_computers_button(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g)
    await join(h, bot, g, message, MEMBERS[:4])
    assert "Start with computers" not in [b.label for b in h.message(message.id).buttons]


async def test_a_restarted_bot_edits_the_same_event_message(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g)
    await join(h, bot, g, message, MEMBERS[:2])
    runner = bot.tournaments
    assert runner is not None
    event_id = runner.running[0].state.id
    assert event_id is not None
    assert await runner.repo.open_message_ids() == {event_id: message.id}

    clock = ManualScheduler()  # the restart's resume waits for the clock
    h2, bot2, g2 = await event_harness(make_harness, db, scheduler=clock, like=g)
    h2.add_message(g2.channel, like=h.message(message.id))
    await clock.advance(0)
    await settled(h2, bot2)
    shown = h2.message(message.id).text
    assert "Signed up (2 of 64)" in shown and g2.member("ada").mention in shown
    events = [m for m in h2.public_messages(g2.channel) if "Signed up" in m.text]
    assert [m.id for m in events] == [message.id], "no second event message"


async def test_the_options_left_out_take_the_event_settings_defaults(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    runner = bot.tournaments
    assert runner is not None
    result = await h.slash(g.member(DIRECTOR), "euchre tournament new", {"start_in": 600})
    assert not result.ephemeral, result.content
    settings = runner.running[0].state.settings
    defaults = EventSettings()
    assert settings.check_in_minutes == defaults.check_in_minutes
    kept = ("rounds", "deals_per_round", "round_timer_minutes", "rated", "break_minutes")
    assert [getattr(settings, f) for f in kept] == [getattr(defaults, f) for f in kept]
    assert settings.champion_role_hours == defaults.champion_role_hours


async def test_the_start_as_a_utc_clock_time(make_harness: MakeHarness, db: Database) -> None:
    h, bot, g = await event_harness(make_harness, db)
    runner = bot.tournaments
    assert runner is not None
    before = runner.clock()
    message = await new_event(h, g, start_at="23:59")
    event = runner.running[0].state
    start = event.settings.start_time
    assert start is not None and (start.hour, start.minute) == (23, 59)
    assert before < start <= before + timedelta(days=1)
    most = min(EventSettings().check_in_minutes, (start - before) // timedelta(minutes=1))
    assert most - 1 <= event.settings.check_in_minutes <= most  # a minute may turn meanwhile
    assert "Sign-up is open" in message.text
    assert [s for s in h.sent if s.kind == "scheduled_event"], "Discord's own reminder"


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"start_at": "7pm"}, "'7pm' is not a time: give it as HH:MM, 24-hour, in UTC"),
        ({"start_at": "19:30", "start_in": 10}, "either in minutes or as a time, not both"),
    ],
)
async def test_a_start_time_that_cannot_be_read_is_refused(
    make_harness: MakeHarness, db: Database, options: dict[str, object], refusal: str
) -> None:
    h, bot, g = await event_harness(make_harness, db)
    result = await h.slash(g.member(DIRECTOR), "euchre tournament new", options)
    assert result.ephemeral and refusal in result.content, result.content
    assert bot.tournaments is not None and not bot.tournaments.running
    assert not [s for s in h.sent if s.kind == "scheduled_event"]
