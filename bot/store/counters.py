"""Numbers per server: a server's tables and finished games count 1, 2, 3... (schema 23).

The next number is taken from the server's row of ``guild_counters`` inside the
transaction that writes the table or game, so two writes of one server never get the
same number (PostgreSQL holds the row's lock until the transaction ends).
"""

from __future__ import annotations

from typing import Literal

from bot.store.database import Database

__all__ = ["next_number"]


async def next_number(db: Database, guild_id: int, kind: Literal["tables", "games"]) -> int:
    """The server's next number for a table or a game; call it in the writing transaction."""
    column = {"tables": "tables", "games": "games"}[kind]
    row = await db.fetch_one(
        f"INSERT INTO guild_counters (guild_id, {column}) VALUES (?, 1) "
        f"ON CONFLICT (guild_id) DO UPDATE SET {column} = guild_counters.{column} + 1 "
        f"RETURNING {column} AS number",
        (guild_id,),
    )
    assert row is not None
    return int(row["number"])
