"""A loopback TCP proxy that can stop forwarding without closing anything: a black hole.

Put between a client and a server (the store and the test PostgreSQL), it forwards
both ways until :meth:`BlackHoleProxy.stop`. Then nothing more passes and nothing is
closed, as when the network splits or the server's host freezes: a statement gets no
answer, and a new connection gets no greeting. ``stop(after_request=True)`` splits
right after the next request arrives: it runs on the server, and from its answer on
nothing passes either way (the client hanging up included).

:meth:`BlackHoleProxy.resume` forwards again. By default what was held is delivered
late, in order, as TCP's retransmissions deliver it after a short split (a client that
closed meanwhile is seen closing only then). With ``deliver=False`` the connections
of before stay silent for good, both ends left open, as after a split longer than
TCP's retries: the server never hears of them again. New connections go through.

``delay`` holds each request that many seconds before passing it on (in order): a
database across a slow network, each query answered that much later.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Direction = Literal["request", "answer"]


class _Link:
    """One client connection and its connection to the server."""

    def __init__(self) -> None:
        self.silenced = False
        self.writers: list[asyncio.StreamWriter] = []


class BlackHoleProxy:
    """Forwards 127.0.0.1:``port`` to 127.0.0.1:``target_port``, until told to stop."""

    def __init__(self, target_port: int, *, delay: float = 0.0) -> None:
        """A proxy to ``target_port`` (each request held ``delay`` s); :meth:`start` it."""
        self.target_port = target_port
        self.delay = delay
        self._server: asyncio.Server | None = None
        self._flowing: dict[Direction, asyncio.Event] = {
            "request": asyncio.Event(),
            "answer": asyncio.Event(),
        }
        for event in self._flowing.values():
            event.set()
        self._links: set[_Link] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Listen on a free loopback port."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)

    @property
    def port(self) -> int:
        """The port clients connect to."""
        assert self._server is not None, "start() first"
        return int(self._server.sockets[0].getsockname()[1])

    def url_of(self, url: str) -> str:
        """``url`` (the server's) going through the proxy instead."""
        parts = urlsplit(url)
        netloc = parts.netloc.rsplit(":", 1)[0] if ":" in parts.netloc else parts.netloc
        return urlunsplit(parts._replace(netloc=f"{netloc}:{self.port}"))

    def stop(self, *, after_request: bool = False) -> None:
        """Forward nothing more (``after_request``: once the server answers); close nothing."""
        self._flowing["answer"].clear()
        if not after_request:
            self._flowing["request"].clear()

    def resume(self, *, deliver: bool = True) -> None:
        """Forward again: what was held arrives now, or (``deliver=False``) never."""
        if not deliver:
            for link in self._links:
                link.silenced = True
        for event in self._flowing.values():
            event.set()

    def cut(self) -> None:
        """Close every connection at once, both ends: the client and the server see it."""
        for link in self._links:
            for writer in link.writers:
                writer.close()

    async def close(self) -> None:
        """Stop listening and close every connection."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for link in self._links:
            for writer in link.writers:
                writer.close()
        if self._server is not None:
            await self._server.wait_closed()

    async def _passes(self, link: _Link, direction: Direction) -> None:
        """Until bytes may go ``direction`` on ``link`` (never, once it is silenced)."""
        while True:
            await self._flowing[direction].wait()
            if not link.silenced:
                return
            await asyncio.Event().wait()  # cancelled by close()

    async def _serve(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        link = _Link()
        link.writers.append(client_out)
        self._links.add(link)
        try:
            await self._passes(link, "request")  # a new connection waits for the server too
            try:
                server_in, server_out = await asyncio.open_connection("127.0.0.1", self.target_port)
            except OSError:
                client_out.close()
                return
            link.writers.append(server_out)
            await asyncio.gather(
                self._pump(link, client_in, server_out, "request"),
                self._pump(link, server_in, client_out, "answer"),
            )
        except asyncio.CancelledError:
            pass  # close(): asyncio would log a cancelled connection handler as an error
        finally:
            self._tasks.discard(task)

    async def _pump(
        self,
        link: _Link,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        direction: Direction,
    ) -> None:
        while True:
            try:
                data = await source.read(65536)
            except OSError:
                data = b""
            if direction == "answer" and not self._flowing["answer"].is_set():
                self._flowing["request"].clear()  # the split is whole from here on
            if data and direction == "request" and self.delay > 0:
                await asyncio.sleep(self.delay)
            await self._passes(link, direction)
            if not data:  # the other end closed: so does this one, once it may know
                sink.close()
                return
            try:
                sink.write(data)
                await sink.drain()
            except OSError:
                return
