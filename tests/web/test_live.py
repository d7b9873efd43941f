"""The server page's tables in play: their public state, and never a hidden card."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient

from bot.rules import Game, HouseRules, new_game, seat_view
from bot.rules.cards import card_label, card_words
from bot.server.preferences import HIDDEN_NAME
from bot.store import Database, GameArchiveRepo, PreferenceRepo, SeasonRepo, Seat, TableRepo
from bot.web.live import PublicViews, live_table
from tests.league.util import USERS, finished_record
from tests.web.util import HOSTILE, League


def _mid_trick(rules: HouseRules, seed: int) -> Game:
    """A game of random legal moves stopped with two cards on the table."""
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    while True:
        view = seat_view(game, -1)
        if game.deal_number >= 2 and view.phase == "play" and len(view.trick) == 2:
            return game
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(list(game.legal())))


async def _open_table(db: Database, guild_id: int, game: Game | None, channel: int) -> int:
    names = ["Ada", "Bob", HOSTILE, "Di"] if game is not None else ["Ada"]
    seats = [
        Seat.person(n, USERS.get(name, 6_000_000_000_000_100 + n), name)
        for n, name in enumerate(names)
    ]
    tables = TableRepo(db)
    table = await tables.create(
        guild_id=guild_id,
        channel_id=channel,
        host_id=seats[0].user_id or 0,
        rules=HouseRules(),
        seed=3,
        seats=seats,
    )
    if game is not None:
        await tables.set_status(table.id, "playing")
        for idx, (seat, action) in enumerate(game.log):
            await tables.append_action(table.id, idx, seat, action.to_json(seat))
    return table.id


async def _saved_moves(
    db: Database, *, rng_seed: int, channel: int, moves: int
) -> AsyncIterator[tuple[Game, int]]:
    """A new game at a table of server 1, then ``moves`` random legal moves: after each,
    saved to the table, the game and the table's id."""
    rng = random.Random(rng_seed)
    game = new_game(HouseRules(), seed=3)
    table_id = await _open_table(db, 1, game, channel=channel)
    tables = TableRepo(db)
    for idx in range(moves):
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(list(game.legal())))
        await tables.append_action(table_id, idx, seat, game.log[-1][1].to_json(seat))
        yield game, table_id


def _hidden(game: Game) -> set[int]:
    """Every card nobody may see: those in hands and those discarded face down."""
    cards = {c for seat in range(game.players) for c in seat_view(game, seat).hand}
    cards |= {a.card for _, a in game.log if a.do == "discard" and a.card is not None}
    return cards


async def test_a_table_in_play_shows_its_public_state_and_no_hidden_card(
    client: TestClient, league: League, db: Database
) -> None:
    game = _mid_trick(HouseRules(), seed=3)
    table_id = await _open_table(db, league.guild_id, game, channel=77)
    lobby_id = await _open_table(db, league.guild_id, None, channel=78)
    html = await (await client.get(f"/s/{league.guild_id}")).text()

    tables = TableRepo(db)
    numbers = [(await tables.get(t)).number for t in (table_id, lobby_id)]
    assert all(f"Table {n}" in html for n in numbers)
    assert "Waiting for players: 3 open seats" in html
    view = seat_view(game, -1)
    assert f"Deal {view.deal_number}" in html
    for _, card in view.trick:
        assert f'.svg#{card_label(card)}"' in html
    for card in _hidden(game) - {c for _, c in view.trick}:
        assert f'.svg#{card_label(card)}"' not in html, card_label(card)
        assert card_words(card) not in html, card_words(card)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html


async def test_every_moment_of_a_game_shows_no_hidden_card(db: Database) -> None:
    tables = TableRepo(db)
    async for game, table_id in _saved_moves(db, rng_seed=11, channel=79, moves=60):
        live = live_table(await tables.get(table_id))
        shown = {c.label for _, c in live.trick}
        if live.upcard is not None:
            shown.add(live.upcard.label)
        public = seat_view(game, -1)
        assert shown <= {card_label(c) for _, c in public.trick} | {card_label(public.upcard)}
        assert not shown & {card_label(c) for c in _hidden(game)}
        assert [s.cards for s in live.seats] == list(seat_view(game, -1).hand_counts)


async def test_a_season_asked_for_by_number_shows_no_live_tables(
    client: TestClient, league: League, db: Database
) -> None:
    await _open_table(db, league.guild_id, _mid_trick(HouseRules(), seed=3), channel=80)
    season = await SeasonRepo(db).running(league.guild_id)
    assert season is not None
    assert "Playing now" in await (await client.get(f"/s/{league.guild_id}")).text()
    html = await (await client.get(f"/s/{league.guild_id}?season={season.id}")).text()
    assert "Playing now" not in html


async def test_a_tables_link_leads_to_its_replay_once_archived_and_to_the_live_tables_before(
    client: TestClient, league: League, db: Database
) -> None:
    game = _mid_trick(HouseRules(), seed=3)
    table_id = await _open_table(db, league.guild_id, game, channel=81)
    path = f"/s/{league.guild_id}/tables/{table_id}"
    live = await client.get(path, allow_redirects=False)
    assert live.status == 302 and live.headers["Location"] == f"/s/{league.guild_id}#live"
    archived = await GameArchiveRepo(db).archive(
        guild_id=league.guild_id,
        record=finished_record(5),
        players=[Seat.person(n, 6_000_000_000_000_200 + n, f"P{n}") for n in range(4)],
        ranked=False,
        table_id=table_id,
    )
    done = await client.get(path, allow_redirects=False)
    assert done.status == 302
    assert done.headers["Location"] == f"/s/{league.guild_id}/games/{archived.id}"
    assert (await client.get(path)).status == 200
    for other in (f"/s/{league.guild_id}/tables/999999", f"/s/{10**18 + 2}/tables/{table_id}"):
        assert (await client.get(other, allow_redirects=False)).status == 404


async def test_a_person_who_hides_from_the_pages_sits_at_a_live_table_as_a_player(
    client: TestClient, league: League, db: Database
) -> None:
    await PreferenceRepo(db).update(USERS["Bob"], hide_from_web=True)
    await _open_table(db, league.guild_id, _mid_trick(HouseRules(), seed=3), channel=82)
    html = await (await client.get(f"/s/{league.guild_id}")).text()
    live = html[html.index("Playing now") : html.index("Latest games")]
    assert HIDDEN_NAME in live and "Bob" not in live and "Ada" in live


async def test_kept_views_follow_every_saved_action(db: Database) -> None:
    """A view kept from a replay is used only while the table holds the same actions."""
    tables = TableRepo(db)
    views = PublicViews()
    async for game, table_id in _saved_moves(db, rng_seed=5, channel=80, moves=40):
        for _ in range(2):  # the second read finds the kept view
            [(stored, view)] = await views.read(db, 1)
            assert not stored.actions
            assert live_table(stored, view=view) == live_table(await tables.get(table_id))
            assert view == seat_view(game, -1)


async def test_a_table_that_does_not_replay_is_left_out_each_time(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    game = new_game(HouseRules(), seed=3)
    table_id = await _open_table(db, 1, game, channel=81)
    assert game.turn is not None
    wrong = (game.turn + 1) % 4
    await TableRepo(db).append_action(table_id, 0, wrong, {"do": "pass"})
    views = PublicViews()
    for _ in range(2):
        assert await views.read(db, 1) == []
    said = [r.getMessage() for r in caplog.records if "does not replay" in r.getMessage()]
    assert len(said) == 2 and all(m.startswith(f"table {table_id} ") for m in said)
