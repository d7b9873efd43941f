"""How a tournament event looks in its channel: the live event message, notices, history.

One message per event carries who is in and who waits (during sign-up and check-in),
then the standings as the rounds are played, then the final standings; the notices
say when a round opens, who got a place off the waiting list and who won. Drawn from
the event's state only: no I/O.

Every list keeps Discord's limits and loses nobody: who is in fills as many of the
message's fields as its 6,000 characters allow, the standings show the first places,
and what does not fit is counted ("… and 12 more") with the button that shows it all,
page by page (:mod:`.tournament_lists`): **Who's in** and **Standings**.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final, Literal, get_args

from bot.tournaments import Announcement, Standing
from bot.tournaments.late import late_round
from bot.tournaments.model import Entrant, EventRound, TournamentEvent
from bot.tournaments.seating import planned_rounds
from bot.tournaments.waiting import groups

from .fitting import (
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_TOTAL,
    FIELD_VALUE,
    fit_fields,
    fit_lines,
    shorten,
)
from .hand import ButtonStyle
from .names import shown
from .panel import Panel, moment

__all__ = [
    "DIRECTOR_VERBS",
    "EVENT_VERBS",
    "HISTORY_EVENTS",
    "PEOPLE_BUTTON",
    "STANDINGS_BUTTON",
    "EventVerb",
    "announcement_texts",
    "champion_text",
    "event_buttons",
    "event_panel",
    "history_panel",
    "mention_texts",
    "more_line",
    "people_lines",
    "round_text",
    "standing_line",
    "table_ping_text",
    "waiting_texts",
]

EventVerb = Literal[
    "join",
    "leave",
    "checkin",
    "confirm",
    "start",
    "computers",
    "next",
    "pause",
    "cancel",
    "people",
    "standings",
]
EVENT_VERBS: Final[tuple[EventVerb, ...]] = get_args(EventVerb)
DIRECTOR_VERBS: Final[frozenset[str]] = frozenset({"start", "computers", "next", "pause", "cancel"})
_TABLE: Final = 4
"""People at a table: fewer in an event, and only computers can fill the seats."""

_PHASES: Final = {
    "signup": "Sign-up is open",
    "checkin": "Check-in is open",
    "playing": "Playing",
    "between_rounds": "Between rounds",
    "finished": "Finished",
    "cancelled": "Cancelled",
}
_MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}
_LINES: Final = 10
"""Standings lines the message shows at most (every line: its Standings button)."""
PEOPLE_BUTTON: Final = "Who's in"
STANDINGS_BUTTON: Final = "Standings"
_HEAD_FIELDS: Final = 3
"""The message's fields before its lists: Starts, Director, Rated."""
HISTORY_EVENTS: Final = 10
"""Events a page of /euchre tournament history shows."""
_HISTORY_LINE: Final = EMBED_DESCRIPTION // HISTORY_EVENTS - 1
"""The longest line of the history: a line for every event shown fits a description."""


def _format(event: TournamentEvent) -> str:
    s = event.settings
    if s.format == "pairs":
        game = "a game to the target" if s.game_to_target else f"{s.deals_per_round} deals"
        return f"Pairs, {s.rounds} rounds of {game}"
    return f"Progressive, {s.rounds} rounds of {s.deals_per_round} deals"


def _when(start: datetime | None) -> str:
    if start is None:
        return "when the director starts it"
    return moment(start, "F") + f" ({moment(start, 'R')})"


def _entrant_line(entry: Entrant, partner: Entrant | None, checking: bool) -> str:
    name = f"<@{entry.user_id}>" if entry.user_id is not None else shown(entry.display_name)
    marks = ""
    if checking:
        marks += " ✅" if entry.checked_in else " ⏳"
    if partner is not None:
        waiting = "" if partner.confirmed else " (to confirm)"
        marks += f" with <@{partner.user_id}>{waiting}"
    return f"• {name}{marks}"


def people_lines(event: TournamentEvent, entries: list[Entrant]) -> list[str]:
    """``entries`` one line each: a pair once, on the line of the partner who named the other."""
    checking = event.phase == "checkin"
    return [
        _entrant_line(group[0], group[1] if len(group) > 1 else None, checking)
        for group in groups(entries)
    ]


def more_line(count: int, button: str) -> str:
    """The line that says how many more a list holds, and which button shows them."""
    return f"… and {count} more: press **{button}** below"


def standing_line(line: Standing, pairs: bool) -> str:
    """One line of the standings: medal or place, names, what placed them."""
    mark = _MEDALS.get(line.place, f"{line.place}.")
    names = " & ".join(map(shown, line.names))
    left = " (left: a computer played on)" if line.replaced else ""
    if line.joined is not None and line.joined > 1:
        missed = "round 1" if line.joined == 2 else f"rounds 1–{line.joined - 1}"
        left += f" (joined in round {line.joined}, missed {missed})"
    if pairs:
        return f"{mark} {names}: {line.wins:g} wins, {line.points - line.against:+d}{left}"
    return f"{mark} {names}: {line.points} pts, {line.deals_won} deals won{left}"


