"""The rate per address that forked page processes share (``web_processes`` above 1)."""

from __future__ import annotations

import os

from bot.web.guard import RateLimiter
from bot.web.shared_rates import PROBES, SharedRateLimiter, SharedRates


class _Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_it_allows_what_the_process_own_limiter_allows() -> None:
    clock = _Clock()
    shared, own = SharedRateLimiter(120, clock=clock), RateLimiter(120, clock=clock)
    seen = []
    for step in range(200):
        clock.now += 0.01 if step % 50 else 3.0
        address = f"10.0.0.{step % 4}"
        seen.append((shared.allow(address), own.allow(address)))
    assert [s for s, _ in seen] == [o for _, o in seen]
    assert {s for s, _ in seen} == {True, False}


def test_a_process_forked_after_spends_the_same_bucket() -> None:
    clock = _Clock()
    rates = SharedRates.make(120, clock=clock)
    pid = os.fork()
    if pid == 0:
        code = 0 if all(rates.pages.allow("203.0.113.7") for _ in range(10)) else 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    # a burst of 12: the child took 10 of them
    assert [rates.pages.allow("203.0.113.7") for _ in range(3)] == [True, True, False]
    assert rates.pages.allow("203.0.113.8")
    # the file bucket is apart, ten times larger
    assert sum(rates.files.allow("203.0.113.7") for _ in range(130)) == 120


def test_when_its_slots_are_full_the_address_seen_longest_ago_is_forgotten() -> None:
    clock = _Clock()
    limiter = SharedRateLimiter(60, clock=clock, slots=PROBES)  # every address probes all
    crowd = [f"198.51.100.{n}" for n in range(PROBES + 1)]
    for address in crowd[:PROBES]:
        clock.now += 0.001
        while limiter.allow(address):
            pass
    clock.now += 0.001
    assert limiter.allow(crowd[PROBES])  # took the slot of the one seen longest ago
    assert limiter.allow(crowd[0])  # forgotten: a full burst again (pushing out crowd[1])
    assert not limiter.allow(crowd[2])  # still remembered, still empty
