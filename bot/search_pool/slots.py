"""Where a job runs: a worker process of its own, or a thread of this process.

A :class:`ProcessSlot` is one worker process (the standard library's
``ProcessPoolExecutor`` of one worker), started by the ``forkserver`` method: the
server imports the search's modules once, and each worker, a restart's too, is a
fork of it, ready in a moment. A worker that dies (killed, out of memory, a crash
in compiled code) breaks its executor; the slot then starts a new one. One executor
a worker, so a death fails only that worker's job and the others run on.

A background slot (``background``) is a worker for reviews, run at a lower priority
of the operating system (:data:`BACKGROUND_NICENESS`): it takes only the CPU the bot
and the other workers leave, so a review never slows a move, even mid-way.

A worker ends with the process that started it, however that process ends: killed
outright, it leaves no worker (and so no fork server) waiting for work forever.

A :class:`ThreadSlot` runs jobs in a thread of this process (``search_workers = 0``,
for tests: nothing is pickled, and a test's own callables run as they are).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Protocol

__all__ = ["BACKGROUND_NICENESS", "ProcessSlot", "Slot", "ThreadSlot", "worker_pid"]

BACKGROUND_NICENESS: Final = 10
"""How much nicer than the bot a background (review) worker runs: it yields the CPU."""

log = logging.getLogger(__name__)


class Slot(Protocol):
    """Runs one job at a time."""

    name: str
    background: bool
    """A worker for background work (reviews); the others never take it."""

    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Start ``call(*args)``; its outcome as a future of the running loop."""
        ...

    def first_job(self) -> int:
        """Start the worker and wait until it has run a job; its process id.

        It blocks (a process's first worker starts the fork server, which imports the
        search first): call it off the event loop.
        """
        ...

    def crashed(self, error: BaseException) -> bool:
        """Whether ``error`` says the worker died (then :meth:`restart` is due)."""
        ...

    def restart(self) -> None:
        """Replace a dead worker with a new one."""
        ...

    def close(self) -> None:
        """Start no more work; a job under way finishes on its own."""
        ...


def worker_pid() -> int:
    """The process a job runs in (a pool's warm-up job, and tests)."""
    return os.getpid()


def _prepare(modules: Sequence[str], niceness: int) -> None:
    _end_with_parent()
    if niceness:
        os.nice(niceness)
    for name in modules:
        importlib.import_module(name)


def _end_with_parent() -> None:
    """End this worker when the process that started it is gone, even killed by SIGKILL.

    A worker waits for jobs on a pipe whose writing end it holds itself, so its
    parent's death never wakes it. The parent's sentinel, a pipe the parent holds open
    for as long as it lives, does.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)  # nothing to save: a job's answer has nobody to go to

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


class _ExecutorSlot(ABC):
    """A slot over an executor of one worker; a subclass says how the executor is made."""

    name: str
    background: bool = False

    def __init__(self, name: str) -> None:
        self.name = name
        self._executor = self._make()

    @abstractmethod
    def _make(self) -> Executor:
        """A new executor of one worker."""

    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Start ``call(*args)`` on the worker."""
        return asyncio.wrap_future(self._executor.submit(call, *args))

    def first_job(self) -> int:
        """Start the worker: it runs ``worker_pid`` (blocking)."""
        pid: int = self._executor.submit(worker_pid).result()
        return pid

    def crashed(self, error: BaseException) -> bool:
        """A broken executor: its worker died."""
        return isinstance(error, BrokenProcessPool)

    def restart(self) -> None:
        """A new executor (and worker) in place of the broken one."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._make()

    def close(self) -> None:
        """Shut the executor down without waiting for the job under way."""
        self._executor.shutdown(wait=False, cancel_futures=True)


class ProcessSlot(_ExecutorSlot):
    """One worker process, forked from a server that imported ``preload``."""

    def __init__(self, name: str, preload: Sequence[str] = (), *, background: bool = False) -> None:
        """A slot whose worker has the modules ``preload`` imported before its first job.

        ``background``: a review worker, running :data:`BACKGROUND_NICENESS` nicer.
        """
        self._context = multiprocessing.get_context("forkserver")
        self._preload = tuple(preload)
        self.background = background
        if self._preload:
            self._context.set_forkserver_preload(list(self._preload))
        super().__init__(name)

    def _make(self) -> Executor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_prepare,
            initargs=(self._preload, BACKGROUND_NICENESS if self.background else 0),
        )

    def restart(self) -> None:
        """A new worker process in place of the one that died."""
        log.warning("search worker %s died: starting a new one", self.name)
        super().restart()


class ThreadSlot(_ExecutorSlot):
    """One thread of this process (``search_workers = 0``)."""

    def _make(self) -> Executor:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"search-{self.name}")
