"""The card pictures as the application's emojis: uploaded at start-up, only what is missing.

Discord keeps emojis per application (``/applications/{id}/emojis``), usable in every
server the bot is in. :func:`upload_card_faces` lists them, keeps each card's emoji
whose name (and so whose picture's hash) is current, replaces one whose picture
changed, and uploads the missing ones: the usual faces and the four-colour ones
(:func:`~bot.render.card_images.emoji_pictures`). :class:`CardEmojis` runs it once in the
background when the bot is first ready; until it is done, or if Discord refuses, the
cards are written as text (``bot.card_faces`` stays :data:`~bot.render.NO_FACES`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.discord.refusals import log_refusal
from bot.render import CardFaces
from bot.render.card_images import EMOJI_PREFIX, CardPicture, emoji_pictures
from bot.render.faces import CardEmoji

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["CardEmojis", "upload_card_faces"]

log = logging.getLogger(__name__)


async def upload_card_faces(
    client: discord.Client, pictures: Sequence[CardPicture]
) -> tuple[CardFaces, int]:
    """Make the application's emojis match ``pictures``; the faces and how many were uploaded.

    An emoji of ours (named ``euchre_...``) whose card has another picture now is
    deleted and uploaded again; emojis not named so are left alone.
    """
    existing = await client.fetch_application_emojis()
    ours = [e for e in existing if e.name.startswith(EMOJI_PREFIX)]
    by_name = {e.name: e for e in ours}
    faces: dict[int, CardEmoji] = {}
    four_colour: dict[int, CardEmoji] = {}
    uploaded = 0
    for picture in pictures:
        emoji = by_name.get(picture.name)
        if emoji is None:
            for stale in [e for e in ours if e.name.startswith(picture.label_prefix)]:
                await stale.delete()
                ours.remove(stale)
            emoji = await client.create_application_emoji(name=picture.name, image=picture.png)
            uploaded += 1
        kept = four_colour if picture.four_colour else faces
        kept[picture.card] = CardEmoji(emoji.name, emoji.id)
    return CardFaces(faces, four_colour), uploaded


class CardEmojis(commands.Cog):
    """Uploads the card pictures once the bot has logged in, then hands them to render."""

    def __init__(self, bot: EuchreBot) -> None:
        """Upload for ``bot``; its ``card_faces`` are set when done."""
        self.bot = bot
        self.task: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once connected, start the upload without holding anything up.

        The cards read as text meanwhile. ``python -m bot sync`` never connects, so it
        uploads nothing.
        """
        if self.task is None:
            self.task = asyncio.create_task(self.load(), name="card emojis")

    async def cog_unload(self) -> None:
        """Stop an upload still under way."""
        if self.task is not None:
            self.task.cancel()

    async def load(self) -> None:
        """Upload what is missing and use the pictures; on failure keep the text form."""
        if self.bot.application_id is None:
            log.info("Card pictures not uploaded: the application id is unknown")
            return
        try:
            # Drawing the pictures takes about a second of CPU: off the event loop, so the
            # clicks that arrive at start-up are answered meanwhile.
            pictures = await asyncio.to_thread(emoji_pictures)
            faces, uploaded = await upload_card_faces(self.bot, pictures)
        except discord.HTTPException as exc:
            log_refusal(log, exc, "uploading the card pictures (cards show as text)")
            return
        self.bot.card_faces = faces
        log.info(
            "Card pictures ready: %d uploaded, %d already there",
            uploaded,
            len(faces.emojis) + len(faces.four_colour_emojis) - uploaded,
        )
