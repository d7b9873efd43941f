"""Helpers for the euchre cog tests: a bot with a known seed, a hidden-card watch, a player.

Everything here goes through the interaction harness (tests/kit/harness) as a member
would: slash commands and clicks on the messages the bot sent.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import ChannelLimits
from bot.players import make_player
from bot.render import LAST_DEAL
from bot.render.cards import card_symbol
from bot.rules import parse_card
from bot.server.preference_sources import PreferenceSource
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.settings import Settings
from bot.tables import (
    ClaimCheck,
    MemoryTableStore,
    PlayerFactory,
    Table,
    TableEvent,
    TableService,
    TableStore,
)
from bot.tables.computers import no_claims
from bot.tables.scheduler import ManualScheduler
from tests.kit.harness import FakeMember, Harness, Sent, StoredMessage, visible_text

CARD_TOKEN = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🃏")
CARD_EMOJI = re.compile(r"<:euchre_(\w+?)_[0-9a-f]+:\d+>")


def card_tokens(text: str) -> list[str]:
    """The cards a text shows, whether as text or as the card pictures' emojis."""
    written = CARD_EMOJI.sub(lambda m: card_symbol(parse_card(m[1])), text)
    return CARD_TOKEN.findall(written)


ACTION_ID = "euchre:a:"

COUNTED_PLAYERS: PlayerFactory = partial(make_player, budget=None)
"""The bot's players, a searching one drawing a fixed number of samples instead of timing them:
its moves and hints are the same on a busy machine as on an idle one."""


def build_bot(
    seed: int = 1,
    *,
    server: ServerSettings | None = None,
    players: PlayerFactory = COUNTED_PLAYERS,
    store: MemoryTableStore | None = None,
    delay: float = 0,
    activity: bool = False,
) -> EuchreBot:
    """The real bot with its real cog; tables in memory, shuffled from ``seed``.

    ``activity``: the bot serves the Discord Activity beside its pages.
    """
    tables = TableService(
        store or MemoryTableStore(),
        players,
        server_settings=FixedSettings(server or ServerSettings()),
        seeds=lambda: seed,
        computer_move_delay=delay,
    )
    served = {"activity_client_id": 42, "web_port": 8080, "web_base_url": "https://example.org"}
    settings = Settings(computer_move_delay=delay, **(served if activity else {}))
    return EuchreBot(settings, tables=tables, channel_limits=ChannelLimits.unlimited())


def clocked_bot(
    server: ServerSettings | None = None,
    *,
    store: TableStore | None = None,
    seed: int = 5,
    claims: ClaimCheck = no_claims,
    keep_closed: int = 256,
    preferences: PreferenceSource | None = None,
    channel_limits: ChannelLimits | None = None,
    **settings: Any,
) -> tuple[EuchreBot, ManualScheduler]:
    """The real bot with the shipped computers on a clock the test turns, and the clock.

    Tables are kept in ``store`` (default: memory), shuffled from ``seed``; computers move
    without delay; Discord's channel limits are off unless ``channel_limits`` says;
    ``settings`` are the process's.
    """
    tables = TableService(
        store or MemoryTableStore(),
        make_player,
        server_settings=FixedSettings(server),
        claims=claims,
        seeds=lambda: seed,
        keep_closed=keep_closed,
    )
    clock = ManualScheduler()
    bot = EuchreBot(
        Settings(computer_move_delay=0, **settings),
        tables=tables,
        scheduler=clock,
        preferences=preferences,
        channel_limits=channel_limits or ChannelLimits.unlimited(),
    )
    return bot, clock


FOUR = ("alice", "bob", "carol", "dave")
"""Four people who fill a table."""


async def started(
    h: Harness, names: Sequence[str] = FOUR, computers: int = 0, *, others: Sequence[str] = ()
) -> tuple[list[FakeMember], StoredMessage]:
    """``names`` (the first opens it) and ``computers`` at a new table, the game started:
    the people and the table message. ``others`` are in the guild too."""
    g = h.guild(members=[*names, *others])
    people = [g.member(n) for n in names]
    message = (await h.slash(people[0], "euchre new")).message
    for person in people[1:]:
        await h.click(person, message, label="Join")
    for _ in range(computers):
        await h.click(people[0], h.message(message.id), label="Add computer")
    await h.click(people[0], h.message(message.id), label="Start")
    return people, h.message(message.id)


async def resumed(bot: EuchreBot, table: Table, timeout: float = 30.0) -> None:
    """Wait for the computers' turns that resuming ``table`` started, and their messages."""
    if isinstance(bot.scheduler, ManualScheduler):
        await bot.scheduler.advance(0)  # runs the turns started, inline
    async with asyncio.timeout(timeout):
        while (
            table.computer_to_act() is not None and not bot.tables.get_any(table.id).turns.computing
        ):
            await asyncio.sleep(0.001)
        assert await bot.scheduler.settle(timeout) == 0
        assert await bot.tables.settle(timeout) == 0
    assert await bot.pacers.flush(timeout), "what they showed was sent"


