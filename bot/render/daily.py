"""The daily deal as its private messages show it: the deal so far, the moves, the result, boards.

The person plays alone with three computers, so seats are named from where they sit:
you, your partner across, the opponents on your left and right. The same picture of a
deal serves the first lesson (:mod:`.lesson`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.rules import Action, SeatView, Suit

from .cards import bower_word, card_text, hand_text, trump_text
from .fitting import CONTENT, chunks
from .hints import action_phrase
from .names import shown

__all__ = [
    "SoloButton",
    "daily_text",
    "deal_picture",
    "leaderboard_texts",
    "result_text",
    "seat_word",
    "solo_buttons",
    "weekly_texts",
]

_WHERE = ("You", "Your left opponent", "Your partner", "Your right opponent")


def seat_word(view_seat: int, seat: int) -> str:
    """Who ``seat`` is, seen from ``view_seat``: "You", "Your partner"..."""
    return _WHERE[(seat - view_seat) % 4]


def _move(view: SeatView, seat: int, action: Action) -> str:
    who = seat_word(view.seat, seat)
    alone = " alone" if action.alone else ""
    if action.do == "pass":
        return f"{who}: pass"
    if action.do == "order_up":
        return f"{who}: {'take it up' if seat == view.dealer else 'order up'}{alone}"
    if action.do == "call" and action.suit is not None:
        return f"{who}: name {Suit(action.suit).plural}{alone}"
    if action.do == "alone":
        return f"{who}: {'go alone' if action.alone else 'play with the partner'}"
    if action.do == "discard":
        return f"{who}: discard"
    return f"{who}: {action.do}"


def deal_picture(view: SeatView) -> list[str]:
    """The deal as ``view``'s seat sees it: dealer, upcard or trump, bids, trick, hand."""
    lines = [f"Dealer: {seat_word(view.seat, view.dealer).lower()}."]
    if view.trump is None:
        lines.append(f"Turned up: {card_text(view.upcard)}")
        bids = [_move(view, s, a) for s, a in view.history if a.do != "play"]
        if bids:
            lines.append("Bids: " + "; ".join(bids) + ".")
    else:
        maker = (
            "" if view.maker is None else f", made by {seat_word(view.seat, view.maker).lower()}"
        )
        alone = " (alone)" if view.alone else ""
        lines.append(f"Trump: {trump_text(view.trump)}{maker}{alone}.")
        lines.append(
            f"Tricks: your side {view.tricks_won[view.team]}, "
            f"theirs {view.tricks_won[1 - view.team]}."
        )
        if view.trick:
            played = ", ".join(
                f"{seat_word(view.seat, s).lower()} {card_text(c)}" for s, c in view.trick
            )
            lines.append(f"This trick: {played}.")
    if view.hand:
        lines.append(f"Your hand: {hand_text(view.hand, view.trump)}")
    return lines


@dataclass(frozen=True, slots=True)
class SoloButton:
    """A move of the person: its label, its action and its place among the buttons."""

    label: str
    action: Action
    position: int


def solo_buttons(view: SeatView) -> list[SoloButton]:
    """One button a legal move, cards by their face, other moves in words."""
    buttons: list[SoloButton] = []
    for position, action in enumerate(dict.fromkeys(view.legal)):
        if action.card is not None:
            label = f"{card_text(action.card)} {bower_word(action.card, view.trump)}".strip()
            if action.do == "discard":
                label = f"Discard {label}"
        else:
            label = action_phrase(view, action)[0]
        buttons.append(SoloButton(label, action, position))
    return buttons


def daily_text(day: date, view: SeatView) -> str:
    """The daily deal at the person's turn."""
    head = f"**Deal of the day, {day.isoformat()}**: you and the expert partner across, "
    head += "against two experts."
    return "\n".join([head, *deal_picture(view), "Your move:"])


def result_text(day: date, points: int, par: int, tricks: tuple[int, int]) -> str:
    """The end of the daily deal: the result against par."""
    if points > par:
        verdict = f"{points - par} better than the expert"
    elif points < par:
        verdict = f"{par - points} behind the expert"
    else:
        verdict = "the same as the expert"
    return (
        f"**Deal of the day, {day.isoformat()}: done.** Your side took {tricks[0]} tricks of "
        f"five and scored **{points:+d}** (your side's points less theirs); par, the expert "
        f"in your seat, is **{par:+d}**: {verdict}.\n"
        "See how the server did with /euchre daily show:leaderboard."
    )


def leaderboard_texts(day: date, rows: Sequence[tuple[str, int, int | None, int]]) -> list[str]:
    """Today's results best first: (name, points, par, streak) each.

    Everyone is listed: past one message's 2,000 characters the list goes on in the next.
    """
    if not rows:
        day_text = day.isoformat()
        return [f"Nobody has finished the deal of {day_text} yet: play it with /euchre daily."]
    lines = [f"**Deal of the day, {day.isoformat()}**"]
    for rank, (name, points, par, days) in enumerate(rows, 1):
        against = "" if par is None else f" (par {par:+d})"
        run = f" · {days}-day streak" if days > 1 else ""
        lines.append(f"{rank}. {shown(name)}: {points:+d}{against}{run}")
    return chunks(lines, CONTENT)


def weekly_texts(first: date, last: date, rows: Sequence[tuple[str, int, int]]) -> list[str]:
    """The week's leaders: (name, points over par, days played) each, best first.

    Everyone is listed: past one message's 2,000 characters the list goes on in the next.
    """
    head = f"**Deal of the day, week of {first.isoformat()} to {last.isoformat()}**"
    if not rows:
        return [f"{head}\nNobody played the daily deal this week: try it with /euchre daily."]
    lines = [head, "Points over par, summed over the days played:"]
    for rank, (name, over, days) in enumerate(rows, 1):
        lines.append(f"{rank}. {shown(name)}: {over:+d} in {days} day{'s' if days != 1 else ''}")
    return chunks(lines, CONTENT)