def event_panel(event: TournamentEvent, lines: Sequence[Standing], total_rounds: int) -> Panel:
    """The event's live message: its settings, who is in and who waits, or the standings."""
    phase = _PHASES[event.phase] + (" (paused)" if event.paused else "")
    panel = Panel(
        f"🏆 {event.name}", f"{_format(event)} · {phase}", footer=f"Event {event.shown_number}"
    )
    panel.add_field(name="Starts", value=_when(event.settings.start_time), inline=True)
    panel.add_field(name="Director", value=f"<@{event.director_id}>", inline=True)
    panel.add_field(name="Rated", value="yes" if event.settings.rated else "no", inline=True)
    if event.phase in ("signup", "checkin"):
        fields = _people_fields(event, EMBED_TOTAL - len(panel))
    else:
        fields = [_standings_field(event, lines, total_rounds)]
    for name, value in fields:
        panel.add_field(name=name, value=value, inline=False)
    return panel


def _people_fields(event: TournamentEvent, budget: int) -> list[tuple[str, str]]:
    """Who is in, then who waits, in as many fields as fit; the rest counted."""
    people = sum(1 for e in event.entrants if e.user_id is not None)
    title = f"Signed up ({people} of {event.settings.max_players})"
    lines = people_lines(event, event.entrants)
    waiting = people_lines(event, event.waiting)
    wait_title = f"Waiting list ({len(event.waiting)})"
    most = EMBED_FIELDS - _HEAD_FIELDS - (1 if waiting else 0)
    if not lines:
        fields = [(title, "Nobody yet: press **Join**.")]
        listed = 0
    else:
        spare = len(wait_title) + 100 if waiting else 0
        fields, listed = fit_fields(
            title, lines, budget - spare, lambda n: more_line(n, PEOPLE_BUTTON), most=most
        )
        fields = fields or [(title, more_line(len(lines), PEOPLE_BUTTON))]
    if not waiting:
        return fields
    budget -= sum(len(n) + len(v) for n, v in fields)
    if listed < len(lines):
        return [*fields, (wait_title, f"{len(event.waiting)} waiting: press **{PEOPLE_BUTTON}**")]
    more = fit_fields(wait_title, waiting, budget, lambda n: more_line(n, PEOPLE_BUTTON), most=1)[0]
    return [*fields, *more]


def _standings_field(
    event: TournamentEvent, lines: Sequence[Standing], total_rounds: int
) -> tuple[str, str]:
    played = len(event.rounds)
    title = "Final standings" if event.phase == "finished" else "Standings"
    if event.phase != "finished" and played:
        title += f" after round {played} of {total_rounds}"
    if not lines:
        return title, "No results yet."
    pairs = event.settings.format == "pairs"
    first = [standing_line(line, pairs) for line in lines[:_LINES]]
    text, _ = fit_lines(
        first,
        FIELD_VALUE,
        lambda n: more_line(n, STANDINGS_BUTTON),
        hidden=len(lines) - len(first),
    )
    return title, text


def event_buttons(event: TournamentEvent) -> list[tuple[EventVerb, str, ButtonStyle]]:
    """The buttons the message shows now: (verb, label, style).

    Once the event has finished only **Standings** stays; a cancelled event has none.
    """
    grey: ButtonStyle = "secondary"
    if event.phase == "cancelled":
        return []
    if event.phase == "finished":
        return [("standings", STANDINGS_BUTTON, grey)]
    blue: ButtonStyle = "primary"
    red: ButtonStyle = "danger"
    buttons: list[tuple[EventVerb, str, ButtonStyle]] = []
    if event.phase in ("signup", "checkin"):
        buttons.append(("join", "Join", blue))
        if event.settings.format == "pairs":
            buttons.append(("confirm", "Confirm partner", blue))
        buttons.append(("leave", "Leave", grey))
        if event.phase == "checkin":
            buttons.append(("checkin", "Check in", "success"))
        buttons.append(("people", PEOPLE_BUTTON, grey))
        buttons.append(("start", "Start now", "success"))
        people = sum(1 for e in event.entrants if e.user_id is not None)
        if 0 < people < _TABLE:
            buttons.append(("computers", "Start with computers", "success"))
    else:
        if event.settings.format == "progressive" and late_round(event) <= planned_rounds(event):
            buttons.append(("join", "Join", blue))
        buttons.append(("leave", "Leave", grey))
        buttons.append(("standings", STANDINGS_BUTTON, grey))
        if event.phase == "between_rounds":
            buttons.append(("next", "Next round", "success"))
        buttons.append(("pause", "Resume" if event.paused else "Pause", grey))
    buttons.append(("cancel", "Cancel", red))
    return buttons


def round_text(event: TournamentEvent, rnd: EventRound, total_rounds: int) -> str:
    """The notice of a round opening."""
    tables = len(rnd.tables)
    return (
        f"🃏 **{shown(event.name)}**: round {rnd.number} of {total_rounds} begins at "
        f"{tables} table{'s' if tables != 1 else ''}. Each table plays in its own thread."
    )


