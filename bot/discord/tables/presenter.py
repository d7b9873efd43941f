"""What the players see after a change: the public table message, the open hands, the pings.

Both euchre cogs are given one :class:`TablePresenter`. It is the only place that shows
the public table message: as a click's answer, or through its
:class:`~.publisher.Publisher`, which paces every channel's posts, edits and deletes
within Discord's budget (the newest state of a message wins). After a person's move the
table shows it at once; then each computer move is shown as it is made,
``computer_move_delay`` apart (the table's "Last trick" keeps a finished trick readable
after the next one starts). When a person has not acted on their turn within the
server's ``ping_after`` (and their own ``pings``), a short new message mentions them
(the service says whom and when: never the clicker, never a computer), and it is
deleted once their turn is over, or once they click at the table (they are here: a ping
still waiting for the channel's turn then never goes out). A private hand opened in the
last 14 minutes is refreshed when the turn passes to its owner, so players rarely need
to reopen it. Once its table has closed (or is gone) a hand shows how it ended, its only
button a finished game's Review: a click on it is answered so, and when the table closes
(its game over, aborted, closed idle) every hand still young enough to edit is redrawn so.
Those edits go through each hand's own interaction webhook, never the channel's budget.

Everything is drawn from a :class:`~bot.tables.TableSnapshot`: an event's, or the one a
click's answer was given (``TableService.snapshot``). It carries each person's
preferences and whether their hand offers a claim or a hint, so the presenter never asks
the service back while drawing, and a hand never shows a state older than one it showed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.discord.publisher import Publisher
from bot.discord.replies import answer_first, send_ephemeral, send_public, update_message
from bot.discord.tables.components import (
    PublicMessage,
    closed_hand,
    end_embed,
    finished_of,
    finished_view,
    gone_view,
    private_hand,
    public_view,
)
from bot.discord.tables.embeds import table_embed
from bot.discord.tables.open_hands import PRUNE_EVERY, HandLocks, OpenHand, edit_hand
from bot.discord.tables.publishing import Shown
from bot.render import hint_text, turn_mention
from bot.render.web_links import public_base
from bot.tables import (
    ClaimMade,
    MoveMade,
    NoTableError,
    PingDue,
    TableClosed,
    TableClosedError,
    TableEvent,
    TableReloaded,
    TableSnapshot,
    TurnPassed,
)

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["HAND_EDITABLE_FOR", "PublicMessage", "TablePresenter", "on_private_hand", "ping_text"]

log = logging.getLogger(__name__)

HAND_EDITABLE_FOR: Final = 14 * 60.0
"""Seconds a private hand stays editable through its interaction (Discord allows 15 min)."""

_NO_MENTIONS: Final = discord.AllowedMentions.none()


LEFT_HAND: Final = "You left this table: a computer plays your seat now."
"""The private hand of someone who left, redrawn without its buttons."""


def ping_text(table: Shown, user_id: int) -> str:
    """The turn ping: a new message, so that the mention notifies."""
    return f"{turn_mention(user_id)} (table {table.number})"


def on_private_hand(interaction: discord.Interaction[EuchreBot]) -> bool:
    """Whether the click came from a private hand (an ephemeral message)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


