"""The one place the Activity reads a table or asks it for a change: snapshot in, JSON out.

Everything else of the Activity (its sockets, its sign-in, its pages) sees only what this
module hands over:

- :func:`snapshot` turns a table into a :class:`Snapshot`: the public table as JSON (drawn
  from :meth:`Table.public`, the same that the public message is drawn from: never a hidden
  card) and, for each person seated, their own seat's JSON (their hand, the buttons they may
  click, the stamp a click is checked against), from :meth:`Table.view_for`;
- :class:`Feed` listens to the service's events and hands a fresh snapshot of a table to
  whoever watches its place (a channel or thread), and reads the current one;
- :meth:`Feed.request` makes a person's request (a card, a bid, a seat, the start) through
  the same :class:`TableService` calls the buttons make, so a person may switch between the
  Activity and the buttons: a stale stamp or an illegal card is refused alike.

Snapshots are made inside the table's lock, as each event is told (only for places
someone watches), so a socket never shows a state the table did not pass through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.errors import UserFacingError
from bot.render.cards import sort_hand
from bot.rules import Action, ActionError, SeatView, card_label
from bot.rules.cards import card_words
from bot.rules.ranking import NO_TRUMP_HIGH
from bot.tables import Place, Player, PublicTable, Table, TableEvent, TableService

from .words import CARD_VERBS, action_label, card_role, prompt, trump_name, whose_turn

__all__ = ["Feed", "Person", "Snapshot", "snapshot"]

Json = dict[str, Any]

_QUIET: Final = frozenset({"turn", "ping", "hint"})
"""Events that change nothing a snapshot shows."""
_TRUMP_WORDS: Final = ("C", "D", "H", "S", "high", "low")


@dataclass(frozen=True, slots=True)
class Person:
    """Someone signed in to the Activity: their Discord id and the name they go by."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table at one moment: the public part, and each seated person's own part."""

    place_id: int
    table_id: int
    public: Json
    seats: Mapping[int, Json]
    """By user id: that person's seat, hand and buttons (nobody else's)."""

    def seat_of(self, user_id: int) -> Json | None:
        """The person's own part, if they sit at the table."""
        return self.seats.get(user_id)


def _names(table: PublicTable) -> list[str]:
    return [s.name if s is not None else f"Seat {i + 1}" for i, s in enumerate(table.seats)]


def _play(seat: int, card: int) -> Json:
    return {"seat": seat, "card": card_label(card), "words": card_words(card)}


def _game_part(table: PublicTable, names: list[str]) -> Json:
    game = table.game
    if game is None:
        return {}
    view = game.view
    shown_up = table.rules.game != "bid_euchre" and view.phase == "bid1"
    last = game.last_trick
    deal = game.last_deal
    part: Json = {
        "deal": view.deal_number,
        "phase": view.phase,
        "dealer": view.dealer,
        "turn": view.turn,
        "out": list(view.out),
        "cards": list(view.hand_counts),
        "score": list(view.score),
        "tricks": list(view.tricks_won),
        "target": table.rules.target_score,
        "trump": None if view.trump is None else _TRUMP_WORDS[view.trump],
        "trump_name": None if view.trump is None else trump_name(view.trump),
        "maker": view.maker,
        "alone": list(view.alone),
        "upcard": card_label(view.upcard) if shown_up else None,
        "upcard_words": card_words(view.upcard) if shown_up else None,
        "turned_down": None if view.turned_down is None else card_label(view.turned_down),
        "trick": [_play(s, c) for s, c in view.trick],
        "last_trick": None
        if last is None
        else {
            "deal": last.deal_number,
            "plays": [_play(s, c) for s, c in zip(last.seats, last.cards, strict=True)],
            "winner": last.winner,
        },
        "contract": None
        if view.contract is None
        else {
            "seat": view.contract.seat,
            "tricks": view.contract.tricks,
            "shoot": view.contract.shoot,
        },
        "last_deal": None
        if deal is None
        else {"number": deal.number, "points": list(deal.points), "result": deal.result},
        "over": view.over,
        "winner": view.winner,
        "line": whose_turn(view, names),
    }
    return part


def public_json(table: PublicTable) -> Json:
    """Everything everyone at the table may see, as JSON."""
    names = _names(table)
    seats = []
    for i, taken in enumerate(table.seats):
        seats.append(
            {
                "seat": i,
                "name": names[i],
                "user": None if taken is None or taken.user_id is None else str(taken.user_id),
                "computer": taken is not None and taken.is_computer,
                "away": taken is not None and taken.away,
                "team": i % 2,
            }
        )
    return {
        "table": table.id,
        "status": table.status,
        "game": table.rules.game,
        "players": table.rules.players,
        "host": str(table.host_id),
        "seats": seats,
        "claim": None
        if table.claim is None
        else {"seat": table.claim.seat, "tricks": table.claim.tricks},
        **_game_part(table, names),
    }


