"""Tables that outlive the process and their players, through the real bot.

A restart is a second bot and harness on the same SQLite file (the same guild, channel
and members): the table comes back by replaying its record, its message is edited or
posted again, its buttons work. Time is a ManualScheduler: turn limits and idle tables
are tested without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, cast

import discord
import pytest

from bot.discord.app import EuchreBot
from bot.discord.tables.keeping import UNKNOWN_BUTTON, Keeping
from bot.players import make_player
from bot.rules import replay
from bot.server.settings import ServerSettings
from bot.store import Database, TableRepo
from bot.tables import Place, Player, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.scheduler import ManualScheduler
from tests.cogs.euchre_driver import (
    Policy,
    act_through_hand,
    action_buttons,
    clocked_bot,
    only_table,
    random_policy,
    resumed,
    started,
)
from tests.kit.harness import FakeGuild, FakeMember, Harness, MemberSpec, StoredMessage

NAMES = ["alice", "bob", "carol", "dave"]
LIMIT = 60


def make_bot(
    store: Any = None,
    *,
    seed: int = 5,
    limit: float | None = None,
    strikes: int = 2,
    **settings: Any,
) -> tuple[EuchreBot, ManualScheduler]:
    server = ServerSettings(
        turn_time_limit_seconds=limit, timeouts_before_computer=strikes, ping_after=0
    )
    return clocked_bot(server, store=store, seed=seed, **settings)


def keeping_of(bot: EuchreBot) -> Keeping:
    """The Keeping cog (each load of the extension imports its module afresh)."""
    cog = bot.get_cog("Keeping")
    assert cog is not None and type(cog).__name__ == "Keeping"
    return cast(Keeping, cog)


def first_button(buttons: list[Any]) -> Any:
    return buttons[0]


def same_guild(h: Harness, old: FakeGuild, names: Sequence[str]) -> FakeGuild:
    """The guild of a first life, in a second harness: same ids, same channel."""
    return h.guild(
        members=[MemberSpec(n, id=old.member(n).id) for n in names],
        id=old.id,
        name=old.name,
        channel_ids={"table": old.channel.id},
    )


async def four_playing(h: Harness, names: Sequence[str] = NAMES) -> tuple[FakeGuild, StoredMessage]:
    people, message = await started(h, names)
    return people[0].guild, message


async def play(
    h: Harness,
    bot: EuchreBot,
    g: FakeGuild,
    message: StoredMessage,
    moves: int,
    policy: Policy = first_button,
) -> int:
    """Play ``moves`` moves (fewer if the game ends), each button chosen by ``policy``."""
    table = only_table(bot)
    done = 0
    while done < moves and table.status == "playing":
        assert table.game is not None and table.game.turn is not None
        seat = table.seats[table.game.turn]
        assert seat is not None
        member = next(m for m in g.members.values() if m.id == seat.user_id)
        await act_through_hand(h, bot, member, h.message(message.id), policy)
        done += 1
    return done


async def test_a_restarted_table_is_replayed_and_plays_on_to_the_same_end(
    tmp_path: Path,
) -> None:
    path = tmp_path / "euchre.sqlite3"
    policy = random_policy(3)
    async with await Database.open(path) as db:
        bot, _ = make_bot(DatabaseTableStore(db))
        async with Harness(bot) as h:
            g, message = await four_playing(h)
            await play(h, bot, g, message, 13, policy)
            table = only_table(bot)
            before = table.record()
            mover = next(m for m in g.members.values() if m.id == table.seats[0].user_id)  # type: ignore[union-attr]
            old_hand = h.last_ephemeral(mover)
            old_message = h.message(message.id)

    async with await Database.open(path) as db:
        bot, _ = make_bot(DatabaseTableStore(db))
        async with Harness(bot) as h:
            g2 = same_guild(h, g, NAMES)
            h.add_message(g2.channel, like=old_message)
            hand_copy = h.add_message(g2.channel, like=old_hand)
            (restored,) = await bot.tables.restore()
            assert restored.record() == before
            keeping = keeping_of(bot)
            await keeping.resume_all()
            edits = [s for s in h.sent if s.kind == "channel_edit" and s.message_id == message.id]
            assert len(edits) == 1 and h.message(message.id).button("Your hand")

            buttons = action_buttons(hand_copy)
            if buttons:  # a private hand from before the restart still works, or says why not
                drawn_at = tuple(int(x) for x in (buttons[0].custom_id or "").split(":")[4:6])
                moves, current = len(before["actions"]), drawn_at == restored.stamp
                chosen = policy(buttons) if current else buttons[0]  # keep the policy in step
                r = await h.click(g2.member(mover.name), hand_copy, custom_id=chosen.custom_id)
                assert r.redrawn
                if current:
                    assert len(restored.record()["actions"]) == moves + 1
                else:
                    assert "out of date" in r.reply.content
                    assert restored.record() == before
            await play(h, bot, g2, message, 10_000, policy)
            assert restored.status == "finished"
            final = restored.record()
            stored = await TableRepo(db).get(restored.id)
            assert stored.status == "finished"

    bot, _ = make_bot()
    async with Harness(bot) as h:
        g, message = await four_playing(h)
        table = only_table(bot)
        await play(h, bot, g, message, 10_000, random_policy(3))
    assert table.record()["actions"] == final["actions"], "the restart changed the game"
    assert replay(final).game.over


async def test_a_message_too_old_or_gone_is_posted_again(tmp_path: Path) -> None:
    path = tmp_path / "euchre.sqlite3"
    async with await Database.open(path) as db:
        bot, _ = make_bot(DatabaseTableStore(db))
        async with Harness(bot) as h:
            g, message = await four_playing(h)
            old_message = h.message(message.id)
        hours_ago = discord.utils.utcnow() - datetime.timedelta(hours=2)
        old_id = discord.utils.time_snowflake(hours_ago)
        for case in ("old", "gone"):
            bot, _ = make_bot(DatabaseTableStore(db))
            async with Harness(bot) as h:
                g2 = same_guild(h, g, NAMES)
                (table,) = await bot.tables.restore()
                if case == "old":
                    h.add_message(g2.channel, like=old_message, id=old_id)
                    await bot.tables.get_any(table.id).lobby.set_message(old_id)
                before = table.message_id
                keeping = keeping_of(bot)
                await keeping.resume_all()
                assert table.message_id != before
                fresh = h.message(table.message_id or 0)
                assert fresh.public and fresh.button("Your hand")
                if case == "old":
                    assert h.message(old_id).deleted
                stored = await TableRepo(db).get(table.id)
                assert stored.message_id == table.message_id


async def test_computer_turns_pending_at_the_restart_are_played(tmp_path: Path) -> None:
    path = tmp_path / "euchre.sqlite3"
    async with await Database.open(path) as db:
        store = DatabaseTableStore(db)
        first = TableService(store, make_player, seeds=lambda: 5, play_on=False)
        alice = Player(1001, "Alice")
        table = await first.open(Place(1, 2), alice)
        for _ in range(3):
            await (await first.fetch(table.id)).lobby.add_computer(alice.user_id)
        await (await first.fetch(table.id)).lobby.start(alice.user_id)
        game = table.game
        assert game is not None
        if table.computer_to_act() is None:
            await (await first.fetch(table.id)).turns.act(
                alice.user_id, 0, table.stamp, game.legal()[0]
            )
        assert table.computer_to_act() is not None  # the process dies here
        moves = len(game.log)

        bot, _ = make_bot(store)
        async with Harness(bot) as h:
            h.guild(members=[MemberSpec("alice", id=1001)], id=1, channel_ids={"table": 2})
            (again,) = await bot.tables.restore()
            keeping = keeping_of(bot)
            await keeping.resume_all()
            assert again.computer_to_act() is not None, "resuming waits for no computer"
            await resumed(bot, again)
            assert again.game is not None and len(again.game.log) > moves
            assert again.game.turn == 0 or again.status == "finished"
            posted = h.message(again.message_id or 0)
            assert posted.public and "<@1001>" not in posted.content
            if again.status == "playing":
                (ping,) = [s for s in h.sent if s.kind == "channel_send" and "<@" in s.content]
                assert "<@1001>" in ping.content, "a new message, so the mention notifies"


async def test_resume_runs_once_when_ready() -> None:
    bot, _ = make_bot()
    async with Harness(bot):
        keeping = keeping_of(bot)
        assert keeping._resumed
        calls = []
        keeping.resume_all = lambda: calls.append(1)  # type: ignore[method-assign,assignment,return-value]
        await keeping.on_ready()
        assert calls == []


def resume_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the Keeping cog logged at INFO."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.discord.tables.keeping" and r.levelno == logging.INFO
    ]


@contextlib.asynccontextmanager
async def busy_table(
    caplog: pytest.LogCaptureFixture,
) -> AsyncIterator[tuple[EuchreBot, asyncio.Event]]:
    """A bot with four people playing at a table whose channel is busy with a request that
    waits until the event is set; the Keeping cog's INFO lines are captured."""
    caplog.set_level(logging.INFO, logger="bot.discord.tables.keeping")
    bot, _ = make_bot()
    async with Harness(bot) as h:
        g, _ = await four_playing(h)
        done = asyncio.Event()

        async def held() -> None:
            await done.wait()

        bot.pacers.of(g.channel.id).submit(("held",), "post", held)
        yield bot, done


