"""Per-server house rules and settings."""

from __future__ import annotations

import pytest

from bot.rules import HouseRules
from bot.server.settings import SETTING_NAMES, ServerSettings
from bot.store import CorruptDataError, Database, GuildSettingsRepo, SettingsError

from .conftest import GUILD, sql


async def test_a_server_without_a_row_gets_the_defaults(db: Database) -> None:
    settings = await GuildSettingsRepo(db).get(GUILD)
    assert settings == ServerSettings()
    assert settings.rules == HouseRules.preset_rules("north_american")
    assert settings.updated_at is None
    assert settings.computer_move_delay is None
    assert settings.turn_time_limit_seconds is None


async def test_rules_round_trip_and_survive_a_restart(db_url: str) -> None:
    rules = HouseRules.preset_rules("british").with_changes(target_score=7, stick_the_dealer=True)
    async with await Database.open(db_url) as db:
        saved = await GuildSettingsRepo(db).set_rules(GUILD, rules)
        assert saved.rules == rules
    async with await Database.open(db_url) as db:
        assert (await GuildSettingsRepo(db).get(GUILD)).rules == rules
    stored = (await sql(db_url, "SELECT rules FROM guild_settings"))[0]["rules"]
    assert stored == '{"preset":"british","target_score":7,"stick_the_dealer":true}'


async def test_every_setting_round_trips(db_url: str) -> None:
    changes = {
        "tables_in_threads": True,
        "turn_time_limit_seconds": 300,
        "allow_computers": False,
        "host_may_override_rules": False,
        "ping_after": 30.0,
        "computer_move_delay": 0.25,
        "rules_admin_role_id": 2**62,
        "tournament_director_role_id": 2**62 + 9,
        "computer_default_level": "expert",
        "timeouts_before_computer": 3,
        "allow_seat_takeover": False,
        "allow_hints": False,
        "watchers_see_hands": False,
        "web_public": True,
        "daily_hour": 7,
        "daily_channel": 2**62 + 5,
    }
    assert set(changes) == set(SETTING_NAMES)
    async with await Database.open(db_url) as db:
        updated = await GuildSettingsRepo(db).update(GUILD, **changes)
    async with await Database.open(db_url) as db:
        loaded = await GuildSettingsRepo(db).get(GUILD)
    assert loaded == updated
    assert loaded.model_dump(include=set(changes)) == changes


async def test_rules_and_settings_change_independently(db: Database) -> None:
    repo = GuildSettingsRepo(db)
    toronto = HouseRules.preset_rules("toronto")
    await repo.update(GUILD, ping_after=0)
    await repo.set_rules(GUILD, toronto)
    await repo.update(GUILD, computer_move_delay=2.0)
    settings = await repo.get(GUILD)
    assert settings.rules == toronto
    assert settings.ping_after == 0
    assert settings.computer_move_delay == 2.0
    assert (await repo.get(GUILD + 1)) == ServerSettings()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"turn_time_limit_seconds": 3}, "turn_time_limit_seconds"),
        ({"computer_move_delay": -1}, "computer_move_delay"),
        ({"computer_default_level": "godlike"}, "computer_default_level"),
        ({"rules_admin_role_id": 0}, "rules_admin_role_id"),
        ({"colour": "blue"}, "colour: not a server setting"),
        ({"rules": {}}, "set_rules"),
        ({"guild_id": 5}, "guild_id: not a server setting"),
    ],
)
async def test_bad_settings_are_refused_and_change_nothing(
    db: Database, changes: dict[str, object], message: str
) -> None:
    repo = GuildSettingsRepo(db)
    before = await repo.update(GUILD, ping_after=0)
    with pytest.raises(SettingsError, match=message):
        await repo.update(GUILD, allow_computers=False, **changes)
    assert await repo.get(GUILD) == before


async def test_reset_goes_back_to_the_defaults(db: Database) -> None:
    repo = GuildSettingsRepo(db)
    await repo.update(GUILD, allow_computers=False)
    await repo.reset(GUILD)
    assert await repo.get(GUILD) == ServerSettings()


async def test_stored_rules_that_no_longer_validate_are_a_clear_error(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        await GuildSettingsRepo(db).update(GUILD, ping_after=0)
    await sql(db_url, 'UPDATE guild_settings SET rules = \'{"preset":"toronto","deck":"99"}\'')
    async with await Database.open(db_url) as db:
        repo = GuildSettingsRepo(db)
        with pytest.raises(
            CorruptDataError, match=f"guild {GUILD} settings: .*deck.*set them again"
        ):
            await repo.get(GUILD)
        with pytest.raises(CorruptDataError):
            await repo.update(GUILD, allow_computers=False)
        fixed = await repo.set_rules(GUILD, HouseRules())
        assert fixed.rules == HouseRules()
        assert fixed.ping_after == 0
        assert fixed.allow_computers is True