def seat_json(view: SeatView, names: list[str], stamp: tuple[int, int], *, can_claim: bool) -> Json:
    """One seat's own part: its hand in reading order, the cards it may click, its buttons."""
    legal = view.legal if view.my_turn else ()
    cards = {a.card: a for a in legal if a.do in CARD_VERBS and a.card is not None}
    trump = view.trump if view.trump is not None and view.trump < NO_TRUMP_HIGH else None
    hand = [
        {
            "card": card_label(c),
            "words": card_words(c),
            "code": str(cards[c]) if c in cards else None,
            "role": card_role(c, trump),
        }
        for c in sort_hand(view.hand, view.trump)
    ]
    buttons = []
    for action in legal:
        if action.do in CARD_VERBS:
            continue
        label, kind = action_label(view, action, names)
        buttons.append({"code": str(action), "label": label, "kind": kind})
    verb = next((a.do for a in legal if a.do in CARD_VERBS), None)
    return {
        "seat": view.seat,
        "hand": hand,
        "verb": verb,
        "buttons": buttons,
        "claim": can_claim,
        "prompt": prompt(view, names),
        "stamp": list(stamp),
    }


def snapshot(table: Table, can_claim: Callable[[SeatView], bool]) -> Snapshot:
    """The table now: public JSON, and each seated person's own part."""
    public = table.public()
    body = public_json(public)
    if table.game is not None:
        body["stamp"] = list(table.stamp)
    seats: dict[int, Json] = {}
    if table.game is not None:
        names = _names(public)
        for seat in public.seats:
            if seat is None or seat.user_id is None or seat.user_id in seats:
                continue
            _, view = table.view_for(seat.user_id)
            claims = can_claim(view) and not seat.away
            seats[seat.user_id] = seat_json(view, names, table.stamp, can_claim=claims)
    return Snapshot(table.place.id, table.id, body, seats)


Watcher = Callable[[Snapshot], None]


class Feed:
    """The Activity's view of a :class:`TableService`: snapshots out, requests in."""

    def __init__(self, service: TableService) -> None:
        """Listen to ``service``; nothing is made until someone watches a place."""
        self.service = service
        self._watchers: dict[int, Watcher] = {}
        service.listeners.append(self._on_event)

    def watch(self, place_id: int, watcher: Watcher) -> None:
        """Call ``watcher`` with each new snapshot of the table at ``place_id``."""
        self._watchers[place_id] = watcher

    def unwatch(self, place_id: int) -> None:
        """Stop telling the place's watcher."""
        self._watchers.pop(place_id, None)

    def current(self, place_id: int) -> Snapshot | None:
        """The snapshot of the open table at the place, if there is one."""
        table = self.service.at(place_id)
        return None if table is None else snapshot(table, self.service.can_claim)

    async def four_colour(self, user_id: int) -> bool:
        """Whether the person draws the suits in four colours (their preference)."""
        return (await self.service.preferences_of(user_id)).four_colour

    def _on_event(self, event: TableEvent) -> None:
        if event.kind in _QUIET:
            return
        watcher = self._watchers.get(event.table.place.id)
        if watcher is not None:
            watcher(snapshot(event.table, self.service.can_claim))

    async def request(self, place: Place, person: Person, message: Json) -> None:
        """Make a person's request at the place; a refusal is a :class:`UserFacingError`.

        ``{"do": "act", "code": "play.JD", "stamp": [deal, index]}``, ``{"do": "claim",
        "stamp": ...}``, ``{"do": "open"}``, ``{"do": "sit"}`` (``"seat"`` optional),
        ``{"do": "computer"}``, ``{"do": "start"}``, ``{"do": "leave"}``.
        """
        service = self.service
        do = message.get("do")
        player = Player(person.user_id, person.name)
        if do == "open":
            await service.open(place, player)
            return
        table = service.at(place.id)
        if table is None:
            raise UserFacingError("There is no table here now: open one first.")
        if do == "sit":
            await service.join(table.id, player, _number(message.get("seat"), optional=True))
        elif do == "computer":
            await service.add_computer(table.id, person.user_id)
        elif do == "start":
            await service.start(table.id, person.user_id)
        elif do == "leave":
            await service.leave(table.id, person.user_id)
        elif do in ("act", "claim"):
            seat = table.seat_of(person.user_id)
            if seat is None:
                raise UserFacingError("You're watching this table: only its players play.")
            stamp = _stamp(message.get("stamp"))
            if do == "claim":
                await service.claim(table.id, person.user_id, seat, stamp)
            else:
                await service.act(table.id, person.user_id, seat, stamp, _action(message))
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
