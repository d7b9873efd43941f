"""A whole community night on one bot process: a tournament, casual tables, reviews, web pages.

The unmodified bot as a process (:class:`~tests.e2e.bot_process.BotProcess`) against the
fake Discord with Discord's limits on, at the settings people get (the computer delay,
the search pool's workers), serving its web pages. At once:

- a progressive tournament of ``players`` members (their tables in threads), played
  round by round as the director presses **Next round**;
- ``casual`` tables, each one member and three expert computers, in threads, a new table
  for each new game while the tournament lasts;
- every member clicks **Review** on their hand after each game they finish;
- ``web_rate`` page requests a second to the bot's pages (the server's page, its
  players' and games'), from many loopback addresses, within the pages' rate limit.

Members think ``think`` seconds (on average) before each move. Measured:

- every interaction's first answer: from its delivery to the bot's first accepted answer;
- a card a member plays, from the click to the public table showing it, per table
  (:func:`tests.e2e.pace.card_lag`);
- a computer's move, from when its turn began (the previous action saved, as the bot's
  database times it) until the table showed it;
- 429 answers (every limit the fake keeps, the global one included), invalid requests;
- each review asked: from the Review click to the review delivered (its follow-up);
- the bot's memory and CPU (its process and its search workers), hence CPU per table
  and tables per core.

Used by ``python -m lab bench night`` (and its tiny run in tests/e2e/test_night.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import aiohttp

from bot.store import Database
from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord, Interaction, Message, User
from tests.kit.fake_players import Choice, EuchreTable, Players
from tests.kit.harness import find_component
from tests.kit.pace import _open, card_lag, nearest_rank, shown, thought_choice
from tests.kit.tournament_play import DIRECTOR, new_event, round_tables
from tests.kit.waiting import BOUND

__all__ = ["Night", "NightFigures", "run_night"]

REVIEW_PREFIX = "🔍 Review deal"
LATE_SEARCH = "was late: basic plays its move"
"""What the bot logs when a computer's search is late (bot/tables/thinking.py)."""
_PER_ADDRESS = 10
"""Page requests from one loopback address before the next takes over (a burst is 12)."""


@dataclass(frozen=True)
class Night:
    """What the night holds, and how its people play."""

    players: int = 64
    casual: int = 8
    rounds: int = 3
    deals: int = 2
    """Deals a tournament game lasts."""
    think: float = 1.0
    """Mean seconds a member thinks before a move (uniform from half to one and a half)."""
    web_rate: float = 20.0
    """Page requests a second."""
    computer_move_delay: float = 1.0
    search_workers: int | str = "auto"
    seed: int = 1
    review_timeout: float = 300.0
    """Seconds the last reviews may take after the last game before the night gives up."""

    def label(self) -> str:
        """One line naming the night."""
        return (
            f"{self.players}-person progressive tournament ({self.players // 4} tables, "
            f"{self.rounds} rounds of {self.deals} deals) + {self.casual} casual tables of 1 "
            f"person and 3 experts, Review after every game, {self.web_rate:g} page requests/s, "
            f"think {self.think:g} s, computer delay {self.computer_move_delay:g} s, "
            f"search_workers {self.search_workers}"
        )