class TablePresenter:
    """Shows the tables of ``bot.tables`` in Discord; one per bot, shared by its cogs."""

    def __init__(self, bot: EuchreBot) -> None:
        """Show the tables of ``bot``: subscribe :meth:`on_table_event` to its service.

        The service's computers then wait for the channel to show their moves
        (:meth:`~.publisher.Publisher.computer_pace`).
        """
        self.bot = bot
        self.service = bot.tables
        self.publisher = Publisher(bot)
        self.service.crew.computer_pace = self.publisher.computer_pace
        self._hands: dict[tuple[int, int], OpenHand] = {}
        self._remembered = 0
        self._hand_locks = HandLocks()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ drawing

    def message(self, table: TableSnapshot) -> PublicMessage:
        """The public message of ``table``."""
        public = table.public
        web = public_base(self.bot.settings.web_base_url, table.web_public)
        view = public_view(public, activity=self.bot.settings.serves_activity)
        return PublicMessage(table_embed(public, self.bot.card_faces, web=web), view)

    def hand(
        self, table: TableSnapshot, user_id: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The private hand of ``user_id`` (:func:`private_hand`) in the bot's card faces."""
        return private_hand(table, user_id, self.bot.card_faces)

    # ------------------------------------------------------------------ the public message

    async def post(self, interaction: discord.Interaction[EuchreBot], table: TableSnapshot) -> None:
        """Answer with the table as a new public message, and remember that message."""
        public = self.message(table)
        message_id = await send_public(interaction, embed=public.embed, view=public.view_or_missing)
        if message_id is not None:
            await self.service.get_any(table.id).lobby.set_message(message_id)

    async def post_in(self, thread: discord.Thread, table: TableSnapshot) -> None:
        """Post the table as a new message in ``thread``, and remember that message."""
        public = self.message(table)
        sent = await self.publisher.call(
            thread.id,
            "post",
            lambda: thread.send(embed=public.embed, view=public.view_or_missing),
            embeds=True,
        )
        await self.service.get_any(table.id).lobby.set_message(sent.id)

    async def replace_answer(
        self, interaction: discord.Interaction[EuchreBot], table: TableSnapshot
    ) -> None:
        """Turn the interaction's answer into the table's public message."""
        public = self.message(table)
        sent = await interaction.edit_original_response(
            content=None, embed=public.embed, view=public.view
        )
        await self.service.get_any(table.id).lobby.set_message(sent.id)

    async def played_again(
        self, interaction: discord.Interaction[EuchreBot], old_id: int, table: TableSnapshot
    ) -> None:
        """Post the new table, and leave only the rules on the old result clicked."""
        await self.post(interaction, table)
        old = interaction.message
        if old is not None:
            self.publisher.submit(
                table.place.id,
                "edit",
                ("result", old_id),
                lambda: old.edit(view=finished_view(old_id)),
            )

    async def answer(
        self, interaction: discord.Interaction[EuchreBot], table: TableSnapshot
    ) -> None:
        """Answer a click on the public message by redrawing it."""
        public = self.message(table)
        await update_message(
            interaction,
            content=None,
            embed=public.embed,
            view=public.view,
            allowed_mentions=_NO_MENTIONS,
        )
        self.publisher.shown(table, lambda: self.show(table))

    def show(
        self, table: TableSnapshot, *, post_if_missing: bool = False, urgent: bool = False
    ) -> None:
        """Show the table in its public message when the channel's turn comes.

        A newer snapshot shown before then replaces this one (the newest state wins).

        The message is edited, or posted anew when old or gone; a table without a
        message is posted only with ``post_if_missing`` (at a restart); ``urgent``: it
        shows a person's own move, which goes before computer moves. Never raises.
        """

        def render() -> tuple[discord.Embed, discord.ui.View | None]:
            public = self.message(table)
            return public.embed, public.view

        self.publisher.table(table, render, post_if_missing=post_if_missing, urgent=urgent)

    # ------------------------------------------------------------------ the service's events

    def on_table_event(self, event: TableEvent) -> None:
        """A service listener (inside the table's lock): show what happened, from its snapshot.

        A move is shown (a person's own at once, the computers' at the channel's pace; a
        claim's plays once, with the claim) and
        a ping whose turn is over goes; when the turn rests with a person their open hand
        is redrawn, and so is the hand of the person whose request the computers answered;
        a person is pinged when the service says it is due (:class:`PingDue`); a table
        closed, or reloaded from the store, is shown, and its open hands show its end; the
        first hint makes the game casual, and a turn run out may leave a computer playing
        the seat, which the table message says. Nothing here asks
        the service anything: the event's snapshot holds all that is drawn.
        """
        table = event.snapshot
        if isinstance(event, MoveMade):
            self._moved(table, event)
            if not event.claimed:  # a claim's plays are shown once, all together
                self.show(table, urgent=event.urgent)
        elif isinstance(event, ClaimMade):
            self._claimed(table, event)
        elif isinstance(event, TurnPassed):
            self._turn_passed(table, event)
        elif isinstance(event, PingDue):
            if event.user_id == table.to_act:
                self.publisher.ping(table, event.user_id, ping_text(table, event.user_id))
        elif event.kind == "left":
            for key in list(self._hands):
                if key[0] == table.id and table.seat_of(key[1]) is None:
                    self._later(self.refresh_hand(table, key[1]))
        elif isinstance(event, TableClosed):
            if not event.place_gone:
                self.show(table)
            self._later(self.end_hands(table))
        elif isinstance(event, TableReloaded):
            self.show(table)
            if not table.is_open:
                self._later(self.end_hands(table))
        elif event.kind in ("hint", "timeout"):  # no click's answer draws these
            self.show(table)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task of its own (a listener must not wait)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ turn pings

    def here(self, table_id: int, user_id: int) -> None:
        """``user_id`` clicked at the table (their hand, a move): no ping of theirs is owed.

        Called as the click comes, before anything slow (a move's save), so a ping still
        waiting for the channel's turn is never posted, whatever comes of the click.
        """
        self.publisher.clear_ping(table_id, of=user_id)

    def _moved(self, table: TableSnapshot, event: MoveMade) -> None:
        """A move was just made: take away a ping whose turn is over.

        A ping of the person who moved goes too, even if it is their turn again.
        """
        now = table.to_act
        mover = table.public.seats[event.move.seat]
        if not event.by_computer and mover is not None and mover.user_id == now:
            now = None
        self.publisher.clear_ping(table.id, unless=now)

    def _claimed(self, table: TableSnapshot, event: ClaimMade) -> None:
        """Show a claim's plays at once, and redraw the hands whose cards it played."""
        self.show(table, urgent=event.user_id is not None)
        for user in table.present:  # not the claimer's hand, which their click redraws
            if user != event.user_id:
                self._later(self.refresh_hand(table, user))

    def _turn_passed(self, table: TableSnapshot, event: TurnPassed) -> None:
        """Redraw the hand of the person the turn passed to, and the requester's."""
        user, requester = event.user_id, event.requested_by
        if requester is not None and event.computer_moves:
            self._later(self.refresh_hand(table, requester))
        if user != requester:
            self._later(self.refresh_hand(table, user))

    # ------------------------------------------------------------------ private hands

    async def send_hint(self, interaction: discord.Interaction[EuchreBot], table_id: int) -> None:
        """Answer a Hint click privately: the expert's choice and why, from its search.

        The first hint makes the game casual: the service tells it, and the table
        message then says so (:meth:`on_table_event`).
        """
        await answer_first(interaction)  # the search takes a while
        view, advice = await (await self.service.fetch_in_step(table_id)).turns.hint(
            interaction.user.id
        )
        await interaction.followup.send(hint_text(view, advice), ephemeral=True)

    async def send_hand(
        self, interaction: discord.Interaction[EuchreBot], table: TableSnapshot
    ) -> None:
        """Answer with the user's hand as a new private message."""
        async with self._hand_locks.of(table.id, interaction.user.id):
            embed, view = self.hand(table, interaction.user.id)
            message_id = await send_ephemeral(
                interaction, embed=embed, view=discord.utils.MISSING if view is None else view
            )
            if view is not None:
                self.remember(table, interaction, message_id)

    async def redraw_hand(
        self,
        interaction: discord.Interaction[EuchreBot],
        table: TableSnapshot,
        content: str | None = None,
    ) -> None:
        """Answer a click on a private hand by redrawing it (with ``content`` above)."""
        key = (table.id, interaction.user.id)
        message_id = None if interaction.message is None else interaction.message.id
        async with self._hand_locks.of(*key):
            ended = not table.is_open  # as the hand drawn next sees it: its end
            embed, view = self.hand(table, key[1])
            await update_message(interaction, content=content, embed=embed, view=view)
            if not ended:
                self.remember(table, interaction, message_id)
            elif key in self._hands and self._hands[key].message_id == message_id:
                del self._hands[key]  # it shows the end: not redrawn when the table closes

    async def hand_gone(
        self,
        interaction: discord.Interaction[EuchreBot],
        refusal: TableClosedError | NoTableError,
    ) -> None:
        """Answer a hand's click at a table that closed, or is gone: the hand shows its end.

        The refusal goes above the result (where known), the buttons go (but a finished game's
        Review), in the one answer; a click from elsewhere gets a new private message.
        """
        embed = end_embed(refusal)
        finished, table = finished_of(refusal), None
        if finished is not None:
            try:
                table = await self.service.get_any(finished.id).snapshot()
            except (TableClosedError, NoTableError):
                table = None
        view = gone_view(table, refusal, interaction.user.id, self.bot.league)
        if on_private_hand(interaction):
            await update_message(interaction, content=refusal.message, embed=embed, view=view)
        else:
            missing = discord.utils.MISSING
            await send_ephemeral(
                interaction,
                refusal.message,
                embed=missing if embed is None else embed,
                view=missing if view is None else view,
            )

    def remember(
        self,
        table: TableSnapshot,
        interaction: discord.Interaction[EuchreBot],
        message_id: int | None = None,
    ) -> None:
        """Keep the interaction that shows the user's hand, to refresh it while it's young."""
        now = self.bot.scheduler.now()
        opened = OpenHand(interaction, now, message_id, table.version)
        self._hands[(table.id, interaction.user.id)] = opened
        self._remembered += 1
        if self._remembered % PRUNE_EVERY == 0:
            old = [k for k, v in self._hands.items() if now - v.opened_at > HAND_EDITABLE_FOR]
            for key in old:
                del self._hands[key]

    def forget_hand(self, table_id: int, user_id: int) -> None:
        """Stop refreshing one user's hand (they left)."""
        self._hands.pop((table_id, user_id), None)

    async def end_hands(self, table: TableSnapshot) -> None:
        """Forget the open hands of a closed table and its ping; those young enough show its end.

        Each as a click on it would (:meth:`hand_gone`). Never raises: a hand that can't
        be edited is logged and skipped.
        """
        self.publisher.clear_ping(table.id)
        users = [k[1] for k in self._hands if k[0] == table.id]
        if not users:
            return
        refusal = TableClosedError.of(table.number, table.status, table.public)
        embed = end_embed(refusal)

        async def end(user_id: int) -> None:
            async with self._hand_locks.of(table.id, user_id):  # after a click's answer on it
                opened = self._hands.pop((table.id, user_id), None)
                if (
                    opened is None
                    or self.bot.scheduler.now() - opened.opened_at > HAND_EDITABLE_FOR
                ):
                    return
                view = closed_hand(table.public, table.seat_of(user_id), table.reviewable)[1]
                await edit_hand(table.id, user_id, opened, refusal.message, embed, view)

        # One request per hand (at most one a seat), each through its own interaction's
        # webhook: Discord budgets these apart from the channel's messages.
        await asyncio.gather(*(end(user) for user in users))

    async def refresh_hand(self, table: TableSnapshot, user_id: int) -> None:
        """Redraw a player's open private hand, if they have one young enough to edit.

        After a redraw of it under way is done, and only if it shows an older snapshot
        (so the newest state is last).
        Not once the table has closed: :meth:`end_hands` shows its end on every hand.
        Someone no longer seated (they left) sees the table without their hand's buttons.
        """
        async with self._hand_locks.of(table.id, user_id):
            if not table.is_open:
                return
            opened = self._hands.get((table.id, user_id))
            if opened is None or self.bot.scheduler.now() - opened.opened_at > HAND_EDITABLE_FOR:
                return
            if opened.drawn > table.version:  # it shows a newer state already
                return
            if table.seat_of(user_id) is None:  # they left (here, or by their event's Leave)
                del self._hands[(table.id, user_id)]
                embed = self.message(table).embed
                await edit_hand(table.id, user_id, opened, LEFT_HAND, embed, None)
                return
            embed, view = self.hand(table, user_id)
            if await edit_hand(table.id, user_id, opened, None, embed, view):
                opened.drawn = table.version
            else:
                self._hands.pop((table.id, user_id), None)
