"""How fast a played card reaches the public table under Discord's limits, on the fake Discord.

One scenario: the unmodified bot as a process (:class:`~tests.kit.bot_process.BotProcess`)
against a :class:`~tests.kit.fake_discord.FakeDiscord` that answers rate limits the way
Discord does; ``tables`` tables in its one channel (more than one: each in a thread of
it, with a budget of its own as Discord keeps it), each with ``people``
members (computers fill the other seats). Every member thinks ``think`` seconds before each
move, but for one person who waits ``waiter`` seconds on each of their turns (when set).
Measured:

- the lag of each card played by a member: from the click's delivery until the first
  version of the public table message that shows one more of that card than the table
  showed at the click (the fake keeps every version with its time), or, when the table
  skipped to the next deal first, the first version after the click;
- the most message edits (and posts) in one 5 s window of a channel, counted as
  Discord counts them (a window opens with the first request after the last one
  ended; each thread is a channel of its own), and
  the number of 429s answered;
- turn pings: the mentions the bot posted as new messages, and any mention that an
  edit added (which would notify nobody). Each ping belongs to the turn of the person it
  mentions that was open when it landed: from the table's previous move (the click's
  delivery; the Start click for a game's first turn) until that person's move. A ping
  for the turn still open when the table's members stopped is counted apart: nobody was
  going to take it. The waiter's pings per turn, and how late each landed after
  ``ping_after`` seconds into its turn (an upper bound: the turn starts when the bot
  applies the previous move, a few milliseconds after its click is delivered);
- how long a click on a custom_id of the bot that nothing claims waits for its answer.

Used by the end-to-end tests (tests/e2e/test_pace.py) and by ``python -m lab bench pace``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.rules.cards import card_symbol, parse_card
from bot.server.settings import ServerSettings
from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord, Message, Request, User
from tests.kit.fake_players import Choice, EuchreTable, Players
from tests.kit.harness import visible_text
from tests.kit.waiting import BOUND

__all__ = [
    "PING_AFTER",
    "Move",
    "PaceFigures",
    "Ping",
    "Scenario",
    "card_count",
    "run_scenario",
    "turn_pings",
]

_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
_POST = "POST /channels/{channel_id}/messages"
_WINDOW = 5.0
_LOOK_AHEAD = 8.0
_DEAL = re.compile(r"\bdeal (\d+)\b")
_IN_FLIGHT = 0.5
"""Seconds a request already sent may take to land (on a busy machine)."""
_CROSSING = 0.05
"""Seconds a request the bot sent just before a click reached it may land after the click."""
PING_AFTER: float = ServerSettings.model_fields["ping_after"].default
"""The server's ``ping_after`` in the benchmark: the default, as the fake's server keeps it."""


@dataclass(frozen=True)
class Scenario:
    """What to play: tables in one channel, people per table, moves per person, pace."""

    tables: int = 1
    people: int = 4
    moves: int = 12
    """Moves each table's members make together."""
    think: float = 0.8
    computer_move_delay: float = 1.0
    waiter: float = 0.0
    """Seconds the last member of each table waits on each of their turns (0: thinks too)."""

    def label(self) -> str:
        """One line naming the scenario."""
        who = "four people" if self.people == 4 else f"{self.people} person(s) + computers"
        if self.waiter:
            who += f", one of whom waits {self.waiter:g} s on each turn"
        where = "1 table" if self.tables == 1 else f"{self.tables} tables sharing one channel"
        return (
            f"{where}, {who}, think {self.think:g} s, computer delay {self.computer_move_delay:g} s"
        )


@dataclass(frozen=True)
class Move:
    """A move the bot applied: at which table, whose, when its click was delivered."""

    table: int
    user: int
    at: float


@dataclass(frozen=True)
class Ping:
    """A turn ping posted: at which table, whom it mentions, when it landed."""

    table: int
    user: int
    at: float


@dataclass(frozen=True)
class TurnPings:
    """The pings sorted by the turns they belong to (:func:`turn_pings`)."""

    in_play: int
    """Pings for turns that their person then took."""
    left_open: int
    """Pings for a turn still open when its table's members stopped."""
    per_turn: dict[tuple[int, float], int]
    """For each turn of the waiters that they took (table, its start): the pings it got.

    Not the turns that follow their own move (a dealer's discard after taking the upcard
    up): the bot mentions nobody on the turn they just made theirs."""
    own_turns: dict[tuple[int, float], int]
    """The waiters' turns that followed their own move, and their pings (none expected)."""
    lateness: list[float]
    """Each waiter's ping: seconds after ``ping_after`` into its turn that it landed."""


