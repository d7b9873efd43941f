"""The league at its worst, through the real bot: 200 games, 40 long names, full seasons.

A player with a 200-game history pages through it; the standings of 40 placed players
page too; stats (with the rating picture), replays, exports, a season's start and end
and the settings are drawn with 100-character names in mixed scripts and a season name
at its longest. Every payload passes Discord's contract in the harness.
"""

from __future__ import annotations

import re

from bot.league import LeagueService
from bot.render.names import shown
from bot.rules import HouseRules
from bot.store import Database, GameArchiveRepo, GuildSettingsRepo, Seat
from tests.cogs.euchre_driver import build_bot
from tests.cogs.worst import long_guild
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, StoredMessage
from tests.league.util import RULES, finished_record
from tests.sqlite_only import db

__all__ = ["db"]

GAMES = 200
PEOPLE = 40


async def every_page(h: Harness, who: FakeMember, first: StoredMessage, label: str) -> list[str]:
    """The text of each page, from the first, by the button ``label``."""
    texts = [first.text]
    message = first
    while any(b.label == label and not b.disabled for b in message.buttons):
        assert len(texts) < 100, f"the {label} button never stops: {texts[-1][-300:]}"
        message = (await h.click(who, message, label=label)).message
        texts.append(message.text)
    return texts


async def test_a_200_game_history_and_full_standings_page_and_every_view_fits(
    make_harness: MakeHarness, db: Database
) -> None:
    bot = build_bot()
    bot.league = LeagueService(db)  # type: ignore[attr-defined]
    h = await make_harness(bot)
    g = long_guild(h, PEOPLE)
    people = [g.member(f"p{i:02d}") for i in range(PEOPLE)]
    admin = people[0]
    await GuildSettingsRepo(db).set_rules(g.id, RULES)
    await h.slash(admin, "euchre season settings", {"min_games": 1})
    season_name = "S" * 25 + "季節🌸" + "ñ" * 22
    started = await h.slash(admin, "euchre season start", {"name": season_name})
    assert season_name in started.content

    archive = GameArchiveRepo(db)
    eight = HouseRules.preset_rules("bid_euchre_8").with_changes(deals_per_game=2)
    for n in range(GAMES):
        rules = eight if n % 50 == 0 else RULES
        table = [admin, *(people[(n * 7 + k) % (PEOPLE - 1) + 1] for k in range(rules.players - 1))]
        seats = [Seat.person(i, p.id, p.display_name) for i, p in enumerate(table)]
        await archive.archive(
            guild_id=g.id, record=finished_record(n, rules), players=seats, ranked=rules == RULES
        )

    history = await h.slash(people[1], "euchre history", {"member": admin})
    pages = await every_page(h, people[1], history.message, "Older ▶")
    assert (
        len(pages) == GAMES // 10
        and f"Page {len(pages)} of {len(pages)} · {GAMES} games" in pages[-1]
    )
    numbers = {int(n) for page in pages for n in re.findall(r"\*\*#(\d+)\*\*", page)}
    assert len(numbers) == GAMES, "every game on one page or another"

    standings = await h.slash(people[2], "euchre standings")
    placed = await every_page(h, people[2], standings.message, "Next ▶")
    assert sum(shown(p.display_name) in "\n".join(placed) for p in people) == PEOPLE

    stats = await h.slash(people[3], "euchre stats", {"member": admin})
    assert stats.message.embeds
    replay = await h.slash(people[3], "euchre replay", {"game": max(numbers)})
    await h.click(people[3], replay.message, label="Next deal ⏭")
    await h.slash(people[3], "euchre export", {"game": min(numbers)})
    choices = await h.autocomplete(people[3], "euchre replay", {"game": ""}, focused="game")
    assert len(choices.choices) == 25
    seasons = await h.autocomplete(people[3], "euchre standings", {"season": ""}, focused="season")
    assert seasons.choices
    ended = await h.slash(admin, "euchre season end")
    assert "is over" in ended.text
    await h.slash(admin, "euchre season start", {"name": "N" * 50})
    await h.slash(people[4], "euchre season settings")
