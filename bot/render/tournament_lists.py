"""An event's whole lists, privately and page by page: who is in and who waits, the standings.

The event's message shows what fits in it; its **Who's in** and **Standings** buttons
(and ``/euchre tournament standings``) answer with these pages, whatever the count,
each within Discord's limits: the cog's page buttons step through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from bot.tournaments import Standing
from bot.tournaments.model import TournamentEvent

from .fitting import EMBED_DESCRIPTION, chunks
from .panel import Panel
from .tournaments import people_lines, standing_line

__all__ = ["PAGE_SIZES", "EventList", "event_list_page"]

EventList = Literal["st", "in"]
"""Which list: ``st`` the standings, ``in`` who is in (and who waits)."""

PAGE_SIZES: Final[dict[EventList, int]] = {"st": 10, "in": 20}
"""Lines a page shows."""

_TITLES: Final[dict[EventList, str]] = {"st": "standings", "in": "who's in"}


def _lines(event: TournamentEvent, which: EventList, standings: Sequence[Standing]) -> list[str]:
    if which == "st":
        pairs = event.settings.format == "pairs"
        return [standing_line(line, pairs) for line in standings] or ["No results yet."]
    lines = people_lines(event, event.entrants) or ["Nobody has joined yet."]
    if event.waiting:
        waiting = people_lines(event, event.waiting)
        lines += [f"**Waiting list ({len(event.waiting)})**"]
        lines += [f"{n}. {line.removeprefix('• ')}" for n, line in enumerate(waiting, 1)]
    return lines


def event_list_page(
    event: TournamentEvent, which: EventList, page: int, standings: Sequence[Standing] = ()
) -> tuple[Panel, int, int]:
    """Page ``page`` (from 0, kept within the pages there are) of one of the event's lists.

    The panel, the page shown and how many pages there are.
    """
    lines = _lines(event, which, standings)
    size = PAGE_SIZES[which]
    pages = max(1, -(-len(lines) // size))
    page = min(max(page, 0), pages - 1)
    shown = lines[page * size : (page + 1) * size]
    footer = f"Event {event.shown_number}"
    if pages > 1:
        footer = f"Page {page + 1} of {pages} · {footer}"
    panel = Panel(
        title=f"🏆 {event.name} · {_TITLES[which]}",
        description=chunks(shown, EMBED_DESCRIPTION)[0],
        footer=footer,
    )
    return panel, page, pages
