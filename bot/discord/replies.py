"""Answering interactions: each answer works whether or not the interaction was deferred.

Commands and views share these, so every rejected click and every error is answered
the same way. An interaction's work may wait (the database, a lock, another request):
before it does, :func:`answer_first` defers it (``bot.waits`` calls it at the first
wait), as its answer will come: an edit of the clicked message (``"update"``, a
component's default), a private message (``"private"``, a command's default), or a
public one (``"public"``: a command says so in its ``extras``, a click with
:func:`answer_as`). The answers then go as the deferral needs: :func:`send_ephemeral`,
:func:`send_public` and :func:`update_message` respond at once when nothing was
deferred, and else follow up or edit the original response. A refusal after a public
deferral deletes the "thinking" message and says it privately, as every refusal is.
"""

from __future__ import annotations

import logging
from typing import Any, Final, Literal

import discord
from discord.utils import MISSING

from bot.discord.refusals import log_refusal
from bot.errors import UserFacingError

__all__ = [
    "APOLOGY",
    "PUBLIC_ANSWER",
    "Answer",
    "answer_as",
    "answer_first",
    "report_error",
    "send_ephemeral",
    "send_public",
    "update_message",
]

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on our side. It has been logged; please try again."

Answer = Literal["update", "private", "public"]
"""What an interaction's answer will be: an edit of the clicked message, a new private
message, or a new public one."""

ANSWER: Final = "euchre_answer"
"""The key of an interaction's ``extras`` (or a command's) that says its :data:`Answer`."""
PUBLIC_ANSWER: Final = {ANSWER: "public"}
"""A command's ``extras`` when it answers with a public message."""
_PENDING: Final = "euchre_public_pending"
"""``extras`` key: a public "thinking" answer waits for its content."""


def answer_as(interaction: discord.Interaction[Any], answer: Answer) -> None:
    """Say what the interaction's answer will be, should it have to be deferred."""
    interaction.extras[ANSWER] = answer


def _answer(interaction: discord.Interaction[Any]) -> Answer:
    said = interaction.extras.get(ANSWER)
    if said is None and interaction.command is not None:
        said = interaction.command.extras.get(ANSWER)
    if said in ("update", "private", "public"):
        return said  # type: ignore[no-any-return]
    return "update" if interaction.type is discord.InteractionType.component else "private"


async def answer_first(interaction: discord.Interaction[Any]) -> None:
    """Defer the interaction now, as its answer will come (nothing if already answered).

    A failed deferral is logged: the work goes on, and its answer will fail the same way.
    """
    if interaction.response.is_done() or interaction.type not in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return
    answer = _answer(interaction)
    command = interaction.type is discord.InteractionType.application_command
    try:
        if answer == "update" and not command:
            await interaction.response.defer()
        elif answer == "public":
            await interaction.response.defer(thinking=True)
            interaction.extras[_PENDING] = True
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as exc:
        log.warning("Could not defer the answer to user %s: %s", interaction.user.id, exc)


async def send_public(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed = MISSING,
    view: discord.ui.View = MISSING,
    file: discord.File = MISSING,
    allowed_mentions: discord.AllowedMentions = MISSING,
) -> int | None:
    """Answer with a new public message (or fill the deferred one); its id, where known."""
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(
            content, embed=embed, view=view, file=file, allowed_mentions=allowed_mentions
        )
        return callback.message_id
    if interaction.extras.pop(_PENDING, False):
        message = await interaction.edit_original_response(
            content=content,
            embed=embed,
            view=None if view is MISSING else view,
            attachments=[] if file is MISSING else [file],
            allowed_mentions=allowed_mentions,
        )
        return message.id
    sent = await interaction.followup.send(
        content or MISSING,
        embed=embed,
        view=view,
        file=file,
        allowed_mentions=allowed_mentions,
        wait=True,
    )
    return sent.id


async def update_message(interaction: discord.Interaction[Any], **changes: Any) -> None:
    """Answer a click by editing its message (or, once deferred, the original response)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


async def send_ephemeral(
    interaction: discord.Interaction[Any],
    content: str = MISSING,
    *,
    embed: discord.Embed = MISSING,
    embeds: list[discord.Embed] = MISSING,
    view: discord.ui.View = MISSING,
    file: discord.File = MISSING,
    files: list[discord.File] = MISSING,
) -> int | None:
    """Send a message only the interaction's user sees; its id, where known.

    The first answer is the interaction response; once the interaction has been
    responded to or deferred, the message goes out as a follow-up instead (a deferred
    private answer is filled by it).
    """
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(
            content, embed=embed, embeds=embeds, view=view, file=file, files=files, ephemeral=True
        )
        return callback.message_id
    if interaction.extras.pop(_PENDING, False):
        # A public "thinking" answer would show this to everyone: it goes, and the
        # sentence comes privately.
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.info("Could not take back the public answer to %s: %s", interaction.user.id, exc)
    sent = await interaction.followup.send(
        content,
        embed=embed,
        embeds=embeds,
        view=view,
        file=file,
        files=files,
        ephemeral=True,
        wait=True,
    )
    return sent.id


async def report_error(
    interaction: discord.Interaction[Any], error: BaseException, *, context: str = ""
) -> None:
    """Answer an error ephemerally; this is the error funnel shared by commands and views.

    A :class:`UserFacingError` is answered with its message; anything else is a bug:
    it is logged with its traceback and the user gets :data:`APOLOGY`. ``context``
    names what failed (a command, a view) for the log. Failing to send the answer
    (the interaction expired, Discord is down) is logged, never raised.
    """
    if isinstance(error, UserFacingError):
        content = error.message
    else:
        log.error(
            "Unhandled error in %s (guild %s, channel %s, user %s)",
            context or "interaction",
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            exc_info=error,
        )
        content = APOLOGY
    try:
        await send_ephemeral(interaction, content)
    except discord.HTTPException as exc:
        log_refusal(log, exc, f"the error reply to user {interaction.user.id}")