@dataclass
class NightFigures:
    """The figures of one night."""

    night: Night
    seconds: float = 0.0
    answers: list[float] = field(default_factory=list)
    """Seconds from each interaction's delivery to the bot's first accepted answer."""
    failed: int = 0
    """Interactions the bot did not answer within Discord's 3 s (the member saw it fail)."""
    card_lags: dict[int, list[float]] = field(default_factory=dict)
    """Seconds from a member's card click to the table showing it, by table."""
    computer_lags: list[float] = field(default_factory=list)
    """Seconds from a computer's turn beginning to the table showing its move."""
    computer_waits: list[float] = field(default_factory=list)
    """Of which, seconds from the move being made (saved) to the table showing it."""
    reviews: list[float] = field(default_factory=list)
    """Seconds from each Review click to the review delivered."""
    reviews_asked: int = 0
    reviews_dropped: int = 0
    rate_limited: int = 0
    """429 answers, the global limit's included."""
    global_limited: int = 0
    """Of which the global limit's."""
    invalid: int = 0
    """Answers Discord counts as invalid (401, 403, 429 but of shared scope)."""
    refused: int = 0
    pages: int = 0
    pages_sent: int = 0
    """Page requests sent (:attr:`pages` those answered)."""
    web_seconds: float = 0.0
    """Seconds the visitors came (the whole night, to its last game)."""
    page_statuses: dict[int, int] = field(default_factory=dict)
    page_lags: list[float] = field(default_factory=list)
    fallbacks: int = 0
    """Computer moves basic made because the expert's search was late."""
    games: int = 0
    tables: int = 0
    """Tables open at once at the night's height."""
    rss_mb: float = 0.0
    """The bot's memory at the end: its process and its search workers (resident)."""
    cpu_seconds: float = 0.0
    """CPU the bot and its search workers used over the night."""
    cpu_loop: float = 0.0
    """Of which the bot's own process (its event loop)."""
    problems: list[str] = field(default_factory=list)

    def table_p95(self) -> tuple[float, int]:
        """The worst table's p95 of card lags, and which table."""
        worst = max(
            ((nearest_rank(lags, 95), table) for table, lags in self.card_lags.items() if lags),
            default=(math.nan, 0),
        )
        return worst

    def text(self) -> str:
        """The figures as printed, each with its goal."""
        cards = [lag for lags in self.card_lags.values() for lag in lags]
        worst, _ = self.table_p95()
        per_table = self.cpu_seconds / self.seconds / max(1, self.tables)
        lines = [
            self.night.label(),
            f"  {self.seconds:.0f} s, {self.games} games, {self.tables} tables at once",
            f"  first answer over {len(self.answers)} interactions: "
            f"p50 {_ms(self.answers, 50)}, p99 {_ms(self.answers, 99)}, "
            f"max {_ms(self.answers, 100)} (goal p99 <= 250 ms, max < 2 s); "
            f"{self.failed} not answered within 3 s",
            f"  a member's card on the table over {len(cards)} cards: p50 "
            f"{nearest_rank(cards, 50):.2f} s, p95 {nearest_rank(cards, 95):.2f} s; worst "
            f"table's p95 {worst:.2f} s (goal <= 1.0 s per table)",
            f"  a computer's move shown after its turn began, over {len(self.computer_lags)}: "
            f"p50 {nearest_rank(self.computer_lags, 50):.2f} s, p95 "
            f"{nearest_rank(self.computer_lags, 95):.2f} s, max "
            f"{nearest_rank(self.computer_lags, 100):.2f} s (goal p95 <= 1.5 s); "
            f"{self.fallbacks} basic's for a late search; shown after it was made: p50 "
            f"{nearest_rank(self.computer_waits, 50):.2f} s, p95 "
            f"{nearest_rank(self.computer_waits, 95):.2f} s",
            f"  429 answers: {self.rate_limited} ({self.global_limited} of the global limit; "
            f"goal 0); answers Discord counts invalid {self.invalid}; "
            f"payloads past Discord's limits {self.refused}",
            f"  reviews: {len(self.reviews)} delivered of {self.reviews_asked} asked "
            f"({self.reviews_dropped} dropped, told so): p50 "
            f"{nearest_rank(self.reviews, 50):.1f} s, p95 {nearest_rank(self.reviews, 95):.1f} s, "
            f"max {nearest_rank(self.reviews, 100):.1f} s (goal p95 <= 60 s)",
            f"  web: {self.pages} pages of {self.pages_sent} sent, "
            f"{self.pages_sent / max(self.web_seconds, 1e-9):.1f} a second over "
            f"{self.web_seconds:.0f} s (asked {self.night.web_rate:g}), "
            f"statuses {dict(sorted(self.page_statuses.items()))}, "
            f"p50 {_ms(self.page_lags, 50)}, p95 {_ms(self.page_lags, 95)}",
            f"  the bot and its search workers: {self.rss_mb:.0f} MB resident, "
            f"{self.cpu_seconds:.0f} CPU s ({self.cpu_loop:.0f} s the bot's own process) = "
            f"{100 * per_table:.1f}% of a core per table, "
            f"{1 / per_table if per_table else math.inf:.0f} tables per core",
        ]
        if self.problems:
            lines.append(f"  problems: {'; '.join(self.problems[:5])}")
        return "\n".join(lines)


def _ms(values: Sequence[float], p: float) -> str:
    return f"{nearest_rank(values, p) * 1000:.0f} ms"


