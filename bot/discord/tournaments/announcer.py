"""An event's announcements in its channel: new messages that mention only the people concerned.

The runner's every change is looked at (:func:`~bot.tournaments.due_announcements`):
an announcement due and not made yet is posted through the channel's publisher, in its
turn, drawn from the newest state of the event when the turn comes (one that is no
longer due then, a partner who confirmed meanwhile, is not posted). Once posted it is
noted in the store, so it goes out once, however often the event changes and across
restarts. Each message carries a nonce Discord enforces: a bot killed between posting
and noting posts it again after its restart, and Discord answers with the message it
already has instead of a second one.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING, Final

import discord

from bot.discord.buttons import tournament_button
from bot.discord.refusals import log_refusal
from bot.render.tournaments import EventVerb, announcement_texts
from bot.tournaments import Announcement, Tournament, due_announcements
from bot.tournaments.model import TournamentEvent

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot
    from bot.discord.publisher import Publisher

__all__ = ["Announcer"]

log = logging.getLogger(__name__)

_BUTTONS: Final[dict[str, tuple[EventVerb, str]]] = {
    "partner": ("confirm", "Confirm partner"),
    "checkin": ("checkin", "Check in"),
}
"""The button an announcement carries, so the people it names can answer it at once."""


def nonce(event_id: int, key: str, part: int) -> str:
    """The message's nonce (25 characters at most): the same for the same announcement."""
    digest = hashlib.blake2b(f"{event_id}:{key}:{part}".encode(), digest_size=10).hexdigest()
    return "a" + digest


class Announcer:
    """Posts each event's announcements once, through the channels' publisher."""

    def __init__(self, bot: EuchreBot, publisher: Publisher) -> None:
        """Post with ``publisher``; note what was posted in the bot's tournament store."""
        self.bot = bot
        self.publisher = publisher
        self._made: dict[int, set[str]] = {}
        """Per event, the announcements known to be made (read from the store once)."""
        self._latest: dict[int, TournamentEvent] = {}

    async def recall(self, event_ids: list[int]) -> None:
        """Read which announcements these events made (at start-up, before they resume)."""
        runner = self.bot.tournaments
        if runner is not None and event_ids:
            self._made.update(await runner.repo.outreach.announced(event_ids))

    def on_change(self, event: TournamentEvent) -> None:
        """Post what the event's state calls for and was not posted yet (in the channel's turn)."""
        runner = self.bot.tournaments
        if event.id is None or runner is None:
            return
        if event.phase in ("finished", "cancelled"):  # nothing more to announce
            self._made.pop(event.id, None)
            self._latest.pop(event.id, None)
            return
        self._latest[event.id] = event
        for said in due_announcements(event, runner.now()):
            if said.key not in self._made.get(event.id, set()):
                self._submit(event, said.key)

    def _submit(self, event: TournamentEvent, key: str) -> None:
        event_id = event.id
        assert event_id is not None
        channel = self.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)

        async def request() -> None:
            runner = self.bot.tournaments
            latest = self._latest.get(event_id)
            if runner is None or latest is None:
                return
            made = self._made.get(event_id)
            if made is None:
                made = (await runner.repo.outreach.announced([event_id]))[event_id]
                self._made[event_id] = made
            said = next((a for a in due_announcements(latest, runner.now()) if a.key == key), None)
            if key in made or said is None:
                return
            try:
                await self._post(channel, latest, said)
            except discord.HTTPException as exc:
                log_refusal(log, exc, f"event {event_id}: announcing {key}")
                return
            made.add(key)
            await runner.repo.outreach.mark_announced(event_id, key, runner.now())

        self.publisher.submit(event.channel_id, "post", ("tn announce", event_id, key), request)

    async def _post(
        self, channel: discord.PartialMessageable, event: TournamentEvent, said: Announcement
    ) -> None:
        assert event.id is not None
        total = Tournament(event).total_rounds
        button = _BUTTONS.get(said.kind)
        for part, (text, users) in enumerate(announcement_texts(event, said, total)):
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in users]
            )
            view = discord.utils.MISSING
            if button is not None:
                view = discord.ui.View(timeout=None)
                verb, label = button
                style = discord.ButtonStyle.primary
                view.add_item(tournament_button(event.id, verb, label=label, style=style))
                view.stop()  # clicks reach the button through the dynamic-item registry
            await channel.send(
                text, allowed_mentions=mentions, nonce=nonce(event.id, said.key, part), view=view
            )
