"""A player's latest games in a line each: result, score, partners and opponents."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from bot.store import ArchivedGame, GameArchiveRepo, GamePlayer

__all__ = [
    "HistoryEntry",
    "HistoryPage",
    "Outcome",
    "SeatedPlayer",
    "history_entry",
    "history_page",
]

Outcome = Literal["won", "lost", "tied"]


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """Someone at the table of an archived game."""

    name: str
    is_computer: bool


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One game from one player's side."""

    game_id: int
    number: int
    """The game's number as people see it (``shown_number``)."""
    finished_at: datetime
    ranked: bool
    outcome: Outcome
    score_for: int
    score_against: int
    partners: tuple[SeatedPlayer, ...]
    opponents: tuple[SeatedPlayer, ...]
    name: str = ""
    """The player's display name at that game."""


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a player's games, newest first."""

    entries: tuple[HistoryEntry, ...]
    page: int
    """0-based."""
    pages: int
    games: int
    """Every game the player played on the server."""


def _seated(p: GamePlayer) -> SeatedPlayer:
    return SeatedPlayer(p.display_name, p.is_computer)


def history_entry(user_id: int, game: ArchivedGame) -> HistoryEntry:
    """The game as ``user_id`` played it; ValueError if they did not."""
    me = next((p for p in game.players if p.user_id == user_id), None)
    if me is None:
        raise ValueError(f"user {user_id} did not play game {game.id}")
    team = me.team
    outcome: Outcome = "tied" if game.winner is None else "won" if game.winner == team else "lost"
    return HistoryEntry(
        game_id=game.id,
        number=game.shown_number,
        finished_at=game.finished_at,
        ranked=game.ranked,
        outcome=outcome,
        score_for=game.score[team],
        score_against=game.score[1 - team],
        partners=tuple(_seated(p) for p in game.players if p.team == team and p is not me),
        opponents=tuple(_seated(p) for p in game.players if p.team != team),
        name=me.display_name,
    )


async def history_page(
    games: GameArchiveRepo, guild_id: int, user_id: int, page: int, size: int
) -> HistoryPage:
    """Page ``page`` (0-based, kept within the pages there are) of a player's games."""
    count = await games.count_by_player(guild_id, user_id)
    pages = max(1, -(-count // size))
    page = min(max(page, 0), pages - 1)
    found = await games.list_by_player(guild_id, user_id, limit=size, offset=page * size)
    return HistoryPage(tuple(history_entry(user_id, g) for g in found), page, pages, count)
