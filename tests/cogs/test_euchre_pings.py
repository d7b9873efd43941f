"""Turn pings against the clicks of the person they mention, under the channel's budget.

A ping waits for its turn of the channel's posts (Discord's 5 per 5 s). When the person
it mentions clicks for their turn meanwhile, they are here: the ping is taken away at
the click, before the move is saved (a slow save must not let it go out), and a click
that is refused takes it away too. The ping of the next person still goes out.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.app import EuchreBot
from bot.discord.pace.pacing import DISCORD_LIMITS, ChannelPacer
from bot.server.settings import ServerSettings
from bot.tables import MemoryTableStore, Table
from bot.tables.scheduler import ManualScheduler
from tests.cogs.euchre_driver import (
    ACTION_ID,
    act_through_hand,
    action_buttons,
    clocked_bot,
    only_table,
)
from tests.cogs.euchre_driver import started as start_table
from tests.conftest import MakeHarness
from tests.kit.harness import FakeMember, Harness, Sent, StoredMessage

NAMES = ["alice", "bob", "carol", "dave"]


class SlowSaves(MemoryTableStore):
    """A store whose saves of an action wait, while ``held``, until they are let go."""

    def __init__(self) -> None:
        super().__init__()
        self.held = False
        self.saving = asyncio.Event()
        self.go = asyncio.Event()

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.held:
            self.saving.set()
            await self.go.wait()
        await super().append_action(*args, **kwargs)


class Game:
    """Four people at a started table whose channel keeps Discord's budget."""

    def __init__(self, h: Harness, bot: EuchreBot, store: SlowSaves, clock: ManualScheduler):
        self.h, self.bot, self.store, self.clock = h, bot, store, clock
        self.people: list[FakeMember] = []
        self.message: StoredMessage | None = None

    @property
    def table(self) -> Table:
        return only_table(self.bot)

    @property
    def presenter(self) -> Any:
        """The euchre cog's presenter (of the extension as the bot loaded it)."""
        return getattr(self.bot.get_cog("Euchre"), "presenter", None)

    @property
    def pacer(self) -> ChannelPacer:
        return self.bot.pacers.of(self.table.place.id)

    def to_act(self) -> FakeMember:
        game = self.table.game
        assert game is not None and game.turn is not None
        return self.people[game.turn]

    def pings_of(self, person: FakeMember, since: int = 0) -> list[Sent]:
        """The pings mentioning ``person`` posted from ``h.sent[since]`` on."""
        return [
            s
            for s in self.h.sent[since:]
            if s.kind == "channel_send" and f"<@{person.id}>" in (s.content or "")
        ]

    def ping_waiting(self) -> FakeMember | None:
        """The person whose ping waits for the channel's turn (None: no ping waits)."""
        ping = self.presenter.publisher.pings.get(self.table.id)
        if ping is None or not self.pacer.waiting(ping.key):
            return None
        return next(p for p in self.people if p.id == ping.user_id)


async def started(make_harness: MakeHarness) -> Game:
    """A started game of four people, moved on until a person's ping waits its turn.

    The manual clock stands still, so the channel's second post of a window waits.
    """
    store = SlowSaves()
    bot, clock = clocked_bot(
        ServerSettings(ping_after=0), store=store, channel_limits=DISCORD_LIMITS
    )
    h = await make_harness(bot)
    game = Game(h, bot, store, clock)
    game.people, game.message = await start_table(h, NAMES)
    for person in game.people:  # each keeps their hand open: it is redrawn on their turn
        await h.click(person, game.message, label="Your hand")
    for _ in range(4):
        if game.ping_waiting() is not None:
            break
        await act_through_hand(h, bot, game.to_act(), game.message, lambda b: b[0])
    assert game.ping_waiting() is game.to_act(), "the person to act has a ping waiting"
    return game


async def let_time_pass(game: Game, seconds: float = 6.0) -> None:
    """The channel's window resets: what waited for it goes (its requests are answered)."""
    await game.clock.advance(seconds)
    for _ in range(100):
        await asyncio.sleep(0)


async def test_opening_the_hand_takes_its_persons_ping_away_and_no_one_elses(
    make_harness: MakeHarness,
) -> None:
    game = await started(make_harness)
    h, person = game.h, game.to_act()
    other = next(p for p in game.people if p is not person)
    before, message = len(h.sent), h.message(game.message or 0)
    await h.click(other, message, label="Your hand")
    assert game.ping_waiting() is person, "someone else's click leaves the ping be"
    await h.click(person, message, label="Your hand")
    assert game.ping_waiting() is None, "opening the hand on their turn: the person is here"
    await let_time_pass(game)
    assert game.pings_of(person, before) == []


async def test_a_refused_click_of_the_person_takes_their_ping_away_too(
    make_harness: MakeHarness,
) -> None:
    game = await started(make_harness)
    h, table, person = game.h, game.table, game.to_act()
    hand = h.last_ephemeral(person)
    illegal = next(
        b for b in hand.buttons if b.disabled and (b.custom_id or "").startswith(ACTION_ID)
    )
    before, stamp = len(h.sent), table.stamp
    result = await h.click(person, hand, custom_id=illegal.custom_id, force=True)
    assert result.reply.ephemeral and "can't play a card now" in result.reply.content
    assert table.stamp == stamp, "refused: nothing changed"
    await let_time_pass(game)
    assert game.pings_of(person, before) == [], "they are here: no ping is owed"


async def test_a_ping_is_taken_away_at_the_click_before_the_slow_save(
    make_harness: MakeHarness,
) -> None:
    game = await started(make_harness)
    h, table, person = game.h, game.table, game.to_act()
    hand = h.last_ephemeral(person)
    button = action_buttons(hand, table.stamp)[0]
    assert table.game is not None
    moves, before = len(table.game.log), len(h.sent)

    game.store.held = True
    click = asyncio.create_task(h.click(person, hand, custom_id=button.custom_id))
    try:
        await asyncio.wait_for(game.store.saving.wait(), 5.0)
        assert game.ping_waiting() is None, "the click took the ping away before the save"
        await let_time_pass(game)  # the channel's posts may go again while the move is saved
        assert game.pings_of(person, before) == [], "no ping for a turn its person took"
    finally:
        game.store.held = False
        game.store.go.set()
    result = await click
    assert result.reply.ephemeral and len(table.game.log) == moves + 1
    await let_time_pass(game)
    assert game.pings_of(person, before) == []
    nxt = game.to_act()
    assert nxt is not person
    assert len(game.pings_of(nxt, before)) == 1, "the next person's ping goes out as before"
