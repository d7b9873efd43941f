"""The sign-up list of an event's message: each pair once, a partner to confirm marked."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.render.tournaments import event_panel
from bot.tournaments import Tournament
from bot.tournaments.model import EventSettings

NOW = datetime(2030, 5, 1, 19, 0, tzinfo=UTC)


def signups(event: Tournament) -> str:
    panel = event_panel(event.state, [], 2)
    return next(str(f.value) for f in panel.fields if str(f.name).startswith("Signed up"))


def test_each_pair_is_listed_once_and_a_pending_partner_is_marked() -> None:
    event = Tournament.create(
        guild_id=1,
        channel_id=2,
        director_id=3,
        name="Pairs",
        now=NOW,
        settings=EventSettings(format="pairs"),
        seed=1,
    )
    event.join(10, "Ann", NOW, partner_id=11, partner_name="Bob")
    event.join(12, "Cid", NOW, partner_id=13, partner_name="Dee")
    assert signups(event) == "• <@10> with <@11> (to confirm)\n• <@12> with <@13> (to confirm)"
    event.confirm_partner(11, NOW)
    assert signups(event) == "• <@10> with <@11>\n• <@12> with <@13> (to confirm)"
    event.confirm_partner(13, NOW)
    assert signups(event) == "• <@10> with <@11>\n• <@12> with <@13>"
