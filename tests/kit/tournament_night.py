"""A tournament's start under Discord's limits, on the fake Discord: tables posted, people pinged.

One night: the unmodified bot as a process (:class:`~tests.kit.bot_process.BotProcess`)
against a :class:`~tests.kit.fake_discord.FakeDiscord` that answers rate limits the way
Discord does. A director (Manage Server) opens a progressive event with
``/euchre tournament new``; ``players`` members press **Join** (a burst, ``gap``
seconds apart); the director presses **Start now**. Measured:

- from the delivery of the Start click until every table of the first round has its
  table message in its thread, and until every seated member was mentioned in a new
  message of their table's thread (the ping), and the slowest of those;
- the 429 answers, and the most posts and edits in one 5 s window of a channel;
- the live event message against the event's states: a state is a join the bot
  answered (it saves before its answer says so) or the start. Each version of the
  message shows the people signed up (``Signed up (N of M)``); at each edit the states
  saved by the time the edit arrived, less the version's ``N``, is how far behind it was
  (a state saved while the edit was on its way counts one). Also: the edits it took, and
  whether its last version shows the last state (the round being played);
- with ``through``, the members then play every round to the champion (the director
  presses Next round between rounds);
- over the whole run: the requests, the most in one second (interactions' own apart,
  as Discord's global limit counts them), the answers Discord counts as invalid (401,
  403, 429, global ones included), the payloads it refused (400: past its contract),
  and the problems (what Discord would have refused, the bot's logged faults).

Used by the end-to-end tests (tests/e2e/test_tournament_night.py) and by
``python -m lab bench tournament``.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.kit.bot_process import BotProcess
from tests.kit.discord_limits import is_interaction_route
from tests.kit.fake_discord import FakeDiscord, Interaction, Message, Request, User
from tests.kit.pace import most_per_channel
from tests.kit.payloads import DEFER, DEFER_UPDATE
from tests.kit.tournament_play import (
    answered,
    play_round,
    round_tables,
    wait_for_champion,
    wait_for_next_round,
)
from tests.kit.waiting import BOUND

__all__ = ["Night", "NightFigures", "run_night", "states_behind"]

_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
_POST = "POST /channels/{channel_id}/messages"
_SIGNED_UP = re.compile(r"Signed up \((\d+) of \d+\)")
DIRECTOR = "director"


@dataclass(frozen=True)
class Night:
    """How many sign up, how far apart their clicks come, and how long to wait at most."""

    players: int = 64
    gap: float = 0.02
    """Seconds between two Join clicks."""
    timeout: float = 120.0
    """Seconds the tables and pings (and, played through, a round's next step: its tables
    opened while the last round's games are reviewed) may take before the night is given up."""
    through: bool = False
    """Play the event through to its champion (the members play every table)."""
    rounds: int = 3
    deals: int = 2

    def label(self) -> str:
        """One line naming the night."""
        played = f", played through {self.rounds} rounds of {self.deals} deal(s)"
        return (
            f"progressive event, {self.players} players ({self.players // 4} tables), "
            f"Join clicks {self.gap:g} s apart{played if self.through else ''}"
        )


@dataclass
class NightFigures:
    """The figures of one night."""

    night: Night
    tables: int = 0
    tables_posted: float = 0.0
    """Seconds from the Start click until the last table message was posted."""
    pinged: float = 0.0
    """Seconds from the Start click until the last seated member was pinged."""
    start_answered: float = 0.0
    """Seconds the Start click waited for its answer."""
    rate_limited: int = 0
    most_posts: int = 0
    most_edits: int = 0
    states: int = 0
    """The event's states the message had to show: the joins answered, and the start."""
    edits: int = 0
    """Edits of the event message that Discord accepted."""
    most_behind: int = 0
    """The most states an edit of the event message was behind when it arrived."""
    last_shown: bool = False
    """The event message's last version shows the event's last state."""
    behind: list[int] = field(default_factory=list)
    requests: int = 0
    """Requests the bot made (its interactions' own included)."""
    busiest_second: int = 0
    """The most requests but interactions' own in one second."""
    invalid: int = 0
    """Answers Discord counts as invalid: 401, 403 and 429 (global ones included)."""
    global_limited: int = 0
    refused: int = 0
    """Payloads Discord refused: 400 answers (50035, past its contract), as the fake does."""
    champion: bool = False
    """Played through: the champion was announced."""
    problems: list[str] = field(default_factory=list)
    """What Discord would have refused, and the bot's logged faults: should stay empty."""

    def text(self) -> str:
        """The figures as printed."""
        return "\n".join(
            [
                self.night.label(),
                f"  from the Start click: {self.tables} tables posted in {self.tables_posted:.2f} s, "
                f"every seated person pinged in {self.pinged:.2f} s "
                f"(the click answered in {self.start_answered:.2f} s)",
                f"  posts / edits in a channel's 5 s window: at most {self.most_posts} / "
                f"{self.most_edits}; 429 answers: {self.rate_limited}",
                f"  event message: {self.states} states shown by {self.edits} edits, "
                f"at most {self.most_behind} state(s) behind at an edit; "
                f"last version shows the last state: {'yes' if self.last_shown else 'no'}",
                f"  the whole run: {self.requests} requests, at most {self.busiest_second} in a "
                f"second (interactions' own apart); answers of 401/403/429: {self.invalid} "
                f"({self.global_limited} global); payloads refused (400): {self.refused}"
                + (
                    f"; champion announced: {'yes' if self.champion else 'no'}"
                    if self.night.through
                    else ""
                ),
                *(f"  problem: {p}" for p in self.problems),
            ]
        )


def _answered_at(fake: FakeDiscord, interaction: Interaction) -> float | None:
    """When the bot's first answer to ``interaction`` arrived."""
    for request in fake.requests:
        if request.interaction_id == interaction.id and request.status < 300:
            return request.at
    return None


def _filled_at(fake: FakeDiscord, interaction: Interaction) -> float | None:
    """When the bot's answer to ``interaction`` said what it did: its first answer, or the
    follow-up that filled a deferred one (the bot saves before it says)."""
    answers = [r for r in fake.requests if r.interaction_id == interaction.id and r.status < 300]
    if answers and interaction.response_type in (DEFER, DEFER_UPDATE):
        answers = answers[1:]
    return answers[0].at if answers else None


def _signed_up(payload: dict[str, Any]) -> int | None:
    for embed in payload.get("embeds") or []:
        for fld in embed.get("fields") or []:
            found = _SIGNED_UP.fullmatch(str(fld.get("name") or ""))
            if found:
                return int(found[1])
    return None


def states_behind(versions: list[tuple[float, int | None]], saved: list[float]) -> list[int]:
    """For each version (when it was made, the sign-ups it shows; None: past sign-up), how
    many states saved by then (``saved``: when each join was answered) it did not show."""
    out = []
    for at, shown in versions:
        if shown is None:
            continue
        out.append(max(0, sum(1 for t in saved if t <= at) - shown))
    return out


def _event_message(fake: FakeDiscord, interaction: Interaction) -> Message:
    assert interaction.original_id is not None, "the event message was not posted"
    return fake.messages[interaction.original_id]


def _threads(fake: FakeDiscord) -> list[int]:
    return [cid for cid, ch in fake.channels.items() if ch.get("type") == 11]


def _table_posted(fake: FakeDiscord, thread: int) -> float | None:
    for message in fake.messages.values():
        mine = message.channel_id == thread and message.visible_to is None
        if mine and any(cid.startswith("euchre:t:") for cid in message.custom_ids):
            return message.times[0]
    return None


def _pinged_at(fake: FakeDiscord, thread: int, user: User) -> float | None:
    for message in fake.messages.values():
        if message.channel_id != thread or message.visible_to is not None:
            continue
        first = (message.history or [message.payload])[0]
        if f"<@{user.id}>" in str(first.get("content") or ""):
            return message.times[0]
    return None


async def _sign_up(fake: FakeDiscord, night: Night) -> tuple[Interaction, list[Interaction]]:
    director = fake.member(DIRECTOR)
    options = {"name": "Bench night", "rounds": night.rounds, "deals": night.deals}
    created = await fake.slash(director, "euchre tournament new", options)
    await created.wait_answered(BOUND)
    message = _event_message(fake, created)
    joins = []
    for n in range(night.players):
        joins.append(await fake.click(fake.member(f"p{n}"), message, label="Join"))
        await asyncio.sleep(night.gap)
    for join in joins:
        await join.wait_answered(BOUND)
    return created, joins


async def run_night(workdir: Path, night: Night) -> NightFigures:
    """Sign ``night.players`` up, start, and measure; the bot stopped cleanly at the end."""
    names = [DIRECTOR, *(f"p{n}" for n in range(night.players))]
    figures = NightFigures(night, tables=night.players // 4)
    async with FakeDiscord(members=names, managers=[DIRECTOR]) as fake:
        bot = BotProcess(fake, workdir, options={"computer_move_delay": 1.0})
        async with bot.killed_at_the_end():
            await bot.start()
            created, joins = await _sign_up(fake, night)
            message = _event_message(fake, created)
            members = [fake.member(f"p{n}") for n in range(night.players)]
            start = await fake.click(fake.member(DIRECTOR), message, label="Start now")
            await start.wait_answered(60.0)
            assert start.delivered_at is not None
            began = start.delivered_at

            def ready() -> bool:
                threads = _threads(fake)
                if len(threads) < figures.tables:
                    return False
                if any(_table_posted(fake, t) is None for t in threads):
                    return False
                return all(
                    any(_pinged_at(fake, t, m) is not None for t in threads) for m in members
                )

            await fake.wait_for(ready, timeout=night.timeout, what="every table and ping")
            threads = _threads(fake)
            posted = [_table_posted(fake, t) for t in threads]
            pings = [
                at for m in members for t in threads if (at := _pinged_at(fake, t, m)) is not None
            ]
            figures.tables_posted = max(p for p in posted if p is not None) - began
            figures.pinged = max(pings) - began
            answered = _answered_at(fake, start)
            figures.start_answered = (answered or began) - began
            with contextlib.suppress(TimeoutError):  # the last redraw may be on its way
                await fake.wait_for(
                    lambda: _signed_up(message.payload) is None, timeout=BOUND, what="standings"
                )
            _measure_message(fake, figures, message, joins)
            if night.through:
                await _play_through(fake, night, message)
                figures.champion = True
            assert await bot.stop() == 0
            _count(fake, figures)
            figures.problems = [*fake.problems, *bot.faults()]
    return figures


async def _play_through(fake: FakeDiscord, night: Night, event: Message) -> None:
    """The members play every round's tables; the director starts each next round."""
    names, wait = [f"p{n}" for n in range(night.players)], night.timeout
    for number in range(1, night.rounds + 1):
        await play_round(await round_tables(fake, number, names, wait))
        if number < night.rounds:
            await wait_for_next_round(fake, event, wait)
            director = fake.member(DIRECTOR)
            await answered(fake, director, fake.messages[event.id], "Next round", wait)
    await wait_for_champion(fake, event, wait)


def _count(fake: FakeDiscord, figures: NightFigures) -> None:
    """The whole run's requests, the busiest second, and what Discord refused."""
    figures.rate_limited = len(fake.rate_limited)
    figures.most_posts = most_per_channel(fake.requests, _POST)
    figures.most_edits = most_per_channel(fake.requests, _EDIT)
    figures.requests = len(fake.requests)
    counted = sorted(r.at for r in fake.requests if not is_interaction_route(_template(r)))
    figures.busiest_second = max(
        (bisect.bisect_left(counted, at + 1.0) - i for i, at in enumerate(counted)), default=0
    )
    figures.invalid = len(fake.invalid)
    figures.global_limited = sum(
        1 for r in fake.rate_limited if isinstance(r.answer, dict) and r.answer.get("global")
    )
    figures.refused = sum(1 for r in fake.requests if r.status == 400)


def _template(request: Request) -> str:
    return request.route.partition(" ")[2]


def _measure_message(
    fake: FakeDiscord, figures: NightFigures, message: Message, joins: list[Interaction]
) -> None:
    saved = [at for j in joins if (at := _filled_at(fake, j)) is not None]
    versions = [
        (at, _signed_up(payload))
        for at, payload in zip(message.times, [*message.history, message.payload], strict=True)
    ]
    figures.states = len(saved) + 1
    figures.edits = sum(
        1
        for r in fake.requests
        if r.route == _EDIT and r.path.endswith(f"/{message.id}") and r.status < 300
    )
    figures.behind = states_behind(versions, saved)
    figures.most_behind = max(figures.behind, default=0)
    figures.last_shown = _signed_up(message.payload) is None and "Playing" in str(
        message.payload.get("embeds")
    )
