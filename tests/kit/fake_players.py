"""Simulated members at a euchre table of the fake Discord: they read what the bot showed them, and click.

The table is its public message (:class:`EuchreTable`). A member's private hand is the
newest ephemeral message the bot showed them for the table (one that showed its hand
once, so a hand redrawn with the game's end and no buttons still counts, and an older
hand kept from before a restart does not take its place); its enabled action buttons
are the moves they may make, each custom_id naming the seat, the stamp it was drawn at
(deal number, action number) and the action (``euchre:a:<table>:<seat>:<deal>:<index>:
<action>``); they play their turns card by card, so a hand's Claim button (the
action ``claim``, offered out of turn too) is not one of them. A member picks among them by a pure function of the stamp, the seat and
the buttons (:func:`pick`), so two runs that reach the same state make the same clicks.

:class:`Players` plays the humans' turns as people do: click a button of your hand;
when nobody has anything to do and nothing moves, open "Your hand" again (after a
restart the bot has forgotten the open hands). Every click is kept with its outcome,
and a member who is offered again a turn whose action the bot had acknowledged fails
the test on the spot: an acknowledged action was lost.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tests.kit.fake_discord import FakeDiscord, Interaction, Message, User
from tests.kit.harness import ComponentData, find_components
from tests.kit.waiting import BOUND

__all__ = [
    "ACTION_PREFIX",
    "Choice",
    "Click",
    "EuchreTable",
    "Players",
    "parse_action_id",
    "pick",
]

ACTION_PREFIX = "euchre:a:"
STALE_PREFIX = "That button is out of date"
FINISHED = re.compile(r"Table \d+ has finished: ")
"""A click that raced the game's last move: as stale as an out-of-date button."""
_UPDATE = 7
_DEFER_UPDATE = 6
"""A move's answer redraws the hand: at once, or deferred (the move waits on the database)."""
_ANSWER_TIMEOUT = BOUND

Outcome = Literal["applied", "stale", "unanswered"]


def parse_action_id(custom_id: str) -> tuple[int, int, tuple[int, int], str]:
    """``(table, seat, (deal, index), action code)`` of a private-hand button's custom_id."""
    parts = custom_id.split(":")
    if len(parts) < 7 or ":".join(parts[:2]) + ":" != ACTION_PREFIX:
        raise ValueError(f"{custom_id!r} is not an action button")
    return int(parts[2]), int(parts[3]), (int(parts[4]), int(parts[5])), parts[6]


def pick(buttons: Sequence[ComponentData], *, seat: int, stamp: tuple[int, int]) -> ComponentData:
    """The button a member clicks: the same one whenever the same state comes again."""
    ordered = sorted(buttons, key=lambda b: str(b.custom_id))
    digest = hashlib.blake2b(f"{seat}:{stamp[0]}:{stamp[1]}".encode(), digest_size=8).digest()
    return ordered[int.from_bytes(digest, "big") % len(ordered)]


@dataclass(frozen=True)
class Choice:
    """A move a member is about to make: a button of their hand message."""

    member: User
    message: Message
    custom_id: str
    seat: int
    stamp: tuple[int, int]
    code: str

    @property
    def index(self) -> int:
        """The action number in the game (the index in the record's actions)."""
        return self.stamp[1]

    def __repr__(self) -> str:
        return f"<Choice {self.member.name} seat {self.seat} {self.stamp} {self.code}>"


@dataclass(eq=False)
class Click:
    """A move made, and how the bot took it."""

    choice: Choice
    interaction: Interaction
    outcome: Outcome


