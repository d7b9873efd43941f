"""``/euchre learn``: the first lesson, a guided deal played privately, as a mixin of the cog.

Every message is ephemeral. A button (:func:`~bot.discord.buttons.lesson_button`) carries the preset
and the step, and the deal is replayed to that step in the search pool
(:func:`bot.lesson.deal.advised_lesson`), so the lesson needs no store. The lesson's
move at each step is the hint's; another button gets the line again and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord.fields import PRESET_CHOICES
from bot.discord.lesson import lesson_answer
from bot.discord.replies import answer_first
from bot.errors import UserFacingError
from bot.lesson.deal import (
    LessonStep,
    advised_lesson,
    lesson_advice,
    lesson_fits,
)
from bot.render.hints import hint_text
from bot.rules import Action, HouseRules, SeatView
from bot.search_pool import Priority, SearchPool
from cogs.euchre.mixins import Mixin

if TYPE_CHECKING:
    from bot.discord.app import EuchreBot
    from bot.tables import TableService


__all__ = ["LessonCommands", "lesson_hint"]


def lesson_hint(view: SeatView) -> tuple[Action, str]:
    """The hint at ``view``: the expert at a fixed number of samples (the same every time)."""
    advice = lesson_advice(view)
    return advice.action, hint_text(view, advice)


async def _step(pool: SearchPool, preset: str, step: int) -> LessonStep:
    rules = HouseRules.from_spec({"preset": preset})
    played = rules if lesson_fits(rules) else HouseRules()
    try:
        lesson, advice = await pool.run(Priority.PLAY, advised_lesson, played, step)
    except ValueError:
        raise UserFacingError("That lesson is over: start it again with /euchre learn.") from None
    if lesson.view is None or advice is None:
        return lesson
    return replace(lesson, why=hint_text(lesson.view, advice))


class LessonCommands(Mixin):
    """``/euchre learn [preset]`` and the lesson's buttons."""

    bot: EuchreBot
    service: TableService

    @app_commands.command(name="learn", description="A guided first deal of euchre, privately")
    @app_commands.describe(preset="The rules to learn (default: the preset of this server's rules)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def learn(
        self,
        interaction: discord.Interaction[EuchreBot],
        preset: app_commands.Choice[str] | None = None,
    ) -> None:
        """Start the lesson by ``preset``'s rules (default: the server's preset)."""
        await answer_first(interaction)
        if preset is not None:
            name = preset.value
        elif interaction.guild_id is not None:
            name = (await self.service.server_settings.get(interaction.guild_id)).rules.preset
        else:
            name = HouseRules().preset
        content, view = lesson_answer(name, await _step(self.bot.pool, name, 0))
        await interaction.followup.send(content, view=view or discord.utils.MISSING, ephemeral=True)

    async def lesson_action(
        self, interaction: discord.Interaction[EuchreBot], preset: str, step: int, code: str
    ) -> None:
        """A move in the lesson: the lesson's move goes on; another gets a sentence."""
        await answer_first(interaction)
        now = await _step(self.bot.pool, preset, step)
        if now.choice is None or str(now.choice) != code:
            raise UserFacingError(
                "In this lesson, follow the hint: press the move it names to go on."
            )
        content, view = lesson_answer(preset, await _step(self.bot.pool, preset, step + 1))
        await interaction.edit_original_response(content=content, view=view)
