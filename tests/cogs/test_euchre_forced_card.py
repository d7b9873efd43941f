"""A forced card plays itself after a short visible delay, for a person who wants it.

Four people play on the manual clock; only Alice has ``play_forced_card``. When her
turn comes with one legal card, it is played for her :data:`FORCED_CARD_DELAY` seconds
later, unless she plays it first: her click makes the timed play stale.
"""

from __future__ import annotations

from typing import Any

from bot.server.preference_sources import MemoryPreferences
from bot.server.preferences import FORCED_CARD_DELAY, forced_play
from tests.cogs.euchre_driver import act_through_hand
from tests.cogs.test_euchre_ping_after import Room, room
from tests.conftest import MakeHarness


def order_up(buttons: list[Any]) -> Any:
    """The first seat asked orders the upcard up; otherwise the first button."""
    return next((b for b in buttons if ":order_up:" in b.custom_id), buttons[0])


async def move(r: Room) -> None:
    """The person to act takes their turn, ordering up where they can (so a deal is played)."""
    assert r.message is not None
    await act_through_hand(r.h, r.bot, r.to_act(), r.message, order_up)
    await r.wait(0)


async def alices_forced_turn(r: Room) -> int:
    """Moves until Alice is to act with one legal card: the log's length then."""
    alice = r.people[0]
    for _ in range(400):
        if r.to_act() is alice:
            _, view = r.table.view_for(alice.id)
            if forced_play(view.legal) is not None:
                game = r.table.game
                assert game is not None
                return len(game.log)
        await move(r)
    raise AssertionError("Alice never had a forced card")


async def forced_room(make_harness: MakeHarness) -> Room:
    prefs = MemoryPreferences()
    r = await room(make_harness, 8, prefs)
    await r.bot.preferences.update(r.people[0].id, play_forced_card=True)
    return r


async def test_a_forced_card_plays_itself_after_the_delay(make_harness: MakeHarness) -> None:
    r = await forced_room(make_harness)
    moves = await alices_forced_turn(r)
    game = r.table.game
    assert game is not None and game.turn is not None
    seat = game.turn
    (card,) = r.table.view_for(r.people[0].id)[1].legal
    await r.wait(FORCED_CARD_DELAY - 0.1)
    assert len(game.log) == moves, "the card stays her turn for a moment she can see"
    await r.wait(0.2)
    assert r.table.game is not None
    assert r.table.game.log[moves] == (seat, card), "then it plays itself"


async def test_her_own_click_first_makes_the_timed_play_stale(
    make_harness: MakeHarness,
) -> None:
    r = await forced_room(make_harness)
    moves = await alices_forced_turn(r)
    await move(r)
    game = r.table.game
    assert game is not None
    assert len(game.log) == moves + 1
    assert r.to_act() is not r.people[0], "the turn passed on"
    assert not [n for n in r.clock.pending if n.endswith("forced card")], "cancelled"
    await r.wait(FORCED_CARD_DELAY * 4)
    assert len(game.log) == moves + 1, "nothing plays for the others, who did not ask"


async def test_without_the_preference_nothing_plays_itself(make_harness: MakeHarness) -> None:
    r = await room(make_harness, 8, MemoryPreferences())
    moves = await alices_forced_turn(r)
    await r.wait(FORCED_CARD_DELAY * 4)
    game = r.table.game
    assert game is not None and len(game.log) == moves
