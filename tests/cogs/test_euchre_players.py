"""Issue 13, as players meet it: seat controls that say whom they are for, and names kept."""

from __future__ import annotations

from bot.render import TAKEOVER_PROMPT
from tests.cogs.euchre_driver import only_table
from tests.cogs.test_euchre_keeping import make_bot, one_person_playing
from tests.harness import Harness


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