# ---------------------------------------------------------------------- the bot's process


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (its search workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        each = todo.pop()
        found.append(each)
        todo.extend(children.get(each, []))
    return found


def _cpu_and_rss(pid: int, *, alone: bool = False) -> tuple[float, float]:
    """CPU seconds and resident MB of ``pid`` and its descendants alive now (or it ``alone``)."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu = rss = 0.0
    for each in [pid] if alone else _descendants(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return cpu, rss


# ---------------------------------------------------------------------- members at play


@dataclass
class _Log:
    """What the members did, as they did it."""

    played: dict[int, list[tuple[Message, str, float]]] = field(default_factory=dict)
    """By table: the table message at the click, the card, when the click came."""
    reviews: list[Interaction] = field(default_factory=list)
    games: int = 0
    late: int = 0
    """Moves whose click the bot answered too late for Discord (the member saw it fail)."""


async def _play(players: Players, night: Night, rng: random.Random, log: _Log) -> None:
    """The members of a table take their turns, thinking first, until the game ends."""
    table = players.table
    mine = log.played.setdefault(table.id, [])

    def think(_: Choice) -> float:
        return night.think * rng.uniform(0.5, 1.5)

    def going() -> bool:
        return table.status == "playing"

    while (choice := await thought_choice(players, think, going)) is not None:
        message = table.message
        try:
            click = await players.make(choice)
        except TimeoutError:  # answered too late (Discord refused it): counted, play on
            log.late += 1
            continue
        at = click.interaction.delivered_at or asyncio.get_running_loop().time()
        if click.outcome == "applied" and choice.code.startswith("play."):
            mine.append((message, choice.code.removeprefix("play."), at))
    log.games += 1


async def _review(players: Players, log: _Log) -> None:
    """Each member of a finished table clicks Review on their hand (its last deal)."""
    for member in players.members:

        def offered(member: User = member) -> bool:
            hand = players.hand_of(member)
            return hand is not None and any(
                str(b.label).startswith(REVIEW_PREFIX) for b in hand.buttons
            )

        with contextlib.suppress(TimeoutError):
            await players.fake.wait_for(offered, timeout=BOUND, what="a Review button")
        hand = players.hand_of(member)
        if hand is None or not offered():
            continue
        label = next(b.label for b in hand.buttons if str(b.label).startswith(REVIEW_PREFIX))
        log.reviews.append(await players.fake.click(member, hand, label=label))


async def _with_experts(fake: FakeDiscord, member: User) -> EuchreTable:
    """``member`` opens a table, picks expert computers for the three other seats, starts."""
    table = await _open(fake, member)
    level = f"euchre:lvl:{table.id}"
    chosen = await fake.select(member, table.message, ["expert"], custom_id=level)
    await chosen.wait_answered(BOUND)
    await fake.wait_for(lambda: _level_shown(table, level), timeout=BOUND, what="experts")
    for _ in range(3):
        await table.press(member, "Add computer")
    await fake.wait_for(
        lambda: not table.message.button("Start").disabled, timeout=BOUND, what="Start"
    )
    await table.start(member)
    return table


async def _casual(
    fake: FakeDiscord, member: User, night: Night, log: _Log, done: asyncio.Event
) -> None:
    """One member plays game after game with three expert computers until ``done``."""
    rng = random.Random(f"{night.seed}:{member.name}")
    while not done.is_set():
        players = Players(await _with_experts(fake, member), [member])
        await players.open_hands()
        await _play(players, night, rng, log)
        await _review(players, log)


def _level_shown(table: EuchreTable, custom_id: str) -> bool:
    """Whether the lobby's level picker shows the experts chosen."""
    menu = find_component(table.message.components, custom_id=custom_id, type=3)
    return any(o.get("default") and o["value"] == "expert" for o in menu.options)


async def _tournament(fake: FakeDiscord, night: Night, log: _Log) -> None:
    """The director runs the event round by round; its members play and ask for reviews."""
    names = [f"p{n}" for n in range(night.players)]
    event = await new_event(fake, {"name": "Night", "rounds": night.rounds, "deals": night.deals})
    joins = []
    for name in names:
        joins.append(await fake.click(fake.member(name), event, label="Join"))
        await asyncio.sleep(0.02)
    for join in joins:
        await join.wait_answered(BOUND)
    await (await fake.click(fake.member(DIRECTOR), event, label="Start now")).wait_answered(BOUND)
    for number in range(1, night.rounds + 1):
        tables = await round_tables(fake, number, names)

        async def table_night(players: Players, number: int = number) -> None:
            rng = random.Random(f"{night.seed}:{number}:{players.table.id}")
            await players.open_hands()
            await _play(players, night, rng, log)
            await _review(players, log)

        await asyncio.gather(*(table_night(p) for p in tables))
        if number == night.rounds:
            break

        def between() -> bool:
            return "Next round" in [b.label for b in fake.messages[event.id].buttons]

        await fake.wait_for(between, timeout=BOUND, what="the round's end")
        await (
            await fake.click(fake.member(DIRECTOR), fake.messages[event.id], label="Next round")
        ).wait_answered(BOUND)


# ---------------------------------------------------------------------- web visitors


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _visit(
    base: str, guild: int, night: Night, figures: NightFigures, done: asyncio.Event
) -> None:
    """``web_rate`` requests a second, each visitor from a loopback address of its own.

    Each wake-up sends every request due by then: on a busy loop a wake-up comes late,
    and one request a wake-up would fall short of the rate.
    """
    paths = [f"/s/{guild}", f"/s/{guild}", "/", f"/s/{guild}/card.png"]
    address, used, session = 0, 0, None
    gap = 1.0 / night.web_rate
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()

    async def get(session: aiohttp.ClientSession, path: str) -> None:
        start = loop.time()
        try:
            async with session.get(path) as response:
                await response.read()
                status = response.status
        except aiohttp.ClientError:
            status = 0
        figures.page_lags.append(loop.time() - start)
        figures.page_statuses[status] = figures.page_statuses.get(status, 0) + 1
        figures.pages += 1

    sessions = []
    next_at = began = loop.time()
    n = 0
    try:
        while not done.is_set():
            while next_at <= loop.time():  # every request due, however late the loop woke
                if session is None or used >= _PER_ADDRESS:
                    address += 1
                    local = f"127.3.{address // 250 % 250}.{address % 250 + 1}"
                    connector = aiohttp.TCPConnector(local_addr=(local, 0), limit=2)
                    session = aiohttp.ClientSession(base, connector=connector)
                    sessions.append(session)
                    used = 0
                used += 1
                task = loop.create_task(get(session, paths[n % len(paths)]))
                pending.add(task)
                task.add_done_callback(pending.discard)
                n += 1
                figures.pages_sent = n
                next_at += gap
            await asyncio.sleep(max(0.0, next_at - loop.time()))
        figures.web_seconds = loop.time() - began
        if pending:
            await asyncio.wait(pending, timeout=BOUND)
    finally:
        for each in sessions:
            await each.close()


# ---------------------------------------------------------------------- measuring


def _first_answers(fake: FakeDiscord) -> list[float]:
    first: dict[int, float] = {}
    for request in fake.requests:
        iid = request.interaction_id
        if iid is not None and iid not in first and 200 <= request.status < 300:
            first[iid] = request.at
    lags = []
    for iid, interaction in fake.interactions.items():
        if interaction.delivered_at is not None and iid in first:
            lags.append(first[iid] - interaction.delivered_at)
    return lags


def _review_times(fake: FakeDiscord, clicks: list[Interaction], figures: NightFigures) -> bool:
    """Fill the reviews' figures; whether every review asked was answered in full."""
    delivered, dropped, waiting = [], 0, 0
    for click in clicks:
        sent = [
            r
            for r in fake.requests
            if r.interaction_id == click.id
            and 200 <= r.status < 300
            and r.method == "POST"
            and "/webhooks/" in r.path
        ]
        if not sent:
            waiting += 1
            continue
        body = sent[-1].body or {}
        if "Review" in str(body.get("content")):
            assert click.delivered_at is not None
            delivered.append(sent[-1].at - click.delivered_at)
        else:
            dropped += 1
    figures.reviews, figures.reviews_dropped = delivered, dropped
    figures.reviews_asked = len(clicks)
    return waiting == 0


async def _computer_lags(
    bot: BotProcess, fake: FakeDiscord, offset: float
) -> tuple[list[float], list[float]]:
    """A computer's move: from the previous action's save until a table version after its own.

    And of which, from its own save (the move made) until that version.
    """
    versions: dict[int, list[float]] = {}
    for message in fake.public_messages():
        for cid in message.custom_ids:
            if cid.startswith("euchre:t:"):
                versions.setdefault(int(cid.split(":")[2]), []).extend(message.times)
                break
    async with await Database.open(bot.database_url) as db:
        rows = await db.fetch_all(
            "SELECT table_id, idx, action, actor, created_at FROM table_actions "
            "ORDER BY table_id, idx"
        )
    lags, waits = [], []
    previous: dict[int, float] = {}
    for row in rows:
        table = int(row["table_id"])
        saved = datetime.fromisoformat(str(row["created_at"])).timestamp() - offset
        began = previous.get(table)
        previous[table] = saved
        actor = json.loads(str(row["actor"])) if row["actor"] else {}
        action = json.loads(str(row["action"]))
        if began is None or actor.get("user") is not None or action.get("do") != "play":
            continue
        after = sorted(t for t in versions.get(table, []) if t >= saved)
        if after:
            lags.append(after[0] - began)
            waits.append(after[0] - saved)
    return lags, waits


async def run_night(workdir: Path, night: Night) -> NightFigures:
    """Hold the night against a fresh fake Discord and bot process; its figures."""
    casual = [f"c{n}" for n in range(night.casual)]
    names = [DIRECTOR, *(f"p{n}" for n in range(night.players)), *casual]
    figures = NightFigures(night, tables=night.players // 4 + night.casual)
    log = _Log()
    port = _free_port()
    async with FakeDiscord(members=names, managers=[DIRECTOR]) as fake:
        options = {
            "computer_move_delay": night.computer_move_delay,
            "tables_in_threads": True,
            "web_port": port,
            "web_base_url": f"http://127.0.0.1:{port}",
            "search_workers": night.search_workers,
        }
        bot = BotProcess(fake, workdir, options=options)
        async with bot.killed_at_the_end():
            await bot.start()
            assert bot.proc is not None
            public = await fake.slash(
                fake.member(DIRECTOR),
                "euchre settings set",
                {"setting": "web_public", "value": "true"},
            )
            await public.wait_answered(BOUND)
            loop = asyncio.get_running_loop()
            offset = time.time() - loop.time()
            cpu_before, _ = _cpu_and_rss(bot.proc.pid)
            loop_before, _ = _cpu_and_rss(bot.proc.pid, alone=True)
            began = loop.time()
            done, played = asyncio.Event(), asyncio.Event()
            web = loop.create_task(
                _visit(f"http://127.0.0.1:{port}", fake.guild_id, night, figures, played)
            )
            tables = [
                loop.create_task(_casual(fake, fake.member(name), night, log, done))
                for name in casual
            ]
            try:
                await _tournament(fake, night, log)
            finally:
                done.set()  # the casual tables finish the games they play
                await asyncio.gather(*tables, return_exceptions=True)
                played.set()  # the visitors came all night long, to its last game
                await asyncio.gather(web, return_exceptions=True)
            for finished in (*tables, web):
                finished.result()  # a casual table's or the visitors' failure fails the night
            figures.seconds = loop.time() - began
            cpu_after, figures.rss_mb = _cpu_and_rss(bot.proc.pid)
            figures.cpu_seconds = cpu_after - cpu_before
            figures.cpu_loop = _cpu_and_rss(bot.proc.pid, alone=True)[0] - loop_before
            with contextlib.suppress(TimeoutError):
                await fake.wait_for(
                    lambda: _review_times(fake, log.reviews, figures),
                    timeout=night.review_timeout,
                    what="the reviews",
                )
            _review_times(fake, log.reviews, figures)
            cards = [card for played in log.played.values() for card in played]
            with contextlib.suppress(TimeoutError):
                await fake.wait_for(
                    lambda: all(shown(*c) for c in cards), timeout=BOUND, what="cards"
                )
            figures.card_lags = {
                table: [card_lag(*card) for card in played] for table, played in log.played.items()
            }
            figures.computer_lags, figures.computer_waits = await _computer_lags(bot, fake, offset)
            figures.answers = _first_answers(fake)
            figures.failed = sum(
                1 for i in fake.interactions.values() if i.delivered_at and not i.acknowledged
            )
            figures.games = log.games
            figures.rate_limited = len(fake.rate_limited)
            figures.invalid = len(fake.invalid)
            figures.global_limited = sum(
                1
                for r in fake.rate_limited
                if isinstance(r.answer, dict) and r.answer.get("global")
            )
            figures.refused = len(fake.violations)
            figures.problems = list(fake.problems)
            assert await bot.stop() == 0
            faults = bot.faults()
            figures.fallbacks = bot.log_text().count(LATE_SEARCH)
    if faults:
        raise AssertionError(f"faults {faults}\n{bot.tail()}")
    return figures
