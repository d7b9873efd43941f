"""An event as one JSON document, and its standings as a CSV table for a spreadsheet.

The JSON holds its settings, entrants, rounds with table results and standings.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Final

from bot.tournaments.model import TournamentEvent
from bot.tournaments.standings import standings

__all__ = ["CSV_COLUMNS", "EXPORT_VERSION", "export_csv", "export_event", "export_json"]

EXPORT_VERSION: Final = 1
"""Raised when the document's shape changes."""


def export_event(event: TournamentEvent) -> dict[str, Any]:
    """The event as plain JSON values."""
    state = event.model_dump(mode="json")
    settings = state["settings"]
    return {
        "format_version": EXPORT_VERSION,
        "id": event.id,
        "number": event.shown_number,
        "name": event.name,
        "guild_id": str(event.guild_id),
        "channel_id": str(event.channel_id),
        "director_id": str(event.director_id),
        "phase": event.phase,
        "created_at": state["created_at"],
        "updated_at": state["updated_at"],
        "settings": settings,
        "entrants": [
            {
                "number": e.number,
                "user_id": None if e.user_id is None else str(e.user_id),
                "name": e.display_name,
                "computer": e.is_computer,
                "slot": e.slot,
                "replaced_in_round": e.replaced_in_round,
                "joined_in_round": e.joined_in_round,
            }
            for e in event.entrants
        ],
        "rounds": [
            {
                "number": r.number,
                "started_at": r.started_at.isoformat(),
                "ended_at": None if r.ended_at is None else r.ended_at.isoformat(),
                "ended_by_timer": r.ended_by_timer,
                "bye": r.bye,
                "tables": [
                    {
                        "number": t.number,
                        "seats": list(t.seats),
                        "table_id": t.table_id,
                        "deals": [] if t.result is None else [list(d) for d in t.result.deals],
                        "points": None if t.result is None else list(t.result.points),
                        "finished": t.result is not None and t.result.finished,
                    }
                    for t in r.tables
                ],
            }
            for r in event.rounds
        ],
        "standings": [line.model_dump(mode="json") for line in standings(event)],
    }


def export_json(event: TournamentEvent) -> str:
    """The export as indented JSON text (snowflakes as strings: JavaScript loses their digits)."""
    return json.dumps(export_event(event), ensure_ascii=False, indent=2, sort_keys=False) + "\n"


CSV_COLUMNS: Final = (
    "place",
    "names",
    "user_ids",
    "points",
    "against",
    "wins",
    "games",
    "deals_played",
    "deals_won",
    "head_to_head",
    "left",
    "joined_in_round",
)
"""The CSV's header: one row per line of the standings, in order."""


def export_csv(event: TournamentEvent) -> str:
    """The standings as CSV (RFC 4180: quoted where needed, CRLF line ends).

    A pair's names and ids are joined by " & "; ids are text, as in the JSON. A name a
    spreadsheet would read as a formula is kept as text (a leading ``'``).
    """
    by_number = {e.number: e for e in event.entrants}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for line in standings(event):
        ids = [by_number[n].user_id for n in line.entrants]
        writer.writerow(
            [
                line.place,
                _cell(" & ".join(line.names)),
                " & ".join("" if i is None else str(i) for i in ids),
                line.points,
                line.against,
                f"{line.wins:g}",
                line.games,
                line.deals_played,
                line.deals_won,
                line.head_to_head,
                "yes" if line.replaced else "no",
                "" if line.joined is None else line.joined,
            ]
        )
    return out.getvalue()


def _cell(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
