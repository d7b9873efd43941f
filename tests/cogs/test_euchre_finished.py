"""A finished, closed or vanished table's private hands show how it ended, without buttons.

The last move of a game is saved but its answer is lost (``unsure``): the table is
out of step, and the next click reloads it from the store, which finishes the game.
That click, and every later one on a hand (the table kept among the recently closed,
or forgotten and looked up in the store), is answered by redrawing the hand clicked:
the service's sentence for a finished game above the result (who won, the score),
and no buttons left to click but, while the bot keeps the finished table, the Review
of the game's last deal. An aborted table's hands say it was closed, one neither
memory nor the store knows says it no longer exists. Nothing is posted to the channel.
The hand the bot keeps for each person (their newest) is redrawn so without a click
when the table closes (tests/cogs/test_euchre_hands_at_end.py), so these clicks are on
older hands. Refresh and Your hand on a table still out of step reload it first, as
every other click does, so the hand shown is the store's.
Through the real bot and the interaction harness, on an SQLite file and on PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.discord.app import EuchreBot
from bot.rules import Action, HouseRules
from bot.server.settings import ServerSettings
from bot.store import Database, GameArchiveRepo, TableRepo
from bot.tables import NoTableError, Table, TableClosedError
from bot.tables.service import SAVE_UNSURE
from tests.cogs.euchre_driver import action_buttons, clocked_bot, only_table, started
from tests.cogs.test_euchre_races import hand_of
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, Result, StoredMessage
from tests.tables.test_out_of_step import UnsureStore, ends_the_game, in_step, to_act

ONE_DEAL = HouseRules(target_score=1)
"""A game over at the first deal's end."""


def sentence(number: int, how: str) -> str:
    return f"Table {number} {how}: start a new one with /euchre new."


def finished(number: int) -> str:
    return sentence(number, "has finished")


async def bot_on(
    db: Database, make_harness: MakeHarness, *, keep_closed: int = 256
) -> tuple[Harness, EuchreBot, UnsureStore]:
    """The real bot keeping its tables in ``db`` (one-deal games), and its harness."""
    store = UnsureStore(db)
    bot, _ = clocked_bot(ServerSettings(rules=ONE_DEAL), store=store, keep_closed=keep_closed)
    return await make_harness(bot), bot, store


@dataclass
class LastMove:
    """A one-deal game at its last move, every hand open."""

    h: Harness
    bot: EuchreBot
    store: UnsureStore
    table: Table
    person: FakeMember
    """Whose move it is."""
    hand: StoredMessage
    """Their hand."""
    custom_id: str
    """The button of the last move."""
    spare: StoredMessage
    """A second hand of theirs, opened just before the first (its buttons drawn at the same
    moment): the bot keeps only the newest hand of each person to redraw."""
    others: list[tuple[FakeMember, StoredMessage]]
    """The other players and their hands, opened before the last move too."""


async def last_move(db: Database, make_harness: MakeHarness, *, keep_closed: int = 256) -> LastMove:
    """A one-deal game played up to its last move, every hand open."""
    h, bot, store = await bot_on(db, make_harness, keep_closed=keep_closed)
    people, message = await started(h)
    table = only_table(bot)
    tables = bot.tables
    while True:  # up to the last move, through the service (its clicks are tested elsewhere)
        user, seat = to_act(table)
        action = table.game.legal()[-1]  # type: ignore[union-attr]  # passes would redeal
        if ends_the_game(table, seat, action):
            break
        await (await tables.fetch(table.id)).turns.act(user, seat, table.stamp, action)
    person = people[seat]
    spare = await hand_of(h, person, message)
    hand = await hand_of(h, person, message)
    last = next(b for b in action_buttons(hand, table.stamp) if ends_the_game(table, seat, code(b)))
    others = [(p, await hand_of(h, p, message)) for p in people if p is not person]
    return LastMove(h, bot, store, table, person, hand, last.custom_id, spare, others)


async def unsure_last_move(
    db: Database, make_harness: MakeHarness, *, keep_closed: int = 256
) -> LastMove:
    """A one-deal game whose last move was clicked, saved, and its answer lost.

    The table is out of step now.
    """
    game = await last_move(db, make_harness, keep_closed=keep_closed)
    game.store.unsure["append_action"] = True
    refused = await game.h.click(
        game.person, game.hand, custom_id=game.custom_id, allow_errors=True
    )
    assert refused.reply.ephemeral and refused.reply.content == SAVE_UNSURE
    assert game.table.out_of_step and game.table.status == "playing"
    game.hand = game.h.message(game.hand.id)
    return game


