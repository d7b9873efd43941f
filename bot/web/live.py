"""A server's tables in play as everyone at them may see them: never a hidden card.

The web process has no table service: it reads the open tables from the store and
replays each one's saved actions through the rules core, then keeps only the rules
core's public view (:func:`bot.rules.public_view`: no hand, discards and passed cards
masked). Saved actions are only ever appended, so a table's view is the same as long as
its count of saved actions is: :class:`PublicViews` keeps each table's last view with
that count, and a page reads the count (and the actions only when it moved on).

From that view the page shows the seats, the score, trump, the card turned up while the
first round of bidding lasts and the cards of the trick on the table. A person who
hides from the pages sits there as "a player".
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.league import Family, game_family
from bot.rules import HouseRules, RulesError, SeatView, action_from_json, new_game, public_view
from bot.server.preferences import HIDDEN_NAME
from bot.store import Database, PreferenceRepo, StoredTable, TableRepo

from .replay_view import CardView, card_view, trump_words

__all__ = [
    "LIVE_TABLES",
    "LiveSeat",
    "LiveTable",
    "OpenTable",
    "PublicViews",
    "live_table",
    "live_tables",
    "read_live_tables",
    "read_open_tables",
    "seated",
]

log = logging.getLogger(__name__)

LIVE_TABLES: Final = 10
"""Open tables shown on a server's page, newest first."""


@dataclass(frozen=True, slots=True)
class LiveSeat:
    """A seat as the table shows it: who, their team, and what everyone can count."""

    name: str
    computer: bool
    team: int
    dealer: bool
    to_act: bool
    out: bool
    """Sits this deal out (a lone player's partner)."""
    cards: int
    """Cards in hand: a number, never which."""


@dataclass(frozen=True, slots=True)
class LiveTable:
    """An open table's public state: a lobby's seats, or the game as it stands."""

    table_id: int
    number: int
    """The table's number on its server."""
    family: Family
    playing: bool
    seats: tuple[LiveSeat, ...]
    open_seats: int
    deal: int = 0
    score: tuple[int, int] = (0, 0)
    target: int | None = None
    tricks_won: tuple[int, int] = (0, 0)
    trump: str | None = None
    upcard: CardView | None = None
    """The card turned up, while the first round of bidding lasts (euchre only)."""
    trick: tuple[tuple[str, CardView], ...] = ()
    """The trick on the table so far: who (a name) played which card."""


def _names(stored: StoredTable, size: int, hidden: frozenset[int]) -> list[str | None]:
    names: list[str | None] = [None] * size
    for s in stored.seats:
        if s.seat < size:
            names[s.seat] = HIDDEN_NAME if s.user_id in hidden else s.display_name
    return names


def live_table(
    stored: StoredTable, hidden: frozenset[int] = frozenset(), view: SeatView | None = None
) -> LiveTable:
    """The public state of an open table, the people in ``hidden`` as "a player".

    ``view``: the public view of its game, if known (else its actions are replayed).
    RulesError if its actions do not replay.
    """
    rules = stored.rules
    names = _names(stored, rules.players, hidden)
    computers = [s is not None and s.is_computer for s in map(stored.seat, range(rules.players))]
    number = stored.shown_number
    shown = [n or f"Seat {i + 1} (open)" for i, n in enumerate(names)]
    family = game_family(rules)
    open_seats = sum(n is None for n in names)
    if stored.status != "playing":
        seats = tuple(
            LiveSeat(shown[i], computers[i], i % 2, False, False, False, 0)
            for i in range(rules.players)
        )
        return LiveTable(stored.id, number, family, False, seats, open_seats)
    if view is None:
        view = replayed(stored)
    seats = tuple(
        LiveSeat(
            shown[i],
            computers[i],
            i % 2,
            i == view.dealer,
            i == view.turn,
            view.out[i],
            view.hand_counts[i],
        )
        for i in range(rules.players)
    )
    bidding_round_one = view.phase == "bid1" and rules.game != "bid_euchre"
    return LiveTable(
        stored.id,
        number,
        family,
        True,
        seats,
        open_seats,
        deal=view.deal_number,
        score=view.score,
        target=rules.target_score,
        tricks_won=view.tricks_won,
        trump=None if view.trump is None else trump_words(view.trump),
        upcard=card_view(view.upcard) if bidding_round_one else None,
        trick=tuple((shown[seat], card_view(card)) for seat, card in view.trick),
    )


