"""The private hands a presenter keeps open: which interaction shows each, and editing it.

A hand is an ephemeral message, edited through the interaction that opened it (its
token lasts 15 minutes); one redraw of a hand runs at a time. An edit Discord refuses
is logged as a refusal, except a hand that simply can no longer be edited (its token
expired, or it was dismissed).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import discord

from bot.discord.refusals import EXPIRED_INTERACTION, log_refusal

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["PRUNE_EVERY", "HandLocks", "OpenHand", "edit_hand"]

log = logging.getLogger(__name__)

PRUNE_EVERY: Final = 256
"""Entries kept before the unused ones are pruned."""


@dataclass(slots=True)
class OpenHand:
    """The interaction whose response shows a player's private hand."""

    interaction: discord.Interaction[EuchreBot]
    opened_at: float
    message_id: int | None
    """The hand's message, where known."""
    drawn: int = -1
    """The :attr:`~bot.tables.TableSnapshot.version` it shows: an older one is not drawn."""


class HandLocks:
    """One redraw at a time of a user's hand at a table (a click's answer, a refresh)."""

    def __init__(self) -> None:
        """No hand locked yet."""
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    def of(self, table_id: int, user_id: int) -> asyncio.Lock:
        """The lock of ``user_id``'s hand at ``table_id``."""
        key = (table_id, user_id)
        lock = self._locks.get(key)
        if lock is None:
            if len(self._locks) >= PRUNE_EVERY:
                for old in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[old]
            lock = self._locks[key] = asyncio.Lock()
        return lock


async def edit_hand(
    table_id: int,
    user_id: int,
    opened: OpenHand,
    content: str | None,
    embed: discord.Embed | None,
    view: discord.ui.View | None,
) -> bool:
    """Redraw an open hand through its interaction; False (logged) if that failed."""
    try:
        await opened.interaction.edit_original_response(content=content, embed=embed, view=view)
    except discord.HTTPException as exc:
        what = f"table {table_id}: redrawing the hand of {user_id}"
        log_refusal(log, exc, what, expected=EXPIRED_INTERACTION)
        return False
    except Exception:
        log.warning("table %d: the hand of %d was not redrawn", table_id, user_id, exc_info=True)
        return False
    return True
