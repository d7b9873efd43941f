"""Answers in time on a slow database, the bot a process: every first answer under 2.5 s.

The same evening twice: on SQLite whose every commit waits 300 ms (the slow-commit hook
of tests/kit/bot_process.py), and on PostgreSQL behind the loopback proxy of
tests/kit/tcp_proxy.py holding each request 300 ms. People open a table, sit, start and
play; a director opens an event, members join, the director starts it and cancels it
(its tables close). The fake Discord refuses a first answer later than 2.5 s and a
follow-up past the token's 15 minutes, and each interaction's first answer is measured
against the budget: these tests time, so they are in the slow set.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord
from tests.kit.fake_players import EuchreTable, Players
from tests.kit.slow_database import ANSWER_BUDGET, ROUND_TRIP
from tests.kit.tcp_proxy import BlackHoleProxy
from tests.kit.tournament_play import DIRECTOR, answered, new_event
from tests.kit.waiting import BOUND

MEMBERS = ["m0", "m1", "m2", "m3"]


def first_answers(fake: FakeDiscord) -> dict[str, float]:
    """Seconds from each interaction's delivery to its first answer, by what it was."""
    seconds = {}
    for interaction in fake.interactions.values():
        answers = [
            r.at for r in fake.requests if r.interaction_id == interaction.id and r.status < 300
        ]
        if answers and interaction.delivered_at is not None:
            what = f"{interaction.what} ({interaction.id})"
            seconds[what] = min(answers) - interaction.delivered_at
    return seconds


async def an_evening(fake: FakeDiscord, bot: BotProcess) -> None:
    """A table played a while, then an event opened, joined, started and cancelled."""
    await bot.start()
    alice, bob = fake.member("alice"), fake.member("bob")
    table = await EuchreTable.open(fake, alice)
    await table.press(bob, "Join")
    await table.press(alice, "Add computer")
    await table.press(alice, "Add computer")
    await table.start(alice)
    players = Players(table, [alice, bob])
    await players.open_hands()
    await players.play(stop=lambda _: len(players.clicks) >= 6)

    event = await new_event(fake, {"name": "Slow night", "rounds": 2, "deals": 1})
    for name in MEMBERS:
        await answered(fake, fake.member(name), event, "Join")
    director = fake.member(DIRECTOR)
    await answered(fake, director, fake.messages[event.id], "Start now")
    await answered(fake, director, fake.messages[event.id], "Cancel")
    await fake.wait_for(
        lambda: "was cancelled" in " ".join(m.content for m in fake.public_messages()),
        timeout=BOUND,
        what="the cancel's notice",
    )
    assert await bot.stop() == 0


def check(fake: FakeDiscord, bot: BotProcess) -> None:
    answers = first_answers(fake)
    assert len(answers) >= 15, answers
    what, slowest = max(answers.items(), key=lambda item: item[1])
    print(f"{len(answers)} interactions, slowest first answer {slowest:.2f} s: {what}")
    assert slowest < ANSWER_BUDGET, f"a first answer took {slowest:.2f} s"
    assert not fake.problems, fake.problems
    assert not bot.faults(), bot.tail()


async def an_evening_on(
    workdir: Path, options: dict[str, object] | None = None, *, slow_commits: float = 0
) -> None:
    """The evening on the bot's database (``options``), checked against the budget."""
    async with FakeDiscord(
        members=["alice", "bob", DIRECTOR, *MEMBERS],
        managers=[DIRECTOR],
        callback_deadline=ANSWER_BUDGET,
    ) as fake:
        bot = BotProcess(fake, workdir, options=options, slow_commits=slow_commits)
        async with bot.killed_at_the_end():
            await an_evening(fake, bot)
        check(fake, bot)


@pytest.mark.slow
async def test_on_sqlite_with_slow_commits_every_answer_comes_in_time(tmp_path: Path) -> None:
    await an_evening_on(tmp_path / "bot", slow_commits=ROUND_TRIP)


@pytest.mark.slow
async def test_on_postgresql_300_ms_away_every_answer_comes_in_time(
    tmp_path: Path, migrated_postgres_url: str
) -> None:
    port = urlsplit(migrated_postgres_url).port
    assert port is not None
    proxy = BlackHoleProxy(port, delay=ROUND_TRIP)
    await proxy.start()
    try:
        url = proxy.url_of(migrated_postgres_url)
        await an_evening_on(tmp_path / "bot", {"database_url": url, "database_timeout": 5.0})
    finally:
        await proxy.close()