def table_ping_text(event: TournamentEvent, rnd: EventRound, number: int, users: list[int]) -> str:
    """The first message of a table's thread, pinging its people."""
    who = " ".join(f"<@{u}>" for u in users)
    return (
        f"🃏 {shown(event.name)}, round {rnd.number}, table {number}: {who}, your table is ready."
    )


def waiting_texts(event: TournamentEvent, users: Sequence[int], *, got_in: bool) -> list[str]:
    """The notices pinging people of the waiting list, as few as Discord's 2,000 characters allow.

    ``got_in``: a place opened for them; else the event started without one for them.
    """
    if got_in:
        head, tail = f"🎟️ A place opened in **{shown(event.name)}**: ", ", you're in!"
    else:
        head = f"🎟️ **{shown(event.name)}** has started full: "
        tail = ", no place opened for you this time. Thank you for waiting!"
    return [text for text, _ in mention_texts(head, users, tail)]


def mention_texts(head: str, users: Sequence[int], tail: str) -> list[tuple[str, tuple[int, ...]]]:
    """``head``, the mentions of ``users``, ``tail``, in as few messages as fit.

    Each within Discord's 2,000 characters, with the people it mentions.
    """
    texts: list[tuple[str, tuple[int, ...]]] = []
    who: list[int] = []

    def text(people: list[int]) -> str:
        return head + ", ".join(f"<@{u}>" for u in people) + tail

    for user in users:
        if who and len(text([*who, user])) > CONTENT:
            texts.append((text(who), tuple(who)))
            who = []
        who.append(user)
    if who:
        texts.append((text(who), tuple(who)))
    return texts


def announcement_texts(
    event: TournamentEvent, said: Announcement, total_rounds: int
) -> list[tuple[str, tuple[int, ...]]]:
    """An announcement's messages, each with the people it mentions (and only notifies)."""
    name = f"**{shown(event.name)}**"
    start = event.settings.start_time
    if said.kind == "partner":
        who = "Someone" if said.named_by is None else f"<@{said.named_by}>"
        head = "🤝 "
        tail = (
            f": {who} signed up for {name} with you as their partner. Press "
            "**Confirm partner** below to play together (a pair not confirmed when "
            "check-in opens is dropped)."
        )
    elif said.kind == "checkin":
        head = f"✅ Check-in for {name} is open: "
        until = "" if start is None else f" before the start ({_when_short(start)})"
        tail = f". Press **Check in**{until}, or your place goes at the start."
    elif said.kind == "reminder":
        assert start is not None
        head = f"⏰ {name} starts {_when_short(start)}: "
        check = " Check in if you haven't yet." if event.phase == "checkin" else ""
        tail = f". See you at the tables!{check}"
    else:
        following = (said.round or 0) + 1
        when = (
            "when the director starts it"
            if said.next_at is None
            else f"at {_when_short(said.next_at)}"
        )
        head = f"🔔 {name}: round {said.round} of {total_rounds} is over. "
        tail = f": round {following} starts {when}. Your new table opens in a thread."
    return mention_texts(head, said.users, tail)


def _when_short(when: datetime) -> str:
    return f"{moment(when, 't')} ({moment(when, 'R')})"


def champion_text(event: TournamentEvent, champions: Sequence[Standing]) -> str:
    """The final announcement (many champions level: the first, then how many more)."""
    if not champions:
        return f"🏁 **{shown(event.name)}** has finished."
    title = "Champions" if len(champions) > 1 or len(champions[0].names) > 1 else "Champion"
    head = f"🏆 **{shown(event.name)}** has finished. {title}: **"
    names = [" & ".join(map(shown, c.names)) for c in champions]
    for count in range(len(names), 0, -1):
        left = len(names) - count
        rest = (
            f" and {left} more level with them (the event's **{STANDINGS_BUTTON}**)" if left else ""
        )
        text = f"{head}{', '.join(names[:count])}**{rest}! Congratulations!"
        if len(text) <= CONTENT:
            return text
    return (
        f"🏆 **{shown(event.name)}** has finished: see its **{STANDINGS_BUTTON}**. Congratulations!"
    )


def history_panel(
    events: Sequence[tuple[TournamentEvent, Sequence[Standing]]], page: int = 0, pages: int = 1
) -> Panel:
    """A page of the server's events, newest first, with their winners.

    A line too long for its share of the description (many champions level) ends in
    "…": the event's standings say the rest.
    """
    panel = Panel("🏆 Tournament history")
    lines = []
    for event, champions in events:
        when = moment(event.created_at, "d")
        won = ", ".join(" & ".join(map(shown, c.names)) for c in champions)
        outcome = f"won by {won}" if won else _PHASES[event.phase].lower()
        line = f"**{event.shown_number}** {shown(event.name)} ({when}): {_format(event)}, {outcome}"
        lines.append(shorten(line, _HISTORY_LINE))
    text = "\n".join(lines[:HISTORY_EVENTS])
    panel.description = text or "No events yet: start one with /euchre tournament new."
    if lines:
        where = f"Page {page + 1} of {pages} · " if pages > 1 else ""
        panel.footer = (
            f"{where}Every place of an event: /euchre tournament standings event:<number>"
        )
    return panel
