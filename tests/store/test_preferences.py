"""Each person's preferences in the store, on both back ends."""

from __future__ import annotations

import pytest

from bot.server.preferences import PREFERENCE_NAMES, Preferences
from bot.store import Database, PreferenceRepo, SettingsError

from .conftest import HOST

ADA, GRACE = HOST, HOST + 1


async def test_a_person_without_a_row_gets_the_defaults(db: Database) -> None:
    prefs = await PreferenceRepo(db).get(ADA)
    assert prefs == Preferences()
    assert prefs.pings == "when_away"
    assert not prefs.play_forced_card and not prefs.four_colour and not prefs.hide_from_web
    assert prefs.updated_at is None


async def test_every_preference_is_kept_across_a_restart(db_url: str) -> None:
    changes = {
        "pings": "never",
        "play_forced_card": True,
        "four_colour": True,
        "hide_from_web": True,
        "review_games": True,
    }
    assert set(changes) == set(PREFERENCE_NAMES)
    async with await Database.open(db_url) as db:
        saved = await PreferenceRepo(db).update(ADA, **changes)
    async with await Database.open(db_url) as db:
        loaded = await PreferenceRepo(db).get(ADA)
        other = await PreferenceRepo(db).get(GRACE)
    assert loaded == saved
    assert loaded.preferences_only() == changes
    assert loaded.updated_at is not None
    assert other == Preferences()


async def test_a_change_keeps_the_other_preferences(db: Database) -> None:
    repo = PreferenceRepo(db)
    await repo.update(ADA, four_colour=True)
    after = await repo.update(ADA, pings="always")
    assert (after.four_colour, after.pings) == (True, "always")
    assert await repo.get(ADA) == after


async def test_a_bad_value_or_name_changes_nothing(db: Database) -> None:
    repo = PreferenceRepo(db)
    before = await repo.update(ADA, pings="always")
    with pytest.raises(SettingsError, match="pings"):
        await repo.update(ADA, pings="sometimes")
    with pytest.raises(SettingsError, match="colour: not a preference"):
        await repo.update(ADA, colour=True)
    assert await repo.get(ADA) == before


async def test_reset_is_the_defaults_again(db: Database) -> None:
    repo = PreferenceRepo(db)
    await repo.update(ADA, hide_from_web=True)
    await repo.reset(ADA)
    assert await repo.get(ADA) == Preferences()
    await repo.reset(GRACE)  # nothing to forget: no error


async def test_hidden_among_names_only_who_hide(db: Database) -> None:
    repo = PreferenceRepo(db)
    await repo.update(ADA, hide_from_web=True)
    await repo.update(GRACE, four_colour=True)
    many = [ADA, GRACE, *range(1, 1200)]
    assert await repo.hidden_among(many) == {ADA}
    assert await repo.hidden_among([]) == frozenset()
    await repo.update(ADA, hide_from_web=False)
    assert await repo.hidden_among(many) == frozenset()


async def test_hidden_among_lists_of_every_length(db: Database) -> None:
    # the ids are padded to a few list lengths: every length still finds exactly the hidden
    repo = PreferenceRepo(db)
    for user_id in (1, 9, 17, 600):
        await repo.update(user_id, hide_from_web=True)
    for n in (1, 2, 8, 9, 16, 17, 300, 500, 501, 601):
        found = await repo.hidden_among(range(1, n + 1))
        assert found == {u for u in (1, 9, 17, 600) if u <= n}, n
