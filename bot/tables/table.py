"""One table's life: a lobby of seats, then a game, then its result.

:class:`Table` holds the state and checks every request against it, raising a
:class:`~bot.tables.errors.TableError` (and changing nothing) when it is refused.
It does no I/O and takes no lock: :class:`~bot.tables.live.LiveTable`, the table of
the service, does both around it.

Longer than 450 lines on purpose: one class holds a table's seats and game, and each
check stands in the method whose change it guards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.logs import TableLock
from bot.rules import (
    Action,
    Game,
    HouseRules,
    RefusedError,
    SeatView,
    action_from_json,
    game_record,
    new_game,
    seat_view,
)
from bot.server.settings import ServerSettings
from bot.store import shown_number

from .errors import (
    IllegalMoveError,
    NotHostError,
    NotReadyError,
    NotSeatedError,
    NotYourHandError,
    NotYourTurnError,
    SeatTakenError,
    StaleActionError,
    TableClosedError,
    TableFullError,
    WrongStageError,
)
from .persistence import Place, SavedTable, TableStatus
from .public import Claim, CompletedTrick, PublicTable, public_game
from .seats import Player, Seat
from .watching import hands_shown

__all__ = ["Move", "Table"]


@dataclass(frozen=True, slots=True)
class Move:
    """An action applied at a table: action number ``index`` of the game."""

    index: int
    deal_number: int
    seat: int
    action: Action
    by_computer: bool


@dataclass(frozen=True, slots=True)
class _Undo:
    """What an applied action changed besides the game, to take it back."""

    last_trick: CompletedTrick | None
    status: TableStatus
    claim: Claim | None


class Table:
    """A table in one channel or thread. See the module docstring."""

    def __init__(
        self,
        table_id: int,
        place: Place,
        host_id: int,
        rules: HouseRules,
        seed: int,
        seats: Sequence[Seat | None] = (),
        *,
        rules_overridden: bool = False,
        settings: ServerSettings | None = None,
        computer_move_delay: float = 0.0,
        number: int | None = None,
    ) -> None:
        """A lobby with ``seats`` taken (padded with empty seats).

        ``number``: the table's number on its server (None: written without one, shown by
        its id). ``rules_overridden``: the host changed the server's house rules for this table.
        ``settings``: its server's, as they were when it opened (or was restored);
        ``computer_move_delay``: seconds before each computer move where they set none.
        """
        self.id = table_id
        self.number = shown_number(number, table_id)
        """The table's number as people see it; ``id`` stays inside (buttons, logs)."""
        self.place = place
        self.host_id = host_id
        self.rules = rules
        self.rules_overridden = rules_overridden
        self.hinted = False
        """Someone asked for a hint: the game is casual."""
        self.in_event = False
        """A tournament event's table: its seats are the event's to give, nobody sits down."""
        self.seed = seed
        self.seats: list[Seat | None] = list(seats) + [None] * (rules.players - len(seats))
        self.status: TableStatus = "lobby"
        self.game: Game | None = None
        self.message_id: int | None = None
        self.last_trick: CompletedTrick | None = None
        self.claim: Claim | None = None
        """The claim that ended the last deal, shown until the next move after it."""
        self.lock = TableLock(place.guild_id, table_id)
        self.settings = settings if settings is not None else ServerSettings()
        """Its server's settings, as they were when it opened or was restored."""
        self._computer_move_delay = computer_move_delay
        self.strikes: dict[int, int] = {}
        """Turns each seat's person let time out in a row."""
        self.actors: list[tuple[int, Seat | None]] = []
        """For each action of the game's log: its deal and who sat in the acting seat then."""
        self.chosen_level: str | None = next(
            (s.level for s in self.seats if s is not None and s.level is not None), None
        )
        """The computer level the host chose for this table (None: the server's default)."""
        self.out_of_step = False
        """A save's outcome is unknown: the store may hold what this table does not."""
        self._undo: _Undo | None = None

    # ------------------------------------------------------------------ seats

    @property
    def size(self) -> int:
        """Seats at the table."""
        return len(self.seats)

    @property
    def is_open(self) -> bool:
        """In its lobby or playing."""
        return self.status in ("lobby", "playing")

    @property
    def is_full(self) -> bool:
        """Every seat taken."""
        return all(seat is not None for seat in self.seats)

    @property
    def humans(self) -> list[int]:
        """The user ids of the people seated, in seat order."""
        return [s.user_id for s in self.seats if s is not None and s.user_id is not None]

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or None."""
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return number
        return None

    def require_seat(self, user_id: int) -> int:
        """The seat of a user; NotSeatedError when they do not sit here."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeatedError.at(self.status)
        return seat

    def name(self, seat: int) -> str:
        """The name of a seat's player ("seat 3" when empty)."""
        taken = self.seats[seat]
        return taken.name if taken is not None else f"seat {seat + 1}"

    @property
    def host_name(self) -> str:
        """The host's seated name."""
        seat = self.seat_of(self.host_id)
        return self.name(seat) if seat is not None else "the host"

    def is_computer(self, seat: int) -> bool:
        """Whether a computer plays ``seat`` (a computer's seat, or a person's left away)."""
        taken = self.seats[seat]
        return taken is not None and taken.played_by_computer

    @property
    def present(self) -> list[int]:
        """The user ids of the people seated and playing their own seat."""
        return [
            s.user_id for s in self.seats if s is not None and s.user_id is not None and not s.away
        ]

    # ------------------------------------------------------------------ lobby

    def _require_lobby(self) -> None:
        self.require_open()
        if self.status != "lobby":
            raise WrongStageError("The game has already started.")

    def require_open(self) -> None:
        """TableClosedError once the table is finished or aborted."""
        if not self.is_open:
            raise TableClosedError.of(self.number, self.status, self.public())

    def _check_seat_number(self, seat: int) -> None:
        if not 0 <= seat < self.size:
            raise SeatTakenError(f"There is no seat {seat + 1} at this table.")

    def join(self, player: Player, seat: int | None = None) -> int:
        """Seat ``player`` (moving them if already seated) and return the seat.

        Without ``seat``: the first empty seat, else the first computer's seat.
        A computer's seat may be taken; another person's may not.
        """
        self._require_lobby()
        self._require_open_seats()
        current = self.seat_of(player.user_id)
        if seat is None:
            if current is not None:
                raise SeatTakenError(f"You're already sitting in seat {current + 1}.")
            seat = self._free_seat(for_person=True)
        self._check_seat_number(seat)
        if seat == current:
            raise SeatTakenError(f"You're already sitting in seat {seat + 1}.")
        taken = self.seats[seat]
        if taken is not None and not taken.is_computer:
            raise SeatTakenError(f"Seat {seat + 1} is taken by {taken.name}.")
        if current is not None:
            self.seats[current] = None
        self.seats[seat] = Seat.human(player)
        return seat

    def _free_seat(self, *, for_person: bool) -> int:
        for number, seat in enumerate(self.seats):
            if seat is None:
                return number
        if for_person:
            for number, seat in enumerate(self.seats):
                if seat is not None and seat.is_computer:
                    return number
        raise TableFullError("The table is full.")

    @property
    def computer_move_delay(self) -> float:
        """Seconds before each computer move: its server's, else the service's."""
        server = self.settings.computer_move_delay
        return server if server is not None else self._computer_move_delay

    @property
    def computer_level(self) -> str:
        """The level this table's computers play at: the host's choice, else the server's."""
        return self.chosen_level or self.settings.computer_default_level

    def set_computer_level(self, by: int, level: str) -> None:
        """The host chooses the level of the table's computers, those seated included."""
        self._require_lobby()
        self._require_host(by, "choose the computer players' level")
        self.chosen_level = level
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.is_computer:
                self.seats[number] = Seat(seat.name, level=level)

    def add_computer(self, by: int, seat: int | None = None, level: str | None = None) -> int:
        """The host seats a computer player (in the first empty seat unless ``seat``).

        It plays at ``level``, else at the table's level.
        """
        self._require_lobby()
        self._require_host(by, "add computer players")
        if seat is None:
            seat = self._free_seat(for_person=False)
        self._check_seat_number(seat)
        taken = self.seats[seat]
        if taken is not None:
            raise SeatTakenError(f"Seat {seat + 1} is taken by {taken.name}.")
        self.seats[seat] = Seat.computer(seat, level or self.computer_level)
        return seat

    def _require_host(self, by: int, what: str) -> None:
        if by != self.host_id:
            raise NotHostError(f"Only the host, {self.host_name}, can {what}.")

    def leave(self, user_id: int) -> int:
        """Free the user's seat; in a game a computer takes it over. Returns the seat.

        When the host leaves, the next person seated becomes host; when nobody is
        left, the table is aborted.
        """
        self.require_open()
        seat = self.require_seat(user_id)
        if self.status == "lobby":
            self.seats[seat] = None
        else:
            self.seats[seat] = Seat.computer(seat, self.computer_level)
            self.strikes.pop(seat, None)
        if user_id == self.host_id:
            humans = self.humans
            if humans:
                self.host_id = humans[0]
            else:
                self.status = "aborted"
        return seat

    def start(self, by: int) -> None:
        """The host starts the game once every seat is taken."""
        self._require_lobby()
        self._require_host(by, "start the game")
        empty = [str(n + 1) for n, seat in enumerate(self.seats) if seat is None]
        if empty:
            listed = ", ".join(empty[:-1]) + " and " + empty[-1] if len(empty) > 1 else empty[0]
            seats = f"Seat {listed} is" if len(empty) == 1 else f"Seats {listed} are"
            raise NotReadyError(
                f"{seats} still empty: wait for players to join, or click Add computer."
            )
        self.game = new_game(self.rules, seed=self.seed)
        self.status = "playing"
        self.actors = []

    def abort(self, by: int, *, may_manage: bool = False) -> None:
        """Close the table: the host, or someone allowed to manage the server."""
        self.require_open()
        if not may_manage:
            self._require_host(by, "close this table")
        self.status = "aborted"

    # ------------------------------------------------------------------ playing

    def require_game(self) -> Game:
        """The game; WrongStageError before it starts."""
        self.require_open()
        if self.game is None:
            raise WrongStageError("The game hasn't started yet.")
        return self.game

    @property
    def stamp(self) -> tuple[int, int]:
        """(deal number, action number): what a private-hand button was drawn for."""
        game = self.game
        return (0, 0) if game is None else (game.deal_number, len(game.log))

    def whose_turn(self) -> str:
        """A sentence fragment naming who is to act: "Bob is to play"."""
        game = self.require_game()
        if game.turn is None:
            return "the game is over"
        verbs = {
            "play": "play",
            "bid1": "bid",
            "bid2": "bid",
            "bid": "bid",
            "declare": "name trump",
            "discard": "discard",
        }
        return f"{self.name(game.turn)} is to {verbs.get(game.phase or '', 'act')}"

    def check_human_action(
        self, user_id: int, seat: int, stamp: tuple[int, int], *, on_turn: bool = True
    ) -> None:
        """Whether ``user_id`` may act now for ``seat`` with a button drawn at ``stamp``.

        The checks go from who to when: not your hand, an old button, not your turn
        (unless ``on_turn`` is False: a claim may come while others are still to play).
        """
        game = self.require_game()
        taken = self.seats[seat] if 0 <= seat < self.size else None
        if taken is None or taken.user_id != user_id:
            owner = f"{taken.name}'s" if taken is not None else "someone else's"
            raise NotYourHandError(
                f"That hand is {owner}: open your own with the Your hand button."
            )
        if taken.away:
            raise NotYourTurnError(
                "A computer is playing your seat: click Take my seat back on the table first."
            )
        if stamp != self.stamp:
            raise StaleActionError("That button is out of date: the game has moved on.")
        if on_turn and game.turn != seat:
            raise NotYourTurnError(f"It's not your turn: {self.whose_turn()}.")

    def apply(
        self,
        seat: int,
        action: Action,
        *,
        by_computer: bool = False,
        actor: Seat | None = None,
        claimed: bool = False,
    ) -> Move:
        """Apply a seat's action; IllegalMoveError (nothing changed) when the rules refuse it.

        ``actor``: who made it, when not whoever sits in ``seat`` now (a restored record).
        ``claimed``: it is one of the plays of :attr:`claim` (any other move forgets it).
        """
        game = self.require_game()
        deal = game.deal_number
        try:
            game.check(seat, action)
        except RefusedError as exc:
            raise IllegalMoveError(exc.code, exc.message) from None
        game.clear_stack()  # one action to take back at most: the last
        game.push(action)
        self._undo = _Undo(self.last_trick, self.status, self.claim)
        if not claimed:
            self.claim = None
        self.actors.append((deal, actor if actor is not None else self.seats[seat]))
        done = game.last_trick
        if action.do == "play" and not game.trick and done is not None:
            count = len(done.seats)
            players = tuple(who for _, who in self.actors[-count:])
            self.last_trick = CompletedTrick(deal, done.seats, done.cards, done.winner, players)
        if game.over:
            self.status = "finished"
        return Move(len(game.log) - 1, deal, seat, action, by_computer)

    def actor_of(self, index: int) -> Seat | None:
        """Who sat in the acting seat when action ``index`` of the game was made."""
        return self.actors[index][1] if 0 <= index < len(self.actors) else None

    def undo_last(self) -> None:
        """Take back the last applied action (its save failed)."""
        game = self.game
        assert game is not None and self._undo is not None
        game.pop()
        self.last_trick, self.status = self._undo.last_trick, self._undo.status
        self.claim = self._undo.claim
        self.actors.pop()
        self._undo = None

    def computer_to_act(self) -> int | None:
        """The seat of the computer player whose turn it is, if any.

        None too while nobody plays their own seat (everyone left or is away): the
        game waits for a person instead of playing itself out.
        """
        if self.status != "playing" or self.game is None or self.game.turn is None:
            return None
        seat = self.game.turn
        if not self.is_computer(seat) or not self.present:
            return None
        return seat

    def computer_level_of(self, seat: int) -> str:
        """The level a computer plays ``seat`` at: the seat's own, else the table's."""
        taken = self.seats[seat]
        return (taken.level if taken is not None else None) or self.computer_level

    # ------------------------------------------------------------------ absent players

    def take_over(self, player: Player, seat: int | None = None) -> int:
        """During a game, a member takes a computer's seat (the first one unless ``seat``)."""
        self.require_game()
        self._require_open_seats()
        if not self.settings.allow_seat_takeover:
            raise SeatTakenError(
                "This server doesn't let members take over a computer's seat during a game."
            )
        current = self.seat_of(player.user_id)
        if current is not None:
            raise SeatTakenError(
                f"You're already playing in seat {current + 1}: taking a computer's seat is "
                "for members watching the game."
            )
        free = [n for n, s in enumerate(self.seats) if s is not None and s.is_computer]
        if seat is None:
            if not free:
                raise TableFullError("Every seat has a person: there's no computer to take over.")
            seat = free[0]
        self._check_seat_number(seat)
        if seat not in free:
            taken = self.seats[seat]
            owner = taken.name if taken is not None else "nobody"
            raise SeatTakenError(f"Seat {seat + 1} is {owner}'s: only a computer's seat is free.")
        self.seats[seat] = Seat.human(player)
        self.strikes.pop(seat, None)
        return seat

    def _require_open_seats(self) -> None:
        if self.in_event:
            raise SeatTakenError(
                "This is a tournament table: its seats are the event's, "
                "and a computer plays for whoever left."
            )

    def set_away(self, seat: int) -> None:
        """A computer plays a person's seat until they take it back."""
        taken = self.seats[seat]
        assert taken is not None and taken.user_id is not None
        self.seats[seat] = Seat(taken.name, user_id=taken.user_id, level=taken.level, away=True)

    def take_back(self, user_id: int) -> int:
        """A person away takes their seat back from the computer; returns the seat."""
        self.require_game()
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeatedError(
                "You're not playing at this table: Take my seat back is for a player whose "
                "seat a computer is playing."
            )
        taken = self.seats[seat]
        assert taken is not None
        if not taken.away:
            raise WrongStageError(
                "You're already playing your seat yourself: Take my seat back is for a player "
                "whose seat a computer is playing."
            )
        self.seats[seat] = Seat(taken.name, user_id=user_id, level=taken.level)
        self.strikes.pop(seat, None)
        return seat

    @property
    def casual(self) -> bool:
        """Whether the game is casual now: a computer plays a seat, the host's rules, a hint."""
        return (
            self.rules_overridden
            or self.hinted
            or any(s is not None and s.played_by_computer for s in self.seats)
        )

    @property
    def hints_allowed(self) -> bool:
        """Whether players may ask for a hint: a casual game where the server allows them."""
        return self.status == "playing" and self.settings.allow_hints and self.casual

    def view_for(self, user_id: int) -> tuple[int, SeatView]:
        """A seated user's seat and view of the game (their hand included)."""
        seat = self.require_seat(user_id)
        if self.game is None:
            raise WrongStageError.no_cards_yet()
        return seat, seat_view(self.game, seat)

    # ------------------------------------------------------------------ views and records

    def public(self) -> PublicTable:
        """Everything the public table message may show."""
        game = None if self.game is None else public_game(self.game, self.last_trick, self.actors)
        return PublicTable(
            id=self.id,
            number=self.number,
            place=self.place,
            host_id=self.host_id,
            status=self.status,
            rules=self.rules,
            seats=tuple(self.seats),
            game=game,
            rules_overridden=self.rules_overridden,
            allow_takeover=self.settings.allow_seat_takeover and not self.in_event,
            computer_level=self.computer_level,
            hinted=self.hinted,
            claim=self.claim,
            hands_shown=hands_shown(self),
        )

    def record(self) -> dict[str, Any]:
        """The game record so far (record-format.md), with the table in ``meta``."""
        game = self.game
        if game is None:
            raise WrongStageError("The game hasn't started yet.")
        meta = {
            "table": self.id,
            "seats": [
                None if s is None else {"name": s.name, "user": s.user_id, "level": s.level}
                for s in self.seats
            ],
        }
        return game_record(game, meta=meta)

    @staticmethod
    def restore(
        stored: SavedTable,
        *,
        settings: ServerSettings | None = None,
        computer_move_delay: float = 0.0,
    ) -> Table:
        """Rebuild a table from the store by replaying its actions (settings as in ``__init__``)."""
        table = Table(
            stored.id,
            stored.place,
            stored.host_id,
            stored.rules,
            stored.seed,
            stored.seats,
            rules_overridden=stored.rules_overridden,
            settings=settings,
            computer_move_delay=computer_move_delay,
            number=stored.number,
        )
        table.replay(stored)
        return table

    def replay(self, stored: SavedTable) -> None:
        """Take a new table (built from ``stored``) to where the store has it, by its actions."""
        self.hinted = stored.hinted
        self.message_id = stored.message_id
        if stored.status == "lobby":
            return
        self.game = new_game(self.rules, seed=self.seed)
        self.status = "playing"
        for index, entry in enumerate(stored.actions):
            seat = int(entry["seat"])
            noted = stored.actors[index] if index < len(stored.actors) else None
            self.apply(
                seat,
                action_from_json(entry)[1],
                by_computer=self.is_computer(seat),
                actor=None if noted is None else Seat.from_json(noted),
            )
        self._undo = None
        self.status = stored.status

    def adopt(self, stored: Table) -> None:
        """Take the state of ``stored`` (this table as the store has it), back in step.

        The lock, the server's settings and the turn strikes stay this table's; so do
        the public message's id and the computer level when the store has none.
        """
        self.host_id, self.rules, self.seed = stored.host_id, stored.rules, stored.seed
        self.rules_overridden, self.hinted = stored.rules_overridden, stored.hinted
        self.seats, self.status, self.game = list(stored.seats), stored.status, stored.game
        self.last_trick, self.actors = stored.last_trick, list(stored.actors)
        if stored.chosen_level is not None:
            self.chosen_level = stored.chosen_level
        if stored.message_id is not None:
            self.message_id = stored.message_id
        self._undo = None
        self.out_of_step = False
