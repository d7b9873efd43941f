"""``/euchre learn`` through the real bot: the first lesson played end to end, and refusals."""

from __future__ import annotations

from bot.lesson.deal import play_lesson
from bot.rules import HouseRules
from cogs.euchre.lesson import lesson_hint
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness


async def test_the_lesson_is_played_to_the_end(make_harness: MakeHarness) -> None:
    h = await make_harness(build_bot())
    g = h.guild(members=["ada"])
    ada = g.member("ada")
    shown = await h.slash(ada, "euchre learn")
    assert shown.deferred and shown.ephemeral
    message = shown.message
    first = h.message(message.id).content
    assert "right bower" in first and "left bower" in first and "go alone" in first
    assert "💡 Hint: Order up alone" in first

    wrong = await h.click(ada, message, label="Pass")
    assert wrong.last_reply.content == (
        "In this lesson, follow the hint: press the move it names to go on."
    )
    assert h.message(message.id).content == first

    steps = 0
    while h.message(message.id).buttons:
        step = play_lesson(HouseRules(), steps, lesson_hint)
        assert step.choice is not None
        button = next(
            b
            for b in h.message(message.id).buttons
            if b.custom_id.split(":")[4] == str(step.choice)
        )
        assert "📘" in h.message(message.id).content
        await h.click(ada, message, custom_id=button.custom_id)
        steps += 1
    end = h.message(message.id).content
    assert "You took 5 of five tricks and scored 4" in end
    assert "/euchre new" in end


async def test_a_preset_the_deal_does_not_fit_explains_what_differs(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(build_bot())
    g = h.guild(members=["ada"])
    shown = await h.slash(g.member("ada"), "euchre learn", {"preset": "british"})
    text = shown.reply.content
    assert "doesn't fit these rules" in text
    assert "joker (the lesson: none)" in text
    assert "Order up alone" in text
