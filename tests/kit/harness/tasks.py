"""The scheduler side of the harness: the tasks each dispatch spawned, and settling them.

It waits until they finish (no sleeps in tests) and checks the ERROR logs and
unexpected calls each one caused.

Uses, from the other parts of :class:`~tests.kit.harness.Harness`: ``settle_timeout``,
``strict``, ``errors``, and the task owners filled by the task factory
(:mod:`tests.kit.harness.discord_internals`).
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol, cast

from tests.kit.contract import ContractError
from tests.kit.harness.records import (
    HarnessError,
    HarnessTimeoutError,
    UnexpectedRequestError,
    _Dispatch,
)


class _TaskOwner(Protocol):
    """A running harness as the task tracking of another sees it."""

    def _owns_current_task(self) -> bool: ...

    def _on_log_error(self, record: logging.LogRecord) -> None: ...


class _LogCapture(logging.Handler):
    def __init__(self, harness: _TaskOwner) -> None:
        super().__init__(level=logging.ERROR)
        self._harness = harness

    def emit(self, record: logging.LogRecord) -> None:
        self._harness._on_log_error(record)


_BACKGROUND_QUALNAMES = (
    "BaseView.__timeout_task_impl",  # a view's timeout timer
    ".<locals>.inner_call",  # delete_after= timers on interaction responses
    "Message.delete.<locals>.delete",  # message.delete(delay=...)
)


def default_background(task: asyncio.Task[Any]) -> bool:
    """Tasks that wait on a timer by design; dispatches do not wait for them."""
    qualname = getattr(task.get_coro(), "__qualname__", "")
    return any(qualname.endswith(q) for q in _BACKGROUND_QUALNAMES)


def _describe_task(task: asyncio.Task[Any]) -> str:
    """Name a task and where it is waiting (the innermost awaited coroutine)."""
    coro: Any = task.get_coro()
    where: list[str] = []
    while coro is not None and hasattr(coro, "cr_frame"):
        frame = coro.cr_frame
        if frame is not None:
            where.append(f"{frame.f_code.co_name} ({frame.f_code.co_filename}:{frame.f_lineno})")
        coro = getattr(coro, "cr_await", None)
    chain = " -> ".join(where[-3:])
    return f"{task.get_name()}: {chain or task.get_coro()!r}"


_ACTIVE: list[_TaskOwner] = []


class _Tasks:
    """Track, settle and check the work each dispatch started."""

    async def _run_owned(self, owner: _Dispatch, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run a coroutine in a task owned by ``owner`` (its logs and calls are attributed)."""
        self._dispatching = owner
        try:
            task = asyncio.ensure_future(coro)
        finally:
            self._dispatching = None
        return await task

    def _current_owner(self) -> _Dispatch:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        owner = self._owners.get(task) if task is not None else None
        return owner or self._root_dispatch

    def _owns_current_task(self) -> bool:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return False
        return task is not None and task in self._owners

    def _on_log_error(self, record: logging.LogRecord) -> None:
        owner = self._current_owner()
        if owner is self._root_dispatch and any(
            other is not self and other._owns_current_task() for other in _ACTIVE
        ):
            return  # another (nested) harness' bot logged it: that harness reports it
        self.errors.append(record)
        owner.errors.append(record)

    def _check(self, dispatch: _Dispatch, *, allow_errors: bool, what: str) -> None:
        if dispatch.broken:
            broken, dispatch.broken = dispatch.broken, []
            violations = [v for error in broken for v in error.violations]
            requests = ", ".join(dict.fromkeys(error.request for error in broken))
            raise ContractError(f"during {what}: {requests}", violations)
        self._check_answer_time(dispatch, what)
        if dispatch.unexpected:
            problems, dispatch.unexpected = dispatch.unexpected, []
            raise UnexpectedRequestError(f"during {what}: " + "; ".join(problems))
        if self.strict and not allow_errors and dispatch.errors:
            lines = []
            for record in dispatch.errors:
                lines.append(f"[{record.name}] {record.getMessage()}")
                if record.exc_info and record.exc_info[1] is not None:
                    lines.append("".join(traceback.format_exception(*record.exc_info)))
            dispatch.errors = [] if dispatch is self._root_dispatch else dispatch.errors
            raise HarnessError(
                f"the bot logged errors during {what} (pass allow_errors=True if expected):\n"
                + "\n".join(lines)
            )

    async def _settle(self, dispatches: Sequence[_Dispatch] | None) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settle_timeout
        me = asyncio.current_task()

        def owned() -> list[tuple[asyncio.Task[Any], _Dispatch]]:
            # Each dispatch lists the tasks it owns: no need to scan every task of the run.
            if dispatches is None:
                return list(self._owners.items())
            return [(t, d) for d in dispatches for t in list(d.tasks)]

        while True:
            pending = [
                t
                for t, owner in owned()
                if not t.done()
                and t is not me
                and not self._is_background(t)
                and owner.label != "login"
            ]
            if not pending:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                message = (
                    f"tasks still running after {self.settle_timeout}s (now cancelled):\n  "
                    + "\n  ".join(_describe_task(t) for t in pending)
                )
                for task in pending:  # so the harness stays usable after the failure
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                raise HarnessTimeoutError(message)
            await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        for task, owner in owned():
            if task.done():
                # Settled: forget the task, so later settles don't rescan a long history.
                self._owners.pop(task, None)
            if task.done() and not task.cancelled():
                exc = task.exception()  # retrieve it, so asyncio does not warn later
                if exc is not None and not getattr(task, "_harness_seen", False):
                    cast(Any, task)._harness_seen = True
                    record = logging.LogRecord(
                        "tests.kit.harness",
                        logging.ERROR,
                        __file__,
                        0,
                        "task %s raised",
                        (task.get_name(),),
                        (type(exc), exc, exc.__traceback__),
                    )
                    owner.errors.append(record)
                    self.errors.append(record)

    def _is_background(self, task: asyncio.Task[Any]) -> bool:
        if default_background(task):
            return True
        return self._background_extra is not None and self._background_extra(task)

    def forget(self) -> None:
        """Drop the records of what already happened, keeping every message as it is now.

        The harness keeps each HTTP call, each message's earlier versions and each
        interaction's calls for assertions; a long run (a benchmark) does not need them.
        Interactions stay answerable (their tokens are kept); one whose handlers are still
        running, or finished since the previous call, keeps its records until the next.
        """
        self.sent.clear()
        for message in self.messages.values():
            message.history.clear()
        for dispatch in self._finished:
            dispatch.sent.clear()
            dispatch.tasks.clear()
            dispatch.payload = None
            dispatch.interaction = None
        waiting, self._unforgotten, self._finished = self._unforgotten, [], []
        for dispatch in waiting:
            done = dispatch.tasks and all(t.done() for t in dispatch.tasks)
            (self._finished if done else self._unforgotten).append(dispatch)

    def take_errors(self, match: str) -> list[logging.LogRecord]:
        """The ERROR records logged so far whose message holds ``match``, for the test to check.

        They are taken out of what the harness fails on: errors the test provoked.
        """
        taken = [r for r in self.errors if match in r.getMessage()]
        dispatches = [self._root_dispatch, *self._unchecked, *self._owners.values()]
        for dispatch in [*dispatches, *self._finished, *self._unforgotten]:
            dispatch.errors = [r for r in dispatch.errors if r not in taken]
        return taken

    async def settle(self) -> None:
        """Wait for every task any dispatch or gateway event spawned (not view timers).

        Raises like a dispatch would for errors logged while handling gateway events.
        """
        await self._settle(None)
        unchecked, self._unchecked = self._unchecked, []
        for dispatch in unchecked:
            self._check(dispatch, allow_errors=False, what=f"gateway event {dispatch.label}")
