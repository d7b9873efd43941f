"""Numbers per server: a server's tables, games and events count 1, 2, 3... (schemas 23, 28).

The next number is taken from the server's row of ``guild_counters`` inside the
transaction that writes the table, game or event, so two writes of one server never get
the same number (PostgreSQL holds the row's lock until the transaction ends).
"""

from __future__ import annotations

from typing import Literal

from bot.store.database import Database

__all__ = ["Counted", "next_number"]


Counted = Literal["tables", "games", "events"]
"""What a server numbers: each kind is a column of its ``guild_counters`` row."""


async def next_number(db: Database, guild_id: int, kind: Counted) -> int:
    """The server's next number for a table, game or event; call it in the writing transaction."""
    column = {"tables": "tables", "games": "games", "events": "events"}[kind]
    row = await db.fetch_one(
        f"INSERT INTO guild_counters (guild_id, {column}) VALUES (?, 1) "
        f"ON CONFLICT (guild_id) DO UPDATE SET {column} = guild_counters.{column} + 1 "
        f"RETURNING {column} AS number",
        (guild_id,),
    )
    assert row is not None
    return int(row["number"])
