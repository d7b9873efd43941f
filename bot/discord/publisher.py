"""The bot's one door to channel messages: table messages, turn pings and notices, paced.

Every post, edit and delete the euchre cogs make in a channel (outside interaction
responses, which Discord budgets apart) goes through the bot's
:class:`~bot.discord.pace.pacing.Pacers`, one per channel: a table's newest state
replaces the one waiting, one request per message is in flight, and the channel's budget
is spent by pacing, shared by every table there. The budget is the one of the channel
the messages go to (``Place.id``): Discord keeps a message route's limits per channel
id, and a thread is a channel of its own, so tables opened in threads of one channel
each have their thread's budget, while notices in the channel itself share its budget.

A turn ping is a new message (a mention added by an edit notifies nobody), one per table
at most: posting a new one deletes the old one. A ping is owed while it is the table's
live ping: :meth:`Publisher.clear_ping` takes it away once it is not (the presenter says
when: its turn is over, or its person clicked at the table), and a ping taken away before
its post went out (waiting for the channel's budget, or held by discord.py's own limiter)
is never posted at all; one already sent is deleted once it lands.

When Discord knows a table's channel (or thread) no more, the publisher's ``on_gone``
hears of it (the presenter closes the table). A request the bot's permissions in the
channel would not allow is not made (Discord would answer 403 and count it against the
bot): the job is dropped, and the first such drop of a channel is logged, naming the
permission (:func:`~bot.discord.pace.permissions.may_send`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

import discord

from bot.discord.pace.pacing import Kind, RetryAfter
from bot.discord.pace.permissions import may_send
from bot.discord.refusals import log_refusal
from bot.discord.tables.publishing import GONE, Shown, newest, publish, too_old_to_edit

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["CALL_TIMEOUT", "Publisher", "TurnPing"]

log = logging.getLogger(__name__)

T = TypeVar("T")

_NO_MENTIONS: Final = discord.AllowedMentions.none()

CALL_TIMEOUT: Final = 60.0
"""Longest :meth:`Publisher.call` waits for its request's turn and answer."""


@dataclass(eq=False, slots=True)
class TurnPing:
    """A turn ping of one table: whom it mentions, where, and its message once posted."""

    key: tuple[str, int, int]
    user_id: int
    channel: discord.PartialMessageable
    message_id: int | None = None


