"""How a tournament event looks in its channel: the live event message, notices, history.

One message per event carries who is in (during sign-up and check-in), then the
standings as the rounds are played, then the final standings; the notices say
when a round opens and who won. Drawn from the event's state only: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final, Literal

import discord

from bot.league.tournaments import Standing
from bot.store.tournament_models import Entrant, EventRound, TournamentEvent

__all__ = [
    "EVENT_VERBS",
    "EventVerb",
    "champion_text",
    "event_buttons",
    "event_embed",
    "history_embed",
    "round_text",
    "table_ping_text",
]

EventVerb = Literal[
    "join", "leave", "checkin", "confirm", "start", "computers", "next", "pause", "cancel"
]
EVENT_VERBS: Final[tuple[EventVerb, ...]] = (
    "join",
    "leave",
    "checkin",
    "confirm",
    "start",
    "computers",
    "next",
    "pause",
    "cancel",
)
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
_LINES: Final = 20
"""Standings lines shown in the message (the rest in /euchre tournament standings)."""


def _format(event: TournamentEvent) -> str:
    s = event.settings
    if s.format == "pairs":
        game = "a game to the target" if s.game_to_target else f"{s.deals_per_round} deals"
        return f"Pairs, {s.rounds} rounds of {game}"
    return f"Progressive, {s.rounds} rounds of {s.deals_per_round} deals"


def _when(start: datetime | None) -> str:
    if start is None:
        return "when the director starts it"
    return discord.utils.format_dt(start, "F") + f" ({discord.utils.format_dt(start, 'R')})"


def _entrant_line(entry: Entrant, partner: Entrant | None, checking: bool) -> str:
    name = f"<@{entry.user_id}>" if entry.user_id is not None else entry.display_name
    marks = ""
    if checking:
        marks += " ✅" if entry.checked_in else " ⏳"
    if partner is not None:
        waiting = "" if partner.confirmed else " (to confirm)"
        marks += f" with <@{partner.user_id}>{waiting}"
    return f"• {name}{marks}"


def _signups(event: TournamentEvent) -> str:
    checking = event.phase == "checkin"
    lines: list[str] = []
    by_user = {e.user_id: e for e in event.entrants}
    for entry in event.entrants:
        if event.settings.format == "pairs":
            partner = by_user.get(entry.partner_id)
            if partner is not None and partner.number < entry.number:
                continue  # shown once, on the line of the partner who named them
            lines.append(_entrant_line(entry, partner, checking))
        else:
            lines.append(_entrant_line(entry, None, checking))
    return "\n".join(lines[:40]) or "Nobody yet: press **Join**."


def _standing_line(line: Standing, pairs: bool) -> str:
    mark = _MEDALS.get(line.place, f"{line.place}.")
    names = " & ".join(line.names)
    left = " (left: a computer played on)" if line.replaced else ""
    if pairs:
        return f"{mark} {names}: {line.wins:g} wins, {line.points - line.against:+d}{left}"
    return f"{mark} {names}: {line.points} pts, {line.deals_won} deals won{left}"


def standings_text(event: TournamentEvent, lines: Sequence[Standing]) -> str:
    """The standings, one line each (at most :data:`_LINES`)."""
    pairs = event.settings.format == "pairs"
    shown = [_standing_line(line, pairs) for line in lines[:_LINES]]
    more = len(lines) - len(shown)
    if more > 0:
        shown.append(f"… and {more} more: /euchre tournament standings")
    return "\n".join(shown) or "No results yet."


def event_embed(
    event: TournamentEvent, lines: Sequence[Standing], total_rounds: int
) -> discord.Embed:
    """The event's live message: its settings, who is in, or the standings so far."""
    phase = _PHASES[event.phase] + (" (paused)" if event.paused else "")
    embed = discord.Embed(title=f"🏆 {event.name}", description=f"{_format(event)} · {phase}")
    embed.add_field(name="Starts", value=_when(event.settings.start_time), inline=True)
    embed.add_field(name="Director", value=f"<@{event.director_id}>", inline=True)
    embed.add_field(name="Rated", value="yes" if event.settings.rated else "no", inline=True)
    if event.phase in ("signup", "checkin"):
        people = [e for e in event.entrants if e.user_id is not None]
        embed.add_field(name=f"Signed up ({len(people)})", value=_signups(event), inline=False)
    else:
        played = len(event.rounds)
        title = "Final standings" if event.phase == "finished" else "Standings"
        if event.phase != "finished" and played:
            title += f" after round {played} of {total_rounds}"
        embed.add_field(name=title, value=standings_text(event, lines)[:1024], inline=False)
    embed.set_footer(text=f"Event {event.id}")
    return embed


