"""A turn's ping waits ``ping_after`` seconds of the manual clock, and goes only once.

Four people play; the server's ``ping_after`` and each person's ``pings`` preference
decide when the person to act is mentioned. A person who acts in time is never
mentioned; one who looked away is mentioned once, however long they stay away.
"""

from __future__ import annotations

import asyncio

from bot.discord.app import EuchreBot
from bot.server.preference_sources import MemoryPreferences
from bot.server.settings import ServerSettings
from bot.tables import Table
from bot.tables.scheduler import ManualScheduler
from tests.cogs.euchre_driver import act_through_hand, clocked_bot, only_table, started
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, Sent, StoredMessage

NAMES = ["alice", "bob", "carol", "dave"]


class Room:
    """Four people at a started table, on a manual clock."""

    def __init__(self, h: Harness, bot: EuchreBot, clock: ManualScheduler) -> None:
        self.h, self.bot, self.clock = h, bot, clock
        self.people: list[FakeMember] = []
        self.message: StoredMessage | None = None

    @property
    def table(self) -> Table:
        return only_table(self.bot)

    def to_act(self) -> FakeMember:
        game = self.table.game
        assert game is not None and game.turn is not None
        return self.people[game.turn]

    def pings(self, since: int = 0) -> list[Sent]:
        return [
            s for s in self.h.sent[since:] if s.kind == "channel_send" and "<@" in (s.content or "")
        ]

    def pings_of(self, person: FakeMember, since: int = 0) -> list[Sent]:
        return [s for s in self.pings(since) if f"<@{person.id}>" in (s.content or "")]

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of the clock pass, and what they sent go out."""
        await self.clock.advance(seconds)
        for _ in range(100):
            await asyncio.sleep(0)

    async def move(self) -> FakeMember:
        """The person to act takes their turn; who it was."""
        person = self.to_act()
        assert self.message is not None
        await act_through_hand(self.h, self.bot, person, self.message, lambda b: b[0])
        await self.wait(0)
        return person

    async def someone_elses_turn(self) -> FakeMember:
        """Moves until the turn has just passed from one person to another: who is to act."""
        while True:
            mover = await self.move()
            if self.to_act() is not mover:
                return self.to_act()


async def room(
    make_harness: MakeHarness, ping_after: float | None, prefs: MemoryPreferences | None = None
) -> Room:
    bot, clock = clocked_bot(ServerSettings(ping_after=ping_after), preferences=prefs)
    h = await make_harness(bot)
    r = Room(h, bot, clock)
    r.people, r.message = await started(h, NAMES)
    return r


async def test_a_person_who_looks_away_is_pinged_once_after_the_wait(
    make_harness: MakeHarness,
) -> None:
    r = await room(make_harness, 8)
    person = await r.someone_elses_turn()
    before = len(r.h.sent)
    await r.wait(7.9)
    assert r.pings(before) == [], "nobody is mentioned before the server's wait"
    await r.wait(0.2)
    (ping,) = r.pings(before)
    assert f"<@{person.id}>" in (ping.content or "")
    await r.wait(120)
    assert len(r.pings(before)) == 1, "one nudge, however long they stay away"
    await r.move()
    await r.wait(0)
    assert r.h.message(ping.message_id or 0).deleted, "the ping goes when they move"


async def test_a_quick_move_cancels_the_ping(make_harness: MakeHarness) -> None:
    r = await room(make_harness, 8)
    before = len(r.h.sent)
    quick = []
    for _ in range(12):
        person = await r.someone_elses_turn()
        await r.wait(3)
        quick.append(person)
    await r.wait(0)
    assert all(r.pings_of(p, before) == [] for p in quick[:-1])
    assert r.pings(before) == [], "fast players get no pings"
    assert [n for n in r.clock.pending if n.endswith(" ping")] == [f"table {r.table.id} ping"], (
        "only the turn now pending has a ping waiting"
    )


async def test_zero_pings_at_once(make_harness: MakeHarness) -> None:
    r = await room(make_harness, 0)
    before = len(r.h.sent)
    person = await r.someone_elses_turn()
    assert len(r.pings_of(person, before)) == 1, "mentioned at once, no time passing"
    assert not [n for n in r.clock.pending if n.endswith(" ping")]


async def test_off_pings_nobody(make_harness: MakeHarness) -> None:
    r = await room(make_harness, None)
    before = len(r.h.sent)
    await r.someone_elses_turn()
    await r.wait(600)
    assert r.pings(before) == []


async def test_a_person_who_wants_no_pings_gets_none_and_always_is_at_once(
    make_harness: MakeHarness,
) -> None:
    prefs = MemoryPreferences()
    r = await room(make_harness, 8, prefs)
    person = await r.someone_elses_turn()
    await r.bot.preferences.update(person.id, pings="never")
    others = [p for p in r.people if p is not person]
    for other in others:
        await r.bot.preferences.update(other.id, pings="always")
    before = len(r.h.sent)
    while r.to_act() is not person:
        await r.move()
    await r.move()  # the turn passes on from them: the next is someone who wants pings now
    mover = r.to_act()
    while r.to_act() is mover:  # until the turn is newly someone else's
        await r.move()
    assert r.to_act() is not person
    assert r.pings_of(r.to_act(), before), "always: at once, no time passing"
    while r.to_act() is not person:
        await r.move()
    await r.wait(600)
    assert r.pings_of(person, before) == [], "never: not even after the server's wait"
