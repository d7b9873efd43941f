"""The server page lists the server's tournament events with their standings.

The standings are the league's own (``bot.tournaments.standings``); a cancelled
event is left out, a hidden player is "a player", a hostile name is text.
"""

from __future__ import annotations

from datetime import UTC, datetime

from aiohttp.test_utils import TestClient

from bot.rules import HouseRules
from bot.server.preferences import HIDDEN_NAME
from bot.store import Database, GameArchiveRepo, PreferenceRepo, Seat, TableRepo
from bot.tournaments import standings
from bot.tournaments.model import (
    EventSettings,
    TournamentEvent,
)
from bot.tournaments.repository import TournamentRepo
from tests.league.util import NAMES, OTHER_GUILD, USERS, finished_record
from tests.tournaments.nights import entrants, two_rounds
from tests.web.util import HOSTILE, HOSTILE_ID, League

NOW = datetime(2026, 5, 1, 19, 0, tzinfo=UTC)


def night(guild_id: int, name: str, channel_id: int, phase: str = "finished") -> TournamentEvent:
    """Eight people (one with a hostile name), two rounds of progressive euchre."""
    people = [(USERS[n], n) for n in NAMES[:7]] + [(HOSTILE_ID, HOSTILE)]
    return TournamentEvent.model_validate(
        {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "director_id": USERS["Ada"],
            "name": name,
            "settings": EventSettings.model_validate({"rounds": 2, "deals_per_round": 1}),
            "phase": phase,
            "entrants": entrants(people),
            "rounds": two_rounds(NOW, second=(4, 0)),
            "created_at": NOW,
            "updated_at": NOW,
        }
    )


async def stored(db: Database, event: TournamentEvent) -> TournamentEvent:
    repo = TournamentRepo(db)
    saved = await repo.create(event)
    await repo.save(saved)
    return saved


async def page(client: TestClient, path: str) -> str:
    response = await client.get(path)
    assert response.status == 200, (path, response.status)
    return await response.text()


async def test_the_server_page_lists_events_and_their_standings(
    db: Database, league: League, client: TestClient
) -> None:
    event = await stored(db, night(league.guild_id, "Friday night", 11))
    await stored(db, night(league.guild_id, "Called off", 12, phase="cancelled"))
    html = await page(client, f"/s/{league.guild_id}")
    assert "Tournaments" in html and "Friday night" in html
    assert "Called off" not in html
    assert "Progressive · finished · round 2 of 2" in html
    lines = standings(event)
    assert [line.place for line in lines] == sorted(line.place for line in lines)
    section = html[html.index('id="events"') : html.index('id="recent"')]
    order = [section.index(f">{line.names[0]}<") for line in lines if line.names[0] != HOSTILE]
    assert order == sorted(order), "the lines in the standings' order"
    assert f"/s/{league.guild_id}/players/{USERS['Gus']}" in html
    assert HOSTILE not in html and "&lt;script&gt;" in html


async def test_a_hidden_player_is_a_player_in_the_events_too(
    db: Database, league: League, client: TestClient
) -> None:
    await stored(db, night(league.guild_id, "Friday night", 11))
    await PreferenceRepo(db).update(USERS["Ada"], hide_from_web=True)
    html = await page(client, f"/s/{league.guild_id}")
    assert "Ada" not in html and str(USERS["Ada"]) not in html
    assert HIDDEN_NAME in html and "Friday night" in html


async def test_a_server_without_events_shows_no_tournaments(
    league: League, client: TestClient
) -> None:
    assert "Tournaments" not in await page(client, f"/s/{league.guild_id}")


async def test_an_event_has_a_page_of_its_rounds_tables_standings_and_games(
    db: Database, league: League, client: TestClient
) -> None:
    table = await TableRepo(db).create(
        guild_id=league.guild_id, channel_id=11, host_id=USERS["Ada"], rules=HouseRules(), seed=4
    )
    game = await GameArchiveRepo(db).archive(
        guild_id=league.guild_id,
        record=finished_record(4),
        players=[Seat.person(n, USERS[NAMES[n]], NAMES[n]) for n in range(4)],
        ranked=False,
        table_id=table.id,
    )
    event = night(league.guild_id, "Friday night", 11)
    event.rounds[0].tables[0].table_id = table.id
    saved = await stored(db, event)
    home = f"/s/{league.guild_id}"
    assert f"{home}/events/{saved.id}" in await page(client, home)
    html = await page(client, f"{home}/events/{saved.id}")
    assert "<bdi>Friday night</bdi>" in html and "Standings" in html
    assert html.index("Round 2") < html.index("Round 1"), "the newest round first"
    assert f"{home}/games/{game.id}" in html and f"Game {game.number}, the replay" in html
    assert html.count("<h3>Table ") == 4
    assert HOSTILE not in html and "&lt;script&gt;" in html
    cancelled = await stored(db, night(league.guild_id, "Called off", 12, phase="cancelled"))
    other = await stored(db, night(OTHER_GUILD, "Elsewhere", 13))
    for event_id in (cancelled.id, other.id, 999_999):
        assert (await client.get(f"{home}/events/{event_id}")).status == 404
    await PreferenceRepo(db).update(USERS["Ada"], hide_from_web=True)
    hidden = await page(client, f"{home}/events/{saved.id}?again")
    assert "Ada" not in hidden and str(USERS["Ada"]) not in hidden and HIDDEN_NAME in hidden
