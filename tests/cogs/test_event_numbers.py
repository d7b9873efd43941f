"""Two servers: each numbers its tournament events 1, 2, 3..., and Discord, the web pages
and the commands that take an event's number all go by it; buttons and addresses keep ids.

The first server opens its event first, so the second server's event has an id that is
not its number.
"""

from __future__ import annotations

import json
import re

from bot.store import Database, GuildSettingsRepo
from tests.cogs.test_server_numbers import served
from tests.cogs.test_tournament_commands import DIRECTOR, MEMBERS, event_harness, new_event
from tests.conftest import MakeHarness
from tests.sqlite_only import db

__all__ = ["db"]


def footer(embed: dict[str, object]) -> str:
    return str((embed.get("footer") or {}).get("text"))  # type: ignore[attr-defined]


async def test_a_second_servers_event_is_its_event_1_on_discord_and_the_web(
    make_harness: MakeHarness, db: Database
) -> None:
    h, bot, first = await event_harness(make_harness, db)
    second = h.guild(members=[(DIRECTOR, {"manage_guild": True}), *MEMBERS])
    for g in (first, second):
        await GuildSettingsRepo(db).update(g.id, web_public=True)
    await new_event(h, first, name="A night")
    message = await new_event(h, second, name="Z night")
    runner = bot.tournaments
    assert runner is not None
    (event,) = await runner.repo.list_by_guild(second.id)
    assert (event.id, event.number) == (2, 1)

    assert footer(message.embeds[0]) == "Event 1"
    assert all(":2:" in str(b.custom_id) for b in message.buttons)  # the buttons keep the id
    director = second.member(DIRECTOR)
    history = await h.slash(director, "euchre tournament history")
    assert str(history.reply.embeds[0]["description"]).startswith("**1** Z night")

    standings = await h.slash(director, "euchre tournament standings", {"event": 1})
    assert standings.reply.embeds[0]["title"] == "🏆 Z night · standings"
    assert footer(standings.reply.embeds[0]) == "Event 1"
    for other in (2, 3):  # its id is no number of the server's, nor is a number it has not had
        refused = await h.slash(director, "euchre tournament standings", {"event": other})
        assert refused.ephemeral and refused.content == (
            f"This server has no event {other}: /euchre tournament history lists its events."
        )
    exported = await h.slash(director, "euchre tournament export", {"event": 1})
    files = dict(exported.reply.files)
    assert sorted(files) == ["tournament-1-standings.csv", "tournament-1.json"]
    document = json.loads(files["tournament-1.json"])
    assert (document["id"], document["number"], document["name"]) == (2, 1, "Z night")
    first_standings = await h.slash(
        first.member(DIRECTOR), "euchre tournament standings", {"event": 1}
    )
    assert first_standings.reply.embeds[0]["title"] == "🏆 A night · standings"

    page = await served(db, f"/s/{second.id}")
    assert re.search(
        rf'href="[^"]*/s/{second.id}/events/2"><bdi>Z night</bdi></a></h3>\s*<p>Event 1 ·', page
    )
    assert "Event 1 · Progressive euchre" in await served(db, f"/s/{second.id}/events/2")
