"""The unmodified bot as a separate process against the fake Discord: log in, play, be killed.

Members act only through what Discord would show them: slash commands, the public table
message and their own ephemeral hands (tests/kit/fake_players.py). The final game is read
from the bot's SQLite archive with bot.store, as the league reads it.

Comparable runs. The bot draws each table's seed itself (``secrets.randbits``) and saves
it with the table, and nothing in production fixes it. So the world is forked instead of
the seed: a bot opens the table and is stopped, then its data directory (the table and
its seed) and the fake's messages are copied; one copy is played to the end without
interruption, the other with ``kill -9`` at several moments. The members choose their
clicks from the state they see only (:func:`tests.kit.fake_players.pick`), so both runs make
the same clicks as long as the bot keeps the same game; the two final records must be
equal. The bot needs no test-only option or hook for this.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.app import intents
from bot.rules import action_from_json, replay
from bot.store import Database, GameArchiveRepo
from tests.e2e.conftest import MakeBot
from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord, Message
from tests.kit.fake_players import ACTION_PREFIX, Choice, EuchreTable, Players, parse_action_id
from tests.kit.harness import walk_components
from tests.kit.waiting import BOUND

# --------------------------------------------------------------------------- helpers


async def archived_records(bot: BotProcess, guild_id: int) -> list[dict[str, Any]]:
    """The records of the guild's finished games, oldest first, from the bot's database."""
    async with await Database.open(bot.database_url) as db:
        archive = GameArchiveRepo(db)
        games = await archive.list_by_guild(guild_id)
        return [await archive.record(game.id) for game in reversed(games)]


async def only_record(bot: BotProcess, guild_id: int) -> dict[str, Any]:
    records = await archived_records(bot, guild_id)
    assert len(records) == 1, records
    return records[0]


def record_says(record: dict[str, Any], choice: Choice) -> bool:
    """Whether the record's action number ``choice.index`` is the move of ``choice``."""
    actions = record["actions"]
    if choice.index >= len(actions):
        return False
    seat, action = action_from_json(actions[choice.index])
    return seat == choice.seat and str(action) == choice.code


def assert_acknowledged_kept(record: dict[str, Any], players: Players) -> None:
    """Every move the bot answered is in the record, where it was made."""
    lost = [c.choice for c in players.acknowledged.values() if not record_says(record, c.choice)]
    assert not lost, f"acknowledged moves missing from the record: {lost}"


def assert_clean(fake: FakeDiscord, *bots: BotProcess) -> None:
    """Nothing Discord would refuse, no interaction left unanswered, no fault in the logs."""
    assert not fake.problems, fake.problems
    faults = [line for bot in bots for line in bot.faults()]
    assert not faults, "\n".join([*faults, *(bot.tail() for bot in bots)])


async def seat_and_start(table: EuchreTable, host: Any, guest: Any) -> None:
    """The guest joins, the host adds two computers and starts."""
    await table.press(guest, "Join")
    await table.press(host, "Add computer")
    await table.press(host, "Add computer")
    await table.start(host)


