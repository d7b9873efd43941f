"""One websocket per Activity instance and person, grouped by the channel the instance runs in.

A socket's first message is its ticket (:class:`~.signin.Ticket`); a bad or expired one
closes it with code 4001, and the client signs in again. Then the socket gets ``hello``
(who they are, their four-colour preference), the table as it is now, and every change
after it: a ``table`` message carries the public table and, for a seated person, their
own part only (``you``), so another seat's hand never reaches their socket. A watcher
(not seated) gets the public table alone. Each socket sends the newest state and drops
the ones in between, so a slow phone never holds the table up, nor piles up messages.

What the person sends is a request (:meth:`~.feed.Feed.request`), at most
:data:`REQUESTS_PER_MINUTE` a minute; a refusal comes back as ``refused`` with the
sentence the buttons would say. A socket that reconnects (a dropped network, a restart
of the bot) sends its ticket again and gets the table as it is now.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web

from bot.errors import UserFacingError

from ..guard import RateLimiter
from .feed import Feed, Snapshot
from .signin import Ticket

__all__ = ["REQUESTS_PER_MINUTE", "Hub"]

log = logging.getLogger(__name__)

REQUESTS_PER_MINUTE: Final = 600
"""Requests one person may send a minute over their sockets, in bursts of a tenth: far above
what a person clicks, and a whole game of their moves fits in one burst."""
SIGNED_OUT: Final = 4001
"""The close code that tells the client to sign in again."""
_FIRST_MESSAGE_SECONDS: Final = 10.0
_LARGEST_MESSAGE: Final = 2048


def _text(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass(eq=False)
class _Socket:
    """One open socket: whose, and the newest text of each kind waiting to go out."""

    ws: web.WebSocketResponse
    ticket: Ticket
    waiting: dict[str, str] = field(default_factory=dict)
    """By kind (``hello``, ``people``, ``table``, ``refused``): the newest of each, in order."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def push(self, kind: str, text: str) -> None:
        self.waiting[kind] = text
        self.wake.set()

    async def write(self) -> None:
        """Send what waits, each kind's newest only, until the socket closes."""
        while not self.ws.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.waiting:
                kind = next(iter(self.waiting))
                text = self.waiting.pop(kind)
                try:
                    await self.ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    return


@dataclass(eq=False)
class _Room:
    """The sockets of one channel, and what they were last sent."""

    guild_id: int
    channel_id: int
    sockets: set[_Socket] = field(default_factory=set)
    extra: list[str] = field(default_factory=list)
    """Messages besides the table, sent to each socket as it joins (``people``)."""

    def people(self) -> str:
        seen: dict[str, dict[str, Any]] = {}
        for s in self.sockets:
            t = s.ticket
            seen[str(t.user_id)] = {"name": t.name, "avatar": t.avatar}
        return _text({"type": "people", "people": seen, "watching": len(seen)})

    def tell_people(self) -> None:
        people = self.people()
        for s in self.sockets:
            s.push("people", people)

    def show(self, snapshot: Snapshot | None) -> None:
        """Send each socket the table as this snapshot shows it to them."""
        public = _table(snapshot, None)
        for s in self.sockets:
            mine = None if snapshot is None else snapshot.seat_of(s.ticket.user_id)
            s.push("table", public if mine is None else _table(snapshot, mine))


def _table(snapshot: Snapshot | None, mine: dict[str, Any] | None) -> str:
    """A ``table`` message: the public table, and the person's own part if they sit there."""
    return _text(
        {"type": "table", "table": None if snapshot is None else snapshot.public, "you": mine}
    )


def _refused(sentence: str) -> str:
    return _text({"type": "refused", "message": sentence})


class Hub:
    """Every Activity socket of the process, by the channel its instance runs in."""

    def __init__(
        self,
        feed: Feed,
        key: bytes,
        *,
        clock: Callable[[], float] = time.time,
        requests_per_minute: int = REQUESTS_PER_MINUTE,
    ) -> None:
        """Sockets over ``feed``, their tickets checked with ``key`` at ``clock``'s time."""
        self.feed = feed
        self.key = key
        self.clock = clock
        self.rooms: dict[int, _Room] = {}
        self.limiter = RateLimiter(requests_per_minute, clock=time.monotonic)

    @property
    def sockets(self) -> int:
        """Sockets open now."""
        return sum(len(room.sockets) for room in self.rooms.values())

    def _room(self, ticket: Ticket) -> _Room:
        room = self.rooms.get(ticket.channel_id)
        if room is None:
            room = self.rooms[ticket.channel_id] = _Room(ticket.guild_id, ticket.channel_id)
            self.feed.watch(ticket.channel_id, room.show)
        return room

    def _leave(self, room: _Room, socket: _Socket) -> None:
        room.sockets.discard(socket)
        if room.sockets:
            room.tell_people()
            return
        self.rooms.pop(room.channel_id, None)
        self.feed.unwatch(room.channel_id)

    async def close_all(self) -> None:
        """Close every socket, telling each client to come back (the process is stopping)."""
        for room in list(self.rooms.values()):
            for s in list(room.sockets):
                await s.ws.close(code=WSCloseCode.SERVICE_RESTART, message=b"restarting")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """A websocket: its ticket first, then the table both ways until it closes."""
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=_LARGEST_MESSAGE)
        await ws.prepare(request)
        ticket = await self._ticket(ws)
        if ticket is None:
            await ws.close(code=SIGNED_OUT, message=b"sign in again")
            return ws
        socket = _Socket(ws, ticket)
        four = await self.feed.four_colour(
            ticket.user_id, await self.feed.current(ticket.channel_id)
        )
        me = {"id": str(ticket.user_id), "name": ticket.name}
        socket.push("hello", _text({"type": "hello", "me": me, "four_colour": four}))
        room = self._room(ticket)
        room.sockets.add(socket)
        writer = asyncio.ensure_future(socket.write())
        try:
            room.tell_people()
            snapshot = await self.feed.current(room.channel_id)
            mine = None if snapshot is None else snapshot.seat_of(ticket.user_id)
            socket.push("table", _table(snapshot, mine))
            await self._serve(room, socket)
        finally:
            self._leave(room, socket)
            socket.wake.set()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        return ws

    async def _ticket(self, ws: web.WebSocketResponse) -> Ticket | None:
        try:
            first = await ws.receive(timeout=_FIRST_MESSAGE_SECONDS)
        except TimeoutError:
            return None
        if first.type != WSMsgType.TEXT:
            return None
        try:
            data = json.loads(first.data)
        except ValueError:
            return None
        return Ticket.read(
            data.get("ticket") if isinstance(data, dict) else None, self.key, self.clock()
        )

    async def _serve(self, room: _Room, socket: _Socket) -> None:
        ticket = socket.ticket
        async for message in socket.ws:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                data = json.loads(message.data)
                if not isinstance(data, dict):
                    raise ValueError("not an object")
            except ValueError:
                socket.push("refused", _refused("That request couldn't be read."))
                continue
            if not self.limiter.allow(str(ticket.user_id)):
                socket.push("refused", _refused("Too many requests: wait a moment."))
                continue
            try:
                await self.feed.request(room.guild_id, room.channel_id, ticket, data)
            except UserFacingError as exc:
                socket.push("refused", _refused(exc.message))
            except Exception:
                log.exception("Activity request %r in channel %d failed", data, room.channel_id)
                socket.push("refused", _refused("Something went wrong on our side."))
