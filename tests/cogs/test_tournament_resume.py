"""Clicks and commands that come while a restarted bot still resumes its tournament events.

The restart's resume is held on an :class:`asyncio.Event` the test sets: a click on an
event's button, or ``/euchre tournament join``, that comes meanwhile is deferred, waits,
and takes effect once the resume has finished. A resume that failed answers with one
sentence; so does one that outlasts the wait's bound. Neither changes anything.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.discord.app import EuchreBot
from bot.discord.readiness import Readiness
from bot.store import ConnectionLostError, Database
from bot.tables.scheduler import ManualScheduler
from bot.tournaments import Tournament
from cogs.euchre.tournaments import NOT_RESUMED, STILL_RESUMING
from tests.cogs.test_tournament_commands import DIRECTOR, event_harness, new_event, settled
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, Harness, Result, StoredMessage
from tests.kit.waiting import BOUND, until
from tests.sqlite_only import db

__all__ = ["db"]

Resume = Callable[..., Awaitable[list[Tournament]]]


async def a_pairs_event(
    make_harness: MakeHarness, db: Database
) -> tuple[FakeGuild, StoredMessage, int]:
    """A first life, stopped: a pairs event where ada named bob, who has not confirmed yet."""
    h, bot, g = await event_harness(make_harness, db)
    message = await new_event(h, g, format="pairs")
    named = await h.slash(g.member("ada"), "euchre tournament join", {"partner": g.member("bob")})
    assert named.ephemeral and "You're in" in named.content, named.content
    await settled(h, bot)
    assert bot.tournaments is not None
    event_id = bot.tournaments.running[0].state.id
    assert event_id is not None
    stored = h.message(message.id)
    await h.close()  # the bot stops
    return g, stored, event_id


async def restarted(
    make_harness: MakeHarness, db: Database, **harness_options: object
) -> tuple[Harness, EuchreBot, FakeGuild, ManualScheduler, StoredMessage, int]:
    """The first life of :func:`a_pairs_event`, then the bot started again on ``db``, its
    resume waiting for the test to turn the clock; the event's message and id too."""
    first, message, event_id = await a_pairs_event(make_harness, db)
    clock = ManualScheduler()
    h, bot, g = await event_harness(
        make_harness, db, scheduler=clock, like=first, **harness_options
    )
    h.add_message(g.channel, like=message)
    readiness(bot).bound = BOUND  # only ends a test that would hang
    return h, bot, g, clock, message, event_id


def readiness(bot: EuchreBot) -> Readiness:
    """The cog's readiness (its module is loaded anew with each bot's extension)."""
    found: Readiness | None = getattr(bot.get_cog("Euchre"), "events_ready", None)
    assert found is not None
    return found


def held_resume(bot: EuchreBot, clock: ManualScheduler) -> tuple[asyncio.Event, asyncio.Task[None]]:
    """The restarted bot's resume set going by the clock, held until the event is set."""
    release = asyncio.Event()
    runner = bot.tournaments
    assert runner is not None
    resume: Resume = runner.resume

    async def held(*args: object, **kwargs: object) -> list[Tournament]:
        await release.wait()
        return await resume(*args, **kwargs)

    runner.resume = held  # type: ignore[method-assign]
    return release, asyncio.create_task(clock.advance(0))


def dispatched(h: Harness, payload: dict[str, Any]) -> tuple[asyncio.Task[Result], int]:
    """The interaction ``payload`` handled in a task of its own, and its id."""
    return asyncio.create_task(h.dispatch(payload)), int(payload["id"])


async def deferred(h: Harness, handling: asyncio.Task[Result], interaction_id: int) -> None:
    """Until the bot has deferred the interaction (it is waiting, not refused)."""

    def waiting() -> bool:
        assert not handling.done(), "answered while the resume was held"
        return any(s.kind == "defer" and s.interaction_id == interaction_id for s in h.sent)

    await until(waiting, "the interaction deferred")


async def entrants(db: Database, bot: EuchreBot, event_id: int) -> list[tuple[str, bool]]:
    runner = bot.tournaments
    assert runner is not None
    stored = await runner.repo.get(event_id)
    return [(e.display_name.lower(), e.confirmed) for e in stored.entrants]


