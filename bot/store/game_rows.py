"""How archived games read back: the games and their seats in one statement, a model each.

``GameArchiveRepo`` (games.py) asks through ``read_games`` with the condition that
picks its games; a read that needs more of a game's row (its record, a rank)
names the extra columns and gets each game with its row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.store._codec import build
from bot.store.database import Database, Row
from bot.store.models import ArchivedGame, GamePlayer

__all__ = ["GAME_COLUMNS", "read_games"]

GAME_COLUMNS: Final = (
    "id, guild_id, number, table_id, ranked, winner, score_0, score_1, started_at, finished_at, "
    "season_id, stopped"
)
"""The columns of ``games`` an ``ArchivedGame`` is built from."""


async def read_games(
    db: Database,
    where: str,
    params: Sequence[Any],
    *,
    newest_first: bool = False,
    limit: int | None = None,
    offset: int = 0,
    source: str = "games",
    extra: str = "",
    extra_params: Sequence[Any] = (),
) -> list[tuple[ArchivedGame, Row]]:
    """The games of ``source`` that ``where`` picks, each with its players and its row.

    One statement: the games, joined to their seats (a game's first row holds the
    ``extra`` columns too), so the games and their players are read as one state.
    """
    order = "DESC" if newest_first else ""
    page = ""
    paged: tuple[int, ...] = ()
    if limit is not None:
        page = " LIMIT ? OFFSET ?"
        paged = (limit, offset)
    rows = await db.fetch_all(
        f"SELECT g.*, {_SEAT_COLUMNS} FROM "
        f"(SELECT {GAME_COLUMNS}{extra} FROM {source} WHERE {where} "
        f"ORDER BY id {order}{page}) AS g "
        f"LEFT JOIN game_players p ON p.game_id = g.id ORDER BY g.id {order}, p.seat",
        (*extra_params, *params, *paged),
    )
    out: list[tuple[ArchivedGame, Row]] = []
    if not rows:
        return out
    # by position: a name is looked up along the row's columns each time
    names = list(rows[0].keys())
    game_at = [names.index(name) for name in _GAME_FIELDS]
    seat_at = [names.index(name) for name in _SEAT_FIELDS]
    game_id, seat = names.index("id"), names.index("seat")
    first = rows[0]
    seats: list[Row] = []
    for row in rows:
        if row[game_id] != first[game_id]:
            out.append((_game(first, seats, game_at, seat_at), first))
            first, seats = row, []
        if row[seat] is not None:
            seats.append(row)
    out.append((_game(first, seats, game_at, seat_at), first))
    return out


_GAME_FIELDS: Final = tuple(c.strip() for c in GAME_COLUMNS.split(","))
_SEAT_FIELDS: Final = (
    "seat",
    "team",
    "user_id",
    "is_computer",
    "computer_level",
    "display_name",
)
_SEAT_COLUMNS: Final = ", ".join(f"p.{c}" for c in _SEAT_FIELDS)


def _game(
    row: Row, seats: Sequence[Row], game_at: Sequence[int], seat_at: Sequence[int]
) -> ArchivedGame:
    """A game from its joined rows; ``game_at`` and ``seat_at``: where each field's column is."""
    fields = {name: row[at] for name, at in zip(_GAME_FIELDS, game_at, strict=True)}
    where = f"game {fields['id']}"
    fields["score"] = (fields.pop("score_0"), fields.pop("score_1"))
    fields["players"] = [
        build(
            GamePlayer,
            f"{where} seat {p[seat_at[0]]}",
            {name: p[at] for name, at in zip(_SEAT_FIELDS, seat_at, strict=True)},
        )
        for p in seats
    ]
    return build(ArchivedGame, where, fields)
