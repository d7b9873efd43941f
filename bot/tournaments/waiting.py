"""An event's places and its waiting list: who gets in, who waits, who moves up.

An event takes ``max_players`` people. Whoever joins when it is full, or while others
already wait, goes to the end of the waiting list (a pair as one, taking two places);
when a place opens before the start, the first in line moves up if they fit, then the
next, in order (nobody jumps the line). At the start the places freed by people who
did not check in go to those waiting who did; the rest of the list is dropped.
Plain functions over the event's draft state: :class:`~.event.Tournament` calls them.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.tournaments.errors import SignUpError
from bot.tournaments.model import Entrant, TournamentEvent

__all__ = [
    "admit",
    "check_sign_up",
    "groups",
    "move_up",
    "places_left",
    "unconfirmed",
    "waiting_place",
    "who_plays",
]


def places_left(event: TournamentEvent) -> int:
    """How many more people the event takes now."""
    return max(event.settings.max_players - len(event.entrants), 0)


def groups(entries: list[Entrant]) -> list[list[Entrant]]:
    """``entries`` as the units that get in together: a person, or a pair, in order."""
    by_user = {e.user_id: e for e in entries if e.user_id is not None}
    seen: set[int] = set()
    found = []
    for entry in entries:
        if entry.number in seen:
            continue
        partner = by_user.get(entry.partner_id) if entry.partner_id is not None else None
        group = [entry] if partner is None else [entry, partner]
        seen.update(e.number for e in group)
        found.append(group)
    return found


def admit(event: TournamentEvent, group: list[Entrant]) -> bool:
    """Seat ``group`` among the entrants if it fits and nobody waits; else it waits. In?"""
    if not event.waiting and len(group) <= places_left(event):
        event.entrants.extend(group)
        return True
    event.waiting.extend(group)
    return False


def move_up(
    event: TournamentEvent, ready: Callable[[list[Entrant]], bool] = lambda _: True
) -> list[Entrant]:
    """Move the first in line into the places open, in order; the entries that moved up.

    ``ready``: whether a waiting group may take a place now (checked in, at the start);
    one not ready is passed over, one too big for the places left stops the line.
    """
    moved: list[Entrant] = []
    kept: list[Entrant] = []
    line = groups(event.waiting)
    for index, group in enumerate(line):
        if not ready(group):
            kept.extend(group)
            continue
        if len(group) > places_left(event):
            kept.extend(e for rest in line[index:] for e in rest)
            break
        event.entrants.extend(group)
        moved.extend(group)
    event.waiting = kept
    event.entrants.sort(key=lambda e: e.number)
    return moved


def waiting_place(event: TournamentEvent, user_id: int) -> int | None:
    """Where ``user_id`` stands on the waiting list (1: next in), or None if not on it."""
    for place, group in enumerate(groups(event.waiting), start=1):
        if any(e.user_id == user_id for e in group):
            return place
    return None


def unconfirmed(event: TournamentEvent) -> set[int]:
    """Entries of pairs whose partner has not confirmed (both members, waiting ones too)."""
    everyone = [*event.entrants, *event.waiting]
    pending = {e.user_id for e in everyone if not e.confirmed}
    return {e.number for e in everyone if e.user_id in pending or e.partner_id in pending}


def who_plays(event: TournamentEvent) -> tuple[list[Entrant], list[Entrant]]:
    """At the start: the people who play, and the entries dropped (``event`` is a copy).

    Dropped: pairs never confirmed and, with check-in, whoever did not check in (a pair
    with either partner); the places they free go to those waiting who checked in.
    """
    checking = event.phase == "checkin"
    dropped = unconfirmed(event)
    by_user = {e.user_id: e for e in event.entrants}
    for entry in event.entrants:
        partner = by_user.get(entry.partner_id) if entry.partner_id is not None else None
        if checking and not (entry.checked_in and (partner is None or partner.checked_in)):
            dropped.add(entry.number)
    everyone = [*event.entrants, *event.waiting]
    event.entrants = [e for e in event.entrants if e.number not in dropped]
    move_up(
        event,
        lambda g: all(e.number not in dropped and (e.checked_in or not checking) for e in g),
    )
    kept = {e.number for e in event.entrants}
    return event.entrants, [e for e in everyone if e.number not in kept]


def check_sign_up(
    event: TournamentEvent, user_id: int, partner_id: int | None, partner_name: str
) -> None:
    """Refuse a sign-up before the start that the event can't take (SignUpError: why)."""
    if event.phase not in ("signup", "checkin"):
        raise SignUpError("The event has already started; you can no longer join.")
    if waiting_place(event, user_id) is not None:
        raise SignUpError("You are already on this event's waiting list.")
    signed_up = {e.user_id for e in [*event.entrants, *event.waiting]}
    if user_id in signed_up:
        raise SignUpError("You are already signed up for this event.")
    pairs = event.settings.format == "pairs"
    if pairs and partner_id is None:
        raise SignUpError("Name your partner to sign up for a pairs event.")
    if not pairs and partner_id is not None:
        raise SignUpError("Progressive events are for individuals: partners change each round.")
    if partner_id == user_id:
        raise SignUpError("You can't be your own partner.")
    if partner_id is not None and partner_id in signed_up:
        raise SignUpError(f"{partner_name or 'Your partner'} is already signed up.")
    if pairs and event.phase == "checkin":
        raise SignUpError("Check-in has opened; new pairs can no longer sign up.")