def code(button: Any) -> Action:
    """The action of a private hand's action button."""
    return Action.from_code(str(button.custom_id).split(":")[6])


async def archived(db: Database, table: Table) -> int:
    games = await GameArchiveRepo(db).list_by_guild(table.place.guild_id)
    return sum(game.table_id == table.id for game in games)


def ended(
    result: Result, hand: StoredMessage, refusal: str, review: int = 0
) -> dict[str, Any] | None:
    """The hand clicked, redrawn by the click's one answer: ``refusal`` above, no buttons
    but, for a finished game the bot still keeps, the Review of its last deal (``review``).

    Its embed (None: it has none), after checking that nothing was posted to the channel.
    """
    assert result.redrawn
    assert result.reply.ephemeral and result.reply.content == refusal
    assert len(result.replies) == 1, "no follow-up: one answer"
    assert not [s for s in result.sent if s.kind == "channel_send"]
    assert hand.content == refusal
    assert [b.label for b in hand.buttons] == ([f"🔍 Review deal {review}"] if review else [])
    assert len(hand.embeds) <= 1
    return hand.embeds[0] if hand.embeds else None


def shows_the_end(hand: StoredMessage, refusal: str, review: int = 0) -> dict[str, Any] | None:
    """A hand not clicked, redrawn when its table closed as a click on it would show it.

    A finished game's hands keep one button: the Review of its last deal (``review``).
    """
    assert hand.content == refusal
    assert [b.label for b in hand.buttons] == ([f"🔍 Review deal {review}"] if review else [])
    assert hand.ephemeral and hand.edited
    return hand.embeds[0] if hand.embeds else None


async def every_hand_shows(game: LastMove, embed: dict[str, Any] | None) -> None:
    """The others' hands show the finished game's ``embed``, and so does the person's spare
    hand when its button is clicked."""
    h, table = game.h, game.table
    for _, hand in game.others:
        assert shows_the_end(h.message(hand.id), finished(table.number), deals(table)) == embed
    spare = await h.click(game.person, game.spare, custom_id=game.custom_id)
    assert ended(spare, h.message(game.spare.id), finished(table.number), deals(table)) == embed


def deals(table: Table) -> int:
    """The deals of ``table``'s finished game: its hands offer the review of the last."""
    assert table.game is not None
    return len(table.game.results)


def the_result(table: Table) -> str:
    """What a hand of ``table``'s game over says: who won, by what score."""
    assert table.game is not None and table.game.over
    score = table.game.score
    winner = 0 if score[0] > score[1] else 1
    return f"win {score[winner]} to {score[1 - winner]}."


async def test_the_last_move_s_hand_shows_the_result_and_so_do_the_others(
    db: Database, make_harness: MakeHarness
) -> None:
    game = await last_move(db, make_harness)
    h, table = game.h, game.table

    clicked = await h.click(game.person, game.hand, custom_id=game.custom_id)
    assert clicked.redrawn
    assert table.status == "finished"
    drawn = h.message(game.hand.id)
    assert drawn.content == ""
    assert [b.label for b in drawn.buttons] == [f"🔍 Review deal {deals(table)}"]
    embed = drawn.embeds[0]
    assert embed["title"] == f"Your hand · table {table.number} · game over"
    assert the_result(table) in embed["description"]

    await every_hand_shows(game, embed)  # their hands had buttons: redrawn at the end


async def test_the_same_click_after_the_reload_shows_the_result(
    db: Database, make_harness: MakeHarness
) -> None:
    game = await unsure_last_move(db, make_harness)
    h, table = game.h, game.table

    again = await h.click(game.person, game.hand, custom_id=game.custom_id)
    embed = ended(again, h.message(game.hand.id), finished(table.number), deals(table))
    assert table.status == "finished" and game.bot.tables.open_tables == []
    assert (await TableRepo(db).get(table.id)).status == "finished"
    assert await archived(db, table) == 1
    assert embed is not None and embed["title"] == f"Your hand · table {table.number} · game over"
    assert the_result(table) in embed["description"]

    # The other hands: redrawn once the reload found the game over; the same button on the
    # person's spare hand finds the table among the recently closed.
    await every_hand_shows(game, embed)
    with pytest.raises(TableClosedError, match="has finished"):
        game.bot.tables.get(table.id)
    assert await archived(db, table) == 1


async def test_refresh_after_an_unsure_last_move_shows_the_result(
    db: Database, make_harness: MakeHarness
) -> None:
    game = await unsure_last_move(db, make_harness)
    table = game.table

    refreshed = await game.h.click(game.person, game.hand, label="↻ Refresh")
    embed = ended(refreshed, game.h.message(game.hand.id), finished(table.number), deals(table))
    assert embed is not None and the_result(table) in embed["description"]
    assert table.status == "finished" and not table.out_of_step
    assert await archived(db, table) == 1


