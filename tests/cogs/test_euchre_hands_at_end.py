"""When a table closes, every private hand the bot can still edit shows how it ended.

The bot keeps each person's newest private hand, to redraw it while its interaction
may still edit it (``HAND_EDITABLE_FOR``; Discord's tokens live 15 minutes). When the
table closes (its game over, aborted by the host, closed idle by the keeper), each of
those hands is redrawn at once as a click on it would show it: the sentence, the
result below (who won and the score, or the score it closed at), no buttons but, for a
finished game, the Review of its last deal; the hand whose click ended the game shows the result alone, in its click's answer. Each
edit goes through the hand's own interaction webhook, never the channel's routes; a
hand too old to edit is left alone, and one whose edit fails does not stop the others.
Four seats, two or three people and computers, through the real bot and the harness.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import pytest

from bot.discord.app import EuchreBot
from bot.discord.tables.presenter import HAND_EDITABLE_FOR
from bot.rules import HouseRules
from bot.server.settings import ServerSettings
from bot.tables import Table
from bot.tables.scheduler import ManualScheduler
from bot.tables.turn_timers import person_to_act
from tests.cogs.euchre_driver import (
    act_through_hand,
    action_buttons,
    clocked_bot,
    only_table,
    random_policy,
    started,
)
from tests.kit.harness import FakeMember, Harness, Sent, StoredMessage

EDIT_HAND = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


def make_bot(**settings: Any) -> tuple[EuchreBot, ManualScheduler]:
    """The real bot; games end at the first deal's end; time moves when told."""
    return clocked_bot(ServerSettings(rules=HouseRules(target_score=1)), **settings)


async def seated(
    h: Harness, bot: EuchreBot, names: Sequence[str]
) -> tuple[list[FakeMember], StoredMessage, Table]:
    """``names`` at a four-seat table, computers in the other seats, the game started."""
    people, message = await started(h, names, 4 - len(names))
    return people, message, only_table(bot)


async def open_hand(h: Harness, person: FakeMember, message: StoredMessage) -> StoredMessage:
    shown = await h.click(person, h.message(message.id), label="Your hand")
    assert shown.message.ephemeral and shown.message.buttons
    return shown.message


def sentence(table: Table, how: str) -> str:
    return f"Table {table.number} {how}: start a new one with /euchre new."


def shows_the_end(
    h: Harness, hand: StoredMessage, content: str, title: str, review: int = 0
) -> str:
    """The hand as it is now: ``content`` above the table's end, no buttons but a finished
    game's Review of its last deal (``review``); its text."""
    now = h.message(hand.id)
    assert now.content == content
    assert [b.label for b in now.buttons] == ([f"🔍 Review deal {review}"] if review else [])
    (embed,) = now.embeds
    assert embed["title"] == title
    return str(embed["description"])


def hand_edits(h: Harness, hand: StoredMessage, since: int = 0) -> list[Sent]:
    """Every call that changed ``hand`` after call number ``since``."""
    return [s for s in h.sent[since:] if s.message_id == hand.id and s.kind != "get_original"]


@pytest.mark.parametrize(
    ("policy_seed", "ended_by_click"), [(3, False), (4, True)], ids=["computer", "click"]
)
async def test_every_open_hand_shows_the_result_when_the_game_ends(
    policy_seed: int, ended_by_click: bool
) -> None:
    """The game ends on a computer's move after a person's click, or on a person's click."""
    bot, _ = make_bot()
    async with Harness(bot) as h:
        people, message, table = await seated(h, bot, ["alice", "bob", "carol"])
        for person in people:
            await open_hand(h, person, message)
        policy = random_policy(policy_seed)
        while table.status == "playing":
            to_act = person_to_act(table)
            assert to_act is not None, "the computers play on by themselves"
            last = next(p for p in people if p.id == to_act)
            before = len(h.sent)
            _, answer = await act_through_hand(h, bot, last, message, policy)
        assert table.status == "finished" and table.game is not None
        hands = {p.id: h.last_ephemeral(p) for p in people}
        assert len({hand.id for hand in hands.values()}) == 3

        title = f"Your hand · table {table.number} · game over"
        score = table.game.score
        won = f"win {max(score)} to {min(score)}."
        assert ("game over" in str(answer.data.get("embeds"))) is ended_by_click
        for person in people:
            hand = hands[person.id]
            content = sentence(table, "has finished")
            redraws = ["edit_original"]  # through the interaction webhook, once
            if person is last:  # the click's answer, then the end unless it showed it
                content = "" if ended_by_click else content
                redraws = ["update"] if ended_by_click else ["update", "edit_original"]
            deals = len(table.game.results)
            assert won in shows_the_end(h, hand, content, title, review=deals)
            assert [s.kind for s in hand_edits(h, hand, before)] == redraws


