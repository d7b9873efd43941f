"""Seats as players meet them: seat controls that say whom they are for, and names kept."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord.app import EuchreBot
from bot.render import TAKEOVER_PROMPT
from bot.store import Database
from bot.tables.database import DatabaseTableStore
from tests.cogs.euchre_driver import only_table
from tests.cogs.test_euchre_keeping import keeping_of, make_bot, one_person_playing, same_guild
from tests.kit.harness import Harness, StoredMessage


async def test_the_seat_controls_tell_a_seated_player_they_are_for_members_watching() -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        g, alice, message = await one_person_playing(h, others=["erin"])
        picker = message.select(placeholder=TAKEOVER_PROMPT)
        assert picker.placeholder is not None and picker.placeholder.startswith("Watching?")
        clicked = await h.click(alice, message, label="Take a computer's seat")
        chosen = await h.select(alice, message, ["1"], placeholder=TAKEOVER_PROMPT)
        for answer in (clicked.reply, chosen.reply):
            assert answer.ephemeral
            assert "already playing in seat 1" in answer.content
            assert "for members watching the game" in answer.content
        back = await h.click(g.member("erin"), message, label="Take a computer's seat")
        assert not back.reply.ephemeral
        assert only_table(bot).seat_of(g.member("erin").id) is not None


async def card_emojis_of(bot: EuchreBot) -> None:
    """Wait for the start-up upload of the card pictures."""
    cog = bot.get_cog("CardEmojis")
    assert cog is not None and cog.task is not None  # type: ignore[attr-defined]
    await cog.task  # type: ignore[attr-defined]


def past_moves(message: StoredMessage) -> list[str]:
    """The table's lines about moves made: who made trump, the trick so far (emoji ids apart)."""
    (embed,) = message.embeds
    lines = re.sub(r":\d+>", ":id>", embed["description"]).splitlines()
    return [x for x in lines if x.startswith(("Trump", "**Trick", "Bids"))]


async def test_past_moves_keep_the_name_of_whoever_made_them_after_a_takeover(
    tmp_path: Path,
) -> None:
    path = tmp_path / "euchre.sqlite3"
    async with await Database.open(path) as db:
        bot, _ = make_bot(DatabaseTableStore(db))
        async with Harness(bot) as h:
            g, _, message = await one_person_playing(h, others=["erin"])
            table = only_table(bot)
            game = table.game
            assert game is not None and game.maker is not None and game.trick
            seat = game.maker if game.maker != 0 else game.trick[0][0]
            computer = table.name(seat)
            await card_emojis_of(bot)
            before = past_moves(h.message(message.id))
            assert any(f"{computer} 🤖" in line for line in before), before
            await h.select(g.member("erin"), message, [str(seat)], placeholder=TAKEOVER_PROMPT)
            assert table.name(seat) == "Erin"
            after = past_moves(h.message(message.id))
            assert after == before and "Erin" not in "".join(after)
            old_message = h.message(message.id)

    async with await Database.open(path) as db:
        bot, _ = make_bot(DatabaseTableStore(db))
        async with Harness(bot) as h:
            g2 = same_guild(h, g, ["alice", "erin"])
            h.add_message(g2.channel, like=old_message)
            (restored,) = await bot.tables.restore()
            assert restored.name(seat) == "Erin"
            await card_emojis_of(bot)  # the table is drawn with the card pictures, as before
            await keeping_of(bot).resume_all()
            assert past_moves(h.message(message.id)) == before
