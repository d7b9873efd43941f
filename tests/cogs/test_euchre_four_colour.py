"""A person's ``four_colour`` preference draws their private hand in four colours.

The hand's text, its buttons' labels and its cards' pictures change; the buttons'
ids and everything the others see stay the same.
"""

from __future__ import annotations

from bot.render.cards import in_colours
from bot.server.preference_sources import MemoryPreferences
from tests.cogs.test_euchre_ping_after import room
from tests.conftest import MakeHarness
from tests.kit.harness import StoredMessage


async def test_the_hand_is_drawn_in_the_persons_colours(make_harness: MakeHarness) -> None:
    prefs = MemoryPreferences()
    r = await room(make_harness, 8, prefs)
    alice, bob = r.people[0], r.people[1]
    assert r.message is not None
    two = (await r.h.click(alice, r.message, label="Your hand")).message
    await r.bot.preferences.update(alice.id, four_colour=True)
    four = (await r.h.click(alice, r.message, label="Your hand")).message
    assert "🔷" in four.text or "☘️" in four.text
    described = [e.get("description") or "" for e in two.embeds]
    assert [e.get("description") for e in four.embeds] == [in_colours(d, True) for d in described]
    assert [b.custom_id for b in four.buttons] == [b.custom_id for b in two.buttons]
    others = (await r.h.click(bob, r.message, label="Your hand")).message
    assert "🔷" not in others.text and "☘️" not in others.text, "Bob keeps two colours"


async def test_the_card_pictures_follow_the_preference(make_harness: MakeHarness) -> None:
    prefs = MemoryPreferences()
    r = await room(make_harness, 8, prefs)
    alice = r.people[0]
    assert r.message is not None
    two = (await r.h.click(alice, r.message, label="Your hand")).message
    await r.bot.preferences.update(alice.id, four_colour=True)
    four = (await r.h.click(alice, r.message, label="Your hand")).message

    def pictures(hand: StoredMessage) -> list[str]:
        return [str((b.get("emoji") or {}).get("name")) for b in hand.buttons if b.get("emoji")]

    assert pictures(two) and not any(p.startswith("euchre_four_") for p in pictures(two))
    changed = [p for p in pictures(four) if p.startswith("euchre_four_")]
    assert changed, "her diamonds and clubs are drawn in their four-colour faces"
