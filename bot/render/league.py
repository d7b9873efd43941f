"""How the league looks: standings, a player's stats and history, exports and seasons.

Drawn from the values of :mod:`bot.league` only; names are the display names the
archive kept, marked 🤖 for computer players. Replays are drawn in :mod:`.replays`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from bot.league import (
    Family,
    HistoryEntry,
    HistoryPage,
    PartnerRecord,
    PlayerReport,
    SeasonChange,
    SeatedPlayer,
    Standing,
    Standings,
    StandingsPage,
)
from bot.review.service import AccuracyTrend
from bot.store import LeagueSettings, Season

from .fitting import EMBED_DESCRIPTION, EMBED_TITLE, shorten
from .names import shown
from .panel import Panel
from .teams import COMPUTER_MARK, joined
from .web_links import season_page, web_line

__all__ = [
    "FAMILY_NAMES",
    "MEDALS",
    "SEASON_END_TOP",
    "accuracy_line",
    "export_bytes",
    "export_filename",
    "history_panel",
    "season_ended_panel",
    "season_started_text",
    "settings_panel",
    "standings_panel",
    "stats_panel",
]

MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}

FAMILY_NAMES: Final[dict[Family, str]] = {
    "euchre4": "Four-hand euchre",
    "euchre6": "Six-hand euchre",
    "bid_euchre": "Bid Euchre",
}
"""Each rating family as people call it (the ``family`` choices, the embeds' titles)."""

_OUTCOME_MARKS: Final = {"won": "✅ Won", "lost": "❌ Lost", "tied": "🤝 Tied"}
_RATING_NOTE: Final = "Rating: skill minus 3× its uncertainty (OpenSkill)"
_FIELD_CHARS: Final = 1024
"""The most characters Discord takes in an embed field's value."""
_SHORTEST_NAME: Final = 12
"""A name in a history line is never shortened below this."""

SEASON_END_TOP: Final = 5
"""Places of each family the end-of-season announcement shows."""

_GOLD: Final = "gold"
_BLUE: Final = "blurple"


def _rating(value: float) -> str:
    return f"{value:.1f}"


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "—"


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _date(season: Season) -> str:
    start = f"<t:{int(season.started_at.timestamp())}:d>"
    if season.ended_at is None:
        return f"since {start}"
    return f"{start} to <t:{int(season.ended_at.timestamp())}:d>"


# ---------------------------------------------------------------------- standings


def standings_panel(page: StandingsPage) -> Panel:
    """One page of a season's standings: place, player, rating, games, wins, win rate."""
    season = page.season
    title = "🏆 Standings" + (f" · {season.name}" if season else "")
    title += f" · {FAMILY_NAMES[page.family]}"
    lines = [_standing_line(s) for s in page.rows]
    if not lines:
        if page.unplaced:
            lines.append(f"Nobody has {_plural(page.min_games, 'ranked game')} in this season yet.")
        else:
            lines.append(
                "No ranked games yet. A game is ranked when a person plays every seat "
                "under the server's house rules: finish one and it shows here."
            )
    notes = []
    if season is not None:
        state = "running" if season.running else "ended, standings frozen"
        notes.append(f"{_date(season)} · {state}")
    if page.unplaced:
        who = "player needs" if page.unplaced == 1 else "players need"
        notes.append(
            f"{page.unplaced} more {who} {_plural(page.min_games, 'ranked game')} to be placed."
        )
    description = "\n".join([*lines, "", *notes] if notes else lines)
    panel = Panel(title, description, _GOLD)
    footer = _RATING_NOTE
    if page.pages > 1:
        footer = f"Page {page.page + 1} of {page.pages} · {footer}"
    panel.footer = footer
    return panel


def _standing_line(s: Standing) -> str:
    """A placed player's line: medal or place, name, rating, games, wins, win rate."""
    assert s.place is not None
    place = MEDALS.get(s.place, f"**{s.place}.**")
    return (
        f"{place} {shown(s.name)} — **{_rating(s.rating)}** · "
        f"{_plural(s.games, 'game')} · {_plural(s.wins, 'win')} ({_percent(s.wins, s.games)})"
    )


# ---------------------------------------------------------------------- stats


def _partner(label: str, p: PartnerRecord) -> str:
    together = f"won {p.wins} of {_plural(p.games, 'game')} ({_percent(p.wins, p.games)})"
    return f"{label}: {shown(p.name)} — {together}"


def stats_panel(report: PlayerReport, *, image: str | None = None) -> Panel:
    """A player's season: games, points, deals, loners, partners and rating."""
    s = report.stats
    season = report.season
    title = f"📊 {s.name}" + (f" · {season.name}" if season else "")
    title += f" · {FAMILY_NAMES[report.family]}"
    panel = Panel(title, colour=_BLUE)
    if s.games == 0:
        panel.description = "No finished games in this season yet."
    else:
        tied = f" · {_plural(s.ties, 'tie')}" if s.ties else ""
        panel.add_field(
            name="Games",
            value=(
                f"{_plural(s.games, 'game')} ({s.ranked_games} ranked) · "
                f"{_plural(s.wins, 'win')} · {_plural(s.losses, 'loss', 'losses')}{tied} · "
                f"{_percent(s.wins, s.games)} won"
            ),
            inline=False,
        )
        panel.add_field(
            name="Points",
            value=f"{s.points_for} for · {s.points_against} against",
            inline=False,
        )
        panel.add_field(
            name="Deals",
            value=(
                f"{_plural(s.marches, 'march', 'marches')} · "
                f"{_plural(s.euchres_made, 'euchre')} made · "
                f"{_plural(s.euchres_suffered, 'euchre')} suffered"
            ),
            inline=False,
        )
        panel.add_field(
            name="Going alone",
            value=(
                f"{_plural(s.loners_tried, 'loner')} tried, {s.loners_made} made · "
                f"defended alone {_plural(s.defended_alone, 'time')} "
                f"({_plural(s.lone_defence_euchres, 'euchre')})"
            ),
            inline=False,
        )
        partners = [
            _partner(label, p)
            for label, p in (("Best partner", s.best_partner), ("Worst partner", s.worst_partner))
            if p is not None
        ]
        panel.add_field(
            name="Partners",
            value="\n".join(partners) or "No games with a person as partner yet.",
            inline=False,
        )
    standing = report.standing
    if standing is None:
        rating = "Not rated yet: ranked games (every seat a person) count."
    else:
        if standing.place is None:
            where = " · not placed yet"
        else:
            medal = MEDALS.get(standing.place)
            where = f" · {medal} #{standing.place}" if medal else f" · #{standing.place}"
        rating = (
            f"**{_rating(standing.rating)}** (skill {_rating(standing.mu)} ± "
            f"{_rating(standing.sigma)}){where} · {_plural(standing.games, 'ranked game')}"
        )
    panel.add_field(name="Rating", value=rating, inline=False)
    if report.accuracy is not None and report.accuracy.games:
        panel.add_field(name="Accuracy", value=accuracy_line(report.accuracy), inline=False)
    if image is not None:
        panel.image = image
    return panel


def accuracy_line(trend: AccuracyTrend) -> str:
    """The review's accuracy over time: "**87** over 5 reviewed games · latest: 80 → 91 → 88"."""
    mean = "–" if trend.mean is None else f"{trend.mean:.0f}"
    latest = " → ".join(f"{a:.0f}" for a in trend.latest)
    return (
        f"**{mean}** over {_plural(trend.games, 'reviewed game')}"
        + (f" · latest: {latest}" if latest else "")
        + " · see /euchre review"
    )


# ---------------------------------------------------------------------- history


def _people(players: Sequence[SeatedPlayer], longest: int) -> str:
    names = [f"{p.name} {COMPUTER_MARK}" if p.is_computer else shown(p.name) for p in players]
    return joined([shorten(n, longest) for n in names])


def _history_line(e: HistoryEntry, longest: int) -> str:
    partners = f"with {_people(e.partners, longest)} " if e.partners else ""
    kind = "ranked" if e.ranked else "casual"
    return (
        f"**#{e.number}** · {_OUTCOME_MARKS[e.outcome]} {e.score_for}–{e.score_against} · "
        f"{partners}vs {_people(e.opponents, longest)} · {kind} · "
        f"<t:{int(e.finished_at.timestamp())}:d>"
    )


def history_panel(name: str, page: HistoryPage) -> Panel:
    """A page of a player's games, one line each, newest first.

    Every line fits its share of the description: with many long names at a table
    (eight seats), each name is shortened as far as needed ("…"); the game's replay
    shows them whole.
    """
    panel = Panel(shorten(f"🕘 {name}'s latest games", EMBED_TITLE), colour=_BLUE)
    if not page.entries:
        panel.description = "No finished games on this server yet."
        return panel
    share = EMBED_DESCRIPTION // max(len(page.entries), 1) - 1
    lines = []
    for entry in page.entries:
        longest = max(len(shown(p.name)) + 2 for p in (*entry.partners, *entry.opponents))
        line = _history_line(entry, longest)
        while len(line) > share and longest > _SHORTEST_NAME:
            longest -= 4
            line = _history_line(entry, longest)
        lines.append(line)
    panel.description = "\n".join(lines)
    footer = "See any game again with /euchre replay and its number."
    if page.pages > 1:
        footer = f"Page {page.page + 1} of {page.pages} · {page.games} games · {footer}"
    panel.footer = footer
    return panel


# ---------------------------------------------------------------------- export


def export_filename(number: int) -> str:
    """The name of the exported record of the server's game ``number``."""
    return f"euchre-game-{number}.json"


def export_bytes(record: dict[str, Any]) -> bytes:
    """A game record as the JSON file ``python -m bot.rules replay`` reads."""
    return (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


# ---------------------------------------------------------------------- seasons


def season_started_text(change: SeasonChange, web: str = "") -> str:
    """The announcement of a new season (``web``: the pages' address when the server's are on)."""
    text = f"🏁 Season **{shown(change.started.name)}** has started: everyone starts fresh."
    if change.ended is not None:
        text += f" The standings of **{shown(change.ended.name)}** are frozen in the archive."
        if web:
            url = season_page(web, change.ended.guild_id, change.ended.id)
            text += "\n" + web_line(f"{shown(change.ended.name)}'s final standings", url)
    return text


def season_ended_panel(
    season: Season, finals: Sequence[Standings], top: int = SEASON_END_TOP, *, web: str = ""
) -> Panel:
    """The announcement of a season's end: the leaders of each family that had ranked games.

    One field per family (three at most, far inside Discord's 25 fields and 6000
    characters), each cut to a field's 1024 characters. ``web``: the pages' address
    when the server's are on the web; the season's page is linked then.
    """
    panel = Panel(f"🏁 {season.name} is over · final standings", colour=_GOLD)
    link = ""
    if web:
        link = "\n" + web_line("Every place", season_page(web, season.guild_id, season.id))
    if not finals:
        panel.description = f"{_date(season)} · no ranked games were played in this season." + link
        return panel
    panel.description = (
        f"{_date(season)} · standings frozen. "
        "Every place: `/euchre standings` with the season and the family." + link
    )
    for standings in finals:
        panel.add_field(
            name=f"🏆 {FAMILY_NAMES[standings.family]}",
            value=_fit(_leaders(standings, top), _FIELD_CHARS),
            inline=False,
        )
    panel.footer = _RATING_NOTE
    return panel


def _leaders(standings: Standings, top: int) -> list[str]:
    """A family's first ``top`` places, then how many more are placed or short of games."""
    placed = standings.placed
    lines = [_standing_line(s) for s in placed[:top]]
    if len(placed) > top:
        lines.append(f"…and {len(placed) - top} more placed.")
    short = len(standings.rows) - len(placed)
    if short:
        who = "player" if short == 1 else "players"
        needed = _plural(standings.min_games, "ranked game")
        lines.append(f"{short} {who} had fewer than {needed}, so no place.")
    return lines


def _fit(lines: Sequence[str], limit: int) -> str:
    """``lines`` joined, dropping lines from the end (marked …) until they fit ``limit``."""
    kept = list(lines)
    text = "\n".join(kept)
    while len(text) > limit and len(kept) > 1:
        kept.pop()
        text = "\n".join([*kept, "…"])
    return shorten(text, limit)


def settings_panel(settings: LeagueSettings) -> Panel:
    """The server's league settings."""
    lines = [
        f"Ranked games to be placed in the standings: **{settings.min_games}**",
        "Every game casual: **" + ("yes" if settings.all_casual else "no") + "**",
        "Games under other rules than the server's are ranked: **"
        + ("yes" if settings.rank_custom_rules else "no")
        + "**",
    ]
    return Panel("⚙️ League settings", "\n".join(lines), _BLUE)
