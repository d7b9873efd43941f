"""An event as one JSON document: settings, entrants, rounds with table results, standings."""

from __future__ import annotations

import json
from typing import Any, Final

from bot.league.tournaments.standings import standings
from bot.store.tournament_models import TournamentEvent

__all__ = ["EXPORT_VERSION", "export_event", "export_json"]

EXPORT_VERSION: Final = 1
"""Raised when the document's shape changes."""


def export_event(event: TournamentEvent) -> dict[str, Any]:
    """The event as plain JSON values."""
    state = event.model_dump(mode="json")
    settings = state["settings"]
    return {
        "format_version": EXPORT_VERSION,
        "id": event.id,
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