async def test_a_finished_table_memory_forgot_shows_its_result_from_the_store(
    db: Database, make_harness: MakeHarness
) -> None:
    game = await unsure_last_move(db, make_harness, keep_closed=0)
    h, table = game.h, game.table
    again = await h.click(game.person, game.hand, custom_id=game.custom_id)
    embed = ended(again, h.message(game.hand.id), finished(table.number))
    with pytest.raises(NoTableError):  # forgotten at once: memory keeps no closed table
        game.bot.tables.get_any(table.id)

    # Each looked up in the store, its record replayed: the same result.
    spare = await h.click(game.person, game.spare, custom_id=game.custom_id)
    assert ended(spare, h.message(game.spare.id), finished(table.number)) == embed
    for _, hand in game.others:  # redrawn once the reload found the game over
        assert shows_the_end(h.message(hand.id), finished(table.number), deals(table)) == embed
    assert await archived(db, table) == 1


@pytest.mark.parametrize("keep_closed", [256, 0])
async def test_an_aborted_game_s_hands_say_it_was_closed(
    db: Database, make_harness: MakeHarness, keep_closed: int
) -> None:
    h, bot, _ = await bot_on(db, make_harness, keep_closed=keep_closed)
    people, message = await started(h)
    table = only_table(bot)
    user, _ = to_act(table)
    person = next(p for p in people if p.id == user)
    hand = await hand_of(h, person, message)
    button = action_buttons(hand, table.stamp)[0]
    newer = await hand_of(h, person, message)  # the one the bot keeps to redraw
    watcher = next(p for p in people if p not in (person, people[0]))
    watched = await hand_of(h, watcher, message)
    await h.slash(people[0], "euchre abort")
    assert table.status == "aborted"
    closed = sentence(table.number, "was closed")
    redrawn = [shows_the_end(h.message(shown.id), closed) for shown in (newer, watched)]

    clicked = await h.click(person, hand, custom_id=button.custom_id)
    for embed in [ended(clicked, h.message(hand.id), closed), *redrawn]:
        assert embed is not None and embed["title"] == f"Your hand · table {table.number} · closed"
        assert "Score when it closed: 🔵" in embed["description"]


async def test_a_hand_of_a_table_nobody_has_says_it_no_longer_exists(
    db: Database, make_harness: MakeHarness
) -> None:
    h, bot, _ = await bot_on(db, make_harness, keep_closed=0)
    people, message = await started(h)
    table = only_table(bot)
    user, _ = to_act(table)
    person = next(p for p in people if p.id == user)
    hand = await hand_of(h, person, message)
    button = action_buttons(hand, table.stamp)[0]
    await hand_of(h, person, message)  # the newer one is redrawn at the abort, not this one
    await h.slash(people[0], "euchre abort")
    await db.execute("DELETE FROM tables WHERE id = ?", (table.id,))  # as if never stored here

    refused = await h.click(person, hand, custom_id=button.custom_id)
    gone = "This table no longer exists: start a new one with /euchre new."
    assert ended(refused, h.message(hand.id), gone) is None


async def test_refresh_and_your_hand_show_the_hand_the_store_has(
    db: Database, make_harness: MakeHarness
) -> None:
    h, bot, store = await bot_on(db, make_harness)
    people, message = await started(h)
    table = only_table(bot)
    for via in ("↻ Refresh", "Your hand"):
        user, _ = to_act(table)
        person = next(p for p in people if p.id == user)
        hand = await hand_of(h, person, message)
        before = table.stamp
        store.unsure["append_action"] = True  # saved, its answer lost: memory takes it back
        refused = await h.click(person, hand, label="Pass", allow_errors=True)
        assert refused.reply.content == SAVE_UNSURE
        assert table.out_of_step and table.stamp == before

        if via == "↻ Refresh":
            shown = await h.click(person, hand, label=via)
            assert shown.redrawn
        else:
            shown = await h.click(person, h.message(message.id), label=via)
            assert shown.reply.ephemeral and shown.message.id != hand.id
        assert not table.out_of_step and table.stamp != before and await in_step(db, table)
        drawn = shown.message  # their pass, as stored: the turn has moved on
        assert "Waiting for" in drawn.embeds[0]["description"]
        assert action_buttons(drawn) == []
        stamp = f":{table.stamp[0]}:{table.stamp[1]}:"
        assert all(
            stamp in str(b.custom_id)
            for b in drawn.buttons
            if str(b.custom_id).startswith("euchre:a:")
        )
