"""A person's own preferences as they read them: the list, confirmations, choices.

What ``/euchre me`` and ``/euchre privacy`` say: each preference with its value and
the sentence that says what it does, the sentence confirming a change, and the labels
of autocomplete choices.
"""

from __future__ import annotations

from typing import Any

from bot.server.fields import PREFERENCE_FIELDS
from bot.server.preference_sources import PreferenceChange
from bot.server.preferences import Preferences

from .cards import in_colours
from .panel import Panel
from .rules import CHANGED_MARK
from .server_config import choice_name

__all__ = [
    "preference_change_text",
    "preference_sentence",
    "preference_value_choice_name",
    "preferences_panel",
    "privacy_text",
]

_SUITS = "♥️ ♦️ ♣️ ♠️"
_EVERYWHERE = "They follow you to every server this bot is in."


def preference_sentence(name: str, prefs: Preferences) -> str:
    """One plain sentence saying what a preference does with the value it has."""
    sentence = prefs.sentence(name, PREFERENCE_FIELDS[name].text(getattr(prefs, name)))
    if name == "four_colour":
        sentence = f"{sentence} {in_colours(_SUITS, prefs.four_colour)}"
    return sentence


def preferences_panel(prefs: Preferences) -> Panel:
    """Every preference: its name and value as typed, then what it means."""
    lines = [
        f"`{name}` **{values.text(getattr(prefs, name))}**: {preference_sentence(name, prefs)}"
        for name, values in PREFERENCE_FIELDS.items()
    ]
    return Panel(
        title="Your preferences",
        description="\n".join([*lines, "", _EVERYWHERE]),
        colour="dark_green",
        footer="Change one with /euchre me set; /euchre privacy hides you from the web pages.",
    )


def preference_value_choice_name(name: str, value: Any, prefs: Preferences, shown: str) -> str:
    """A value of a preference as a choice: the value, then what it would mean."""
    now = " (now)" if getattr(prefs, name) == value else ""
    changed = prefs.model_copy(update={name: value})
    return choice_name(f"{shown}{now}: {preference_sentence(name, changed)}")


def preference_change_text(change: PreferenceChange) -> str:
    """The confirmation of ``/euchre me set`` or ``reset``, in plain words."""
    name = change.name
    if name is None:
        if not change.changed:
            return "Your preferences already are the defaults: nothing changed."
        return f"{CHANGED_MARK} Every preference of yours is back to its default."
    values = PREFERENCE_FIELDS[name]
    after = values.text(getattr(change.after, name))
    if not change.changed:
        return f"**{name}** is already **{after}**: nothing changed."
    before = values.text(getattr(change.before, name))
    return (
        f"{CHANGED_MARK} Your **{name}** is now **{after}** (it was {before}).\n"
        f"{preference_sentence(name, change.after)}"
    )


def privacy_text(change: PreferenceChange) -> str:
    """What ``/euchre privacy`` says: whether the web pages show the person now."""
    hidden = change.after.hide_from_web
    state = preference_sentence("hide_from_web", change.after)
    if not change.changed:
        return f"Nothing changed: {state[0].lower()}{state[1:]}"
    undo = "/euchre privacy show" if hidden else "/euchre privacy hide"
    return f"{CHANGED_MARK} {state} {undo} changes it back."
