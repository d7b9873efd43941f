"""The first lesson's messages: a short line before each decision, the hint, and the end.

The lesson's deal is fixed (hearts turned up, the learner holding both bowers), so the
lines name its cards; the hint below each line is the expert's own, as at a table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules import Action, SeatView, Suit
from bot.rules.cards import JACK, card

from .cards import card_text
from .daily import deal_picture

__all__ = ["lesson_end_text", "lesson_line", "lesson_text"]

_RIGHT = card_text(card(JACK, Suit.HEARTS))
_LEFT = card_text(card(JACK, Suit.DIAMONDS))


def lesson_line(view: SeatView, choice: Action) -> str:
    """What this decision teaches, in a line or two."""
    if view.phase == "bid1":
        return (
            f"Hearts are turned up, so hearts would be trump. The jack of trump, {_RIGHT}, is the "
            f"**right bower**, the highest card; the other jack of the same colour, {_LEFT}, "
            "counts as a heart and is the **left bower**, the next highest. You hold both with "
            "the ace and king: **order it up** to make hearts trump. A hand this strong can "
            f"**go alone**: your partner sits out, and taking all five tricks alone scores "
            f"{view.rules.points_lone_march}."
        )
    if view.phase == "alone":
        return (
            "Hearts are trump. Now say whether you **go alone**: your partner sits out, and "
            f"all five tricks alone score {view.rules.points_lone_march} instead of "
            f"{view.rules.points_march}."
        )
    if view.phase == "play" and view.trick:
        led = view.trick[0][1]
        return (
            f"{card_text(led)} was led. You must **follow suit** when you can: with a "
            f"card of the suit led in your hand you must play one (the left bower "
            "counts as a trump, not as a diamond). Only without one may you trump or throw "
            "any card."
        )
    if view.phase == "play" and not view.tricks:
        return (
            f"You lead the first trick. Lead the right bower, {_RIGHT}: nothing beats it, and "
            "everyone must **follow suit**, so a trump lead pulls out the others' trumps."
        )
    if view.phase == "play":
        return (
            "You won the trick, so you lead again. The others must follow the suit you lead "
            "when they can; count which trumps are gone."
        )
    return "Your move: the hint below says what the expert would do."


def lesson_text(view: SeatView, line: str, hint: str, differ: Sequence[str] = ()) -> str:
    """The lesson at the learner's decision: the deal, the line and the hint."""
    lines = [
        "**Your first deal of euchre**: you and a computer partner across, against two computers."
    ]
    if differ:
        lines.append(differ_text(differ))
    lines += deal_picture(view)
    lines += [f"📘 {line}", f"💡 Hint: {hint}"]
    return "\n".join(lines)


def differ_text(differ: Sequence[str]) -> str:
    """Why the lesson is played by the standard rules, not these."""
    shown = "\n".join(f"- {line}" for line in differ)
    return (
        "The lesson's deal doesn't fit these rules, so it is played by the standard "
        f"(North American) rules. Your rules differ in:\n{shown}"
    )


def lesson_end_text(tricks: int, points: int, differ: Sequence[str] = ()) -> str:
    """The end of the lesson, with the pointer to a real table."""
    lines = [
        f"**Lesson done.** You took {tricks} of five tricks and scored {points}. You have seen "
        "the right and left bowers, following suit, ordering up and going alone.",
    ]
    if differ:
        lines.append(differ_text(differ))
    lines.append(
        "Ready for a game? Open a table with **/euchre new** and play with friends "
        "or computers (**/euchre help** has the rest)."
    )
    return "\n".join(lines)
