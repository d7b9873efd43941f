"""A rated event through the real bot: its games rated when it finishes, none if cancelled."""

from __future__ import annotations

from bot.store import Database, GameArchiveRepo
from tests.cogs.test_champion_roles import on_clock, play_round
from tests.cogs.test_tournament_commands import DIRECTOR, MEMBERS
from tests.conftest import MakeHarness
from tests.sqlite_only import db

__all__ = ["db"]


async def rated_rows(db: Database) -> int:
    row = await db.fetch_one("SELECT COUNT(*) AS n FROM league_rating_points")
    assert row is not None
    return int(row["n"])


async def test_a_cancelled_event_leaves_the_ladder_as_it_was_and_a_finished_one_rates(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g, clock = await on_clock(make_harness, db)
    league = bot.league
    runner = bot.tournaments
    assert league is not None and runner is not None
    for cancelled in (True, False):
        created = await h.slash(
            g.member(DIRECTOR),
            "euchre tournament new",
            {"name": "Cup", "rounds": 2, "deals": 1, "check_in": 0, "rated": True},
        )
        assert not created.ephemeral, created.content
        message = h.last_public_message(g.channel)
        for name in MEMBERS[:4]:
            await h.click(g.member(name), h.message(message.id), label="Join")
        await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
        event_id = runner.running[0].state.id
        assert event_id is not None
        await play_round(h, bot, clock, event_id)
        assert (await runner.load(event_id)).phase == "between_rounds"
        assert await league.take_in(g.id) == 0, "the round's games wait for the event's end"
        assert await rated_rows(db) == 0
        if cancelled:
            answer = await h.click(g.member(DIRECTOR), h.message(message.id), label="Cancel")
            assert answer.ephemeral and "nothing is rated" in answer.content
        else:
            await h.click(g.member(DIRECTOR), h.message(message.id), label="Next round")
            await play_round(h, bot, clock, event_id)
            assert (await runner.load(event_id)).phase == "finished"
        await league.take_in(g.id)
        games = await GameArchiveRepo(db).list_by_guild(g.id, limit=50)
        assert await GameArchiveRepo(db).pending(g.id) == []
        if cancelled:
            assert len(games) == 1 and not games[0].ranked
            assert await rated_rows(db) == 0, "a cancelled event changes no rating"
        else:
            assert [g_.ranked for g_ in games[:2]] == [True, True]
            assert await rated_rows(db) == 8, "both games of the finished event, four people each"