def event_buttons(event: TournamentEvent) -> list[tuple[EventVerb, str, discord.ButtonStyle]]:
    """The buttons the message shows now: (verb, label, style); none once it has ended."""
    if event.phase in ("finished", "cancelled"):
        return []
    blue, grey, red = (
        discord.ButtonStyle.primary,
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.danger,
    )
    buttons: list[tuple[EventVerb, str, discord.ButtonStyle]] = []
    if event.phase in ("signup", "checkin"):
        buttons.append(("join", "Join", blue))
        if event.settings.format == "pairs":
            buttons.append(("confirm", "Confirm partner", blue))
        buttons.append(("leave", "Leave", grey))
        if event.phase == "checkin":
            buttons.append(("checkin", "Check in", discord.ButtonStyle.success))
        buttons.append(("start", "Start now", discord.ButtonStyle.success))
        people = sum(1 for e in event.entrants if e.user_id is not None)
        if 0 < people < _TABLE:
            buttons.append(("computers", "Start with computers", discord.ButtonStyle.success))
    else:
        buttons.append(("leave", "Leave", grey))
        if event.phase == "between_rounds":
            buttons.append(("next", "Next round", discord.ButtonStyle.success))
        buttons.append(("pause", "Resume" if event.paused else "Pause", grey))
    buttons.append(("cancel", "Cancel", red))
    return buttons


def round_text(event: TournamentEvent, rnd: EventRound, total_rounds: int) -> str:
    """The notice of a round opening."""
    tables = len(rnd.tables)
    return (
        f"🃏 **{event.name}**: round {rnd.number} of {total_rounds} begins at "
        f"{tables} table{'s' if tables != 1 else ''}. Each table plays in its own thread."
    )


def table_ping_text(event: TournamentEvent, rnd: EventRound, number: int, users: list[int]) -> str:
    """The first message of a table's thread, pinging its people."""
    who = " ".join(f"<@{u}>" for u in users)
    return f"🃏 {event.name}, round {rnd.number}, table {number}: {who}, your table is ready."


def champion_text(event: TournamentEvent, champions: Sequence[Standing]) -> str:
    """The final announcement."""
    if not champions:
        return f"🏁 **{event.name}** has finished."
    names = ", ".join(" & ".join(c.names) for c in champions)
    title = "Champions" if len(champions) > 1 or len(champions[0].names) > 1 else "Champion"
    return f"🏆 **{event.name}** has finished. {title}: **{names}**! Congratulations!"


def history_embed(events: Sequence[tuple[TournamentEvent, Sequence[Standing]]]) -> discord.Embed:
    """The server's recent events, newest first, with their winners."""
    embed = discord.Embed(title="🏆 Tournament history")
    lines = []
    for event, champions in events:
        when = discord.utils.format_dt(event.created_at, "d")
        won = ", ".join(" & ".join(c.names) for c in champions)
        outcome = f"won by {won}" if won else _PHASES[event.phase].lower()
        lines.append(f"**{event.id}** {event.name} ({when}): {_format(event)}, {outcome}")
    embed.description = "\n".join(lines) or "No events yet: start one with /euchre tournament new."
    return embed
