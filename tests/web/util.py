"""A server with a public league for the web tests: a season of games, hostile names too.

Beside the script in a name, names that test the pages' layout: one that turns text
right to left (U+202E), one of 100 letters without a space, one with emoji.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.league import LeagueService
from bot.store import Database, GameArchiveRepo, GuildSettingsRepo, Season, Seat
from tests.league.util import GUILD, OTHER_GUILD, RULES, USERS, finished_record, use_rules

HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
"""A display name that would run script if a page did not escape it."""
HOSTILE_ID = 6_000_000_000_000_001
OVERRIDE = "Zed \u202eevil"
"""A name holding a right-to-left override: it must not turn the score after it around."""
LONG = "W" * 100
"""A name as long as the store takes, without a space: it must wrap, not widen the page."""
EMOJI = "Jo 🃏👩\u200d👩\u200d👧"
"""A name with emoji, one of them a sequence of three joined."""
NAMES_IDS = {
    OVERRIDE: 6_000_000_000_000_011,
    LONG: 6_000_000_000_000_012,
    EMOJI: 6_000_000_000_000_013,
}
BASE_URL = "https://euchre.example.org"
"""The pages' public address in the tests (``web_base_url``)."""
PRIVATE_GUILD = OTHER_GUILD


@dataclass(frozen=True)
class League:
    """What the filled store holds: ids to visit."""

    guild_id: int
    games: tuple[int, ...]
    private_game: int
    player: int
    names_game: int
    """A game of Ada with the names above."""
    hostile: int = HOSTILE_ID


def _seats(names: list[str]) -> list[Seat]:
    out = []
    for n, name in enumerate(names):
        user = HOSTILE_ID if name == HOSTILE else NAMES_IDS.get(name) or USERS[name]
        out.append(Seat.person(n, user, name))
    return out


async def fill(db: Database, games: int = 6) -> League:
    """Archive ``games`` ranked games on a public server (and one on a private one)."""
    await use_rules(db)
    await GuildSettingsRepo(db).update(GUILD, web_public=True)
    archive = GameArchiveRepo(db)
    line_ups = [
        ["Ada", "Bob", "Cy", "Di"],
        ["Ada", HOSTILE, "Cy", "Di"],
        ["Bob", "Ada", "Di", "Cy"],
    ]
    ids = []
    for n in range(games):
        game = await archive.archive(
            guild_id=GUILD,
            record=finished_record(n + 1),
            players=_seats(line_ups[n % len(line_ups)]),
            ranked=True,
        )
        ids.append(game.id)
    await use_rules(db, OTHER_GUILD, RULES)
    private = await archive.archive(
        guild_id=OTHER_GUILD,
        record=finished_record(99),
        players=_seats(["Ada", "Bob", "Cy", "Di"]),
        ranked=True,
    )
    named = await archive.archive(
        guild_id=GUILD,
        record=finished_record(50),
        players=_seats(["Ada", OVERRIDE, LONG, EMOJI]),
        ranked=False,
    )
    league = LeagueService(db)
    await league.take_in(GUILD)
    await league.take_in(OTHER_GUILD)
    return League(GUILD, tuple(ids), private.id, USERS["Ada"], named.id)


async def next_season(db: Database, guild_id: int) -> Season:
    """End the running season and start "Summer"; the season that ended."""
    service = LeagueService(db)
    ended = await service.end_season(guild_id)
    await service.start_season(guild_id, "Summer")
    return ended
