"""How the league looks: standings, a player's stats and history, replays and exports.

Drawn from the values of :mod:`bot.league` only; names are the display names the
archive kept, marked 🤖 for computer players. Replays show every hand face up: they
are only drawn for finished games.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.league import (
    Family,
    HistoryEntry,
    PartnerRecord,
    PlayerReport,
    ReplayBook,
    ReplayStep,
    SeasonChange,
    SeatedPlayer,
    StandingsPage,
)
from bot.rules import Action
from bot.store import ArchivedGame, LeagueSettings, Season

from .cards import card_text, hand_text, suit_text, trump_text
from .rules import rules_line
from .teams import COMPUTER_MARK, team_mark

__all__ = [
    "FAMILY_NAMES",
    "MEDALS",
    "export_bytes",
    "export_filename",
    "history_embed",
    "replay_embed",
    "season_ended_embed",
    "season_started_text",
    "seat_names",
    "settings_embed",
    "standings_embed",
    "stats_embed",
]

MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}

FAMILY_NAMES: Final[dict[Family, str]] = {
    "euchre4": "Four-hand euchre",
    "euchre6": "Six-hand euchre",
    "bid_euchre": "Bid Euchre",
}
"""Each rating family as people call it (the ``family`` choices, the embeds' titles)."""

_OUTCOME_MARKS: Final = {"won": "✅ Won", "lost": "❌ Lost", "tied": "🤝 Tied"}
_DEAL_WORDS: Final = {
    "made": "made it",
    "march": "marched: every trick",
    "euchred": "were euchred",
    "passed": "everyone passed: the hand was thrown in",
    "redeal": "a hand was thrown in (ace no face)",
    "set": "were set",
    "shot": "shot: every trick",
    "shot_failed": "failed the shoot",
}
_GOLD: Final = discord.Colour.gold()
_BLUE: Final = discord.Colour.blurple()


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


def standings_embed(page: StandingsPage) -> discord.Embed:
    """One page of a season's standings: place, player, rating, games, wins, win rate."""
    season = page.season
    title = "🏆 Standings" + (f" · {season.name}" if season else "")
    title += f" · {FAMILY_NAMES[page.family]}"
    lines = []
    for s in page.rows:
        assert s.place is not None
        place = MEDALS.get(s.place, f"**{s.place}.**")
        lines.append(
            f"{place} {s.name} — **{_rating(s.rating)}** · "
            f"{_plural(s.games, 'game')} · {_plural(s.wins, 'win')} ({_percent(s.wins, s.games)})"
        )
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
    embed = discord.Embed(title=title, description=description, colour=_GOLD)
    footer = "Rating: skill minus 3× its uncertainty (OpenSkill)"
    if page.pages > 1:
        footer = f"Page {page.page + 1} of {page.pages} · {footer}"
    embed.set_footer(text=footer)
    return embed


# ---------------------------------------------------------------------- stats


def _partner(label: str, p: PartnerRecord) -> str:
    together = f"won {p.wins} of {_plural(p.games, 'game')} ({_percent(p.wins, p.games)})"
    return f"{label}: {p.name} — {together}"


def stats_embed(report: PlayerReport, *, image: str | None = None) -> discord.Embed:
    """A player's season: games, points, deals, loners, partners and rating."""
    s = report.stats
    season = report.season
    title = f"📊 {s.name}" + (f" · {season.name}" if season else "")
    title += f" · {FAMILY_NAMES[report.family]}"
    embed = discord.Embed(title=title, colour=_BLUE)
    if s.games == 0:
        embed.description = "No finished games in this season yet."
    else:
        tied = f" · {_plural(s.ties, 'tie')}" if s.ties else ""
        embed.add_field(
            name="Games",
            value=(
                f"{_plural(s.games, 'game')} ({s.ranked_games} ranked) · "
                f"{_plural(s.wins, 'win')} · {_plural(s.losses, 'loss', 'losses')}{tied} · "
                f"{_percent(s.wins, s.games)} won"
            ),
            inline=False,
        )
        embed.add_field(
            name="Points",
            value=f"{s.points_for} for · {s.points_against} against",
            inline=False,
        )
        embed.add_field(
            name="Deals",
            value=(
                f"{_plural(s.marches, 'march', 'marches')} · "
                f"{_plural(s.euchres_made, 'euchre')} made · "
                f"{_plural(s.euchres_suffered, 'euchre')} suffered"
            ),
            inline=False,
        )
        embed.add_field(
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
        embed.add_field(
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
    embed.add_field(name="Rating", value=rating, inline=False)
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    return embed


# ---------------------------------------------------------------------- history


def _people(players: Sequence[SeatedPlayer]) -> str:
    names = [f"{p.name} {COMPUTER_MARK}" if p.is_computer else p.name for p in players]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def history_embed(name: str, entries: Sequence[HistoryEntry]) -> discord.Embed:
    """A player's latest games, one line each."""
    embed = discord.Embed(title=f"🕘 {name}'s latest games", colour=_BLUE)
    if not entries:
        embed.description = "No finished games on this server yet."
        return embed
    lines = []
    for e in entries:
        partners = f"with {_people(e.partners)} " if e.partners else ""
        kind = "ranked" if e.ranked else "casual"
        lines.append(
            f"**#{e.game_id}** · {_OUTCOME_MARKS[e.outcome]} {e.score_for}–{e.score_against} · "
            f"{partners}vs {_people(e.opponents)} · {kind} · "
            f"<t:{int(e.finished_at.timestamp())}:d>"
        )
    embed.description = "\n".join(lines)
    embed.set_footer(text="See any game again with /euchre replay and its number.")
    return embed


# ---------------------------------------------------------------------- replay


def seat_names(game: ArchivedGame) -> list[str]:
    """Each seat's player of an archived game, computers marked."""
    names = ["?"] * len(game.players)
    for p in game.players:
        names[p.seat] = f"{p.display_name} {COMPUTER_MARK}" if p.is_computer else p.display_name
    return names


def _describe(seat: int, action: Action, names: Sequence[str], step: ReplayStep) -> str:
    who = names[seat]
    alone = " alone" if action.alone else ""
    do = action.do
    if do == "pass":
        return f"{who} passed"
    if do == "bid":
        return f"{who} bid {action.tricks}"
    if do == "shoot":
        return f"{who} shot"
    if do == "declare":
        assert action.trump is not None
        return f"{who} named {trump_text(action.trump)}"
    if do == "order_up":
        return f"{who} took it up{alone}" if seat == step.dealer else f"{who} ordered it up{alone}"
    if do == "call":
        assert action.suit is not None
        return f"{who} called {suit_text(action.suit)}{alone}"
    if do == "discard":
        assert action.card is not None
        return f"{who} discarded {card_text(action.card)}"
    if do == "alone":
        return f"{who} went alone"
    if do == "give":
        assert action.card is not None
        return f"{who} passed {card_text(action.card)} to the lone partner"
    if do == "ask":
        assert action.partner is not None
        return f"{who} asked {names[action.partner]} for a card"
    if do == "redeal":
        return f"{who} threw in the hand (ace no face)"
    if do == "swap":
        cards = " ".join(card_text(c) for c in action.cards or ())
        return f"{who} swapped {cards} with the kitty"
    assert action.card is not None
    return f"{who} played {card_text(action.card)}"


def _hands(step: ReplayStep, names: Sequence[str]) -> str:
    lines = []
    for seat, hand in enumerate(step.hands):
        dealer = " (dealer)" if seat == step.dealer else ""
        if step.out[seat]:
            lines.append(f"{team_mark(seat)} {names[seat]}{dealer}: sits out")
            continue
        lines.append(f"{team_mark(seat)} {names[seat]}{dealer}: {hand_text(hand, step.trump)}")
    return "\n".join(lines)


def _deal_result(step: ReplayStep, names: Sequence[str]) -> str:
    assert step.result is not None
    if step.maker is None or step.trump is None:
        return _DEAL_WORDS[step.result].capitalize() + "."
    makers = step.maker % 2
    if step.contract is not None:
        points = " ".join(f"{team_mark(t)} {step.points[t]:+d}" for t in (0, 1))
        return (
            f"{team_mark(makers)} bidders took {step.tricks_won[makers]} and "
            f"{_DEAL_WORDS[step.result]}: {points}."
        )
    winner = makers if step.result in ("made", "march") else 1 - makers
    return (
        f"{team_mark(makers)} makers took {step.tricks_won[makers]} and "
        f"{_DEAL_WORDS[step.result]}: {team_mark(winner)} +{step.points[winner]}."
    )


def replay_embed(game: ArchivedGame, book: ReplayBook, index: int) -> discord.Embed:
    """Step ``index`` of a finished game's replay, every hand face up."""
    step = book.steps[index]
    names = seat_names(game)
    deals = len(book.deal_starts)
    start = book.deal_starts[step.deal]
    end = book.deal_starts[step.deal + 1] if step.deal + 1 < deals else len(book.steps)
    tricks = end - start - 1
    where = f"deal {step.deal + 1} of {deals}"
    where += " · bidding" if step.trick == 0 else f" · trick {step.trick} of {tricks}"
    embed = discord.Embed(title=f"🔁 Game #{game.id} · {where}", colour=_BLUE)
    sides = [
        _people([SeatedPlayer(names[s], False) for s in range(t, len(names), 2)]) for t in (0, 1)
    ]
    teams = " — ".join(f"{team_mark(t)} {sides[t]} **{step.score[t]}**" for t in (0, 1))
    if step.contract is not None or book.rules.game == "bid_euchre":
        facts = [teams, f"Dealer: {names[step.dealer]}"]
    else:
        facts = [teams, f"Dealer: {names[step.dealer]} · upcard {card_text(step.upcard)}"]
    contract = step.contract
    if contract is not None and step.trump is not None:
        bid = "shot" if contract.shoot else f"bid {contract.tricks}"
        facts.append(f"{names[contract.seat]} {bid} · trump **{trump_text(step.trump)}**")
    elif step.trump is not None and step.maker is not None:
        alone = "".join(f" · {names[s]} alone" for s in step.alone)
        facts.append(f"Trump: **{suit_text(step.trump)}**, made by {names[step.maker]}{alone}")
    embed.description = "\n".join(facts)
    title = "Hands as dealt" if step.trick == 0 else f"Hands before trick {step.trick}"
    embed.add_field(name=title, value=_hands(step, names), inline=False)
    if step.trick == 0:
        said = " · ".join(_describe(s, a, names, step) for s, a in step.actions)
        embed.add_field(name="Bidding", value=said or "—", inline=False)
    elif step.trick_play is not None:
        plays = " · ".join(f"{names[s]} {card_text(c)}" for s, c in step.trick_play.plays)
        won = step.tricks_won
        embed.add_field(
            name=f"Trick {step.trick}",
            value=(
                f"{plays}\n{team_mark(step.trick_play.winner)} {names[step.trick_play.winner]} "
                f"took it · tricks {team_mark(0)} {won[0]} · {team_mark(1)} {won[1]}"
            ),
            inline=False,
        )
    if step.result is not None:
        embed.add_field(name="Deal over", value=_deal_result(step, names), inline=False)
    if index == len(book.steps) - 1:
        if book.winner is None:
            final = f"🤝 A tie, {book.score[0]} to {book.score[1]}."
        else:
            w = book.winner
            final = f"🏆 {team_mark(w)} won {book.score[w]} to {book.score[1 - w]}."
        embed.add_field(name="Game over", value=final, inline=False)
    embed.set_footer(text=f"Step {index + 1} of {len(book.steps)} · {rules_line(book.rules)}")
    return embed


# ---------------------------------------------------------------------- export


def export_filename(game_id: int) -> str:
    """The name of a game's exported record."""
    return f"euchre-game-{game_id}.json"


def export_bytes(record: dict[str, Any]) -> bytes:
    """A game record as the JSON file ``python -m bot.rules replay`` reads."""
    return (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


# ---------------------------------------------------------------------- seasons


def season_started_text(change: SeasonChange) -> str:
    """The announcement of a new season."""
    text = f"🏁 Season **{change.started.name}** has started: everyone starts fresh."
    if change.ended is not None:
        text += f" The standings of **{change.ended.name}** are frozen in the archive."
    return text


def season_ended_embed(season: Season, top: StandingsPage) -> discord.Embed:
    """The announcement of a season's end, with its final standings' first page."""
    embed = standings_embed(top)
    embed.title = f"🏁 {season.name} is over · final standings"
    return embed


def settings_embed(settings: LeagueSettings) -> discord.Embed:
    """The server's league settings."""
    lines = [
        f"Ranked games to be placed in the standings: **{settings.min_games}**",
        "Every game casual: **" + ("yes" if settings.all_casual else "no") + "**",
        "Games under other rules than the server's are ranked: **"
        + ("yes" if settings.rank_custom_rules else "no")
        + "**",
    ]
    return discord.Embed(title="⚙️ League settings", description="\n".join(lines), colour=_BLUE)
