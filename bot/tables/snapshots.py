"""A table at one moment, frozen: what every event carries and every screen is drawn from.

:class:`TableSnapshot` is built once, under the table's lock, as each change is told: the
public table (:class:`~.public.PublicTable`, never a hidden card), the table's place,
message and stamp, and for each seat a person holds a :class:`SeatSnapshot` with that
seat's view (its hand included), the person's preferences and whether their hand may
offer a claim or a hint. Nothing in it refers back to the live table, so a listener
reads it after the lock is gone, or later, and sees the state the table passed through;
the Discord side and the Activity draw from it and never ask the service to finish.

:class:`Snapshots` builds them: the preferences are read first (they may wait on the
store), then the rest in one step that does not wait, so the table cannot change in
between. Computers' seats get no part: nobody draws their hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.rules import SeatView, seat_view
from bot.server.preferences import Preferences

from .computers import ClaimCheck
from .errors import NotSeatedError, WrongStageError
from .persistence import Place, TableStatus
from .public import PublicTable
from .reviewing import reviewable_deals
from .table import Table

__all__ = ["SeatSnapshot", "Snapshots", "TableSnapshot", "snapshot_of"]


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One person's seat at that moment: what only they may see, and how they like it."""

    user_id: int
    seat: int
    away: bool
    """A computer plays their seat until they take it back."""
    view: SeatView | None
    """Their seat's view of the game (None before the game starts)."""
    preferences: Preferences
    claim: bool
    """Their hand offers a claim of the rest of the deal (the service's claim check)."""
    hint: bool
    """Their hand offers a hint: hints are allowed and it is their turn."""

    @property
    def four_colour(self) -> bool:
        """Whether they draw the suits in four colours."""
        return self.preferences.four_colour


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A table at one moment (see the module docstring)."""

    version: int
    """Grows with each snapshot the process makes: the greater, the newer."""
    public: PublicTable
    message_id: int | None
    """The table's public message then (None: not posted yet)."""
    stamp: tuple[int, int]
    """(deal number, action number): what a private-hand button drawn now carries."""
    seats: tuple[SeatSnapshot, ...]
    """One for each person seated, in seat order; none for a computer's seat."""
    to_act: int | None
    """The person whose turn it is, playing their own seat (None: a computer's, or no game)."""
    reviewable: int
    """How many of its deals (the first ones, all finished) may be reviewed now."""
    web_public: bool
    """Its server shows its games on the web pages (the table message links there)."""

    @property
    def id(self) -> int:
        """The table's id."""
        return self.public.id

    @property
    def number(self) -> int:
        """The table's number as people see it."""
        return self.public.number

    @property
    def place(self) -> Place:
        """Its channel or thread."""
        return self.public.place

    @property
    def status(self) -> TableStatus:
        """Lobby, playing, finished or aborted."""
        return self.public.status

    @property
    def is_open(self) -> bool:
        """In its lobby or playing."""
        return self.status in ("lobby", "playing")

    @property
    def hinted(self) -> bool:
        """Someone asked for a hint: the game is casual."""
        return self.public.hinted

    @property
    def present(self) -> list[int]:
        """The people seated and playing their own seat, in seat order."""
        return [s.user_id for s in self.seats if not s.away]

    def person(self, user_id: int) -> SeatSnapshot | None:
        """The person's own part, if they sit at the table."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def hand_of(self, user_id: int) -> tuple[SeatSnapshot, SeatView]:
        """The person's part and seat's view, refused as :meth:`Table.view_for` refuses."""
        person = self.person(user_id)
        if person is None:
            raise NotSeatedError.at(self.status)
        if person.view is None:
            raise WrongStageError.no_cards_yet()
        return person, person.view

    def seat_of(self, user_id: int) -> int | None:
        """The person's seat number, if they sit at the table."""
        seat = self.person(user_id)
        return None if seat is None else seat.seat


def snapshot_of(
    table: Table, preferences: dict[int, Preferences], claims: ClaimCheck, version: int = 0
) -> TableSnapshot:
    """``table`` now, each person's part with ``preferences[user]`` (the defaults if absent)."""
    game = table.game
    playing = table.status == "playing" and game is not None
    hints = table.hints_allowed
    seats: list[SeatSnapshot] = []
    for number, taken in enumerate(table.seats):
        if taken is None or taken.user_id is None:
            continue
        view = None if game is None else seat_view(game, number)
        seats.append(
            SeatSnapshot(
                taken.user_id,
                number,
                taken.away,
                view,
                preferences.get(taken.user_id) or Preferences(),
                claim=view is not None and playing and claims(view),
                hint=view is not None and hints and view.my_turn,
            )
        )
    to_act = None
    if playing and game is not None and game.turn is not None:
        turn = table.seats[game.turn]
        to_act = None if turn is None or turn.away else turn.user_id
    return TableSnapshot(
        version,
        table.public(),
        table.message_id,
        table.stamp,
        tuple(seats),
        to_act,
        reviewable_deals(table),
        table.settings.web_public,
    )


class Snapshots:
    """Builds a table's snapshot: its people's preferences read, then the rest at once."""

    def __init__(
        self, preferences_of: Callable[[int], Awaitable[Preferences]], claims: ClaimCheck
    ) -> None:
        """Read each person's preferences by ``preferences_of``; offer claims by ``claims``."""
        self.preferences_of = preferences_of
        self.claims = claims
        self._versions = itertools.count(1)

    async def of(self, table: Table) -> TableSnapshot:
        """The table now, with the preferences of every person seated."""
        preferences: dict[int, Preferences] = {}
        while missing := [u for u in table.humans if u not in preferences]:
            for user_id in missing:
                preferences[user_id] = await self.preferences_of(user_id)
        return snapshot_of(table, preferences, self.claims, next(self._versions))
