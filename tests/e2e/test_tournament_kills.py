"""A tournament's bot process killed (SIGKILL) in sign-up, in check-in and between rounds.

Each test runs one bot process on one SQLite database, kills it at that moment and
starts it again: the event goes on where it was, with nothing lost. The members'
clicks on the event message's buttons work after the restart (the buttons carry the
event's id and the event is reloaded from the store), even those that come at once,
while the bot still resumes the event: they wait for it. A kill in the middle of a round
is tests/e2e/test_tournament_process.py.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import Database
from bot.tournaments.repository import TournamentRepo
from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord, Message
from tests.kit.tournament_play import (
    DIRECTOR,
    answered,
    event_id,
    new_event,
    play_round,
    round_tables,
    stored_event,
    wait_for_champion,
    wait_for_next_round,
)
from tests.kit.waiting import BOUND

pytestmark = pytest.mark.slow

MEMBERS = [f"m{n}" for n in range(8)]
PAIRS = [("m0", "m1"), ("m2", "m3"), ("m4", "m5")]


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, workdir: Path) -> AsyncIterator[BotProcess]:
    """A started bot process; killed at the end whatever happened, its log shown."""
    bot = BotProcess(fake, workdir)
    async with bot.killed_at_the_end(show=100):
        await bot.start()
        yield bot


def embed_text(fake: FakeDiscord, message: Message) -> str:
    """The event message's embed as it is now."""
    return str(fake.messages[message.id].payload.get("embeds"))


async def shows(fake: FakeDiscord, message: Message, *parts: str, without: str = "\0") -> None:
    """Until the event message's embed shows every one of ``parts``, and not ``without``."""

    def shown() -> bool:
        text = embed_text(fake, message)
        return all(p in text for p in parts) and without not in text

    try:
        await fake.wait_for(shown, timeout=BOUND, what=f"the event message to show {parts}")
    except TimeoutError as exc:
        raise AssertionError(f"{exc}; it shows {embed_text(fake, message)}") from None


async def test_killed_in_sign_up_everyone_and_a_pending_partner_are_kept(tmp_path: Path) -> None:
    names = MEMBERS[:6]
    async with (
        FakeDiscord(members=[DIRECTOR, *names], managers=[DIRECTOR]) as fake,
        running(fake, tmp_path / "bot") as bot,
    ):
        m = {name: fake.member(name) for name in names}
        event = await new_event(fake, {"name": "Pairs night", "format": "pairs", "rounds": 2})
        for first, second in (("m0", "m1"), ("m2", "m3")):
            joined = await fake.slash(
                m[first], "euchre tournament join", {"partner": str(m[second].id)}
            )
            await joined.wait_answered(BOUND)
        await answered(fake, m["m3"], fake.messages[event.id], "Confirm partner")
        await shows(fake, event, f"with <@{m['m1'].id}> (to confirm)", f"with <@{m['m3'].id}>")
        number = event_id(fake.messages[event.id])

        await bot.kill()
        kept = (await stored_event(bot, number)).state
        assert kept.phase == "signup"
        assert [(e.user_id, e.confirmed) for e in kept.entrants] == [
            (m["m0"].id, True),
            (m["m1"].id, False),
            (m["m2"].id, True),
            (m["m3"].id, True),
        ]

        await bot.start()
        await answered(fake, m["m1"], fake.messages[event.id], "Confirm partner")
        joined = await fake.slash(m["m4"], "euchre tournament join", {"partner": str(m["m5"].id)})
        await joined.wait_answered(BOUND)
        await answered(fake, m["m5"], fake.messages[event.id], "Confirm partner")
        lines = [f"<@{m[a].id}> with <@{m[b].id}>" for a, b in PAIRS]
        await shows(fake, event, "Signed up (6 of 64)", *lines, without="(to confirm)")
        assert embed_text(fake, event).count(" with <@") == 3, "each pair once"
        await bot.stop_clean(kills=1)
        after = (await stored_event(bot, number)).state
        assert after.phase == "signup"
        pairs = {
            frozenset((e.user_id, e.partner_id)) for e in after.entrants if e.partner_id is not None
        }
        assert pairs == {
            frozenset((m[a].id, m[b].id)) for a, b in (("m0", "m1"), ("m2", "m3"), ("m4", "m5"))
        }
        assert all(e.confirmed for e in after.entrants)


async def move_start(bot: BotProcess, number: int, start: datetime) -> None:
    """While the bot is down, the stored event's start moves to ``start``.

    Stands for the time that passes while the bot is down, without waiting for it.
    """
    assert not bot.running
    async with await Database.open(bot.database_url) as db:
        repo = TournamentRepo(db)
        event = await repo.get(number)
        moved = event.settings.model_copy(update={"start_time": start})
        await repo.save(event.model_copy(update={"settings": moved}))


