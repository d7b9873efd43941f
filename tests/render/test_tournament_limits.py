"""An event's message, notices and lists within Discord's limits at every size, nobody lost.

Drawn straight from states larger than a night brings (128 people in, hundreds
waiting, 100-character names, every pair level at the top) and checked against
Discord's contract (tests/kit): what a message cannot hold is counted, and the pages
of the whole lists hold every line.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.discord.embeds import embed_of
from bot.render.names import shown as in_markdown
from bot.render.tournament_lists import event_list_page
from bot.render.tournaments import (
    HISTORY_EVENTS,
    announcement_texts,
    champion_text,
    event_panel,
    history_panel,
    standing_line,
    waiting_texts,
)
from bot.tournaments import Actor, Announcement, Standing, Tournament
from bot.tournaments.model import MAX_PLAYERS, EventSettings
from tests.cogs.worst import long_name
from tests.kit.messages import check_message

NOW = datetime(2030, 5, 1, 19, 0, tzinfo=UTC)
USER = 10**18
DIRECTOR = Actor(3, is_director=True)


def valid(*embeds: discord.Embed, content: str | None = None) -> None:
    body = {
        "content": content,
        "embeds": [e.to_dict() for e in embeds],
        "allowed_mentions": {"parse": []},
    }
    assert check_message(body, create=True) == []


def full_event(format: str, waiting: int, *, check_in: bool = False) -> Tournament:
    settings = EventSettings(format=format, max_players=MAX_PLAYERS)  # type: ignore[arg-type]
    event = Tournament.create(
        guild_id=1, channel_id=2, director_id=3, name="N" * 80, now=NOW, settings=settings, seed=1
    )
    people = MAX_PLAYERS + waiting * (2 if format == "pairs" else 1)
    for i in range(0, people, 2 if format == "pairs" else 1):
        if format == "pairs":
            event.join(USER + i, long_name(i), NOW, partner_id=USER + i + 1, partner_name="x")
            event.confirm_partner(USER + i + 1, NOW)
        else:
            event.join(USER + i, long_name(i), NOW)
    if check_in:
        event.open_check_in(None, NOW)
        for i in range(0, people, 3):
            event.check_in(USER + i, NOW)
    return event


def count(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    return int(found[1]) if found else 0


@pytest.mark.parametrize(("format", "check_in"), [("progressive", True), ("pairs", False)])
@pytest.mark.parametrize("waiting", [0, 3, 300])
def test_who_is_in_fills_the_message_and_counts_the_rest(
    format: str, check_in: bool, waiting: int
) -> None:
    event = full_event(format, waiting, check_in=check_in)
    state = event.state
    panel = event_panel(state, [], 3)
    valid(embed_of(panel))
    text = "\n".join(f"{f.name}\n{f.value}" for f in panel.fields)
    lines = len(re.findall(r"^• ", text, re.MULTILINE))
    people = len(state.entrants) // (2 if format == "pairs" else 1)
    queued = len(state.waiting) // (2 if format == "pairs" else 1)
    more = count(r"… and (\d+) more", text)
    assert lines + more == people + queued or (more and f"{len(state.waiting)} waiting" in text)
    pages: list[str] = []
    page, pages_count = 0, 1
    while page < pages_count:
        shown, page, pages_count = event_list_page(state, "in", page)
        valid(embed_of(shown))
        pages.append(str(shown.description))
        page += 1
    listed = "\n".join(pages)
    assert all(f"<@{e.user_id}>" in listed for e in [*state.entrants, *state.waiting])


def standings(pairs: bool, count: int) -> list[Standing]:
    size = 2 if pairs else 1
    return [
        Standing(
            place=1 if pairs else i + 1,
            entrants=tuple(range(i * size, i * size + size)),
            names=tuple(long_name(i * size + k) for k in range(size)),
            replaced=i % 5 == 0,
        )
        for i in range(count)
    ]


@pytest.mark.parametrize("pairs", [False, True])
def test_the_standings_show_their_first_lines_and_every_line_on_pages(pairs: bool) -> None:
    event = full_event("pairs" if pairs else "progressive", 0)
    event.start(DIRECTOR, NOW)
    lines = standings(pairs, 64)
    panel = event_panel(event.state, lines, 3)
    valid(embed_of(panel))
    shown = panel.fields[-1].value or ""
    assert (
        len(re.findall(r"^(🥇|🥈|🥉|\d+\.)", shown, re.MULTILINE)) + count(r"and (\d+) more", shown)
        == 64
    )
    seen: set[str] = set()
    pages = 1
    page = 0
    while page < pages:
        drawn, page, pages = event_list_page(event.state, "st", page, lines)
        valid(embed_of(drawn))
        seen |= {
            n for line in lines for n in line.names if in_markdown(n) in str(drawn.description)
        }
        page += 1
    assert seen == {n for line in lines for n in line.names}


def test_every_pair_level_at_the_top_is_named_as_far_as_a_message_holds() -> None:
    event = full_event("pairs", 0)
    lines = standings(True, 64)
    text = champion_text(event.state, lines)
    valid(content=text)
    assert "and " in text and "more level with them" in text and "**Standings**" in text
    assert in_markdown(long_name(0)) in text and in_markdown(long_name(1)) in text


def test_a_history_page_of_long_events_fits_its_message() -> None:
    events = []
    for i in range(HISTORY_EVENTS):
        event = full_event("pairs", 0).state.model_copy(update={"id": 10**18 + i})
        events.append((event, standings(True, 8)))
    panel = history_panel(events, 41, 1000)
    valid(embed_of(panel))
    assert str(panel.description).count("\n") == HISTORY_EVENTS - 1, "every event has its line"


def test_the_waiting_list_is_told_in_as_few_messages_as_fit_every_one_once() -> None:
    event = full_event("progressive", 0).state
    users = [USER + i for i in range(300)]
    for got_in in (True, False):
        texts = waiting_texts(event, users, got_in=got_in)
        for text in texts:
            valid(content=text)
        mentioned = re.findall(r"<@(\d+)>", " ".join(texts))
        assert sorted(int(u) for u in mentioned) == users
        assert len(texts) == 4


@pytest.mark.parametrize("kind", ["partner", "checkin", "reminder", "round"])
def test_every_announcement_to_the_most_people_fits_and_mentions_each_once(kind: str) -> None:
    event = full_event("progressive", 0).state
    start = NOW + timedelta(minutes=5)
    event = event.model_copy(
        update={"settings": event.settings.model_copy(update={"start_time": start})}
    )
    users = tuple(USER + i for i in range(1 if kind == "partner" else MAX_PLAYERS))
    said = Announcement(
        f"{kind}:1",
        kind,
        users,
        named_by=USER + 500,
        round=3,
        next_at=start,  # type: ignore[arg-type]
    )
    texts = announcement_texts(event, said, 30)
    for text, mentioned in texts:
        valid(content=text)
        assert re.findall(r"<@(\d+)>", text)[: len(mentioned)] == [str(u) for u in mentioned]
    assert [u for _, chunk in texts for u in chunk] == list(users)
    assert len(texts) <= 2, "as few messages as fit"


def test_a_late_comers_standing_line_says_the_rounds_missed() -> None:
    line = Standing(place=3, entrants=(1,), names=(long_name(1),), joined=4)
    assert standing_line(line, pairs=False).endswith("(joined in round 4, missed rounds 1–3)")
