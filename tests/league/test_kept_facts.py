"""The deal outcomes the archive keeps give the same facts as replaying the record."""

from __future__ import annotations

import pytest

from bot.league import game_facts, kept_facts
from bot.rules import HouseRules, RecordError
from bot.store import Database, GameArchiveRepo, Seat
from tests.league.util import GUILD, finished_record
from tests.render.games import BID_VARIANTS, VARIANTS


@pytest.mark.parametrize("spec", [*VARIANTS, *BID_VARIANTS], ids=lambda s: str(s["preset"]))
async def test_kept_outcomes_are_the_records_facts(db: Database, spec: dict[str, object]) -> None:
    rules = HouseRules.model_validate(spec)
    archive = GameArchiveRepo(db)
    record = finished_record(4, rules)
    players = [Seat.person(n, 7_000 + n, f"P{n}") for n in range(rules.players)]
    game = await archive.archive(guild_id=GUILD, record=record, players=players, ranked=False)
    kept = await archive.deal_outcomes([game.id, 999_999])
    assert list(kept) == [game.id]
    assert kept_facts(game, kept[game.id]) == game_facts(record)


async def test_games_archived_before_outcomes_were_kept_are_left_out(db: Database) -> None:
    archive = GameArchiveRepo(db)
    players = [Seat.person(n, 7_000 + n, f"P{n}") for n in range(4)]
    game = await archive.archive(
        guild_id=GUILD, record=finished_record(2), players=players, ranked=False
    )
    await db.execute("UPDATE games SET deal_outcomes = NULL WHERE id = ?", (game.id,))
    assert await archive.deal_outcomes([game.id]) == {}


@pytest.mark.parametrize(
    "deal",
    [
        "not a deal",
        {"maker": "1", "alone": [], "result": "made", "tricks": [3, 2], "points": [1, 0]},
        {"maker": 1, "alone": None, "result": "made", "tricks": [3, 2], "points": [1, 0]},
        {"maker": 1, "alone": [], "result": "won", "tricks": [3, 2], "points": [1, 0]},
        {"maker": 1, "alone": [], "result": "made", "tricks": [3], "points": [1, 0]},
    ],
)
async def test_malformed_outcomes_are_refused(db: Database, deal: object) -> None:
    archive = GameArchiveRepo(db)
    players = [Seat.person(n, 7_000 + n, f"P{n}") for n in range(4)]
    game = await archive.archive(
        guild_id=GUILD, record=finished_record(2), players=players, ranked=False
    )
    with pytest.raises(RecordError):
        kept_facts(game, [deal])  # type: ignore[list-item]
