"""Standings and their tie-breaks, and the JSON export of an event."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.tournaments import champions, export_event, export_json, standings
from bot.tournaments.model import (
    Entrant,
    EventSettings,
    TournamentEvent,
)
from tests.tournaments.nights import entrants, two_rounds

NOW = datetime(2026, 5, 1, tzinfo=UTC)


def eight_player_event(**settings: object) -> TournamentEvent:
    """Two rounds of one deal; 0 and 1 level on points and deals won, 0 beat 1 at their table."""
    return TournamentEvent(
        id=3,
        guild_id=1,
        channel_id=2,
        director_id=3,
        name="Night",
        settings=EventSettings.model_validate({"rounds": 2, "deals_per_round": 1, **settings}),
        phase="finished",
        entrants=entrants([(100 + n, f"P{n}") for n in range(8)]),
        rounds=two_rounds(NOW),
        created_at=NOW,
        updated_at=NOW,
    )


def test_progressive_order_is_points_then_deals_won_then_head_to_head() -> None:
    lines = standings(eight_player_event())
    assert [(line.entrants[0], line.place) for line in lines] == [
        (2, 1),
        (5, 2),
        (7, 2),
        (0, 4),
        (1, 5),
        (3, 6),
        (4, 6),
        (6, 6),
    ]
    by_number = {line.entrants[0]: line for line in lines}
    assert (by_number[0].points, by_number[0].deals_won, by_number[0].head_to_head) == (2, 1, 2)
    assert (by_number[1].points, by_number[1].deals_won, by_number[1].head_to_head) == (2, 1, -2)
    assert (by_number[5].points, by_number[5].deals_won) == (3, 2)
    assert [c.entrants for c in champions(eight_player_event())] == [(2,)]


def test_a_replaced_player_keeps_earlier_rounds_and_computers_are_not_placed() -> None:
    event = eight_player_event()
    event.entrants[2].replaced_in_round = 2
    event.entrants[7] = Entrant(number=7, display_name="Computer 1", slot=7)
    lines = standings(event)
    assert 7 not in {line.entrants[0] for line in lines}
    two = next(line for line in lines if line.entrants == (2,))
    assert two.replaced and two.points == 2 and two.deals_played == 1


def test_the_export_holds_settings_entrants_rounds_results_and_standings() -> None:
    event = eight_player_event(rules={"preset": "toronto", "target_score": 5})
    document = json.loads(export_json(event))
    assert document == json.loads(json.dumps(export_event(event)))
    assert document["format_version"] == 1
    assert document["guild_id"] == "1" and document["entrants"][0]["user_id"] == "100"
    assert document["settings"]["rules"] == {"preset": "toronto", "target_score": 5}
    assert document["settings"]["deals_per_round"] == 1
    first = document["rounds"][0]["tables"][0]
    assert first == {
        "number": 1,
        "seats": [0, 1, 2, 3],
        "table_id": None,
        "deals": [[2, 0]],
        "points": [2, 0],
        "finished": True,
    }
    assert [line["place"] for line in document["standings"]] == [1, 2, 2, 4, 5, 6, 6, 6]
    assert EventSettings.model_validate(document["settings"]) == event.settings