class Publisher:
    """Table messages, pings and notices of every channel, through the bot's pacers."""

    def __init__(
        self, bot: EuchreBot, on_gone: Callable[[Shown], Awaitable[None]] | None = None
    ) -> None:
        """Publish for ``bot``, within its :attr:`~bot.discord.app.EuchreBot.pacers`.

        ``on_gone(table)``: a table's message found its channel deleted.
        """
        self.bot = bot
        self.on_gone = on_gone
        self.pacers = bot.pacers
        self.pings: dict[int, TurnPing] = {}
        """The live turn ping of each table."""
        self._refused: set[tuple[int, str]] = set()
        self._posted: dict[int, int] = {}
        """The message each table was last posted anew as, by this publisher."""
        self._numbers = itertools.count(1)

    def _channel(self, place_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(place_id, guild_id=guild_id)

    # ------------------------------------------------------------------ the table message

    def table(
        self,
        table: Shown,
        render: Callable[[], tuple[discord.Embed, discord.ui.View | None]],
        *,
        post_if_missing: bool = False,
        urgent: bool = False,
    ) -> None:
        """Show ``table`` in its public message when the channel's budget allows.

        ``render`` draws the table when its turn comes, so the newest state goes; a
        request still waiting when another comes is dropped. ``urgent``: a person waits
        to see their own move (it may take the slot the pacer keeps in reserve).
        """
        old = newest(table.message_id, self._posted.get(table.id))
        if old is None and not post_if_missing:
            return
        kind = _table_kind(old)

        async def remember(message_id: int) -> None:
            self._posted[table.id] = message_id
            await self.bot.tables.get_any(table.id).lobby.set_message(message_id)

        async def job() -> None:
            if not self.allowed(table.place.id, kind, embeds=True):
                return
            embed, view = render()
            outcome = await _paced(
                publish(
                    self.bot,
                    table,
                    message_id=newest(table.message_id, self._posted.get(table.id)),
                    remember=remember,
                    content=None,
                    embed=embed,
                    view=view,
                    allowed_mentions=_NO_MENTIONS,
                    post_if_missing=post_if_missing,
                )
            )
            if outcome == GONE and self.on_gone is not None:
                await self.on_gone(table)

        pacer = self.pacers.of(table.place.id)
        pacer.submit(_table_key(table), kind, job, urgent=urgent)

    def shown(self, table: Shown, again: Callable[[], None]) -> None:
        """The table's message was just redrawn by a click's answer: drop the older state.

        If an edit is in flight it may land after the answer, so ``again()`` submits the
        state once more (it goes when that edit is done).
        """
        pacer = self.pacers.of(table.place.id)
        key = _table_key(table)
        pacer.cancel(key)
        if pacer.running(key):
            again()

    async def computer_pace(self, table: Shown, delay: float) -> None:
        """A computer's move at ``table`` waits ``delay`` s, then until the table can show it.

        The tables' ``computer_pace``: past its delay a computer's move waits, if need be,
        until its table's channel has room to show it at once, so each computer move is
        shown as it is made, one at a time, rather than its edit waiting behind the
        channel's budget while the next moves are made (and dropped, the newest state
        winning). A trick of three computers and a person so keeps within 5 edits per
        5 s. A move waits for room at most its delay again (and never past the budget's
        period): a table never stalls on its channel, and one whose server asked for
        quick computers (a delay near 0) keeps them quick.
        """
        limits, clock = self.pacers.limits, self.pacers.scheduler
        due = clock.now() + delay
        old = newest(table.message_id, self._posted.get(table.id))
        paced = old is not None and limits.per_period is not None
        until = due + min(delay, limits.period) if paced else due
        pacer = self.pacers.of(table.place.id)
        await pacer.room(_table_key(table), _table_kind(old), not_before=due, until=until)

    # ------------------------------------------------------------------ turn pings

    def ping(self, table: Shown, user_id: int, content: str) -> None:
        """Post ``content`` mentioning ``user_id`` (their turn); the table's old ping goes."""
        current = self.pings.get(table.id)
        if current is not None and current.user_id == user_id:
            return
        self.clear_ping(table.id)
        channel = self._channel(table.place.id, table.place.guild_id)
        ping = TurnPing(("ping", table.id, next(self._numbers)), user_id, channel)
        self.pings[table.id] = ping
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user_id)]
        )

        async def post() -> None:
            if self.pings.get(table.id) is not ping:
                return  # taken away before the channel's turn came
            if not self.allowed(channel.id, "post"):
                return
            try:
                sent = await _paced(channel.send(content, allowed_mentions=mentions))
            except discord.HTTPException as exc:
                log_refusal(log, exc, f"table {table.id}: the ping of user {user_id}")
                return
            ping.message_id = sent.id

        self.pacers.of(channel.id).submit(ping.key, "post", post)

    def clear_ping(
        self, table_id: int, *, unless: int | None = None, of: int | None = None
    ) -> None:
        """Take the table's ping away: it is owed no more.

        ``unless``: not a ping that mentions them; ``of``: only a ping that mentions them.
        """
        ping = self.pings.get(table_id)
        if ping is None or ping.user_id == unless or (of is not None and ping.user_id != of):
            return
        del self.pings[table_id]
        channel = ping.channel
        pacer = self.pacers.of(channel.id)
        pacer.cancel(ping.key)  # a post waiting, or running but not sent yet, is dropped
        if ping.message_id is None and not pacer.running(ping.key):
            return  # never posted

        async def delete() -> None:
            if ping.message_id is None or not self.allowed(channel.id, "delete"):
                return
            try:
                await _paced(channel.get_partial_message(ping.message_id).delete())
            except discord.NotFound:
                log.info("table %d: ping %d was deleted already", table_id, ping.message_id)
            except discord.HTTPException as exc:
                log_refusal(log, exc, f"table {table_id}: deleting ping {ping.message_id}")

        pacer.submit(ping.key, "delete", delete)

    def pinged(self, table: Shown) -> int | None:
        """Whom the table's live ping mentions."""
        ping = self.pings.get(table.id)
        return None if ping is None else ping.user_id

    # ------------------------------------------------------------------ other messages

    def allowed(self, channel_id: int, kind: Kind, *, embeds: bool = False) -> bool:
        """Whether the bot's permissions allow a message request there; if not, say so once."""
        missing = may_send(self.bot, channel_id, post=kind == "post", embeds=embeds)
        if missing is None:
            return True
        if (channel_id, missing) not in self._refused:
            self._refused.add((channel_id, missing))
            log.warning(
                "A %s in channel %d was not sent: the bot lacks %s", kind, channel_id, missing
            )
        return False

    def submit(
        self,
        channel_id: int,
        kind: Kind,
        key: object,
        request: Callable[[], Awaitable[object]],
        *,
        embeds: bool = False,
    ) -> None:
        """Make a request in a channel when its budget allows (a newer one for ``key`` wins).

        ``embeds``: it carries embeds (Embed Links needed).
        """

        async def job() -> None:
            if not self.allowed(channel_id, kind, embeds=embeds):
                return
            try:
                await _paced(request())
            except discord.HTTPException as exc:
                log_refusal(log, exc, f"a paced {kind} in channel {channel_id}")

        self.pacers.of(channel_id).submit(key, kind, job)

    async def call(
        self,
        channel_id: int,
        kind: Kind,
        request: Callable[[], Awaitable[T]],
        *,
        embeds: bool = False,
    ) -> T:
        """Make a request in its turn of the channel's budget and return its answer.

        TimeoutError if its turn did not come within :data:`CALL_TIMEOUT` seconds;
        PermissionError (nothing sent) if the bot's permissions there would not allow it.
        """
        missing = may_send(self.bot, channel_id, post=kind == "post", embeds=embeds)
        if missing is not None:
            raise PermissionError(f"the bot lacks {missing}")
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        async def job() -> None:
            try:
                result = await _paced(request())
            except RetryAfter:
                raise
            except Exception as exc:
                if not done.done():
                    done.set_exception(exc)
                return
            if not done.done():
                done.set_result(result)

        self.pacers.of(channel_id).submit(("once", next(self._numbers)), kind, job)
        return await asyncio.wait_for(done, CALL_TIMEOUT)


def _table_key(table: Shown) -> tuple[str, int]:
    """The pacer's key of a table's public message."""
    return ("table", table.id)


def _table_kind(old: int | None) -> Kind:
    """What showing a table whose message is ``old`` asks of Discord: an edit, or a post."""
    return "edit" if old is not None and not too_old_to_edit(old) else "post"


async def _paced(request: Awaitable[T]) -> T:
    """Await a Discord request; a rate limit discord.py gave up waiting for is a RetryAfter."""
    try:
        return await request
    except discord.RateLimited as exc:
        raise RetryAfter(exc.retry_after) from None
