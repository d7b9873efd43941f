"""What the tournament commands answer, privately: a joiner's place, a director's notice.

Small helpers of :mod:`.tournaments`: the sentence a member who joined is told (in,
from which round, sitting out, or where on the waiting list), the director's private
follow-up.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.discord.refusals import log_refusal
from bot.discord.replies import send_ephemeral
from bot.tables import Player
from bot.tournaments.model import Entrant
from bot.tournaments.runner import TournamentRunner

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot

__all__ = ["joined", "on_waiting_list", "player", "tell_director"]

log = logging.getLogger(__name__)


async def tell_director(interaction: discord.Interaction[EuchreBot], sentence: str) -> None:
    """A private follow-up to the director; the event stands whether or not it arrives."""
    try:
        await send_ephemeral(interaction, sentence)
    except discord.HTTPException as exc:
        log_refusal(log, exc, f"telling director {interaction.user.id}")


def on_waiting_list(runner: TournamentRunner, event_id: int, user_id: int) -> str:
    """What a member who joined is told when the event was full ("" when they are in)."""
    place = runner.get(event_id).waiting_place(user_id)
    if place is None:
        return ""
    return (
        f"The event is full: you're number {place} on its waiting list. "
        "You'll be pinged here if a place opens before the start."
    )


def joined(runner: TournamentRunner, event_id: int, entry: Entrant, wish: str = "") -> str:
    """What a member who got in is told (a late-comer: from which round, or sitting out)."""
    late = runner.get(event_id).phase in ("playing", "between_rounds")
    if late and entry.joined_in_round is not None:
        said = f"You're in from round {entry.joined_in_round}, in a computer's seat."
    elif late:
        said = "You're in, but every seat is taken: you sit out until a computer's seat is free."
    else:
        said = "You're in."
    return f"{said} {wish}".strip()


def player(interaction: discord.Interaction[EuchreBot]) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)
