"""Hostile and random traffic through the real bot: nothing breaks, every record replays.

Hypothesis drives sequences of interactions through the harness: slash commands with
random options, clicks on any component of any message a member can see (disabled ones
too, as a forged client would), seats picked with made-up values, custom_ids that look
valid and ones that are garbage, and time passing (turn limits, idle tables). After every
step each interaction has been answered; at the end every table's stored record replays
to exactly the game the table shows. An ERROR log fails the run (the harness is strict).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.players import make_player
from bot.rules import public_view, replay
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database, TableRepo
from bot.tables import Table, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.scheduler import ManualScheduler
from tests.kit.harness import FakeGuild, Harness, HarnessError, find_components

MEMBERS = ["alice", "bob", "carol", "dave", "erin"]
COMMANDS = [
    "euchre new",
    "euchre hand",
    "euchre leave",
    "euchre abort",
    "euchre help",
    "euchre rules show",
    "euchre settings show",
    "euchre export",
    "euchre standings",
]
"""Commands without required options (one that no longer exists is skipped)."""
ANSWERED = ("response", "defer", "defer_update", "update", "modal")
ANSWER_WITHIN = 0.5
"""Seconds of the harness's clock within which every click, claimed or not, is answered."""
BETWEEN_CLICKS = 2.5
"""Seconds of the harness's clock from one step of a plan to the next."""

ids = st.integers(min_value=0, max_value=12)
codes = st.sampled_from(
    [
        "pass",
        "order_up",
        "order_up.alone",
        "call.S",
        "call.H.with",
        "play.JD",
        "play.ZZ",
        "discard.9C",
        "alone",
        "redeal",
        "ask.1",
        "swap.9C-10C",
        "play.10H",
        "x",
    ]
)
valid_looking = st.one_of(
    st.builds(
        lambda t, v: f"euchre:t:{t}:{v}",
        ids,
        st.sampled_from(["join", "leave", "cpu", "start", "hand", "rules", "again", "back"]),
    ),
    st.builds(lambda t: f"euchre:seat:{t}", ids),
    st.builds(
        lambda t, s, d, i, c, p: f"euchre:a:{t}:{s}:{d}:{i}:{c}" + (f":{p}" if p else ""),
        ids,
        st.integers(0, 5),
        st.integers(0, 3),
        st.integers(0, 40),
        codes,
        st.none() | st.integers(0, 9),
    ),
)
garbage = st.text(min_size=1, max_size=100)
custom_ids = st.one_of(valid_looking, garbage, st.builds(lambda s: "euchre:" + s, garbage))

steps = st.one_of(
    st.tuples(st.just("slash"), st.sampled_from(MEMBERS), st.sampled_from(COMMANDS)),
    st.tuples(
        st.just("slash"),
        st.sampled_from(MEMBERS),
        st.just("euchre new"),
        st.text(min_size=1, max_size=100),
    ),
    st.tuples(st.just("click"), st.sampled_from(MEMBERS), st.integers(0, 50), st.integers(0, 30)),
    st.tuples(st.just("click"), st.sampled_from(MEMBERS), st.integers(0, 50), st.integers(0, 30)),
    st.tuples(st.just("click"), st.sampled_from(MEMBERS), st.integers(0, 50), st.integers(0, 30)),
    st.tuples(
        st.just("select"),
        st.sampled_from(MEMBERS),
        st.integers(0, 50),
        st.one_of(st.sampled_from(["0", "1", "2", "3", "5"]), garbage),
    ),
    st.tuples(st.just("forge"), st.sampled_from(MEMBERS), st.integers(0, 50), custom_ids),
    st.tuples(st.just("time"), st.sampled_from([1.0, 20.0, 40.0, 400.0])),
)


@dataclass
class World:
    h: Harness
    bot: EuchreBot
    clock: ManualScheduler
    guild: FakeGuild
    db: Database


def visible_messages(world: World, name: str) -> list[Any]:
    member = world.guild.member(name)
    return [
        m
        for m in world.h.messages.values()
        if not m.deleted
        and m.components
        and (m.visible_to is None or m.visible_to == member.id)
        and m.channel_id in world.guild.channel_ids.values()
    ]


async def check_answered(world: World, iid: int) -> None:
    await world.clock.advance(ANSWER_WITHIN)
    answers = [s for s in world.h.sent if s.interaction_id == iid and s.kind in ANSWERED]
    assert answers, f"interaction {iid} was not answered within {ANSWER_WITHIN} s"
    await world.clock.advance(BETWEEN_CLICKS - ANSWER_WITHIN)


