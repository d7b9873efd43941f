"""Where each person's preferences are kept, and a change of one as a person types it.

:class:`PreferenceSource` is what the commands and the tables read and change;
:class:`MemoryPreferences` keeps them in the process (a bot without a database); the
database's is ``bot.store.preferences.PreferenceRepo``, above this package.
:class:`KeptPreferences` keeps what another source read, so that the tables, which read
the preferences of everyone seated at each change, wait on the store once a person.
:func:`change_preference` turns what a person typed into a change, or one sentence
saying why not, and changes nothing then.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from .fields import PREFERENCE_FIELDS, find_field
from .preferences import PREFERENCE_NAMES, Preferences
from .settings import FieldsChange

__all__ = [
    "KeptPreferences",
    "MemoryPreferences",
    "PreferenceChange",
    "PreferenceSource",
    "change_preference",
    "reset_preferences",
    "set_preference",
]


class PreferenceSource(Protocol):
    """Where a person's preferences are kept, by their user id."""

    async def get(self, user_id: int) -> Preferences:
        """The person's preferences (the defaults if they set none)."""
        ...

    async def update(self, user_id: int, /, **changes: Any) -> Preferences:
        """Change some preferences by name; the others keep their values."""
        ...

    async def reset(self, user_id: int) -> None:
        """Forget the person's preferences: they are back on the defaults."""
        ...


class MemoryPreferences:
    """Preferences kept in this process only (gone at a restart, like its tables)."""

    def __init__(self) -> None:
        """Start with everyone on the defaults."""
        self._kept: dict[int, Preferences] = {}

    async def get(self, user_id: int) -> Preferences:
        """The person's preferences (the defaults if they set none)."""
        return self._kept.get(user_id) or Preferences()

    async def update(self, user_id: int, /, **changes: Any) -> Preferences:
        """Change some preferences by name; ValueError for an unknown name or a bad value."""
        unknown = sorted(set(changes) - set(PREFERENCE_NAMES))
        if unknown:
            raise ValueError(f"{', '.join(unknown)}: not a preference")
        current = (await self.get(user_id)).preferences_only()
        wanted = Preferences.model_validate({**current, **changes, "updated_at": datetime.now(UTC)})
        self._kept[user_id] = wanted
        return wanted

    async def reset(self, user_id: int) -> None:
        """Forget the person's preferences."""
        self._kept.pop(user_id, None)


KEEP_FOR: Final = 300.0
"""Seconds a person's preferences are kept before they are read again (a change made
through another process shows by then)."""

KEEP_AT_MOST: Final = 20_000
"""People whose preferences are kept at once; the longest kept go first."""


class KeptPreferences:
    """Another source's preferences, each person's kept once read and changed through it.

    A change made through it is kept at once; one made elsewhere (another process) is read
    again after :data:`KEEP_FOR` seconds.
    """

    def __init__(
        self, source: PreferenceSource, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """Keep what ``source`` reads, timed by ``clock``."""
        self.source = source
        self._clock = clock
        self._kept: dict[int, tuple[float, Preferences]] = {}

    @classmethod
    def around(cls, source: PreferenceSource) -> KeptPreferences:
        """``source`` kept (itself, if it keeps already)."""
        return source if isinstance(source, KeptPreferences) else cls(source)

    async def get(self, user_id: int) -> Preferences:
        """The person's preferences: as kept, else read from the source."""
        now = self._clock()
        kept = self._kept.get(user_id)
        if kept is not None and now - kept[0] < KEEP_FOR:
            return kept[1]
        return self._keep(user_id, await self.source.get(user_id), now)

    async def update(self, user_id: int, /, **changes: Any) -> Preferences:
        """Change some preferences by name in the source, and keep the result."""
        return self._keep(user_id, await self.source.update(user_id, **changes), self._clock())

    async def reset(self, user_id: int) -> None:
        """Forget the person's preferences in the source and here."""
        await self.source.reset(user_id)
        self._kept.pop(user_id, None)

    def _keep(self, user_id: int, preferences: Preferences, now: float) -> Preferences:
        self._kept.pop(user_id, None)
        if len(self._kept) >= KEEP_AT_MOST:
            del self._kept[next(iter(self._kept))]
        self._kept[user_id] = (now, preferences)
        return preferences


class PreferenceChange(FieldsChange[Preferences]):
    """A person's preferences before and after a change (``name`` None: all reset)."""

    __slots__ = ()


async def change_preference(
    source: PreferenceSource, user_id: int, name: str, typed: str
) -> PreferenceChange:
    """Set preference ``name`` to the value ``typed`` stands for.

    An unknown name or a value that does not fit is one sentence
    (``UnknownFieldError``, ``BadValueError``) and nothing changes.
    """
    values = find_field(PREFERENCE_FIELDS, name, "preference")
    value = values.parse(typed)
    before = await source.get(user_id)
    if getattr(before, values.name) == value:
        return PreferenceChange(before, before, values.name)
    try:
        after = await source.update(user_id, **{values.name: value})
    except ValueError:  # a stored value that no longer validates, too
        raise values.refuse(typed, "that doesn't fit") from None
    return PreferenceChange(before, after, values.name)


async def set_preference(
    source: PreferenceSource, user_id: int, name: str, value: Any
) -> PreferenceChange:
    """Set preference ``name`` to ``value`` itself (a button's, not typed)."""
    values = PREFERENCE_FIELDS[name]
    return await change_preference(source, user_id, name, values.text(value))


async def reset_preferences(source: PreferenceSource, user_id: int) -> PreferenceChange:
    """Every preference back to its default."""
    before = await source.get(user_id)
    await source.reset(user_id)
    return PreferenceChange(before, Preferences())
