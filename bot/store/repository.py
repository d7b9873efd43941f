"""The base of every repository: the :class:`~bot.store.database.Database` it works on.

A repository is built on an open database (``SeasonRepo(db)``) and keeps nothing but
it, so any number of them may be made for one database, each call its own statement
or transaction.
"""

from __future__ import annotations

from bot.store.database import Database

__all__ = ["Repository"]


class Repository:
    """Reads and writes one part of the store, on one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        """Work on ``db``."""
        self._db = db
