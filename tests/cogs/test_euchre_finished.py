"""A finished game's buttons say it finished, however the click finds the table.

The last move of a game is saved but its answer is lost (``unsure``): the table is
out of step, and the next click reloads it from the store, which finishes the game.
That click, and every later one on the hand (the table kept among the recently
closed, or forgotten and looked up in the store), is refused with the service's
sentence for a finished game: not "out of date", not "closed". Through the real bot
and the interaction harness, on an SQLite file and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import EuchreBot
from bot.players import make_player
from bot.rules import Action, HouseRules
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.store import Database, GameArchiveRepo, TableRepo
from bot.tables import NoTableError, Table, TableClosedError, TableService
from bot.tables.pacing import ChannelLimits
from bot.tables.scheduler import ManualScheduler
from bot.tables.service import SAVE_UNSURE
from tests.cogs.euchre_driver import action_buttons, only_table
from tests.cogs.test_euchre_races import hand_of, started
from tests.conftest import MakeHarness
from tests.harness import FakeMember, Harness, StoredMessage
from tests.tables.test_out_of_step import UnsureStore, ends_the_game, to_act

ONE_DEAL = HouseRules(target_score=1)
"""A game over at the first deal's end."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'euchre.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = await Database.open(db_url)
    try:
        yield database
    finally:
        await database.close()


def finished(table_id: int) -> str:
    return f"Table {table_id} has finished: start a new one with /euchre new."


async def unsure_last_move(
    db: Database, make_harness: MakeHarness, *, keep_closed: int = 256
) -> tuple[Harness, EuchreBot, Table, FakeMember, StoredMessage, str]:
    """A one-deal game whose last move was clicked, saved, and its answer lost.

    The harness, the bot, the table (out of step now), who clicked, their hand and
    the custom_id of the button clicked.
    """
    store = UnsureStore(db)
    server = FixedSettings(ServerSettings(rules=ONE_DEAL))
    tables = TableService(
        store, make_player, server_settings=server, seeds=lambda: 5, keep_closed=keep_closed
    )
    bot = EuchreBot(
        Settings(computer_move_delay=0),
        tables=tables,
        scheduler=ManualScheduler(),
        channel_limits=ChannelLimits.unlimited(),
    )
    h = await make_harness(bot)
    people, message = await started(h)
    table = only_table(bot)
    while True:  # up to the last move, through the service (its clicks are tested elsewhere)
        user, seat = to_act(table)
        action = table.game.legal()[-1]  # type: ignore[union-attr]  # passes would redeal
        if ends_the_game(table, seat, action):
            break
        await tables.act(table.id, user, seat, table.stamp, action)
    person = people[seat]
    hand = await hand_of(h, person, message)
    last = next(b for b in action_buttons(hand, table.stamp) if ends_the_game(table, seat, code(b)))
    store.unsure["append_action"] = True
    refused = await h.click(person, hand, custom_id=last.custom_id, allow_errors=True)
    assert refused.reply.ephemeral and refused.reply.content == SAVE_UNSURE
    assert table.out_of_step and table.status == "playing"
    return h, bot, table, person, h.message(hand.id), last.custom_id


def code(button: Any) -> Action:
    """The action of a private hand's action button."""
    return Action.from_code(str(button.custom_id).split(":")[6])


async def archived(db: Database, table: Table) -> int:
    games = await GameArchiveRepo(db).list_by_guild(table.place.guild_id)
    return sum(game.table_id == table.id for game in games)


async def test_the_same_click_after_the_reload_says_the_game_finished(
    db: Database, make_harness: MakeHarness
) -> None:
    h, bot, table, person, hand, custom_id = await unsure_last_move(db, make_harness)

    again = await h.click(person, hand, custom_id=custom_id)
    assert again.reply.ephemeral and again.reply.content == finished(table.id)
    assert table.status == "finished" and bot.tables.open_tables == []
    assert (await TableRepo(db).get(table.id)).status == "finished"
    assert await archived(db, table) == 1

    once_more = await h.click(person, h.message(hand.id), custom_id=custom_id)
    assert once_more.reply.content == finished(table.id)  # the table among the closed now
    with pytest.raises(TableClosedError, match="has finished"):
        bot.tables.get(table.id)
    assert await archived(db, table) == 1


async def test_a_finished_table_memory_forgot_says_it_finished_from_the_store(
    db: Database, make_harness: MakeHarness
) -> None:
    h, bot, table, person, hand, custom_id = await unsure_last_move(db, make_harness, keep_closed=0)
    again = await h.click(person, hand, custom_id=custom_id)
    assert again.reply.content == finished(table.id)
    with pytest.raises(NoTableError):  # forgotten at once: memory keeps no closed table
        bot.tables.get_any(table.id)

    for clicked in (custom_id, f"euchre:t:{table.id}:hand"):  # the card, then Refresh
        refused = await h.click(person, h.message(hand.id), custom_id=clicked)
        assert refused.reply.ephemeral and refused.reply.content == finished(table.id)
    assert await archived(db, table) == 1
