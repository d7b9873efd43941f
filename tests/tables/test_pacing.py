"""The channel pacer on a hand-driven clock: newest state wins, the budget is never overrun."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

from bot.tables.pacing import (
    DISCORD_LIMITS,
    ChannelLimits,
    ChannelPacer,
    Job,
    Kind,
    Pacers,
    RetryAfter,
)
from bot.tables.scheduler import ManualScheduler


async def settle() -> None:
    """Let the tasks the pacer started run (they never sleep here)."""
    for _ in range(10):
        await asyncio.sleep(0)


class Log:
    """Jobs that note when they ran; a job can be held until released."""

    def __init__(self, clock: ManualScheduler) -> None:
        self.clock = clock
        self.ran: list[tuple[float, str]] = []
        self.gates: dict[str, asyncio.Event] = {}

    def job(self, name: str, *, hold: bool = False) -> Job:
        if hold:
            self.gates[name] = asyncio.Event()

        async def run() -> None:
            self.ran.append((self.clock.now(), name))
            if name in self.gates:
                await self.gates[name].wait()

        return run

    def names(self) -> list[str]:
        return [name for _, name in self.ran]


def pacer(
    clock: ManualScheduler, per: int | None = 5, burst: int | None = None, reserve: int = 0
) -> ChannelPacer:
    """``per`` requests per 5 s, ``burst`` back to back (default: all), ``reserve`` urgent."""
    limits = ChannelLimits(per_period=per, period=5.0, burst=burst or per or 1, reserve=reserve)
    return ChannelPacer(clock, limits)


async def submit(
    p: ChannelPacer, key: Hashable, kind: Kind, job: Job, *, urgent: bool = False
) -> None:
    p.submit(key, kind, job, urgent=urgent)
    await settle()


async def test_the_newest_state_replaces_the_waiting_one_and_one_request_runs_per_key() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock)
    await submit(p, "table", "edit", log.job("state 1", hold=True))
    await submit(p, "table", "edit", log.job("state 2"))
    await submit(p, "table", "edit", log.job("state 3"))
    assert log.names() == ["state 1"], "one request in flight per message"
    assert p.running("table") and p.waiting("table")
    log.gates["state 1"].set()
    await settle()
    assert log.names() == ["state 1", "state 3"], "state 2 was dropped, never sent"
    assert p.dropped == 1 and p.idle


async def test_each_kind_has_its_budget_and_the_sixth_waits_for_the_window() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock)
    for kind in ("edit", "post", "delete"):
        for n in range(6):
            await submit(p, f"{kind} {n}", kind, log.job(f"{kind} {n}"))
    assert len(log.ran) == 15 and all(when == 0 for when, _ in log.ran)
    assert {"edit 5", "post 5", "delete 5"}.isdisjoint(log.names())
    await clock.advance(4.9)
    await settle()
    assert len(log.ran) == 15
    await clock.advance(0.1)
    await settle()
    assert sorted(log.names()[15:]) == ["delete 5", "edit 5", "post 5"]
    assert {when for when, _ in log.ran[15:]} == {5.0}
    assert p.started == {"post": 6, "edit": 6, "delete": 6}


async def test_a_request_in_flight_holds_its_slot_until_a_period_after_it_ends() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock, per=1)
    await submit(p, "a", "edit", log.job("a", hold=True))
    await submit(p, "b", "edit", log.job("b"))
    await clock.advance(10)
    await settle()
    assert log.names() == ["a"], "a slow request still counts"
    log.gates["a"].set()
    await settle()
    await clock.advance(4.9)
    await settle()
    assert log.names() == ["a"]
    await clock.advance(0.1)
    await settle()
    assert log.ran[-1] == (15.0, "b")


async def test_tables_sharing_a_channel_take_turns_oldest_waiting_first() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock)
    for second in range(5):  # table A spends the budget, one edit a second
        await submit(p, "A", "edit", log.job(f"A{second}"))
        await clock.advance(1)
    await submit(p, "B", "edit", log.job("B0"))  # t=5: A0's slot is free again: B goes
    assert log.ran[-1] == (5.0, "B0")
    await submit(p, "A", "edit", log.job("A5"))  # waits for A1's slot (t=6)
    await submit(p, "B", "edit", log.job("B1"))  # waits behind A5
    await submit(p, "A", "edit", log.job("A6"))  # replaces A5, keeps its place
    await clock.advance(1)
    await settle()
    assert log.ran[-1] == (6.0, "A6")
    await clock.advance(1)
    await settle()
    assert log.ran[-1] == (7.0, "B1")
    assert "A5" not in log.names()


async def test_a_429_is_waited_out_and_the_newest_state_still_goes() -> None:
    clock = ManualScheduler()
    p = pacer(clock)
    sent: list[tuple[float, str]] = []
    refusals = iter([True, False])

    def job(name: str) -> Job:
        async def run() -> None:
            if name == "old" and next(refusals):
                raise RetryAfter(2.0)
            sent.append((clock.now(), name))

        return run

    await submit(p, "t", "edit", job("old"))
    assert sent == [] and p.waiting("t") and p.retried == 1
    await clock.advance(2)
    await settle()
    assert sent == [(2.0, "old")], "nothing newer: the refused state goes again"

    refusals = iter([True])
    await submit(p, "t", "edit", job("old"))
    await submit(p, "t", "edit", job("new"))
    await clock.advance(2)
    await settle()
    assert sent[-1] == (4.0, "new") and [n for _, n in sent].count("old") == 1


async def test_cancel_drops_a_waiting_job_and_flush_waits_for_the_rest() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock, per=1)
    await submit(p, "a", "post", log.job("a"))
    await submit(p, "b", "post", log.job("b"))
    await submit(p, "c", "post", log.job("c"))
    assert p.cancel("b") and not p.cancel("b")
    flushed = asyncio.ensure_future(p.flush())
    await settle()
    assert not flushed.done()
    await clock.advance(5)
    await settle()
    assert flushed.done() and log.names() == ["a", "c"]


async def test_pacers_keep_one_pacer_per_channel_and_flush_them_all() -> None:
    clock = ManualScheduler()
    pacers = Pacers(clock, ChannelLimits.unlimited())
    assert pacers.of(1) is pacers.of(1) and pacers.of(1) is not pacers.of(2)
    log = Log(clock)
    for n in range(20):
        pacers.of(1).submit(n, "edit", log.job(str(n)))
    assert await pacers.flush(1.0)
    assert len(log.ran) == 20, "no limit: nothing waits"


async def test_past_a_short_burst_requests_go_a_fifth_of_the_period_apart() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock, burst=2)
    for n in range(5):
        await submit(p, n, "edit", log.job(str(n)))
    for _ in range(50):
        await clock.advance(0.25)
        await settle()
    assert [when for when, _ in log.ran] == [0.0, 0.0, 1.0, 2.0, 3.0]
    for n in range(5, 8):  # t = 12.5: the window is empty again, so a burst may go
        await submit(p, n, "edit", log.job(str(n)))
    for _ in range(8):
        await clock.advance(0.25)
        await settle()
    starts = [when for when, _ in log.ran]
    assert starts[5:] == [12.5, 12.5, 13.5]
    assert all(sum(s <= t < s + 5 for t in starts) <= 5 for s in starts), "5 in any 5 s"


async def test_a_reserved_slot_lets_an_urgent_state_past_a_stream_of_others() -> None:
    clock = ManualScheduler()
    log, p = Log(clock), pacer(clock, reserve=1)
    for n in range(5):
        await submit(p, f"computer {n}", "edit", log.job(f"computer {n}"))
    assert len(log.ran) == 4, "the last slot is kept for an urgent state"
    await submit(p, "person", "edit", log.job("person"), urgent=True)
    assert log.ran[-1] == (0.0, "person")
    await clock.advance(5)
    await settle()
    assert log.ran[-1] == (5.0, "computer 4")


def test_discords_limits_keep_a_slot_for_urgent_states_and_space_past_a_burst() -> None:
    assert DISCORD_LIMITS.per_period == 5 and DISCORD_LIMITS.period == 5.0
    assert DISCORD_LIMITS.reserve == 1 and DISCORD_LIMITS.burst == 2
