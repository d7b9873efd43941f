"""The daily deal on Discord: a step's private message and its move buttons.

A move's button (:func:`~bot.discord.buttons.daily_button`) carries the day and the
action number it was drawn at; the command is ``cogs/euchre/daily.py``, the words
:mod:`bot.render.daily`, the deal itself :mod:`bot.daily`.
"""

from __future__ import annotations

import discord

from bot.daily.service import DailyStep
from bot.discord.buttons import daily_button
from bot.render.daily import daily_text, result_text, solo_buttons

__all__ = ["daily_answer"]


def daily_answer(step: DailyStep) -> tuple[str, discord.ui.View | None]:
    """The message of a daily deal's step: the deal and the moves, or the result."""
    view = step.view
    if view is None:
        assert step.points is not None and step.par is not None
        team = step.deal.seat % 2
        tricks = step.game.results[0].tricks if step.game.results else (0, 0)
        taken = (tricks[team], tricks[1 - team])
        return result_text(step.day, step.points, step.par, taken), None
    buttons = discord.ui.View(timeout=None)
    for button in solo_buttons(view):
        buttons.add_item(
            daily_button(
                step.day, step.index, str(button.action), button.position, label=button.label
            )
        )
    buttons.stop()
    return daily_text(step.day, view), buttons
