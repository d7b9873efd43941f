"""Each person's preferences (the ``preferences`` table), kept across every server.

A row holds :class:`~bot.server.preferences.Preferences`: one column per preference,
named as the model's fields (``PREFERENCE_NAMES``). A person with no row has the
defaults. :class:`PreferenceRepo` is the stored
:class:`~bot.server.preference_sources.PreferenceSource`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from bot.server.preferences import PREFERENCE_NAMES, Preferences
from bot.store._codec import build, changed, check_names, row_dict, time_text, time_value
from bot.store.repository import Repository

__all__ = ["PreferenceRepo"]

_COLUMNS: Final = ", ".join(PREFERENCE_NAMES)
_SLOTS: Final = ", ".join("?" for _ in PREFERENCE_NAMES)
_UPSERT: Final = (
    f"INSERT INTO preferences (user_id, {_COLUMNS}, updated_at) VALUES (?, {_SLOTS}, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in (*PREFERENCE_NAMES, "updated_at"))
)
_CHUNK: Final = 500
"""Ids per ``IN (...)`` list, well under SQLite's limit on bound parameters."""


class PreferenceRepo(Repository):
    """Read and change a person's preferences."""

    async def get(self, user_id: int) -> Preferences:
        """The person's preferences; the defaults when they never set one.

        Raises CorruptDataError when a stored value no longer validates.
        """
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS}, updated_at FROM preferences WHERE user_id = ?", (user_id,)
        )
        if row is None:
            return Preferences()
        fields = row_dict(row)
        fields["updated_at"] = time_value(fields["updated_at"])
        return build(Preferences, f"user {user_id} preferences", fields)

    async def update(self, user_id: int, /, **changes: Any) -> Preferences:
        """Change some preferences by name; the others keep their values.

        Raises SettingsError naming the preference for an unknown name or a bad value;
        nothing is changed then.
        """
        check_names(changes, PREFERENCE_NAMES, "a preference", "the preferences")
        async with self._db.transaction():
            current = (await self.get(user_id)).preferences_only()
            now = self._db.now()
            wanted = changed(Preferences, {**current, **changes, "updated_at": now})
            values = tuple(getattr(wanted, name) for name in PREFERENCE_NAMES)
            await self._db.execute(_UPSERT, (user_id, *values, time_text(now)))
        return wanted

    async def reset(self, user_id: int) -> None:
        """Forget the person's preferences: they are back on the defaults."""
        await self._db.execute("DELETE FROM preferences WHERE user_id = ?", (user_id,))

    async def hidden_among(self, user_ids: Iterable[int]) -> frozenset[int]:
        """Which of ``user_ids`` hide from the public web pages."""
        ids = sorted(set(user_ids))
        hidden: set[int] = set()
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            # a few list lengths, so the statement is prepared once each, not per length
            size = min(_CHUNK, max(8, 1 << (len(chunk) - 1).bit_length()))
            chunk += chunk[-1:] * (size - len(chunk))
            slots = ", ".join("?" for _ in chunk)
            rows = await self._db.fetch_all(
                f"SELECT user_id FROM preferences WHERE hide_from_web AND user_id IN ({slots})",
                chunk,
            )
            hidden.update(int(row["user_id"]) for row in rows)
        return frozenset(hidden)