async def test_an_aborted_table_s_hands_say_it_was_closed_unless_too_old_to_edit() -> None:
    bot, clock = make_bot()
    async with Harness(bot) as h:
        (alice, bob), message, table = await seated(h, bot, ["alice", "bob"])
        old = await open_hand(h, bob, message)
        await clock.advance(HAND_EDITABLE_FOR + 1)
        young = await open_hand(h, alice, message)
        stale = action_buttons(old)
        assert table.status == "playing" and stale, "nothing moved meanwhile"
        before = len(h.sent)

        aborted = await h.slash(alice, "euchre abort")
        assert not aborted.reply.ephemeral and table.status == "aborted"
        title = f"Your hand · table {table.number} · closed"
        text = shows_the_end(h, young, sentence(table, "was closed"), title)
        assert "Score when it closed: 🔵" in text
        assert [s.kind for s in hand_edits(h, young, before)] == ["edit_original"]
        # Too old for its interaction to edit it: untouched, its buttons still there.
        assert hand_edits(h, old, before) == [] and h.message(old.id).buttons == old.buttons

        # A click on it is answered with the same end, in the click's one answer.
        clicked = await h.click(bob, old, custom_id=stale[0].custom_id)
        assert clicked.response is not None and clicked.response.kind == "update"
        assert shows_the_end(h, old, sentence(table, "was closed"), title) == text


async def test_a_table_closed_idle_shows_its_end_on_the_hands_still_editable() -> None:
    bot, clock = make_bot(idle_game_minutes=60)
    async with Harness(bot) as h:
        (alice, bob), message, table = await seated(h, bot, ["alice", "bob"])
        old = await open_hand(h, alice, message)
        await clock.advance(59 * 60)
        young = await open_hand(h, bob, message)
        before = len(h.sent)
        await clock.advance(2 * 60)
        assert await bot.pacers.flush(1.0)
        assert table.status == "aborted" and not bot.tables.open_tables
        title = f"Your hand · table {table.number} · closed"
        shows_the_end(h, young, sentence(table, "was closed"), title)
        assert [s.kind for s in hand_edits(h, young, before)] == ["edit_original"]
        assert hand_edits(h, old, before) == [] and h.message(old.id).buttons


async def test_a_hand_whose_edit_fails_is_skipped_and_the_others_still_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        people, message, table = await seated(h, bot, ["alice", "bob", "carol"])
        hands = [await open_hand(h, person, message) for person in people]
        caplog.set_level(logging.INFO)
        h.fail_http("PATCH", EDIT_HAND, status=404, code=10015, message="Unknown Webhook")

        aborted = await h.slash(people[0], "euchre abort")
        assert not aborted.reply.ephemeral and table.status == "aborted"
        ended = [hand for hand in hands if not h.message(hand.id).buttons]
        assert len(ended) == 2, "one edit refused, the other two made"
        for hand in ended:
            title = f"Your hand · table {table.number} · closed"
            shows_the_end(h, hand, sentence(table, "was closed"), title)
        assert "redrawing the hand" in caplog.text and "Unknown Webhook" in caplog.text