async def run_step(world: World, step: tuple[Any, ...]) -> None:
    h, kind = world.h, step[0]
    if kind == "time":
        await world.clock.advance(step[1])
        return
    member = world.guild.member(step[1])
    if kind == "slash":
        options = {"rules": step[3]} if len(step) > 3 else None
        try:
            payload = h.build_slash(member, step[2], options, channel=world.guild.channel)
        except (LookupError, HarnessError, ValueError, TypeError):
            return  # no such command or option (any more): Discord would not send it
        result = await h.dispatch(payload, expect_response=False)
        await check_answered(world, result.interaction_id)
        return
    messages = visible_messages(world, step[1])
    if not messages:
        return
    message = messages[step[2] % len(messages)]
    if kind == "click":
        buttons = [c for c in find_components(message.components, type=(2,)) if c.custom_id]
        if not buttons:
            return
        button = buttons[step[3] % len(buttons)]
        payload = h.build_component(member, message, custom_id=button.custom_id, force=True)
    elif kind == "select":
        selects = find_components(message.components, type=(3,))
        if not selects:
            return
        option = selects[0].options[0]["value"]
        payload = h.build_component(
            member, message, custom_id=selects[0].custom_id, values=[option], force=True
        )
        payload["data"]["values"] = [step[3]]
    else:
        comps = [c for c in find_components(message.components, type=(2,)) if c.custom_id]
        if not comps:
            return
        payload = h.build_component(member, message, custom_id=comps[0].custom_id, force=True)
        payload["data"]["custom_id"] = step[3]
        if step[2] % 2:  # sometimes the forged id is on the message too, so it gets parsed
            first = payload["message"]["components"][0]["components"][0]
            first["custom_id"] = step[3]
    result = await h.dispatch(payload, expect_response=False)
    await check_answered(world, result.interaction_id)


async def check_records(world: World) -> int:
    """Check every table against its stored record; return how many moves they hold."""
    service = world.bot.tables
    repo = TableRepo(world.db)
    seen: list[Table] = [*service.open_tables]
    moves = 0
    for table_id in range(1, 40):
        try:
            table = service.get_any(table_id)
        except Exception:
            continue
        if table not in seen:
            seen.append(table)
    for table in seen:
        stored = await repo.get(table.id)
        assert stored.status == table.status, (table.id, stored.status, table.status)
        assert [s.seat for s in stored.seats] == [
            n for n, s in enumerate(table.seats) if s is not None
        ]
        if table.game is None:
            assert not stored.actions
            continue
        record = table.record()
        assert [a.action for a in stored.actions] == record["actions"]
        again = replay(record)
        assert again.error is None
        assert again.game.log == table.game.log
        assert public_view(again.game) == public_view(table.game)
        moves += len(table.game.log)
    return moves


async def explore(plan: list[tuple[Any, ...]]) -> int:
    async with await Database.open(":memory:") as db:
        server = FixedSettings(
            ServerSettings(turn_time_limit_seconds=30, timeouts_before_computer=2)
        )
        service = TableService(
            DatabaseTableStore(db), make_player, server_settings=server, seeds=lambda: 7
        )
        clock = ManualScheduler()
        settings_ = Settings(computer_move_delay=0, idle_lobby_minutes=5, idle_game_minutes=10)
        bot = EuchreBot(
            settings_, tables=service, scheduler=clock, channel_limits=ChannelLimits.unlimited()
        )
        async with Harness(bot) as h:
            guild = h.guild(members=MEMBERS)
            world = World(h, bot, clock, guild, db)
            opener = guild.member("alice")
            await h.slash(opener, "euchre new")
            for step in plan:
                await run_step(world, step)
            return await check_records(world)


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(steps, min_size=1, max_size=40))
def test_random_traffic_never_breaks_a_table(plan: list[tuple[Any, ...]]) -> None:
    asyncio.run(explore(plan))


def test_a_scripted_busy_table_survives_the_same_checks() -> None:
    """A fixed plan that surely gets a game going, so the checks see moves."""
    plan: list[tuple[Any, ...]] = []
    for name in MEMBERS[1:4]:
        plan.append(("click", name, 0, 0))  # Join (the first button of the table)
    plan.append(("click", "alice", 0, 3))  # Start
    for i in range(60):
        name = MEMBERS[i % 4]
        plan.append(("click", name, i, i))
        if i % 7 == 0:
            plan.append(("forge", MEMBERS[(i + 1) % 5], i, f"euchre:a:1:{i % 4}:1:{i}:pass"))
        if i % 11 == 0:
            plan.append(("time", 20.0))
    assert asyncio.run(explore(plan)) > 10
