"""A tournament on the fake Discord as its director and members play it, with the bot a process.

The director opens the event with ``/euchre tournament new`` and presses the event
message's buttons; members join and check in there. Each round's tables open in
threads of the event's channel and ping their members, who play their hands as people
do (tests/kit/fake_players.py). The bot's database can be read between kills
(:func:`stored_event`), as a restarted bot finds it.

Used by tests/e2e/test_tournament_process.py and tests/e2e/test_tournament_kills.py.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence

from bot.store import Database
from bot.tournaments import Tournament
from bot.tournaments.repository import TournamentRepo
from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord, Message, User
from tests.kit.fake_players import EuchreTable, Players
from tests.kit.waiting import BOUND

__all__ = [
    "DIRECTOR",
    "answered",
    "event_id",
    "new_event",
    "play_round",
    "round_tables",
    "round_threads",
    "stored_event",
    "wait_for_champion",
    "wait_for_next_round",
]

DIRECTOR = "director"
_TABLE = re.compile(r"euchre:t:(\d+):")
_EVENT = re.compile(r"Event (\d+)")


async def answered(
    fake: FakeDiscord, member: User, message: Message, label: str, timeout: float = BOUND
) -> None:
    """``member`` presses the button ``label`` of ``message`` and the bot answers."""
    clicked = await fake.click(member, message, label=label)
    await clicked.wait_answered(timeout)
    assert clicked.original_id is not None


async def new_event(fake: FakeDiscord, options: Mapping[str, object]) -> Message:
    """The director's ``/euchre tournament new``: the event's message."""
    created = await fake.slash(fake.member(DIRECTOR), "euchre tournament new", options)
    await created.wait_answered(BOUND)
    assert created.original_id is not None, "the event message was not posted"
    return fake.messages[created.original_id]


def event_id(message: Message) -> int:
    """The event of an event's message (its embed's footer says it)."""
    embeds = message.payload.get("embeds") or [{}]
    found = _EVENT.fullmatch(str((embeds[0].get("footer") or {}).get("text")))
    assert found is not None, embeds
    return int(found[1])


async def stored_event(bot: BotProcess, number: int) -> Tournament:
    """The event as the bot's database holds it (what a restarted bot resumes)."""
    async with await Database.open(bot.database_url) as db:
        return Tournament(await TournamentRepo(db).get(number))


def round_threads(fake: FakeDiscord, number: int) -> list[int]:
    """The threads of round ``number``'s tables."""
    return [
        cid
        for cid, channel in fake.channels.items()
        if channel.get("type") == 11 and f": round {number}, table " in str(channel.get("name"))
    ]


def _seated(
    fake: FakeDiscord, thread: int, names: Sequence[str]
) -> tuple[EuchreTable, list[User]] | None:
    """The table of a thread and the members its ping named, once both are posted."""
    shown = [m for m in fake.public_messages() if m.channel_id == thread]
    ids = {int(found[1]) for m in shown for c in m.custom_ids if (found := _TABLE.match(c))}
    text = " ".join(m.content for m in shown)
    members = [fake.member(n) for n in names if f"<@{fake.member(n).id}>" in text]
    if len(ids) != 1 or len(members) != 4:
        return None
    return EuchreTable(fake, ids.pop()), members


async def round_tables(
    fake: FakeDiscord, number: int, names: Sequence[str], timeout: float = BOUND
) -> list[Players]:
    """Round ``number``'s tables, once each is posted and has pinged its four of ``names``."""
    tables = len(names) // 4

    def ready() -> bool:
        threads = round_threads(fake, number)
        return len(threads) == tables and all(_seated(fake, t, names) for t in threads)

    await fake.wait_for(ready, timeout=timeout, what=f"round {number}'s tables and pings")
    found = [_seated(fake, thread, names) for thread in round_threads(fake, number)]
    players = [Players(*seats) for seats in found if seats is not None]
    everyone = sorted(m.name for p in players for m in p.members)
    assert everyone == sorted(names), "every member sits at one table of the round"
    return players


async def play_round(tables: list[Players]) -> None:
    """Every table's members open their hands and play the round out."""
    for players in tables:
        await players.open_hands()
    assert all(r is None for r in await asyncio.gather(*(p.play() for p in tables)))


async def wait_for_next_round(fake: FakeDiscord, event: Message, timeout: float = BOUND) -> None:
    """Until the round has ended and the event message offers **Next round**."""

    def between() -> bool:
        return "Next round" in [b.label for b in fake.messages[event.id].buttons]

    await fake.wait_for(between, timeout=timeout, what="the round's end")


async def wait_for_champion(fake: FakeDiscord, event: Message, timeout: float = BOUND) -> None:
    """Until the champion is announced and the event message shows the final standings."""

    def champion() -> bool:
        notices = " ".join(m.content for m in fake.public_messages())
        final = "Final standings" in str(fake.messages[event.id].payload.get("embeds"))
        return "has finished. Champion" in notices and final

    await fake.wait_for(champion, timeout=timeout, what="the champion")
