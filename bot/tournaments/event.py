r"""An event's life as a state machine: sign-up, check-in, rounds, the end.

    signup --open_check_in--> checkin --start--> playing <--> between_rounds --> finished
       \\________________________start___________/      (cancel from any open phase)

Every change works on a copy of the state and takes it only when it succeeded: a
refused request (a :class:`TournamentError`, one sentence for the person who asked)
leaves the event as it was. The clock is the caller's: each change takes ``now``.
Actions with ``actor`` None are the bot's own (a timer, the check-in window opening).
The state, its reads and the way every change is made are :mod:`.core`'s; the
director's hand on a running event (pause, skip, a new start, cancel) is :mod:`.directing`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.tournaments.core import Actor
from bot.tournaments.directing import Directing
from bot.tournaments.errors import (
    EventStateError,
    ResultError,
    SignUpError,
    TooFewPlayersError,
)
from bot.tournaments.late import (
    add_late_comer,
    check_late_join,
    seat_late_comers,
    unplayed,
)
from bot.tournaments.model import (
    Entrant,
    EventRound,
    EventSettings,
    TableResult,
    TournamentEvent,
)
from bot.tournaments.seating import planned_rounds, round_tables, seat_everyone
from bot.tournaments.waiting import (
    admit,
    check_sign_up,
    move_up,
    unconfirmed,
    who_plays,
)

__all__ = ["Actor", "Tournament"]

MAX_DEALS_PER_GAME = 60
"""More deals than any game to a target takes: a report past it is refused."""


class Tournament(Directing):
    """One event and the changes it allows; ``state`` is what the store keeps."""

    @classmethod
    def create(
        cls,
        *,
        guild_id: int,
        channel_id: int,
        director_id: int,
        name: str,
        now: datetime,
        settings: EventSettings | None = None,
        seed: int = 0,
    ) -> Tournament:
        """A new event in sign-up, directed by ``director_id``."""
        return cls(
            TournamentEvent(
                guild_id=guild_id,
                channel_id=channel_id,
                director_id=director_id,
                name=name,
                settings=settings or EventSettings(),
                seed=seed,
                created_at=now,
                updated_at=now,
            )
        )

    # ------------------------------------------------------------------ sign-up

    def join(
        self,
        user_id: int,
        name: str,
        now: datetime,
        *,
        partner_id: int | None = None,
        partner_name: str = "",
    ) -> Entrant:
        """Sign a member up; pairs name a partner, who must confirm. Their new entry.

        A full event puts them on its waiting list (:meth:`waiting_place` says where).
        """
        state = self._state
        if state.phase in ("playing", "between_rounds") and state.settings.format == "progressive":
            return self._join_late(user_id, name, now)
        check_sign_up(state, user_id, partner_id, partner_name)
        with self._change(now) as draft:
            everyone = [*draft.entrants, *draft.waiting]
            number = max((e.number for e in everyone), default=-1) + 1
            entry = Entrant(
                number=number,
                user_id=user_id,
                display_name=name,
                partner_id=partner_id,
                checked_in=draft.phase == "checkin",
            )
            group = [entry]
            if partner_id is not None:
                group.append(
                    Entrant(
                        number=number + 1,
                        user_id=partner_id,
                        display_name=partner_name or str(partner_id),
                        partner_id=user_id,
                        confirmed=False,
                    )
                )
            admit(draft, group)
        return entry

    def _join_late(self, user_id: int, name: str, now: datetime) -> Entrant:
        """A late-comer to a running progressive event (:mod:`.late`)."""
        check_late_join(self._state, user_id, planned_rounds(self._state))
        with self._change(now) as draft:
            number = add_late_comer(draft, user_id, name)
        return next(e for e in self._state.entrants if e.number == number).model_copy()

    def confirm_partner(self, user_id: int, now: datetime) -> Entrant:
        """A named partner confirms the pair. The partner who named them."""
        entry = self._signed_up(user_id)
        if entry is None or entry.partner_id is None:
            raise SignUpError("Nobody has named you as their partner for this event.")
        partner = self._signed_up(entry.partner_id)
        assert partner is not None
        if entry.confirmed and not partner.confirmed:
            raise SignUpError(f"Waiting for {partner.display_name} to confirm your partnership.")
        if entry.confirmed:
            raise SignUpError("Your partnership is already confirmed.")
        if self._state.phase != "signup":
            raise SignUpError("Sign-up has closed; partnerships can no longer be confirmed.")
        with self._change(now) as draft:
            mine = next(e for e in [*draft.entrants, *draft.waiting] if e.user_id == user_id)
            mine.confirmed = True
        return partner

    def leave(self, user_id: int, now: datetime) -> list[Entrant]:
        """A member leaves; the entries that changed.

        Before the start their entry (and pair) goes, from the event or its waiting list,
        and the first in line moves up into a place freed; after it a computer plays on
        in their place.
        """
        before = self._state.phase in ("signup", "checkin")
        entry = self._signed_up(user_id) if before else self.entrant(user_id)
        if entry is None:
            raise SignUpError("You are not signed up for this event.")
        self._open("leave")
        if before:
            users = {user_id, entry.partner_id}
            state = self.state
            gone = [e for e in [*state.entrants, *state.waiting] if e.user_id in users]
            with self._change(now) as draft:
                draft.entrants = [e for e in draft.entrants if e.user_id not in users]
                draft.waiting = [e for e in draft.waiting if e.user_id not in users]
                move_up(draft)
            return gone
        if unplayed(self._state, entry):  # a late-comer's seat goes back to the computer
            with self._change(now) as draft:
                draft.entrants = [e for e in draft.entrants if e.user_id != user_id]
            return [entry.model_copy()]
        return [self._replace(None, user_id, now, "leave")]

    def open_check_in(self, actor: Actor | None, now: datetime) -> list[Entrant]:
        """Open check-in. Pairs whose partner never confirmed are dropped: those entries."""
        self._direct(actor, "open check-in")
        if self._state.phase != "signup":
            raise EventStateError("Check-in can only open during sign-up.")
        if self._state.settings.check_in_minutes == 0:
            raise EventStateError("This event has no check-in: everyone signed up plays.")
        dropped = unconfirmed(self._state)
        state = self.state
        gone = [e for e in [*state.entrants, *state.waiting] if e.number in dropped]
        with self._change(now) as draft:
            draft.phase = "checkin"
            draft.entrants = [e for e in draft.entrants if e.number not in dropped]
            draft.waiting = [e for e in draft.waiting if e.number not in dropped]
            move_up(draft)
        return gone

    def check_in(self, user_id: int, now: datetime) -> Entrant:
        """A member checks in during the check-in window (on the waiting list too)."""
        entry = self._signed_up(user_id)
        if entry is None:
            raise SignUpError("You are not signed up for this event.")
        if self._state.phase != "checkin":
            raise SignUpError("Check-in is not open.")
        if entry.checked_in:
            raise SignUpError("You have already checked in.")
        with self._change(now) as draft:
            mine = next(e for e in [*draft.entrants, *draft.waiting] if e.user_id == user_id)
            mine.checked_in = True
        return mine.model_copy()

    # ------------------------------------------------------------------ the start

    def start(
        self, actor: Actor | None, now: datetime, *, fill_with_computers: bool = False
    ) -> list[Entrant]:
        """Seat everyone and open round 1; the entries dropped.

        Dropped: people who did not check in, pairs never confirmed. The places they
        leave go to those waiting who checked in, first in line first; whoever still
        waits is dropped too. Fewer than four people need ``fill_with_computers``
        (all-computer seats) or the event is cancelled.
        """
        self._direct(actor, "start the event")
        if self._state.phase not in ("signup", "checkin"):
            raise EventStateError("The event has already started.")
        people, gone = who_plays(self.state)
        if not people:
            raise TooFewPlayersError("Nobody is in the event: cancel it instead.")
        if len(people) < 4 and not fill_with_computers:
            raise TooFewPlayersError(
                f"Only {len(people)} of the 4 people a table needs are in: "
                "seat computers in the empty seats, or cancel the event."
            )
        with self._change(now) as draft:
            seat_everyone(draft, people)
            draft.waiting = []
            draft.phase = "playing"
            draft.paused = False
            draft.rounds.append(round_tables(draft, 1, now))
        return gone

    # ------------------------------------------------------------------ rounds

    def _playing_round(self, number: int) -> EventRound:
        current = self.current_round
        if self._state.phase != "playing" or current is None:
            raise ResultError("No round is being played.")
        if number != current.number:
            raise ResultError(f"Round {number} is not the round being played.")
        return current

    def set_table_id(
        self, round_number: int, table_number: int, table_id: int, now: datetime
    ) -> None:
        """Note the bot's table that plays a table of the current round."""
        rnd = self._playing_round(round_number)
        if not 1 <= table_number <= len(rnd.tables):
            raise ResultError(f"Round {round_number} has no table {table_number}.")
        with self._change(now) as draft:
            draft.rounds[-1].tables[table_number - 1].table_id = table_id

    def report(
        self,
        round_number: int,
        table_number: int,
        deals: Sequence[tuple[int, int]],
        now: datetime,
        *,
        finished: bool,
    ) -> bool:
        """A table's finished deals so far; True when that ended the round.

        ``finished``: the table played its round out. The round ends when every table has.
        """
        rnd = self._playing_round(round_number)
        if not 1 <= table_number <= len(rnd.tables):
            raise ResultError(f"Round {round_number} has no table {table_number}.")
        table = rnd.tables[table_number - 1]
        if table.result is not None and table.result.finished:
            raise ResultError(f"Table {table_number}'s result is already in.")
        settings = self._state.settings
        by_game = settings.format == "pairs" and settings.game_to_target
        limit = MAX_DEALS_PER_GAME if by_game else settings.deals_per_round
        if len(deals) > limit:
            raise ResultError(f"A table plays at most {limit} deals a round.")
        if finished and not by_game and len(deals) != limit:
            raise ResultError(f"A finished table has played all {limit} deals.")
        if any(a < 0 or b < 0 or (a > 0 and b > 0) for a, b in deals):
            raise ResultError("In each deal at most one partnership scores.")
        with self._change(now) as draft:
            current = draft.rounds[-1]
            current.tables[table_number - 1].result = TableResult(
                deals=[(a, b) for a, b in deals], finished=finished
            )
            done = all(t.result is not None and t.result.finished for t in current.tables)
            if done:
                self._close_round(draft, now, by_timer=False)
        return done

    def end_round(self, actor: Actor | None, now: datetime) -> None:
        """End the round now (its timer, or the director): unfinished deals don't count."""
        self._direct(actor, "end a round")
        current = self.current_round
        if self._state.phase != "playing" or current is None:
            raise EventStateError("No round is being played.")
        with self._change(now) as draft:
            self._close_round(draft, now, by_timer=True)

    def _close_round(self, draft: TournamentEvent, now: datetime, *, by_timer: bool) -> None:
        current = draft.rounds[-1]
        for table in current.tables:
            if table.result is None:
                table.result = TableResult()
        current.ended_at = now
        current.ended_by_timer = by_timer
        last = current.number >= planned_rounds(draft)
        draft.phase = "finished" if last else "between_rounds"

    def next_round(self, actor: Actor | None, now: datetime) -> EventRound:
        """Open the next round (the director's button, or by itself after the break)."""
        self._direct(actor, "start the next round")
        if self._state.phase != "between_rounds":
            raise EventStateError("The next round can start only between rounds.")
        if self._state.paused:
            raise EventStateError("The event is paused: resume it first.")
        with self._change(now) as draft:
            draft.phase = "playing"
            seat_late_comers(draft, len(draft.rounds) + 1)
            draft.rounds.append(round_tables(draft, len(draft.rounds) + 1, now))
        return self._state.rounds[-1].model_copy(deep=True)
