"""The public table message's components: which buttons and pickers it shows at each stage.

:func:`public_controls` describes them from a :class:`~bot.tables.PublicTable`; the cog
turns them into discord.py components.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal, get_args

from bot.tables import PublicTable

from .hand import ButtonStyle
from .teams import LEVEL_NAMES

__all__ = [
    "OPEN_ACTIVITY",
    "TABLE_VERBS",
    "TAKEOVER_PROMPT",
    "LevelOption",
    "PublicButton",
    "PublicControls",
    "SeatOption",
    "TableVerb",
    "played_again_controls",
    "public_controls",
]

TableVerb = Literal[
    "join", "leave", "cpu", "start", "hand", "rules", "again", "back", "hint", "hands", "activity"
]
"""What a button of the public message does (the hand's Refresh reopens the hand: "hand";
its Hint asks the expert: "hint"; "hands": every hand of the deal that has just ended;
"activity": opens the table as the Discord Activity, where the bot serves it)."""

TABLE_VERBS: Final[tuple[TableVerb, ...]] = get_args(TableVerb)


@dataclass(frozen=True, slots=True)
class PublicButton:
    """One button of the public table message."""

    verb: TableVerb
    label: str
    style: ButtonStyle = "secondary"
    disabled: bool = False
    row: int = 0


@dataclass(frozen=True, slots=True)
class SeatOption:
    """A seat that may be chosen in the message's seat picker."""

    seat: int
    label: str
    description: str


@dataclass(frozen=True, slots=True)
class LevelOption:
    """A computer level the host may choose in the lobby."""

    level: str
    label: str
    chosen: bool


@dataclass(frozen=True, slots=True)
class PublicControls:
    """The components of the public message: buttons, a seat picker on row 1, levels on row 2."""

    buttons: tuple[PublicButton, ...]
    seats: tuple[SeatOption, ...] = ()
    """The seats to choose from (none: no seat picker)."""
    seat_prompt: str = "Choose a seat…"
    """The seat picker's placeholder: who it is for."""
    levels: tuple[LevelOption, ...] = ()
    """The computer levels the host may choose from (none: no level picker)."""


_RULES: Final = PublicButton("rules", "Rules")
_HANDS: Final = PublicButton("hands", "Hands of the last deal")
OPEN_ACTIVITY: Final = PublicButton("activity", "Open the table", "success", row=3)
"""Launches the Discord Activity, drawn on its own row below the pickers."""

TAKEOVER_PROMPT: Final = "Watching? Choose a computer's seat to play it…"
"""The seat picker during a game says it is for the members who aren't playing."""


def _seat_options(table: PublicTable) -> tuple[SeatOption, ...]:
    """Empty seats and computers' seats, each with its partners."""
    size = len(table.seats)
    options = []
    for number, seat in enumerate(table.seats):
        if seat is not None and not seat.is_computer:
            continue
        partners = " & ".join(str(p + 1) for p in range(number % 2, size, 2) if p != number)
        now = "" if seat is None else f" (instead of {seat.name}, computer)"
        options.append(SeatOption(number, f"Seat {number + 1}{now}", f"Partner of seat {partners}"))
    return tuple(options)


def _lobby_controls(table: PublicTable) -> PublicControls:
    full = all(seat is not None for seat in table.seats)
    options = _seat_options(table)
    buttons = (
        PublicButton("join", "Join", "primary", disabled=not options),
        PublicButton("leave", "Leave"),
        PublicButton("cpu", "Add computer", disabled=full),
        PublicButton("start", "Start", "success", disabled=not full),
        _RULES,
    )
    levels = tuple(
        LevelOption(level, f"Computers: {name}", level == table.computer_level)
        for level, name in LEVEL_NAMES.items()
    )
    return PublicControls(buttons, options, levels=levels)


def _game_controls(table: PublicTable) -> PublicControls:
    """Your hand and the rules; taking back a seat left away, taking over a computer's."""
    buttons = [PublicButton("hand", "Your hand", "primary"), _RULES]
    if table.hands_shown:
        buttons.append(_HANDS)
    if any(seat is not None and seat.away for seat in table.seats):
        buttons.append(PublicButton("back", "Take my seat back"))
    options = _seat_options(table) if table.allow_takeover else ()
    if not options:
        return PublicControls(tuple(buttons))
    buttons.append(PublicButton("join", "Take a computer's seat"))
    return PublicControls(tuple(buttons), options, TAKEOVER_PROMPT)


def public_controls(table: PublicTable, *, activity: bool = False) -> PublicControls | None:
    """The components of the public table message at its stage (None once it is closed).

    ``activity``: the bot serves the Discord Activity, so a lobby and a game offer it.
    """
    if table.status in ("lobby", "playing"):
        controls = _lobby_controls(table) if table.status == "lobby" else _game_controls(table)
        if activity:
            return replace(controls, buttons=(*controls.buttons, OPEN_ACTIVITY))
        return controls
    if table.status == "finished":
        again = PublicButton("again", "Play again", "success")
        return PublicControls((again, _RULES, _HANDS) if table.hands_shown else (again, _RULES))
    return None


def played_again_controls() -> PublicControls:
    """The components of a result whose "Play again" was used: the rules only."""
    return PublicControls((_RULES,))
