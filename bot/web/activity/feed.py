"""The one place the Activity reads a table or asks it for a change: snapshot in, JSON out.

Everything else of the Activity (its sockets, its sign-in, its pages) sees only what this
module hands over:

- :func:`snapshot` turns a table's :class:`~bot.tables.TableSnapshot` into a
  :class:`Snapshot`: the public table as JSON (drawn by :mod:`.shapes` from its
  ``PublicTable``, the same that the public message is drawn from: never a hidden card)
  and, for each person seated, their own seat's JSON (their hand, the buttons they may
  click, the claim their hand offers, the stamp a click is checked against);
- :class:`Feed` listens to the service's events and hands the snapshot each carries, as
  JSON, to whoever watches its place (a channel or thread), and reads the current one;
- :meth:`Feed.request` makes a person's request (a card, a bid, a seat, the start) through
  the same :class:`TableService` calls the buttons make, so a person may switch between the
  Activity and the buttons: a stale stamp or an illegal card is refused alike.

The table's snapshots are made inside its lock as each event is told, and turned into
JSON only for places someone watches, so a socket never shows a state the table did not
pass through, nor an older one after a newer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.errors import UserFacingError
from bot.rules import Action, ActionError
from bot.tables import Place, Player, TableEvent, TableService, TableSnapshot

from .shapes import Json, names, public_json, seat_json
from .signin import Ticket

__all__ = ["Feed", "Snapshot", "snapshot"]

_QUIET: Final = frozenset({"turn", "ping", "hint"})
"""Events that change nothing a snapshot shows."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table at one moment: the public part, and each seated person's own part."""

    place_id: int
    table_id: int
    version: int
    """The table snapshot's version: the greater, the newer."""
    public: Json
    seats: Mapping[int, Json]
    """By user id: that person's seat, hand and buttons (nobody else's)."""

    def seat_of(self, user_id: int) -> Json | None:
        """The person's own part, if they sit at the table."""
        return self.seats.get(user_id)


def snapshot(table: TableSnapshot) -> Snapshot:
    """The table as it was: public JSON, and each seated person's own part."""
    public = table.public
    body = public_json(public)
    seats: dict[int, Json] = {}
    if public.game is not None:
        body["stamp"] = list(table.stamp)
        named = names(public)
        for person in table.seats:
            if person.view is None or person.user_id in seats:
                continue
            claims = person.claim and not person.away
            seats[person.user_id] = seat_json(
                person.view, named, table.stamp, can_claim=claims, four_colour=person.four_colour
            )
    return Snapshot(table.place.id, table.id, table.version, body, seats)


Watcher = Callable[[Snapshot], None]


class Feed:
    """The Activity's view of a :class:`TableService`: snapshots out, requests in."""

    def __init__(self, service: TableService) -> None:
        """Listen to ``service``; nothing is made until someone watches a place."""
        self.service = service
        self._watchers: dict[int, Watcher] = {}
        self._latest: dict[int, Snapshot] = {}
        """The newest snapshot told to each place watched."""
        service.listeners.append(self._on_event)

    def watch(self, place_id: int, watcher: Watcher) -> None:
        """Call ``watcher`` with each new snapshot of the table at ``place_id``."""
        self._watchers[place_id] = watcher

    def unwatch(self, place_id: int) -> None:
        """Stop telling the place's watcher."""
        self._watchers.pop(place_id, None)
        self._latest.pop(place_id, None)

    async def current(self, place_id: int) -> Snapshot | None:
        """The snapshot of the open table at the place, if there is one.

        Never older than one already told to the place's watcher meanwhile.
        """
        table = self.service.at(place_id)
        if table is None:
            return None
        made = snapshot(await table.snapshot())
        told = self._latest.get(place_id)
        return told if told is not None and told.version > made.version else made

    async def four_colour(self, user_id: int, now: Snapshot | None) -> bool:
        """Whether the person draws the suits in four colours (their preference).

        A person seated reads it from their part of the table's snapshot ``now``, as it
        was when the snapshot was made; someone only watching has no part in any snapshot,
        so theirs is read where the tables read everyone's (the defaults if it can't be).
        """
        mine = None if now is None else now.seat_of(user_id)
        if mine is not None:
            return bool(mine["four_colour"])
        return (await self.service.crew.preferences_of(user_id)).four_colour

    def _on_event(self, event: TableEvent) -> None:
        if event.kind in _QUIET:
            return
        place_id = event.snapshot.place.id
        watcher = self._watchers.get(place_id)
        if watcher is not None:
            made = self._latest[place_id] = snapshot(event.snapshot)
            watcher(made)

    async def request(self, guild_id: int, channel_id: int, person: Ticket, message: Json) -> None:
        """Make a person's request in the channel; a refusal is a :class:`UserFacingError`.

        ``{"do": "act", "code": "play.JD", "stamp": [deal, index]}``, ``{"do": "claim",
        "stamp": ...}``, ``{"do": "open"}``, ``{"do": "again", "table": id}`` (a finished
        game's players deal another, as its Play again button does), ``{"do": "sit"}``
        (``"seat"`` optional),
        ``{"do": "computer"}``, ``{"do": "start"}``, ``{"do": "leave"}``.
        """
        service = self.service
        place = Place(guild_id, channel_id)
        do = message.get("do")
        player = Player(person.user_id, person.name)
        if do == "open":
            await service.open(place, player)
            return
        if do == "again":
            finished = _number(message.get("table"))
            assert finished is not None
            await service.play_again(finished, player)
            return
        table = service.at(place.id)
        if table is None:
            raise UserFacingError("There is no table here now: open one first.")
        if do == "sit":
            await table.lobby.join(player, _number(message.get("seat"), optional=True))
        elif do == "computer":
            await table.lobby.add_computer(person.user_id)
        elif do == "start":
            await table.lobby.start(person.user_id)
        elif do == "leave":
            await table.lobby.leave(person.user_id)
        elif do in ("act", "claim"):
            seat = (await table.snapshot()).seat_of(person.user_id)
            if seat is None:
                raise UserFacingError("You're watching this table: only its players play.")
            stamp = _stamp(message.get("stamp"))
            if do == "claim":
                await table.turns.claim(person.user_id, seat, stamp)
            else:
                await table.turns.act(person.user_id, seat, stamp, _action(message))
        else:
            raise UserFacingError("That request isn't one the table knows.")


def _number(value: object, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise UserFacingError("That request isn't one the table knows.")
    return value


def _stamp(value: object) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise UserFacingError("That request isn't one the table knows.")
    deal, index = (_number(v) for v in value)
    assert deal is not None and index is not None
    return deal, index


def _action(message: Json) -> Action:
    code = message.get("code")
    try:
        if not isinstance(code, str) or len(code) > 40:
            raise ActionError(repr(code))
        return Action.from_code(code)
    except ActionError:
        raise UserFacingError("That move isn't one the table knows.") from None