async def test_the_resume_is_logged_at_once_and_the_flush_apart(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with busy_table(caplog) as (bot, sent):
        resuming = asyncio.create_task(keeping_of(bot).resume_all())
        for _ in range(100):
            await asyncio.sleep(0)
        lines = resume_lines(caplog)
        assert lines == ["Resumed 1 open table(s)"], "logged before the channel is done"
        assert not resuming.done(), "its message still waits for the channel's turn"
        sent.set()
        await resuming
        lines = resume_lines(caplog)
        assert lines[1:] == ["The restored tables' messages are all sent"]


async def test_a_flush_given_up_is_logged_after_the_resume(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with busy_table(caplog) as (bot, sent):
        keeping = keeping_of(bot)
        monkeypatch.setitem(type(keeping).resume_all.__globals__, "RESUME_FLUSH", 0.01)
        try:
            await keeping.resume_all()
        finally:
            sent.set()
        lines = resume_lines(caplog)
        assert lines == [
            "Resumed 1 open table(s)",
            "Some restored tables' messages still wait for their channel's turn after 0.01 s",
        ]


async def test_a_table_that_cannot_be_resumed_is_not_counted(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, logger="bot.discord.tables.keeping")
    bot, _ = make_bot()
    async with Harness(bot, strict=False) as h:  # the failure is logged as an error
        await four_playing(h)
        keeping = keeping_of(bot)

        def broken(table: Any) -> None:
            raise RuntimeError("the channel is gone")

        monkeypatch.setattr(keeping, "_resume", broken)
        await keeping.resume_all()
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == ["table 1: could not be resumed"]
    assert resume_lines(caplog)[:1] == ["Resumed 0 open table(s); 1 could not be (logged above)"]


async def one_person_playing(
    h: Harness, name: str = "alice", others: Sequence[str] = ()
) -> tuple[FakeGuild, FakeMember, StoredMessage]:
    g = h.guild(members=[name, *others])
    alice = g.member(name)
    message = (await h.slash(alice, "euchre new")).message
    for _ in range(3):
        await h.click(alice, message, label="Add computer")
    await h.click(alice, message, label="Start")
    return g, alice, h.message(message.id)


async def test_a_slow_player_is_reminded_then_a_computer_plays_for_them() -> None:
    bot, clock = make_bot(limit=LIMIT, strikes=2)
    async with Harness(bot) as h:
        g, alice, message = await one_person_playing(h)
        table = only_table(bot)
        assert table.game is not None and table.game.turn == 0
        moves = len(table.game.log)

        await clock.advance(LIMIT / 2 + 5)
        (reminder,) = [s for s in h.sent if s.kind == "channel_send"]
        assert f"<@{alice.id}>" in reminder.content and "about" in reminder.content
        mentions = reminder.data["allowed_mentions"]
        assert mentions["users"] == [str(alice.id)] or mentions["users"] == [alice.id]

        await clock.advance(LIMIT / 2)
        assert await bot.pacers.flush(1.0)
        assert len(table.game.log) > moves + 1
        assert "ran out of time" in h.message(reminder.message_id or 0).content
        assert table.game.turn == 0 and table.strikes == {0: 1}

        await clock.advance(LIMIT + 5)
        seat = table.seats[0]
        assert seat is not None and seat.away
        assert await bot.pacers.flush(1.0)
        public = h.message(message.id)
        assert "💤" in public.text
        back = public.button("Take my seat back")
        assert not back.disabled
        stalled = table.stamp
        await clock.advance(LIMIT * 2)
        assert table.stamp == stalled, "nobody present: the computers wait"

        bob_like = g.add_member("bob")
        r = await h.click(bob_like, public, label="Take my seat back")
        assert r.reply.ephemeral and "not playing" in r.reply.content
        await h.click(alice, public, label="Take my seat back")
        seat = table.seats[0]
        assert seat is not None and not seat.away
        assert table.game.turn == 0 or table.status == "finished"
        assert not h.message(message.id).components or not any(
            b.label == "Take my seat back" for b in h.message(message.id).buttons
        )


async def test_a_reminder_that_cannot_be_posted_still_lets_the_game_go_on() -> None:
    bot, clock = make_bot(limit=LIMIT)
    async with Harness(bot) as h:
        _, _, _ = await one_person_playing(h)
        table = only_table(bot)
        stamp = table.stamp
        h.fail_http("POST", "/channels/{channel_id}/messages", times=2)
        await clock.advance(LIMIT + 5)
        assert table.stamp != stamp
        logged = [r.getMessage() for r in h.take_errors("Discord refused it")]
        assert logged and all("POST /channels/" in m and "(code 50013)" in m for m in logged)


async def test_acting_in_time_deletes_the_reminder() -> None:
    bot, clock = make_bot(limit=LIMIT)
    async with Harness(bot) as h:
        _, alice, message = await one_person_playing(h)
        await clock.advance(LIMIT / 2 + 5)
        (reminder,) = [s for s in h.sent if s.kind == "channel_send"]
        await act_through_hand(h, bot, alice, message, first_button)
        await clock.advance(0)
        assert await bot.pacers.flush(1.0)
        assert h.message(reminder.message_id or 0).deleted


async def test_a_member_takes_over_a_computers_seat_during_the_game() -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        g, _, message = await one_person_playing(h, others=["erin"])
        erin = g.member("erin")
        r = await h.click(erin, message, label="Take a computer's seat")
        assert not r.reply.ephemeral
        table = only_table(bot)
        assert table.seat_of(erin.id) is not None
        hand = await h.click(erin, h.message(message.id), label="Your hand")
        assert hand.ephemeral
        again = await h.click(erin, h.message(message.id), label="Take a computer's seat")
        assert again.reply.ephemeral and "already playing" in again.reply.content


async def test_idle_tables_are_closed_with_a_message() -> None:
    bot, clock = make_bot(idle_lobby_minutes=10, idle_game_minutes=60)
    async with Harness(bot) as h:
        g = h.guild(members=["alice"], channels=["table", "other"])
        alice = g.member("alice")
        lobby = (await h.slash(alice, "euchre new")).message
        await clock.advance(9 * 60)
        assert bot.tables.open_tables
        await clock.advance(60 + 5)
        assert await bot.pacers.flush(1.0)
        assert not bot.tables.open_tables
        notice = [s for s in h.sent if s.kind == "channel_send"]
        assert len(notice) == 1 and "nobody played for 10 minutes" in notice[0].content
        assert not h.message(lobby.id).components


async def test_a_click_of_ours_nothing_claims_is_answered_at_once() -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        _, alice, message = await one_person_playing(h)
        forged = ("euchre:a:1:9:1:0:pass", "euchre:t:1:nope", "euchre:" + "x" * 93)
        for custom_id in forged:
            payload = h.build_component(alice, message, label="Your hand")
            payload["data"]["custom_id"] = custom_id
            r = await h.dispatch(payload)
            assert r.responded and r.reply.ephemeral, custom_id
            assert r.reply.content == UNKNOWN_BUTTON


async def test_a_click_of_another_prefix_is_answered_at_once() -> None:
    """Every component of the bot fits one of its grammars: any other id gets no handler.

    It is answered while the harness's clock stands still, not near Discord's 3 seconds.
    """
    bot, clock = make_bot()
    async with Harness(bot) as h:
        _, alice, message = await one_person_playing(h)
        before = clock.now()
        for custom_id in ("garbage", "x" * 100, "euchre", "Euchre:t:1:hand", " euchre:t:1:hand"):
            payload = h.build_component(alice, message, label="Your hand")
            payload["data"]["custom_id"] = custom_id
            r = await h.dispatch(payload)
            assert r.responded and r.reply.ephemeral, custom_id
            assert r.reply.content == UNKNOWN_BUTTON
        assert clock.now() == before