async def test_a_click_during_the_resume_waits_for_it_and_takes_effect(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g, clock, message, event_id = await restarted(make_harness, db)
    release, resuming = held_resume(bot, clock)
    await until(lambda: "tournaments resume" not in clock.pending, "the resume under way")

    bob = g.member("bob")
    click, iid = dispatched(h, h.build_component(bob, message.id, label="Confirm partner"))
    await deferred(h, click, iid)
    assert await entrants(db, bot, event_id) == [("ada", True), ("bob", False)], "not yet"
    assert not readiness(bot).finished

    release.set()
    await resuming
    answer = await click
    assert answer.ephemeral and answer.content == "You and Ada are a pair.", answer.content
    assert await entrants(db, bot, event_id) == [("ada", True), ("bob", True)]
    await settled(h, bot)
    shown = h.message(message.id).text
    assert f"with {bob.mention}" in shown and "(to confirm)" not in shown, shown


async def test_a_command_during_the_resume_waits_for_it_and_takes_effect(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g, clock, _message, event_id = await restarted(make_harness, db)
    release, resuming = held_resume(bot, clock)

    cy, di = g.member("cy"), g.member("di")
    payload = h.build_slash(cy, "euchre tournament join", {"partner": di})
    command, iid = dispatched(h, payload)
    await deferred(h, command, iid)
    assert [name for name, _ in await entrants(db, bot, event_id)] == ["ada", "bob"]

    release.set()
    await resuming
    answer = await command
    assert answer.ephemeral and answer.content.startswith("You're in."), answer.content
    assert [name for name, _ in await entrants(db, bot, event_id)] == ["ada", "bob", "cy", "di"]


async def test_a_database_out_of_reach_at_the_resume_is_tried_again_and_the_click_takes_effect(
    make_harness: MakeHarness, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart of the database server during the bot's start-up: the resume waits for
    it (warnings, not errors) and the events are resumed all the same."""
    h, bot, g, clock, message, event_id = await restarted(make_harness, db)
    loaded = sys.modules[type(readiness(bot)).__module__]  # the cog's own (reloaded) module
    monkeypatch.setattr(loaded, "RETRY_DELAYS", [0.0, 0.0])
    runner = bot.tournaments
    assert runner is not None
    resume: Resume = runner.resume
    tries = 0

    async def after_two_tries(*args: object, **kwargs: object) -> list[Tournament]:
        nonlocal tries
        tries += 1
        if tries <= 2:
            raise ConnectionLostError("the database is restarting", reason="shutting down")
        return await resume(*args, **kwargs)

    runner.resume = after_two_tries  # type: ignore[method-assign]
    await clock.advance(0)
    assert tries == 3 and readiness(bot).finished and not readiness(bot).failed
    assert [r.getMessage() for r in h.errors] == []
    click = await h.click(g.member("bob"), h.message(message.id), label="Confirm partner")
    assert click.ephemeral and click.content == "You and Ada are a pair.", click.content
    assert await entrants(db, bot, event_id) == [("ada", True), ("bob", True)]


async def test_a_failed_resume_answers_every_click_with_one_sentence(
    make_harness: MakeHarness, db: Database
) -> None:
    # The failure is logged as an error: the answers are checked one by one instead.
    h, bot, g, clock, message, event_id = await restarted(make_harness, db, strict=False)
    release = asyncio.Event()
    runner = bot.tournaments
    assert runner is not None

    async def broken(*args: object, **kwargs: object) -> list[Tournament]:
        await release.wait()
        raise ConnectionError("the database went away")

    runner.resume = broken  # type: ignore[method-assign]
    resuming = asyncio.create_task(clock.advance(0))
    click, iid = dispatched(
        h, h.build_component(g.member("bob"), message.id, label="Confirm partner")
    )
    await deferred(h, click, iid)
    release.set()
    await resuming
    waited = await click
    assert waited.ephemeral and waited.content == NOT_RESUMED, waited.content
    assert readiness(bot).failed
    assert [r.getMessage() for r in h.errors] == ["Tournament events could not be resumed"]

    later = await h.click(g.member("bob"), h.message(message.id), label="Confirm partner")
    assert later.ephemeral and later.content == NOT_RESUMED, later.content
    assert not later.deferred, "a resume that has failed is said at once"
    joined = await h.slash(g.member("cy"), "euchre tournament join", {"partner": g.member("di")})
    assert joined.ephemeral and joined.content == NOT_RESUMED, joined.content
    assert await entrants(db, bot, event_id) == [("ada", True), ("bob", False)], "unchanged"
    director = await h.click(g.member(DIRECTOR), h.message(message.id), label="Cancel")
    assert director.content == NOT_RESUMED


async def test_a_resume_that_outlasts_the_bound_is_one_sentence_and_changes_nothing(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g, clock, message, event_id = await restarted(make_harness, db)
    readiness(bot).bound = 0.0  # the resume never started: the clock is not turned
    late = await h.click(g.member("bob"), h.message(message.id), label="Confirm partner")
    assert late.deferred and late.content == STILL_RESUMING, late.content
    assert await entrants(db, bot, event_id) == [("ada", True), ("bob", False)]

    await clock.advance(0)
    await settled(h, bot)
    answer = await h.click(g.member("bob"), h.message(message.id), label="Confirm partner")
    # with a bound of 0, a click that still waited for the resume would be refused
    assert answer.content == "You and Ada are a pair.", answer.content


@pytest.mark.parametrize("failed", [False, True])
async def test_the_wait_is_over_once_the_step_finishes(failed: bool) -> None:
    gate = Readiness(failed="failed", late="late", bound=BOUND)
    assert not gate.finished
    gate.finish(failed=failed)
    assert gate.finished and gate.failed is failed