def replayed(stored: StoredTable) -> SeatView:
    """The public view of a table's game, its saved actions replayed; RulesError if they do not."""
    game = new_game(stored.rules, seed=stored.seed)
    for entry in stored.actions:
        game.apply(entry.seat, action_from_json(entry.action)[1])
    return public_view(game)


OpenTable: TypeAlias = tuple[StoredTable, SeatView | None]
"""An open table as stored (actions left out) and its game's public view (None: a lobby)."""

_Key: TypeAlias = tuple[str, HouseRules, int, int]


class PublicViews:
    """Each open table's public view, kept with what it was replayed from.

    Not a page cache: a page still reads every table, its seats and its count of saved
    actions, and a count that moved on replays the table again, so a page shows each
    table exactly as stored. Only the replay of actions already replayed is saved.
    """

    def __init__(self, tables: int = 1_000) -> None:
        """Keep the views of up to ``tables`` tables (the latest ones asked for)."""
        self._tables = tables
        self._views: dict[int, tuple[_Key, SeatView | RulesError]] = {}

    async def read(self, db: Database, guild_id: int) -> list[OpenTable]:
        """The server's open tables the page shows, newest first, each with its view.

        A table that does not replay is left out (logged).
        """
        tables = TableRepo(db)
        out: list[OpenTable] = []
        for stored, saved in await tables.list_open_counted(guild_id, limit=LIVE_TABLES):
            if stored.status != "playing":
                out.append((stored, None))
                continue
            key = (stored.status, stored.rules, stored.seed, saved)
            kept = self._views.get(stored.id)
            if kept is None or kept[0] != key:
                actions = (await tables.load_actions(stored.id))[:saved]
                kept = (key, self._replay(stored.model_copy(update={"actions": actions})))
                self._keep(stored.id, kept)
            view = kept[1]
            if isinstance(view, RulesError):
                log.warning("table %d does not replay for the web page: %s", stored.id, view)
                continue
            out.append((stored, view))
        return out

    @staticmethod
    def _replay(stored: StoredTable) -> SeatView | RulesError:
        try:
            return replayed(stored)
        except RulesError as exc:
            return exc

    def _keep(self, table_id: int, kept: tuple[_Key, SeatView | RulesError]) -> None:
        self._views.pop(table_id, None)
        while len(self._views) >= self._tables:
            del self._views[next(iter(self._views))]
        self._views[table_id] = kept


async def read_live_tables(db: Database, guild_id: int) -> tuple[LiveTable, ...]:
    """A server's open tables, newest first; one that does not replay is left out (logged)."""
    tables = await read_open_tables(db, guild_id)
    people = seated(tables)
    hidden = await PreferenceRepo(db).hidden_among(people) if people else frozenset()
    return live_tables(tables, hidden)


async def read_open_tables(
    db: Database, guild_id: int, views: PublicViews | None = None
) -> list[OpenTable]:
    """The server's open tables the page shows, newest first, each with its public view.

    ``views``: the views kept so far (None: every table replayed now).
    """
    return await (views or PublicViews()).read(db, guild_id)


def seated(tables: Sequence[OpenTable]) -> set[int]:
    """The people seated at these tables."""
    return {s.user_id for t, _ in tables for s in t.seats if s.user_id is not None}


def live_tables(
    tables: Sequence[OpenTable], hidden: frozenset[int] = frozenset()
) -> tuple[LiveTable, ...]:
    """The public state of each table, the people in ``hidden`` as "a player"."""
    return tuple(live_table(stored, hidden, view) for stored, view in tables)