async def test_killed_in_check_in_the_event_starts_at_its_time_with_those_checked_in(
    tmp_path: Path,
) -> None:
    names = MEMBERS[:5]
    async with (
        FakeDiscord(members=[DIRECTOR, *names], managers=[DIRECTOR]) as fake,
        running(fake, tmp_path / "bot") as bot,
    ):
        event = await new_event(
            fake,
            {"name": "Check-in night", "rounds": 1, "deals": 1, "start_in": 60, "check_in": 30},
        )
        await fake.wait_for(
            lambda: [e["name"] for e in fake.scheduled_events] == ["Check-in night"],
            timeout=BOUND,
            what="Discord's own reminder, with the invite's permissions",
        )
        for name in names:
            await answered(fake, fake.member(name), fake.messages[event.id], "Join")
        number = event_id(fake.messages[event.id])
        await bot.kill()  # in sign-up; down until check-in has opened
        await move_start(bot, number, datetime.now(UTC) + timedelta(minutes=20))

        await bot.start()
        await fake.wait_for(
            lambda: "Check in" in [b.label for b in fake.messages[event.id].buttons],
            timeout=BOUND,
            what="check-in to open",
        )
        await fake.wait_for(
            lambda: len(announced(fake, "Check-in for")) == 1, timeout=BOUND, what="check-in told"
        )
        (told,) = announced(fake, "Check-in for")
        assert notified(fake, told) == {fake.member(n).id for n in names}, "only those signed up"
        for name in names[:4]:
            await answered(fake, fake.member(name), fake.messages[event.id], "Check in")
        await shows(fake, event, *(f"<@{fake.member(n).id}> ✅" for n in names[:4]))
        await bot.kill()  # in check-in; down until a few seconds before the start
        kept = (await stored_event(bot, number)).state
        assert kept.phase == "checkin"
        assert [e.checked_in for e in kept.entrants] == [True, True, True, True, False]
        start = datetime.now(UTC) + timedelta(seconds=3)
        await move_start(bot, number, start)

        await bot.start()
        tables = await round_tables(fake, 1, names[:4])
        assert len(tables) == 1
        started = (await stored_event(bot, number)).state
        assert started.phase == "playing"
        assert started.rounds[0].started_at >= start, "not before its time"
        assert [e.user_id for e in started.entrants if e.user_id is not None] == [
            fake.member(n).id for n in names[:4]
        ], "who did not check in was dropped"
        await fake.wait_for(
            lambda: [e["status"] for e in fake.scheduled_events] == [2],
            timeout=BOUND,
            what="Discord's scheduled event active at the start",
        )
        assert len(announced(fake, "Check-in for")) == 1, "check-in told once, across two kills"
        assert len(announced(fake, "See you at the tables")) <= 1, "the reminder at most once"
        await bot.stop_clean(kills=2)


def announced(fake: FakeDiscord, needle: str) -> list[Message]:
    """The channel's announcements holding ``needle``."""
    return [m for m in fake.public_messages() if needle in str(m.payload.get("content"))]


def notified(fake: FakeDiscord, message: Message) -> set[int]:
    """Whom the post of ``message`` was allowed to notify."""
    (post,) = [r for r in fake.requests if r.method == "POST" and r.message_id == message.id]
    allowed = post.body.get("allowed_mentions") or {}
    assert not allowed.get("parse"), "nobody notified by what the text happens to hold"
    return {int(u) for u in allowed.get("users") or []}


async def test_killed_between_rounds_the_director_starts_the_next_round(tmp_path: Path) -> None:
    async with (
        FakeDiscord(members=[DIRECTOR, *MEMBERS], managers=[DIRECTOR]) as fake,
        running(fake, tmp_path / "bot") as bot,
    ):
        director = fake.member(DIRECTOR)
        event = await new_event(fake, {"name": "Two rounds", "rounds": 2, "deals": 1})
        for name in MEMBERS:
            await answered(fake, fake.member(name), fake.messages[event.id], "Join")
        await answered(fake, director, fake.messages[event.id], "Start now")
        await play_round(await round_tables(fake, 1, MEMBERS))
        await wait_for_next_round(fake, event)
        await shows(fake, event, "Standings after round 1 of 2")
        number = event_id(fake.messages[event.id])
        shown = embed_text(fake, event)

        await bot.kill()
        before = await stored_event(bot, number)
        assert before.phase == "between_rounds"

        await bot.start()
        after = await stored_event(bot, number)
        assert after.phase == "between_rounds"
        assert after.standings() == before.standings(), "the standings are as they were"
        assert after.state.rounds == before.state.rounds
        assert embed_text(fake, event) == shown
        await answered(fake, director, fake.messages[event.id], "Next round")
        await play_round(await round_tables(fake, 2, MEMBERS))
        await wait_for_champion(fake, event)
        finished = await stored_event(bot, number)
        assert finished.state.rounds[0] == before.state.rounds[0], "round 1 kept as it was"
        await bot.stop_clean(kills=1)