def turn_pings(
    moves: Sequence[Move],
    pings: Sequence[Ping],
    starts: Mapping[int, float],
    waiters: set[int],
    ping_after: float,
) -> TurnPings:
    """Sort ``pings`` by the turn each belongs to.

    A turn of a person starts at their table's previous move (or its game's start in
    ``starts``) and ends with their own move; a ping belongs to the turn of the person it
    mentions that was open when it landed. A turn is the waiters' when its person is in
    ``waiters``: each of their turns taken gets its count of pings, even none (apart,
    those that follow their own move).
    """
    in_play = left_open = 0
    per_turn: dict[tuple[int, float], int] = {}
    own_turns: dict[tuple[int, float], int] = {}
    lateness: list[float] = []
    by_table: dict[int, list[Move]] = {}
    for move in sorted(moves, key=lambda m: m.at):
        by_table.setdefault(move.table, []).append(move)
    for table, made in by_table.items():
        start, previous = starts.get(table, -math.inf), None
        for move in made:
            if move.user in waiters:
                turns = own_turns if previous == move.user else per_turn
                turns[(table, start)] = 0
            start, previous = move.at, move.user
    for ping in pings:
        made = by_table.get(ping.table, [])
        before = [m.at for m in made if m.at <= ping.at]
        start = before[-1] if before else starts.get(ping.table, -math.inf)
        taken = any(m.at > ping.at for m in made)
        if not taken:
            left_open += 1
            continue
        in_play += 1
        if ping.user in waiters and (ping.table, start) in own_turns:
            own_turns[(ping.table, start)] += 1
        elif ping.user in waiters and (ping.table, start) in per_turn:
            per_turn[(ping.table, start)] += 1
            lateness.append(ping.at - start - ping_after)
    return TurnPings(in_play, left_open, per_turn, own_turns, lateness)