def only_table(bot: EuchreBot) -> Table:
    tables = bot.tables.open_tables
    assert len(tables) == 1, tables
    return tables[0]


def state(table: Table) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    record = table.record() if table.game is not None else None
    return (table.status, tuple(table.seats), table.host_id, table.stamp, record)


def action_buttons(message: StoredMessage, stamp: tuple[int, int] | None = None) -> list[Any]:
    """The enabled action buttons of a private hand (drawn at ``stamp`` if given)."""
    found = []
    for button in message.buttons:
        cid = button.custom_id or ""
        if button.disabled or not cid.startswith(ACTION_ID):
            continue
        if stamp is not None and cid.split(":")[4:6] != [str(stamp[0]), str(stamp[1])]:
            continue
        found.append(button)
    return found


# --------------------------------------------------------------------------- hidden cards


@dataclass
class Snapshot:
    """Which cards were hidden from the table once ``sent`` calls had been recorded."""

    sent: int
    hidden: frozenset[str]
    last_deal_public: frozenset[str]


@dataclass
class HiddenCardWatch:
    """Records, after every applied action, the cards nobody at the table may see publicly.

    Hidden: every card in a hand or in the kitty, except the deal's upcard (it was
    turned face up). A public payload's "Last deal" field may show the previous deal's
    last trick, which was played face up in that deal.
    """

    harness: Harness
    snapshots: list[Snapshot] = field(default_factory=list)

    def listen(self, service: TableService) -> None:
        # The hidden cards are the live table's: the event fires inside its lock.
        service.listeners.append(
            lambda event: self.on_event(event, service.get_any(event.table_id))
        )

    def on_event(self, event: TableEvent, table: Table) -> None:
        if event.kind not in ("started", "move"):
            return
        game = table.game
        assert game is not None
        cards = {c for hand in game.hands for c in hand} | set(game.kitty)
        cards.discard(game.upcard)
        last = table.last_trick
        previous = (
            frozenset(card_symbol(c) for c in last.cards)
            if last is not None and last.deal_number < game.deal_number
            else frozenset()
        )
        self.snapshots.append(
            Snapshot(len(self.harness.sent), frozenset(card_symbol(c) for c in cards), previous)
        )

    def leaks(self, sent: Sent, index: int) -> list[str]:
        """Hidden cards shown by the public payload recorded at ``index``."""
        before = [s for s in self.snapshots if s.sent <= index]
        if not before:
            return sorted(set(card_tokens(visible_text(sent.data))))
        snap = before[-1]
        data = dict(sent.data)
        last_deal_text = ""
        embeds = []
        for embed in data.get("embeds") or []:
            fields = [f for f in embed.get("fields") or [] if f.get("name") != LAST_DEAL]
            last_deal_text += "\n".join(
                f.get("value", "") for f in embed.get("fields") or [] if f.get("name") == LAST_DEAL
            )
            embeds.append({**embed, "fields": fields})
        data["embeds"] = embeds
        shown = set(card_tokens(visible_text(data)))
        leaked = sorted(shown & snap.hidden)
        stray = set(card_tokens(last_deal_text)) - snap.last_deal_public
        return leaked + sorted(f"{c} (last deal)" for c in stray)

    def check_all(self) -> int:
        """Assert no public payload leaked; returns how many card tokens were checked."""
        assert self.snapshots, "no action was recorded"
        checked = 0
        for index, sent in enumerate(self.harness.sent):
            if not sent.public or sent.body is None or not sent.is_message:
                continue
            assert ACTION_ID not in sent.dump(), f"private-hand buttons in public: {sent!r}"
            leaks = self.leaks(sent, index)
            assert not leaks, f"{sent!r} shows hidden cards {leaks}"
            checked += len(card_tokens(visible_text(sent.data)))
        return checked


# --------------------------------------------------------------------------- playing


Policy = Callable[[list[Any]], Any]


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)
    return lambda buttons: rng.choice(buttons)


async def act_through_hand(
    h: Harness, bot: EuchreBot, member: FakeMember, table_message: StoredMessage, policy: Policy
) -> tuple[bool, Sent]:
    """Take the member's turn through their private hand; True if "Your hand" was needed."""
    table = only_table(bot)
    reopened = False
    try:
        hand = h.last_ephemeral(member)
        buttons = action_buttons(hand, table.stamp)
    except LookupError:
        buttons = []
    if not buttons:
        result = await h.click(member, h.message(table_message.id), label="Your hand")
        assert result.ephemeral
        hand = result.message
        buttons = action_buttons(hand, table.stamp)
        reopened = True
    assert buttons, f"{member.name} has no action to take: {hand.text}"
    result = await h.click(member, hand, custom_id=policy(buttons).custom_id)
    assert result.reply.ephemeral, result.reply
    return reopened, result.reply
