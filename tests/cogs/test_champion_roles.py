"""The champion role through the real bot: given at the end, taken back when its time is up.

The roles go through the fake Discord's member-role routes (PUT and DELETE, refused
as Discord refuses them); the time is a manual clock, and the runner's clock follows it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.discord.app import EuchreBot
from bot.store import Database
from bot.tables.scheduler import ManualScheduler
from tests.cogs.test_tournament_commands import (
    DIRECTOR,
    MEMBERS,
    db,
    event_harness,
    settled,
)
from tests.conftest import MakeHarness
from tests.kit.harness import DEFAULT_BOT_PERMISSIONS, FakeGuild, Harness

__all__ = ["db"]

EPOCH = datetime(2030, 5, 1, 19, 0, tzinfo=UTC)
HOURS = 2
ROLE_ROUTE = "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"
MANAGER = discord.Permissions(
    DEFAULT_BOT_PERMISSIONS.value | discord.Permissions(manage_roles=True).value
)


def cog_of(bot: EuchreBot) -> object:
    cog = bot.get_cog("Euchre")
    assert cog is not None
    return cog


async def on_clock(
    make_harness: MakeHarness, db: Database, start: float = 0.0, like: FakeGuild | None = None
) -> tuple[Harness, EuchreBot, FakeGuild, ManualScheduler]:
    """The bot on a manual clock (its runner's wall clock follows), the bot managing roles.

    A first life has its start-up's resume (of nothing) done; a restart's (``like``) runs
    when the test turns the clock, once it has set Discord up as the bot finds it.
    """
    clock = ManualScheduler(start)
    h, bot, g = await event_harness(make_harness, db, scheduler=clock, like=like)
    assert bot.tournaments is not None
    if like is None:
        await clock.advance(0)
    bot.tournaments.clock = lambda: EPOCH + timedelta(seconds=clock.now())
    bot_role = g.me.role_ids[0] if g.me is not None else 0
    update = g.role(bot_role)
    assert update is not None
    update["permissions"] = str(MANAGER.value)
    h.gateway("GUILD_ROLE_UPDATE", {"guild_id": str(g.id), "role": update})
    return h, bot, g, clock


async def turn(h: Harness, bot: EuchreBot, clock: ManualScheduler) -> None:
    await clock.advance(0)
    await settled(h, bot)
    cog = cog_of(bot)
    roles = getattr(cog, "champion_roles", None)
    if roles is not None:
        await roles.settle()
    await clock.advance(0)
    await settled(h, bot)


async def play_to_the_end(
    h: Harness,
    bot: EuchreBot,
    g: FakeGuild,
    clock: ManualScheduler,
    after_start: Callable[[], None] | None = None,
    **options: object,
) -> int:
    """An event of one round of one deal, four members in, played out; its id."""
    created = await h.slash(
        g.member(DIRECTOR),
        "euchre tournament new",
        {"name": "Cup", "rounds": 1, "deals": 1, "check_in": 0, **options},
    )
    assert not created.ephemeral, created.content
    message = h.last_public_message(g.channel)
    for name in MEMBERS[:4]:
        await h.click(g.member(name), h.message(message.id), label="Join")
    await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    runner = bot.tournaments
    assert runner is not None
    event_id = runner.running[0].state.id
    assert event_id is not None
    if after_start is not None:
        after_start()
    await play_round(h, bot, clock, event_id)
    assert (await runner.load(event_id)).phase == "finished"
    return event_id


async def play_round(h: Harness, bot: EuchreBot, clock: ManualScheduler, event_id: int) -> None:
    """Members take their turns, ordering up when they may, until the round ends."""
    runner = bot.tournaments
    assert runner is not None
    for _ in range(500):
        await turn(h, bot, clock)
        if (await runner.load(event_id)).phase != "playing":
            break
        for table in list(bot.tables.open_tables):
            game = table.game
            if game is None or game.turn is None:
                continue
            seat = table.seats[game.turn]
            assert seat is not None and seat.user_id is not None
            legal = game.legal()  # someone orders up: a deal that scores, one side champions
            action = next((a for a in legal if a.do != "pass" and not a.alone), legal[0])
            await (await bot.tables.fetch(table.id)).turns.act(
                seat.user_id, game.turn, table.stamp, action
            )
        await asyncio.sleep(0)
    await turn(h, bot, clock)


def champion_names(bot: EuchreBot, g: FakeGuild, event_id: int) -> list[str]:
    runner = bot.tournaments
    assert runner is not None
    event = runner.events.current(event_id)
    names = {n.casefold() for line in event.champions() for n in line.names}
    assert names
    return [m for m in MEMBERS if m in names]


def texts(h: Harness, g: FakeGuild) -> str:
    return "\n".join(m.text for m in h.public_messages(g.channel))


async def test_the_champions_hold_the_role_until_its_time_is_up(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g, clock = await on_clock(make_harness, db)
    role_id = g.add_role("Champion")
    event_id = await play_to_the_end(
        h, bot, g, clock, champion_role=role_id, champion_hours=HOURS, break_minutes=5
    )
    runner = bot.tournaments
    assert runner is not None
    settings = runner.events.current(event_id).state.settings
    assert (settings.champion_role_id, settings.champion_role_hours) == (role_id, HOURS)
    assert settings.break_minutes == 5

    champions = champion_names(bot, g, event_id)
    others = [m for m in MEMBERS[:4] if m not in champions]
    assert all(role_id in g.member(m).role_ids for m in champions)
    assert not any(role_id in g.member(m).role_ids for m in others)
    shown = texts(h, g)
    for name in champions:
        assert f"<@{g.member(name).id}> holds <@&{role_id}> until" in shown, shown
    assert len(await runner.repo.champion_roles()) == len(champions)

    await clock.advance(HOURS * 3600 - 60)
    await turn(h, bot, clock)
    assert all(role_id in g.member(m).role_ids for m in champions), "not before its time"
    await clock.advance(120)
    await turn(h, bot, clock)
    assert not any(role_id in g.member(m).role_ids for m in champions)
    assert await runner.repo.champion_roles() == []
    removed = [s for s in h.sent if s.kind == "member_role" and s.method == "DELETE"]
    assert len(removed) == len(champions)


@pytest.mark.parametrize("expired", [True, False])
async def test_a_restart_takes_the_role_back_when_its_time_is_up(
    make_harness: MakeHarness, db: Database, expired: bool
) -> None:
    h, bot, g, clock = await on_clock(make_harness, db)
    role_id = g.add_role("Champion")
    event_id = await play_to_the_end(h, bot, g, clock, champion_role=role_id, champion_hours=HOURS)
    champions = champion_names(bot, g, event_id)
    await bot.close()

    later = clock.now() + (HOURS * 3600 + 60 if expired else 600)
    h2, bot2, g2, clock2 = await on_clock(make_harness, db, start=later, like=g)
    assert g2.add_role("Champion", id=role_id) == role_id
    for name in champions:  # Discord kept the role while the bot was down
        g2.member(name).role_ids.append(role_id)
    await turn(h2, bot2, clock2)
    runner2 = bot2.tournaments
    assert runner2 is not None
    held = [role_id in g2.member(m).role_ids for m in champions]
    if expired:
        assert not any(held), "taken back at once"
        assert await runner2.repo.champion_roles() == []
        return
    assert all(held)
    roles = getattr(cog_of(bot2), "champion_roles", None)
    assert roles is not None and len(roles.timed) == len(champions)
    await clock2.advance(HOURS * 3600)
    await turn(h2, bot2, clock2)
    assert not any(role_id in g2.member(m).role_ids for m in champions)
    assert await runner2.repo.champion_roles() == []


@pytest.mark.parametrize(
    ("trouble", "sentence"),
    [
        ("forbidden", "I lack the Manage Roles permission, or the role is above my highest role"),
        ("deleted", "the champion role no longer exists"),
        ("left", "they have left"),
    ],
)
async def test_a_role_the_bot_cannot_give_is_one_sentence_and_the_event_ends(
    make_harness: MakeHarness, db: Database, trouble: str, sentence: str
) -> None:
    h, bot, g, clock = await on_clock(make_harness, db)
    role_id = g.add_role("Champion")

    def trouble_comes() -> None:
        if trouble == "deleted":
            g.delete_role(role_id)
        elif trouble == "forbidden":
            h.fail_http("PUT", ROLE_ROUTE, times=8)
        else:
            h.fail_http(
                "PUT", ROLE_ROUTE, status=404, code=10007, message="Unknown Member", times=8
            )

    event_id = await play_to_the_end(
        h, bot, g, clock, champion_role=role_id, after_start=trouble_comes
    )
    runner = bot.tournaments
    assert runner is not None
    champions = champion_names(bot, g, event_id)
    shown = texts(h, g)
    assert "has finished" in shown
    for name in champions:
        line = f"⚠️ I couldn't give the champion role to <@{g.member(name).id}>: {sentence}."
        assert line in shown, shown
    assert not any(role_id in g.member(m).role_ids for m in MEMBERS)
    assert await runner.repo.champion_roles() == []


@pytest.mark.parametrize(
    ("setup", "options", "refusal"),
    [
        ("no permission", {}, "I need the Manage Roles permission to give **Champion**"),
        ("above", {}, "**Champion** is above my highest role"),
        ("fine", {"champion_hours": 3, "champion_role": None}, "Choose a champion_role"),
    ],
)
async def test_a_champion_role_the_bot_could_not_give_is_refused_at_once(
    make_harness: MakeHarness,
    db: Database,
    setup: str,
    options: dict[str, object],
    refusal: str,
) -> None:
    if setup == "no permission":
        h, bot, g = await event_harness(make_harness, db)
        role_id = g.add_role("Champion")
    else:
        h, bot, g, _ = await on_clock(make_harness, db)
        role_id = g.add_role("Champion", above_bot=setup == "above")
    chosen = {"champion_role": role_id, **options}
    result = await h.slash(
        g.member(DIRECTOR),
        "euchre tournament new",
        {k: v for k, v in chosen.items() if v is not None},
    )
    assert result.ephemeral and refusal in result.content, result.content
    assert bot.tournaments is not None and not bot.tournaments.running