class EuchreTable:
    """A table as its channel shows it: the public message the bot keeps up to date."""

    def __init__(self, fake: FakeDiscord, table_id: int) -> None:
        """The table ``table_id`` of the fake's channel."""
        self.fake = fake
        self.id = table_id

    @classmethod
    async def open(cls, fake: FakeDiscord, host: User) -> EuchreTable:
        """``/euchre new`` by ``host``; the table of the public message it answers with."""
        opened = await (await fake.slash(host, "euchre new")).wait_answered(_ANSWER_TIMEOUT)
        assert opened.original_id is not None
        message = fake.messages[opened.original_id]
        assert not message.ephemeral, message
        ids = {cid.split(":")[2] for cid in message.custom_ids if cid.startswith("euchre:t:")}
        assert len(ids) == 1, message
        return cls(fake, int(ids.pop()))

    @property
    def message(self) -> Message:
        """The public table message as it is now (the newest, if the bot posted it again)."""
        prefix = f"euchre:t:{self.id}:"
        shown = [
            m
            for m in self.fake.public_messages()
            if any(c.startswith(prefix) for c in m.custom_ids)
        ]
        if not shown:
            raise LookupError(f"no message in the channel shows table {self.id}")
        return max(shown, key=lambda m: m.id)

    @property
    def status(self) -> str:
        """``lobby``, ``playing``, ``finished`` or ``closed``, from the message's buttons."""
        ids = set(self.message.custom_ids)
        for verb, status in (("again", "finished"), ("hand", "playing"), ("join", "lobby")):
            if f"euchre:t:{self.id}:{verb}" in ids:
                return status
        return "closed"

    async def press(self, member: User, label: str) -> Interaction:
        """Click a button of the public message and wait for the answer."""
        clicked = await self.fake.click(member, self.message, label=label)
        return await clicked.wait_answered(_ANSWER_TIMEOUT)

    async def start(self, host: User) -> None:
        """The host clicks Start; wait until the message shows the game (computers may act first)."""
        await self.press(host, "Start")
        await self.fake.wait_for(
            lambda: self.status != "lobby", timeout=_ANSWER_TIMEOUT, what="the game to start"
        )
        assert self.status == "playing", self.message.text


