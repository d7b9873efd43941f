"""Tournament nights at their worst, through the real bot, every payload under Discord's contract.

64 people with 100-character names in mixed scripts fill an event and more wait; 32
pairs sign up and check in; 16 tables open in a round; the event plays out and its
lists (who is in, the waiting list, the standings) are read whole through the message's
buttons and their pages. Every message, edit and thread name passes the contract in
the harness, so a payload Discord would refuse fails here.
"""

from __future__ import annotations

import re

from bot.discord.app import EuchreBot
from bot.render.names import shown as in_markdown
from bot.store import Database
from bot.tables.scheduler import ManualScheduler
from tests.cogs.test_tournament_commands import (
    DIRECTOR,
    db,
    event_harness,
    new_event,
    play_out,
    settled,
)
from tests.cogs.worst import long_members, long_name
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, StoredMessage

__all__ = ["db"]

PEOPLE = 64


def event_id(bot: EuchreBot) -> int:
    runner = bot.tournaments
    assert runner is not None
    found = runner.running[0].state.id
    assert found is not None
    return found


async def read_pages(h: Harness, who: FakeMember, first: StoredMessage) -> str:
    """Every page of ``who``'s private list, from its first, by its Next button."""
    texts = [first.text]
    message = first
    while any(b.label == "Next ▶" and not b.disabled for b in message.buttons):
        message = (await h.click(who, message, label="Next ▶")).message
        texts.append(message.text)
    footer = re.search(r"Page 1 of (\d+)", first.text)
    assert footer is None or int(footer[1]) == len(texts), "every page was reached"
    return "\n".join(texts)


async def test_64_long_names_fill_an_event_more_wait_and_it_plays_to_the_end(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, g = await event_harness(make_harness, db, members=long_members(PEOPLE + 3))
    message = await new_event(h, g, rounds=2, deals=1, check_in=0)
    people = [g.member(f"p{i:02d}") for i in range(PEOPLE + 3)]
    for person in people:
        answer = await h.click(person, h.message(message.id), label="Join")
        assert answer.ephemeral
    assert "number 3 on its waiting list" in answer.content, answer.content
    await settled(h, bot)
    shown = h.message(message.id).text
    assert f"Signed up ({PEOPLE} of {PEOPLE})" in shown and "Waiting list (3)" in shown
    listed = await read_pages(
        h, people[1], (await h.click(people[1], message, label="Who's in")).message
    )
    assert all(p.mention in listed for p in people), "who's in and who waits, every one"

    left = await h.click(people[0], h.message(message.id), label="Leave")
    assert left.ephemeral
    await settled(h, bot)
    moved_up = people[PEOPLE]
    notices = [m.text for m in h.public_messages(g.channel) if m.id != message.id]
    assert any(moved_up.mention in t and "you're in" in t for t in notices), notices
    assert "Waiting list (2)" in h.message(message.id).text

    started = await h.click(g.member(DIRECTOR), h.message(message.id), label="Start now")
    assert started.ephemeral and "has started" in started.content
    await settled(h, bot)
    threads = [s for s in h.sent if s.kind == "thread_create"]
    assert len(threads) == PEOPLE // 4, "16 tables, a thread each"

    await play_out(h, bot, g, message.id, event_id(bot))
    final = h.message(message.id)
    assert "Final standings" in final.text and "more: press **Standings**" in final.text
    standings = await read_pages(
        h, people[1], (await h.click(people[1], final, label="Standings")).message
    )
    placed = [p for p in people[1:] if in_markdown(p.display_name) in standings]
    assert len(placed) == PEOPLE, "every person placed, on one page or another"
    command = await h.slash(g.member(DIRECTOR), "euchre tournament standings")
    assert command.ephemeral and "Page 1 of" in command.message.text
    await h.slash(g.member(DIRECTOR), "euchre tournament history")
    await h.slash(g.member(DIRECTOR), "euchre tournament export")


async def test_32_long_named_pairs_sign_up_and_check_in(
    make_harness: MakeHarness, db: Database
) -> None:
    clock = ManualScheduler()
    h, bot, g = await event_harness(
        make_harness, db, scheduler=clock, members=long_members(PEOPLE + 2)
    )
    await clock.advance(0)  # the start-up's resume
    name = "P" * 80
    message = await new_event(
        h, g, name=name, format="pairs", start_in=60, check_in=30, max_players=PEOPLE
    )
    people = [g.member(f"p{i:02d}") for i in range(PEOPLE + 2)]
    for first, second in zip(people[::2], people[1::2], strict=True):
        joined = await h.slash(first, "euchre tournament join", {"partner": second})
        assert joined.ephemeral
        confirmed = await h.click(second, h.message(message.id), label="Confirm partner")
        assert confirmed.ephemeral
    assert "waiting list" in joined.content, "the 33rd pair waits"
    await settled(h, bot)
    assert "Waiting list (2)" in h.message(message.id).text

    await clock.advance(30 * 60)  # check-in opens
    await settled(h, bot)
    for person in people:
        checked = await h.click(person, h.message(message.id), label="Check in")
        assert checked.ephemeral, checked.content
    await settled(h, bot)
    shown = h.message(message.id).text
    assert shown.count("✅") == PEOPLE // 2 + 1, "a mark on each pair's line, the waiting one's too"
    listed = await read_pages(
        h, people[3], (await h.click(people[3], message, label="Who's in")).message
    )
    assert all(p.mention in listed for p in people)
    assert all(long_name(i) not in shown for i in range(4)), "the list shows mentions, not names"

    await clock.advance(60 * 60)  # the start (the runner's clock is the wall's): no place opened
    await settled(h, bot)
    event = h.message(message.id)
    assert "Standings" in event.text and "more: press **Standings**" in event.text
    told = [m.text for m in h.public_messages(g.channel) if "no place opened" in m.text]
    assert told and all(p.mention in told[0] for p in people[PEOPLE:]), "the waiting pair told"
    assert len([s for s in h.sent if s.kind == "thread_create"]) == PEOPLE // 4
    pages = await read_pages(
        h, people[5], (await h.click(people[5], event, label="Standings")).message
    )
    assert all(in_markdown(p.display_name) in pages for p in people[:PEOPLE]), (
        "every pair, whole names"
    )
    director = g.member(DIRECTOR)
    for label in ("Pause", "Resume", "Cancel"):
        pressed = await h.click(director, h.message(message.id), label=label)
        assert pressed.ephemeral, pressed.content
        await settled(h, bot)
    assert "Cancelled" in h.message(message.id).text
