"""The pool hands a free worker the most urgent job, and keeps its reviews within a bound."""

from __future__ import annotations

import asyncio

import pytest

from bot.search_pool import DroppedError, Priority, SearchPool, SearchTimeoutError
from tests.search_pool.fakes import HeldSlot


def named(name: str) -> str:
    return name


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_a_free_worker_takes_the_most_urgent_job_then_the_first_come() -> None:
    slot = HeldSlot()
    pool = SearchPool(0, slots=[slot])
    busy = pool.submit(Priority.AUTO_REVIEW, named, "busy")
    asked = [
        (Priority.AUTO_REVIEW, "auto review"),
        (Priority.REVIEW, "review 1"),
        (Priority.PLAY, "daily"),
        (Priority.CLAIM, "claim"),
        (Priority.REVIEW, "review 2"),
        (Priority.HINT, "hint"),
        (Priority.MOVE, "move 1"),
        (Priority.MOVE, "move 2"),
    ]
    futures = [pool.submit(priority, named, name) for priority, name in asked]
    assert [args for _, args, _ in slot.started] == [("busy",)], "one job at a time"
    order = []
    for _ in range(len(asked) + 1):
        slot.finish()
        await settle()
        order.append(slot.started[-1][1][0])
    assert order[:-1] == [
        "move 1",
        "move 2",
        "hint",
        "claim",
        "daily",
        "review 1",
        "review 2",
        "auto review",
    ]
    assert await busy == "busy"
    assert [await f for f in futures] == [name for _, name in asked]
    assert pool.stats.done["MOVE"] == 2 and pool.waiting == 0


async def test_a_full_review_queue_drops_the_oldest_of_the_least_urgent() -> None:
    slot = HeldSlot()
    pool = SearchPool(0, review_queue=2, slots=[slot])
    running = pool.submit(Priority.REVIEW, named, "running")  # on the worker: not waiting
    auto = pool.submit(Priority.AUTO_REVIEW, named, "auto")
    first = pool.submit(Priority.REVIEW, named, "first")
    assert not auto.done()
    second = pool.submit(Priority.REVIEW, named, "second")  # three waiting: one goes
    with pytest.raises(DroppedError):
        await auto
    third = pool.submit(Priority.REVIEW, named, "third")
    with pytest.raises(DroppedError):
        await first
    moves = [pool.submit(Priority.MOVE, named, f"move {n}") for n in range(5)]
    assert not second.done() and not third.done(), "moves never push a review out"
    for _ in range(8):
        slot.finish()
        await settle()
    assert [await f for f in (running, second, third, *moves)] == [
        "running",
        "second",
        "third",
        *(f"move {n}" for n in range(5)),
    ]
    assert pool.stats.dropped == 2


async def test_reviews_run_on_the_background_worker_which_takes_a_move_when_it_waits() -> None:
    front, back = HeldSlot("front"), HeldSlot("back", background=True)
    pool = SearchPool(0, slots=[front, back])
    review = pool.submit(Priority.REVIEW, named, "review")
    other = pool.submit(Priority.AUTO_REVIEW, named, "auto review")
    assert [a for _, a, _ in front.started] == [] and [a for _, a, _ in back.started] == [
        ("review",)
    ], "the foreground never takes a review, even when free"
    first = pool.submit(Priority.MOVE, named, "move 1")
    assert [a for _, a, _ in front.started] == [("move 1",)]
    second = pool.submit(Priority.MOVE, named, "move 2")  # both busy: it waits
    back.finish()
    await settle()
    assert [a for _, a, _ in back.started][-1] == ("move 2",), "a waiting move goes first"
    back.finish()
    front.finish()
    await settle()
    assert [a for _, a, _ in back.started][-1] == ("auto review",)
    assert [a for _, a, _ in front.started] == [("move 1",)]
    back.finish()
    assert [await f for f in (review, other, first, second)] == [
        "review",
        "auto review",
        "move 1",
        "move 2",
    ]


async def test_a_job_past_its_timeout_leaves_the_queue() -> None:
    slot = HeldSlot()
    pool = SearchPool(0, slots=[slot])
    pool.submit(Priority.REVIEW, named, "busy")
    with pytest.raises(SearchTimeoutError):
        await pool.run(Priority.MOVE, named, "late", timeout=0)
    slot.finish()
    await settle()
    assert [args for _, args, _ in slot.started] == [("busy",)], "the late move never ran"
    assert pool.stats.timed_out == 1


async def test_a_dead_worker_is_restarted_and_its_job_tried_once_more() -> None:
    slot = HeldSlot()
    pool = SearchPool(0, slots=[slot])
    job = pool.submit(Priority.HINT, named, "hint")
    slot.started[-1][2].set_exception(ConnectionResetError("the worker died"))
    await settle()
    assert slot.restarts == 1 and len(slot.started) == 2
    slot.finish()
    assert await job == "hint"


async def test_closing_fails_the_waiting_jobs() -> None:
    slot = HeldSlot()
    pool = SearchPool(0, slots=[slot])
    pool.submit(Priority.REVIEW, named, "busy")
    waiting = pool.submit(Priority.MOVE, named, "move")
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        await waiting
    with pytest.raises(RuntimeError, match="closed"):
        await pool.run(Priority.MOVE, named, "after")
