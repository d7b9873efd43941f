"""Where a person's click may wait, and the answer that goes out before it does.

Discord gives an interaction 3 seconds for its first answer; a handler that waits on a
slow database (or on a lock another request holds, or on another Discord request) past
that leaves the person with "This interaction failed". So the handler of an interaction
installs a hook (:func:`answer_first_with`): a coroutine function that answers the interaction
first, once (the Discord side defers it, as the handler will finish it). Every place
that can wait awaits :func:`before_waiting` first:

- each round trip to the database begins with it (``bot.store.database``), but one
  read of an idle database may come before the answer (it costs what answering first
  would);
- a :class:`WaitingLock` (a table's lock, an event's) calls it when the lock is held by
  someone else;
- the Discord side's request gate calls it before a request of its own.

Work that never waits answers in one go, as before; work that may wait has its answer
deferred before the first wait, however the handler reached it. The hook runs only in
the task that installed it: a task the handler started (the computers' turns) does not
answer the interaction, and nothing else answers it at the same moment.

This module imports nothing of the project, so every layer may call it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["WaitingLock", "answer_first_with", "before_waiting"]

Hook = Callable[[], Awaitable[None]]
"""Answers the interaction first (does nothing once it has been answered)."""


BRIEF_SPARED: Final = 1
"""Brief waits an interaction may make before its answer without deferring it: one read of
an idle database (a server's settings, a person's preferences) costs one round trip."""


@dataclass(slots=True)
class _Installed:
    hook: Hook
    task: asyncio.Task[object] | None
    spared: int = BRIEF_SPARED


_HOOK: Final[ContextVar[_Installed | None]] = ContextVar("answer_first", default=None)


def answer_first_with(hook: Hook) -> None:
    """For the rest of the current task, :func:`before_waiting` awaits ``hook()`` first.

    Called where an interaction is taken in: each is handled in a task of its own.
    """
    _HOOK.set(_Installed(hook, asyncio.current_task()))


async def before_waiting(*, brief: bool = False) -> None:
    """Something that can wait comes next: answer the interaction at hand first (if any).

    ``brief``: one round trip that waits for nobody (a read of an idle database); the
    first of an interaction goes before its answer, as answering first would cost as much.
    """
    installed = _HOOK.get()
    if installed is None or installed.task is not asyncio.current_task():
        return
    if brief and installed.spared > 0:
        installed.spared -= 1
        return
    await installed.hook()


class WaitingLock(asyncio.Lock):
    """An asyncio lock that answers the interaction at hand before waiting for another holder."""

    async def acquire(self) -> Literal[True]:
        """Acquire the lock; if someone else holds it, :func:`before_waiting` first."""
        if self.locked():
            await before_waiting()
        return await super().acquire()
