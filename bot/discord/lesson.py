"""The lesson on Discord: a step's private message and its move buttons.

A button (:func:`~bot.discord.buttons.lesson_button`) carries the preset and the step;
the command is ``cogs/euchre/lesson.py``, the words :mod:`bot.render.lesson`, the deal
:mod:`bot.lesson`.
"""

from __future__ import annotations

import discord

from bot.discord.buttons import lesson_button
from bot.lesson.deal import LEARNER, LessonStep, differences, lesson_fits
from bot.render.daily import solo_buttons
from bot.render.lesson import lesson_end_text, lesson_line, lesson_text
from bot.rules import HouseRules

__all__ = ["lesson_answer"]


def lesson_answer(preset: str, step: LessonStep) -> tuple[str, discord.ui.View | None]:
    """The lesson's message at ``step``: the deal, the line and the hint, or the end."""
    rules = HouseRules.from_spec({"preset": preset})
    differ = [] if lesson_fits(rules) else differences(rules)
    view = step.view
    if view is None:
        result = step.game.results[0]
        team = LEARNER % 2
        return lesson_end_text(result.tricks[team], result.points[team], differ), None
    assert step.choice is not None
    buttons = discord.ui.View(timeout=None)
    for button in solo_buttons(view):
        buttons.add_item(
            lesson_button(
                preset, step.step, str(button.action), button.position, label=button.label
            )
        )
    buttons.stop()
    shown = differ if step.step == 0 else ()
    return lesson_text(view, lesson_line(view, step.choice), step.why, shown), buttons