class Players:
    """The people seated at a table, taking their turns from their private hands."""

    def __init__(self, table: EuchreTable, members: Sequence[User]) -> None:
        """``members`` play their own seats at ``table``."""
        self.table = table
        self.fake = table.fake
        self.members = list(members)
        self.clicks: list[Click] = []
        self.acknowledged: dict[tuple[int, int], Click] = {}
        """Every applied action the bot answered, by stamp."""
        self.reopened = 0

    # ------------------------------------------------------------------ what members see

    def hand_of(self, member: User) -> Message | None:
        """The member's newest private message that showed their hand at this table.

        Newest by its last change. A hand showing the game's end has no buttons left,
        but it is still the newest hand: an older one (from before a restart, which
        the bot can no longer redraw) may still show a turn long played.
        """
        hands = [
            m
            for m in self.fake.private_messages(member)
            if any(self._shows_hand(version) for version in (*m.history, m.payload))
        ]
        return max(hands, key=lambda m: m.version, default=None)

    def _shows_hand(self, payload: Mapping[str, Any]) -> bool:
        """Whether a message version is a hand at this table (its Refresh, or a card)."""
        mine = f"euchre:t:{self.table.id}:hand"
        ids = [str(c.custom_id) for c in find_components(payload.get("components"))]
        return any(c == mine or c.startswith(f"{ACTION_PREFIX}{self.table.id}:") for c in ids)

    def next_choice(self) -> Choice | None:
        """The move a member would make now from the hand they see, if anyone has one."""
        for member in self.members:
            hand = self.hand_of(member)
            if hand is None:
                continue
            buttons = [
                b
                for b in hand.buttons
                if not b.disabled
                and str(b.custom_id).startswith(ACTION_PREFIX)
                and not str(b.custom_id).endswith(":claim")
            ]
            if not buttons:
                continue
            _, seat, stamp, _ = parse_action_id(str(buttons[0].custom_id))
            done = self.acknowledged.get(stamp)
            if done is not None:
                raise AssertionError(
                    f"acknowledged action lost: {member.name} is offered turn {stamp} again, "
                    f"though the bot answered {done.choice!r}\n{self.describe()}"
                )
            button = pick(buttons, seat=seat, stamp=stamp)
            _, _, _, code = parse_action_id(str(button.custom_id))
            return Choice(member, hand, str(button.custom_id), seat, stamp, code)
        return None

    def describe(self) -> str:
        """The table and every hand as the members see them (for failure messages)."""
        parts = [f"table {self.table.id} ({self.table.status}):\n{self.table.message.text}"]
        for member in self.members:
            hand = self.hand_of(member)
            parts.append(f"{member.name}'s hand:\n{hand.text if hand else '(none)'}")
        return "\n---\n".join(parts)

    # ------------------------------------------------------------------ acting

    async def open_hands(self, *, command: bool = False) -> None:
        """Everyone opens a fresh private view of their hand.

        With the table message's "Your hand" button, or ``/euchre hand`` when
        ``command`` is set or the message shows no such button (yet).
        """
        for member in self.members:
            # Read again for each member: the game can end while a hand is being opened.
            if self.table.status in ("finished", "closed"):
                return
            button = f"euchre:t:{self.table.id}:hand" in self.table.message.custom_ids
            if button and not command:
                shown = await self.table.press(member, "Your hand")
            else:
                sent = await self.fake.slash(member, "euchre hand")
                shown = await sent.wait_answered(_ANSWER_TIMEOUT)
            assert shown.original_id is not None
            assert self.fake.messages[shown.original_id].visible_to == member.id
        self.reopened += 1

    async def send(self, choice: Choice, *, hold: bool = False) -> Interaction:
        """Deliver the click of ``choice`` (without waiting for the answer)."""
        return await self.fake.click(
            choice.member, choice.message, custom_id=choice.custom_id, hold=hold
        )

    def settled(self, choice: Choice, interaction: Interaction) -> Click:
        """Record how the bot took a click: applied, refused as stale, or never answered."""
        outcome: Outcome
        if not interaction.acknowledged or not interaction.filled.is_set():
            outcome = "unanswered"  # (a deferral the bot never filled: it died first)
        else:
            assert interaction.response_type in (_UPDATE, _DEFER_UPDATE), interaction.callback
            assert interaction.original_id == choice.message.id
            # The answer itself, not the message now: a game that ended since shows its end
            # there ("has finished") on an applied move's hand.
            said = str((interaction.answer or {}).get("content") or "")
            if said.startswith(STALE_PREFIX) or FINISHED.match(said):
                outcome = "stale"
            else:
                assert not said, f"{choice!r} was refused: {said}"
                outcome = "applied"
        click = Click(choice, interaction, outcome)
        self.clicks.append(click)
        if outcome == "applied":
            self.acknowledged[choice.stamp] = click
        return click

    async def make(self, choice: Choice) -> Click:
        """Click and wait for the answer."""
        interaction = await self.send(choice)
        await interaction.wait_answered(_ANSWER_TIMEOUT)
        return self.settled(choice, interaction)

    async def play(
        self,
        stop: Callable[[Choice], bool] | None = None,
        *,
        reopen_after: float = 1.0,
        stuck_after: float = BOUND,
        max_steps: int = 5_000,
    ) -> Choice | None:
        """Take the members' turns until the game is over (None), or ``stop(choice)``.

        Returns the choice ``stop`` accepted, not made. When nobody has a move and the
        fake records nothing for ``reopen_after`` seconds, everyone reopens their hand;
        ``stuck_after`` seconds without a move fail the test (the table is stuck).
        """
        loop = asyncio.get_running_loop()
        moved = loop.time()
        for _ in range(max_steps):
            # A message still showing the lobby is out of date: the hands tell the truth.
            if self.table.status in ("finished", "closed"):
                return None
            choice = self.next_choice()
            if choice is None:
                if loop.time() - moved > stuck_after:
                    raise AssertionError(
                        f"no move for {stuck_after}s, the table is stuck:\n{self.describe()}"
                    )
                if not await self.fake.wait_change(reopen_after):
                    await self.open_hands()
                continue
            if stop is not None and stop(choice):
                return choice
            await self.make(choice)
            moved = loop.time()
        raise AssertionError(f"no end after {max_steps} steps:\n{self.describe()}")