@dataclass
class PaceFigures:
    """The figures of one scenario."""

    scenario: Scenario
    lags: list[float] = field(default_factory=list)
    """Seconds from the click to the card on the public table, one per card played."""
    most_edits: int = 0
    """The most message edits in one of Discord's 5 s windows of one channel (or thread)."""
    most_posts: int = 0
    rate_limited: int = 0
    pings: int = 0
    """Mentions posted as new messages."""
    pings_left_open: int = 0
    """Of those, the pings for the turn still open when its table's members stopped."""
    waited_turns: list[int] = field(default_factory=list)
    """The pings of each turn the waiter waited on, but those after their own move."""
    own_turns: list[int] = field(default_factory=list)
    """The pings of each turn the waiter waited on right after their own move."""
    ping_lateness: list[float] = field(default_factory=list)
    """Seconds each of the waiter's pings landed after ``ping_after`` into its turn."""
    pinged_clicker: int = 0
    """Pings landing well after the bot answered a click of the person they mention."""
    pinged_while_clicking: int = 0
    """Pings landing while the bot handled a click of the person they mention (after the
    click came, before its answer): a mention for a turn they are taking."""
    mentions_by_edit: int = 0
    """Message versions where an edit added a mention (there should be none)."""
    unknown_click: float = math.nan
    """Seconds a click on an unclaimed custom_id of the bot waited for its answer."""

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the lags, in seconds (nearest rank)."""
        return nearest_rank(self.lags, p)

    def text(self) -> str:
        """The figures as printed."""
        lines = [
            self.scenario.label(),
            f"  click-to-table lag over {len(self.lags)} cards: "
            f"p50 {self.percentile(50):.2f} s, p95 {self.percentile(95):.2f} s, "
            f"max {self.percentile(100):.2f} s",
            f"  edits in a channel's 5 s window: at most {self.most_edits} "
            f"(posts at most {self.most_posts}); 429 answers: {self.rate_limited}",
            f"  turn pings posted as new messages: {self.pings - self.pings_left_open} in play, "
            f"{self.pings_left_open} for a turn left open when the players stopped; mentions "
            f"added by an edit: {self.mentions_by_edit}; pings of the clicker: "
            f"{self.pinged_clicker} after the answer, {self.pinged_while_clicking} during the "
            "click",
        ]
        if self.scenario.waiter:
            counts = ", ".join(
                f"{n} ping(s) in {self.waited_turns.count(n)}"
                for n in sorted(set(self.waited_turns))
            )
            late = self.ping_lateness
            lines.append(
                f"  the waiter's {len(self.waited_turns)} turns: {counts or 'none'}; each ping "
                f"after ping_after ({PING_AFTER:g} s): p50 {nearest_rank(late, 50):.2f} s, "
                f"p95 {nearest_rank(late, 95):.2f} s, max {nearest_rank(late, 100):.2f} s; "
                f"{len(self.own_turns)} more right after their own move, with "
                f"{sum(self.own_turns)} ping(s)"
            )
        lines.append(f"  unknown click answered in {self.unknown_click * 1000:.0f} ms")
        return "\n".join(lines)


def nearest_rank(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank); NaN when there are none."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    index = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[index]


def most_in_window(times: list[float], window: float = _WINDOW) -> int:
    """The most of ``times`` in one window as Discord counts them: a window opens at the
    first time after the last one ended and lasts ``window`` seconds."""
    best, opened, count = 0, -math.inf, 0
    for at in sorted(times):
        if at >= opened + window:
            opened, count = at, 0
        count += 1
        best = max(best, count)
    return best


def most_per_channel(requests: list[Request], route: str) -> int:
    """The most successful requests of ``route`` in one window of any one channel."""
    times: dict[str, list[float]] = {}
    for r in requests:
        if r.route == route and 200 <= r.status < 300:
            times.setdefault(r.path.split("/")[2], []).append(r.at)
    return max((most_in_window(t) for t in times.values()), default=0)


def _versions(message: Message) -> list[tuple[float, str]]:
    payloads = [*message.history, message.payload]
    return [(at, visible_text(p)) for at, p in zip(message.times, payloads, strict=True)]


def _deal(text: str) -> str | None:
    found = _DEAL.search(text)
    return found.group(1) if found else None


def _after_click(message: Message, clicked_at: float) -> tuple[str, list[tuple[float, str]], bool]:
    """The table's text at the click; the versions after it, within :data:`_LOOK_AHEAD`
    seconds, that still show the deal it showed then; whether a later deal came first."""
    versions = _versions(message)
    before = [text for at, text in versions if at <= clicked_at]
    text = before[-1] if before else ""
    same = []
    for at, later in versions:
        if at <= clicked_at:
            continue
        if _deal(later) != _deal(text):
            return text, same, True
        if at - clicked_at > _LOOK_AHEAD:
            break
        same.append((at, later))
    return text, same, False


def card_count(text: str, card: str) -> int:
    """How often ``text`` shows the card named ``card`` (its record name, ``"JH"``).

    As its picture (an emoji of the bot's, ``<:euchre_JH_<hash>:<id>>``, in four colours
    ``euchre_four_JH_...``) or as text (``J♥️``): a hand drawn before the pictures were
    uploaded labels its buttons with text while the table shows pictures.
    """
    pictures = re.findall(rf"<a?:euchre_(?:four_)?{re.escape(card)}_\w*:\d+>", text)
    return len(pictures) + text.count(card_symbol(parse_card(card)))


def card_lag(message: Message, label: str, clicked_at: float) -> float:
    """Seconds until a version of ``message`` after ``clicked_at`` shows the card once more.

    Only versions of the deal the table showed at the click count, within
    :data:`_LOOK_AHEAD` seconds: when the table moved on first (to the next deal, where
    the same card may come back as an upcard, or past the look-ahead), the first version
    after the click counts, as it shows a newer state. ``inf`` if no version came after
    the click. ``label`` is the card's record name (:func:`card_count`).
    """
    text, same, _ = _after_click(message, clicked_at)
    for at, later in same:
        if card_count(later, label) > card_count(text, label):
            return at - clicked_at
    after = [at for at, _ in _versions(message) if at > clicked_at]
    return after[0] - clicked_at if after else math.inf


async def _open(fake: FakeDiscord, host: User) -> EuchreTable:
    """``/euchre new`` by ``host``: the new table, in the channel or in a thread.

    Told apart from tables others open meanwhile by the command's answer: the table's
    message is that answer, or it is in the thread started from it (a thread started
    from a message has the message's id).
    """
    slash = await fake.slash(host, "euchre new")
    await slash.wait_answered(BOUND)

    def opened() -> set[int]:
        answers = {m.id for m in fake.messages.values() if m.interaction_id == slash.id}
        return {
            int(cid.split(":")[2])
            for m in fake.public_messages()
            if m.id in answers or m.channel_id in answers
            for cid in m.custom_ids
            if cid.startswith("euchre:t:")
        }

    await fake.wait_for(lambda: bool(opened()), timeout=BOUND, what="the new table")
    return EuchreTable(fake, max(opened()))


async def _seat(table: EuchreTable, members: list[User]) -> float:
    """Seat ``members`` (computers fill the rest) and start: when the Start click came."""
    host = members[0]
    for guest in members[1:]:
        await table.press(guest, "Join")
    for _ in range(4 - len(members)):
        await table.press(host, "Add computer")
    started = asyncio.get_running_loop().time()
    await table.start(host)
    return started


Played = list[tuple[Message, str, float]]
"""Cards played: the table message at the click, the card's record name, when it was clicked."""


def shown(message: Message, label: str, clicked_at: float) -> bool:
    """Whether the table showed the card once more after the click, or moved past its deal."""
    text, same, moved_on = _after_click(message, clicked_at)
    return moved_on or any(card_count(later, label) > card_count(text, label) for _, later in same)


async def thought_choice(
    players: Players, think: Callable[[Choice], float], going: Callable[[], bool]
) -> Choice | None:
    """The next move of the table's members, made after ``think(choice)`` seconds.

    None once not ``going()``. While nobody has a move and nothing changes, everyone
    reopens their hand every 3 s (a restarted bot forgot the hands it showed).
    """
    waited = 0.0
    while going():
        choice = players.next_choice()
        if choice is None:
            if not await players.fake.wait_change(1.0):
                waited += 1.0
                if waited >= 3.0:
                    await players.open_hands()
                    waited = 0.0
            continue
        await asyncio.sleep(think(choice))
        return players.next_choice() or choice
    return None


async def _play(
    players: Players,
    scenario: Scenario,
    played: Played,
    clickers: dict[int, int],
    moves: list[Move],
    table: int,
) -> None:
    loop = asyncio.get_running_loop()
    waiter = players.members[-1].id if scenario.waiter else None
    made = 0

    def think(choice: Choice) -> float:
        return scenario.waiter if choice.member.id == waiter else scenario.think

    def going() -> bool:
        return made < scenario.moves and players.table.status == "playing"

    while (choice := await thought_choice(players, think, going)) is not None:
        message = players.table.message
        click = await players.make(choice)
        clicked_at = click.interaction.delivered_at or loop.time()
        clickers[click.interaction.id] = choice.member.id
        made += 1
        if click.outcome != "applied":
            continue
        moves.append(Move(table, choice.member.id, clicked_at))
        if choice.code.startswith("play."):
            played.append((message, choice.code.removeprefix("play."), clicked_at))


async def _unknown_click(fake: FakeDiscord, member: User, table: EuchreTable) -> float:
    """Deliver a click of a forged id of the bot on the table message; seconds to its answer."""
    data = {"custom_id": f"euchre:t:{table.id}:forged", "component_type": 2}
    clicked = await fake._deliver(3, member, data, what="forged", message=table.message)
    await clicked.wait_answered(BOUND)
    answered = [r.at for r in fake.requests if r.interaction_id == clicked.id]
    assert clicked.delivered_at is not None and answered
    return answered[0] - clicked.delivered_at


def _pings(fake: FakeDiscord, seated: Mapping[int, int]) -> list[Ping]:
    """The turn pings posted, each at the table of the member it mentions first."""
    pings = []
    for r in fake.requests:
        if r.route != _POST or not r.body or r.interaction_id is not None:
            continue
        if not 200 <= r.status < 300:
            continue
        for user in re.findall(r"<@!?(\d+)>", str(r.body.get("content") or "")):
            if int(user) in seated:
                pings.append(Ping(seated[int(user)], int(user), r.at))
                break
    return pings


def _measure_pings(
    fake: FakeDiscord,
    figures: PaceFigures,
    moves: list[Move],
    starts: dict[int, float],
    groups: list[list[User]],
) -> None:
    seated = {member.id: t for t, members in enumerate(groups) for member in members}
    waiters = {members[-1].id for members in groups} if figures.scenario.waiter else set()
    sorted_pings = turn_pings(moves, _pings(fake, seated), starts, waiters, PING_AFTER)
    figures.pings_left_open = sorted_pings.left_open
    figures.waited_turns = list(sorted_pings.per_turn.values())
    figures.own_turns = list(sorted_pings.own_turns.values())
    figures.ping_lateness = sorted_pings.lateness


def _measure_messages(fake: FakeDiscord, figures: PaceFigures, clickers: dict[int, int]) -> None:
    figures.most_edits = most_per_channel(fake.requests, _EDIT)
    figures.most_posts = most_per_channel(fake.requests, _POST)
    figures.rate_limited = len(fake.rate_limited)
    for message in fake.messages.values():
        if message.visible_to is not None:
            continue
        contents = [str(p.get("content") or "") for p in (*message.history, message.payload)]
        if "<@" in contents[0] and message.interaction_id is None:
            figures.pings += 1
        figures.mentions_by_edit += sum(
            "<@" in after and after != before for before, after in itertools.pairwise(contents)
        )
    answered = {}
    for r in fake.requests:
        if r.interaction_id in clickers and r.interaction_id not in answered:
            answered[r.interaction_id] = r.at
    # A ping posted well after the bot answered its user's click pinged the clicker; one
    # already on its way when the click came (it lands a moment later) is deleted at once.
    clicks = sorted((at, clickers[iid]) for iid, at in answered.items())
    for r in fake.requests:
        if r.route != _POST or not r.body or "<@" not in str(r.body.get("content")):
            continue
        for iid, at in answered.items():
            came = fake.interactions[iid].delivered_at
            mentioned = f"<@{clickers[iid]}>" in str(r.body.get("content"))
            if mentioned and came is not None and came + _CROSSING < r.at < at:
                figures.pinged_while_clicking += 1
        last = [(when, user) for when, user in clicks if when <= r.at]
        if not last:
            continue
        when, user = last[-1]
        if f"<@{user}>" in str(r.body.get("content")) and r.at - when > _IN_FLIGHT:
            figures.pinged_clicker += 1


async def run_scenario(workdir: Path, scenario: Scenario) -> PaceFigures:
    """Play ``scenario`` against a fresh fake Discord and bot process; its figures."""
    names = [f"p{t}-{n}" for t in range(scenario.tables) for n in range(scenario.people)]
    figures = PaceFigures(scenario)
    clickers: dict[int, int] = {}
    async with FakeDiscord(members=names) as fake:
        options: dict[str, object] = {"computer_move_delay": scenario.computer_move_delay}
        if scenario.tables > 1:
            options["tables_in_threads"] = True
        bot = BotProcess(fake, workdir, options=options)
        async with bot.killed_at_the_end():
            await bot.start()
            groups = [
                [fake.member(f"p{t}-{n}") for n in range(scenario.people)]
                for t in range(scenario.tables)
            ]
            tables = []
            starts: dict[int, float] = {}
            for members in groups:
                table = await _open(fake, members[0])
                starts[len(tables)] = await _seat(table, members)
                tables.append(table)
            everyone = [Players(t, g) for t, g in zip(tables, groups, strict=True)]
            for players in everyone:
                await players.open_hands()
            played: Played = []
            moves: list[Move] = []
            await asyncio.gather(
                *(_play(p, scenario, played, clickers, moves, n) for n, p in enumerate(everyone))
            )
            with contextlib.suppress(TimeoutError):  # the last cards may still be on their way
                await fake.wait_for(
                    lambda: all(shown(*card) for card in played), timeout=BOUND, what="cards"
                )
            figures.lags = [card_lag(*card) for card in played]
            figures.unknown_click = await _unknown_click(fake, groups[0][0], tables[0])
            _measure_messages(fake, figures, clickers)
            _measure_pings(fake, figures, moves, starts, groups)
            problems = list(fake.problems)
            assert await bot.stop() == 0
            faults = bot.faults()
    if problems or faults:
        raise AssertionError(f"problems {problems}, faults {faults}\n{bot.tail()}")
    return figures