def first_difference(record: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Where two game records part (the table's seats in ``meta`` included), or None."""
    for key in sorted((set(record) | set(expected)) - {"meta", "actions"}):
        if record.get(key) != expected.get(key):
            return f"{key}: {record.get(key)!r} != {expected.get(key)!r}"
    seats = (record.get("meta") or {}).get("seats"), (expected.get("meta") or {}).get("seats")
    if seats[0] != seats[1]:
        return f"seats: {seats[0]!r} != {seats[1]!r}"
    got, want = record.get("actions", []), expected.get("actions", [])
    for index, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"action {index}: {a!r} != {b!r}"
    if len(got) != len(want):
        return f"{len(got)} actions != {len(want)}"
    return None


# --------------------------------------------------------------------------- log-in


@pytest.fixture
async def bot(bots: MakeBot) -> BotProcess:
    """The bot as a process, started: logged in, commands synced. The test stops it."""
    bot = bots("bot")
    await bot.start()
    return bot


async def test_logs_in_once_syncs_commands_and_answers(fake: FakeDiscord, bot: BotProcess) -> None:
    routes = [r.route for r in fake.requests]
    assert routes[:2] == ["GET /users/@me", "GET /oauth2/applications/@me"], routes
    # One start logs in once: the token checked by that login, one gateway session.
    assert routes.count("GET /users/@me") == 1, routes
    assert routes.count("GET /oauth2/applications/@me") == 1, routes
    assert routes.count("GET /gateway/bot") == 1, routes
    assert fake.command_syncs == [fake.guild_id]
    euchre = next(c for c in fake.commands[fake.guild_id] if c["name"] == "euchre")
    subcommands = {o["name"] for o in euchre["options"]}
    assert {"new", "hand", "leave", "abort", "help", "rules"} <= subcommands
    (identify,) = fake.identifies
    assert identify["token"] == fake.token
    assert identify["intents"] == intents().value
    assert identify["shard"] == [0, 1]

    helped = await (await fake.slash(fake.member("alice"), "euchre help")).wait_answered()
    # at once, or deferred first when the database is busy (its start-up still at work)
    assert helped.response_type in (
        discord.InteractionResponseType.channel_message.value,
        discord.InteractionResponseType.deferred_channel_message.value,
    )
    assert helped.original_id is not None
    assert fake.messages[helped.original_id].ephemeral
    assert fake.messages[helped.original_id].visible_to == fake.member("alice").id

    assert await bot.stop() == 0
    assert_clean(fake, bot)


async def test_resumes_the_gateway_session_and_gets_what_it_missed(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    alice = fake.member("alice")

    # Discord keeps the session's events while the bot is away and replays them on RESUME.
    async with fake.gateway_down(code=4000):
        missed = await fake.slash(alice, "euchre help", queue=True)
    await missed.wait_answered()

    assert len(fake.identifies) == 1
    assert len(fake.resumes) == 1
    assert missed.seq in fake.replayed
    assert fake.connected
    again = await (await fake.slash(alice, "euchre rules")).wait_answered()
    assert again.acknowledged
    assert await bot.stop() == 0
    assert_clean(fake, bot)


# --------------------------------------------------------------------------- a whole game


async def test_members_play_a_whole_game_with_commands_and_buttons(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    alice, bob = fake.member("alice"), fake.member("bob")

    table = await EuchreTable.open(fake, alice)
    assert table.status == "lobby"
    await seat_and_start(table, alice, bob)
    players = Players(table, [alice, bob])
    await players.open_hands(command=True)
    assert await players.play() is None
    assert table.status == "finished"

    # Both open hands show the result with no button but the Review of the last deal,
    # whoever made the last move: the other's is redrawn through its interaction's webhook
    # (their newest change).
    def newest(member: Any) -> Message:
        return max(fake.private_messages(member), key=lambda m: m.version)

    def shows_the_result(member: Any) -> bool:
        hand = newest(member)
        titles = [str(e.get("title")) for e in hand.payload.get("embeds") or []]
        labels = [str(c.get("label")) for row in hand.components for c in row["components"]]
        # Nothing left to play: no button, or only the Review of the last deal (whether a
        # click racing the end keeps its Review is the harness tests' concern).
        done = labels == [] or (len(labels) == 1 and labels[0].startswith("🔍 Review deal"))
        return done and any(t.endswith("· game over") for t in titles)

    await fake.wait_for(
        lambda: shows_the_result(alice) and shows_the_result(bob),
        timeout=BOUND,
        what="both hands to show the result",
    )
    finished = f"Table {table.id} has finished: start a new one with /euchre new."
    redrawn = [newest(m) for m in (alice, bob) if newest(m).content == finished]
    assert redrawn, "neither hand was redrawn at the end"
    # Through the interaction, never the channel's budget: a redraw by its webhook, or the
    # answer to its own click when the computers ended the game before that answer was made.
    answered = {
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
        "POST /interactions/{interaction_id}/{token}/callback",
    }
    for hand in redrawn:
        last = [r for r in fake.requests if r.message_id == hand.id][-1]
        assert last.route in answered, last.route

    # Every click was answered, and each was a move of the clicker's own seat.
    assert all(i.acknowledged for i in fake.interactions.values())
    seats = {c.choice.seat: c.choice.member.id for c in players.clicks}
    assert sorted(seats) == [0, 1] and seats[0] == alice.id and seats[1] == bob.id
    assert {c.outcome for c in players.clicks} == {"applied"}

    # A hand is only ever shown privately to its owner; the public message never shows one.
    hands = 0
    for message, payload in fake.payloads():
        ids = [str(c.get("custom_id")) for c in walk_components(payload.get("components"))]
        ids = [c for c in ids if c.startswith(ACTION_PREFIX)]
        if not ids:
            continue
        hands += 1
        assert message.visible_to is not None and message.ephemeral, message
        for custom_id in ids:
            _, seat, _, _ = parse_action_id(custom_id)
            assert seats[seat] == message.visible_to, (custom_id, message)
    assert hands > len(players.clicks)

    assert await bot.stop() == 0
    record = await only_record(bot, fake.guild_id)
    result = replay(record)
    assert result.error is None and result.game.over
    assert len(record["actions"]) > len(players.clicks)
    assert_acknowledged_kept(record, players)
    assert_clean(fake, bot)


# --------------------------------------------------------------------------- kill -9


def safe_clicks(trace: list[Choice]) -> list[int]:
    """Indexes of clicks right after which another person acts (no computer turn pending)."""
    return [k for k in range(len(trace) - 1) if trace[k + 1].index == trace[k].index + 1]


def computer_clicks(trace: list[Choice]) -> list[int]:
    """Indexes of clicks right after which computers act."""
    return [k for k in range(len(trace) - 1) if trace[k + 1].index > trace[k].index + 1]


async def fork_table(
    fake: FakeDiscord, bots: MakeBot, tmp_path: Path
) -> tuple[EuchreTable, dict[str, Any], Path]:
    """Open a table in a bot that is then stopped; the world to fork and its data directory."""
    lobby = bots("lobby")
    await lobby.start()
    table = await EuchreTable.open(fake, fake.member("alice"))
    assert await lobby.stop() == 0
    assert_clean(fake, lobby)
    return table, fake.snapshot(), lobby.data_dir


async def started_on_a_copy(
    fake: FakeDiscord, bots: MakeBot, table: EuchreTable, data: Path, name: str, tmp_path: Path
) -> tuple[BotProcess, Players]:
    """The bot process ``name`` on a copy of the forked table's ``data``, started: alice and
    bob seated, the table started, their hands open."""
    alice, bob = fake.member("alice"), fake.member("bob")
    bot = bots(name, data_dir=shutil.copytree(data, tmp_path / f"data-{name}"))
    await bot.start()
    await seat_and_start(table, alice, bob)
    players = Players(table, [alice, bob])
    await players.open_hands()
    return bot, players


async def reference_run(
    fake: FakeDiscord, bots: MakeBot, table: EuchreTable, data: Path, tmp_path: Path
) -> tuple[dict[str, Any], list[Choice]]:
    """Play the forked table to the end without interruption: its record and its clicks."""
    bot, players = await started_on_a_copy(fake, bots, table, data, "reference", tmp_path)
    assert await players.play() is None
    assert await bot.stop() == 0
    assert_clean(fake, bot)
    trace = [c.choice for c in players.clicks]
    assert {c.outcome for c in players.clicks} == {"applied"}
    return await only_record(bot, fake.guild_id), trace


async def restart(bot: BotProcess, players: Players) -> None:
    """Start the bot again on the same data; the members reopen their hands."""
    await bot.start()
    await players.open_hands()


async def play_to(players: Players, target: Choice) -> Choice:
    """Play until the move of ``target`` is next; that move (not made)."""
    choice = await players.play(stop=lambda c: c.stamp == target.stamp)
    assert choice is not None, f"the game ended before {target!r}"
    assert (choice.seat, choice.code) == (target.seat, target.code), (choice, target)
    return choice


async def kill_holding_the_answer(bot: BotProcess, players: Players, choice: Choice) -> None:
    """Click, let the bot apply the move and send its answer, and kill it before Discord replies."""
    interaction = await players.send(choice, hold=True)
    await asyncio.wait_for(interaction.held_received.wait(), 10.0)
    await bot.kill()
    players.fake.release_held()
    click = players.settled(choice, interaction)
    assert click.outcome == "unanswered"


def kill_points(trace: list[Choice]) -> tuple[int, int, int, int]:
    """Where to kill the bot, as indexes of the reference run's clicks, in game order.

    1. at rest in the middle of the first deal, waiting for a person;
    2. on delivery of a click after which a person is to act;
    3. holding the answer of such a click, in a later deal;
    4. holding the answer of a click after which computers are to act, in a later deal.
    """

    def first(candidates: list[int], after: int, *, later_deal: bool = True) -> int:
        fits = [k for k in candidates if k > after]
        assert fits, f"no click of {candidates} comes after click {after} of {trace}"
        deal = trace[after].stamp[0]
        return next((k for k in fits if trace[k].stamp[0] > deal or not later_deal), fits[0])

    mid_deal = [k for k in range(1, len(trace)) if trace[k].stamp[0] == trace[k - 1].stamp[0]]
    at_rest = first(mid_deal, 1, later_deal=False)
    on_delivery = first(safe_clicks(trace), at_rest + 3, later_deal=False)
    held = first(safe_clicks(trace), on_delivery)
    computers_pending = first(computer_clicks(trace), held)
    return at_rest, on_delivery, held, computers_pending


@pytest.mark.slow
async def test_kill_9_anywhere_and_the_game_ends_as_if_never_interrupted(
    fake: FakeDiscord, bots: MakeBot, tmp_path: Path
) -> None:
    # What is proven here is what survives a kill, not how fast a start-up answers (the
    # answers' budget has tests of its own, on clocks the tests set): a restarted process
    # on a busy machine may take longer than Discord's 3 s to answer its first clicks.
    fake.callback_deadline = None
    table, world, data = await fork_table(fake, bots, tmp_path)
    expected, trace = await reference_run(fake, bots, table, data, tmp_path)
    at_rest, on_delivery, held, computers_pending = kill_points(trace)

    fake.restore(world)
    bot, players = await started_on_a_copy(fake, bots, table, data, "killed", tmp_path)

    # 1. In the middle of a deal, the bot waiting for a person's move.
    await play_to(players, trace[at_rest])
    await bot.kill()
    await restart(bot, players)

    # 2. As soon as Discord delivered a click: the bot may or may not have applied it;
    #    either way the member saw no answer, and clicks again if it is still their turn.
    choice = await play_to(players, trace[on_delivery])
    interaction = await players.send(choice)
    await bot.kill()
    players.settled(choice, interaction)
    await restart(bot, players)

    # 3. Between applying a click and Discord receiving the answer.
    saved = [await play_to(players, trace[held])]
    await kill_holding_the_answer(bot, players, saved[-1])
    await restart(bot, players)

    # 4. The same, where computers were to play next: their turns were never played,
    #    so the restarted bot must play them by itself.
    saved.append(await play_to(players, trace[computers_pending]))
    await kill_holding_the_answer(bot, players, saved[-1])
    await restart(bot, players)

    assert await players.play() is None
    assert table.status == "finished"
    assert await bot.stop() == 0
    assert (bot.starts, bot.kills) == (5, 4)

    record = await only_record(bot, fake.guild_id)
    assert first_difference(record, expected) is None, first_difference(record, expected)
    assert_acknowledged_kept(record, players)
    # The moves whose answers never reached Discord had been saved before answering.
    assert all(record_says(record, choice) for choice in saved)
    assert_clean(fake, bot)
