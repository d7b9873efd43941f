"""House rules and settings as a service: typed values, permission, changes on a real SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.players import make_player
from bot.rules import HouseRules
from bot.store import SETTING_NAMES, Database, GuildSettings, GuildSettingsRepo, TableRepo
from bot.tables import FixedPrefs, Place, Player, TablePrefs, TableService
from bot.tables.database import DatabaseTableStore
from bot.tables.house_rules import (
    RULE_FIELDS,
    SETTING_FIELDS,
    BadValueError,
    Editor,
    NotRulesAdminError,
    OverrideNotAllowedError,
    ServerSettings,
    SettingsReadOnlyError,
    UnknownFieldError,
    complete_changes,
    editable,
    find_field,
    match_fields,
    parse_changes,
    settings_of,
    table_rules,
)

GUILD = 77
ADMIN = Editor(manage_guild=True)
ROLE = 555555555555555555
MEMBER = Editor(manage_guild=False, role_ids=frozenset({ROLE}))
DEFAULTS = TablePrefs(tables_in_threads=True, mention_on_turn=True)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "euchre.sqlite3")
    yield database
    await database.close()


# ---------------------------------------------------------------------- typed values


def test_every_rule_and_setting_has_a_way_to_be_typed() -> None:
    assert list(RULE_FIELDS) == list(HouseRules.model_fields)
    assert list(SETTING_FIELDS) == list(SETTING_NAMES)
    for values in [*RULE_FIELDS.values(), *SETTING_FIELDS.values()]:
        assert values.description and values.allowed()


@pytest.mark.parametrize(
    ("name", "typed", "value"),
    [
        ("stick_the_dealer", "Yes", True),
        ("stick_the_dealer", "off", False),
        ("players", "6", 6),
        ("deck", "ALMONTE30", "almonte30"),
        ("target_score", " 11 ", 11),
        ("points_super_euchre", "off", None),
        ("points_super_euchre", "4", 4),
        ("deals_per_game", "none", None),
    ],
)
def test_rule_values_are_read_as_people_type_them(name: str, typed: str, value: object) -> None:
    values = RULE_FIELDS[name]
    parsed = values.parse(typed)
    assert parsed == value and type(parsed) is type(value)
    assert values.parse(values.text(parsed)) == parsed


@pytest.mark.parametrize(
    ("name", "typed", "value"),
    [
        ("turn_time_limit_seconds", "90", 90),
        ("turn_time_limit_seconds", "2m", 120),
        ("turn_time_limit_seconds", "2 minutes", 120),
        ("turn_time_limit_seconds", "off", None),
        ("computer_move_delay", "0.5s", 0.5),
        ("computer_move_delay", "default", None),
        ("computer_default_level", "expert", "expert"),
    ],
)
def test_setting_values_are_read_as_people_type_them(name: str, typed: str, value: object) -> None:
    assert SETTING_FIELDS[name].parse(typed) == value


def test_roles_are_read_by_mention_id_or_name() -> None:
    values = SETTING_FIELDS["rules_admin_role_id"]
    roles = {111111111111111111: "Rules", 222222222222222222: "Mods"}
    assert values.parse("<@&111111111111111111>", roles) == 111111111111111111
    assert values.parse("222222222222222222", roles) == 222222222222222222
    assert values.parse("mods", roles) == 222222222222222222
    assert values.parse("none", roles) is None
    with pytest.raises(BadValueError, match="no such role"):
        values.parse("333333333333333333", roles)
    with pytest.raises(BadValueError, match="several roles"):
        values.parse("mods", {1: "Mods", 2: "mods"})


@pytest.mark.parametrize(
    ("name", "typed", "reason"),
    [
        ("target_score", "0", "the smallest it can be is 1"),
        ("target_score", "nan", "not a number"),
        ("target_score", "1e400", "not a number"),
        ("target_score", "10m", "not a number"),
        ("points_made", "1.5", "whole number"),
        ("packs", "3", "not one of its values"),
        ("joker", "", "not one of its values"),
        ("ace_no_face", "sometimes", "not yes or no"),
    ],
)
def test_a_value_that_does_not_fit_is_refused_with_what_would(
    name: str, typed: str, reason: str
) -> None:
    values = RULE_FIELDS[name]
    with pytest.raises(BadValueError) as caught:
        values.parse(typed)
    assert reason in caught.value.message
    assert f"{name} takes {values.allowed()}" in caught.value.message


def test_allowed_values_in_words() -> None:
    assert RULE_FIELDS["target_score"].allowed() == "a whole number from 1 to 100"
    assert RULE_FIELDS["points_super_euchre"].allowed() == "a whole number from 1 to 50, or off"
    assert RULE_FIELDS["stick_the_dealer"].allowed() == "yes or no"
    assert RULE_FIELDS["players"].allowed() == "one of 4, 6"
    assert SETTING_FIELDS["computer_move_delay"].allowed() == (
        "a number from 0 to 60 (seconds), or default"
    )


def test_names_are_found_loosely_and_matched_by_meaning() -> None:
    assert find_field(RULE_FIELDS, "Stick the dealer", "rule").name == "stick_the_dealer"
    with pytest.raises(UnknownFieldError, match="Did you mean target_score"):
        find_field(RULE_FIELDS, "target_scor", "rule")
    assert match_fields(RULE_FIELDS, "super")[0].name == "points_super_euchre"
    assert "lone_lead" in [f.name for f in match_fields(RULE_FIELDS, "who leads")]
    assert len(match_fields(RULE_FIELDS, "")) == 25


def test_suggestions_start_with_what_was_typed() -> None:
    target = RULE_FIELDS["target_score"]
    assert target.suggestions("13")[0] == 13
    assert target.suggestions("1000") == []
    assert RULE_FIELDS["deck"].suggestions("alm") == ["almonte30", "almonte21"]
    assert RULE_FIELDS["stick_the_dealer"].suggestions("") == [True, False]


# ---------------------------------------------------------------------- a host's rules


def test_a_hosts_changes_are_read_and_checked() -> None:
    assert parse_changes("stick_the_dealer=yes; target score: 7\npartners_best on") == {
        "stick_the_dealer": "yes",
        "target_score": "7",
        "partners_best": "on",
    }
    with pytest.raises(BadValueError, match="isn't a rule change"):
        parse_changes("stick_the_dealer")
    with pytest.raises(BadValueError, match="preset option"):
        parse_changes("preset=toronto")
    settings = GuildSettings(guild_id=GUILD, rules=HouseRules.preset_rules("toronto"))
    same = table_rules(settings)
    assert same.rules == settings.rules and not same.overridden
    assert not table_rules(settings, "toronto").overridden
    chosen = table_rules(settings, "british", "target_score=5")
    assert chosen.overridden
    assert chosen.rules == HouseRules.preset_rules("british").with_changes(target_score=5)
    with pytest.raises(BadValueError, match="can't be played together"):
        table_rules(settings, None, "deck=almonte30")
    closed = settings.model_copy(update={"host_may_override_rules": False})
    with pytest.raises(OverrideNotAllowedError):
        table_rules(closed, None, "target_score=5")


def test_a_hosts_changes_are_completed_piece_by_piece() -> None:
    rules = HouseRules()
    assert complete_changes("stick", rules) == ["stick_the_dealer="]
    assert complete_changes("target_score=5, stick_the_dealer=", rules) == [
        "target_score=5, stick_the_dealer=yes",
        "target_score=5, stick_the_dealer=no",
    ]
    assert complete_changes("nonsense=", rules) == []
    assert all(len(o) <= 100 for o in complete_changes("x" * 95 + ", deck=", rules))


# ---------------------------------------------------------------------- changing them


async def test_a_change_needs_manage_server_or_the_role(db: Database) -> None:
    server = ServerSettings(db, DEFAULTS)
    with pytest.raises(NotRulesAdminError, match="Manage Server"):
        await server.set_rule(GUILD, MEMBER, "stick_the_dealer", "yes")
    assert (await GuildSettingsRepo(db).get(GUILD)).updated_at is None
    await server.set_setting(GUILD, ADMIN, "rules_admin_role_id", str(ROLE), {ROLE: "Rules"})
    change = await server.set_rule(GUILD, MEMBER, "stick_the_dealer", "yes")
    assert change.changed and change.after.stick_the_dealer
    with pytest.raises(NotRulesAdminError, match=f"<@&{ROLE}>"):
        await server.use_preset(GUILD, Editor(manage_guild=False), "toronto")


async def test_the_first_change_keeps_the_configured_defaults(db: Database) -> None:
    server = ServerSettings(db, DEFAULTS)
    before = await server.current(GUILD)
    assert before.tables_in_threads and before.mention_on_turn
    await server.set_rule(GUILD, ADMIN, "target_score", "7")
    after = await server.current(GUILD)
    assert after.updated_at is not None
    assert after.model_dump(exclude={"updated_at", "rules"}) == before.model_dump(
        exclude={"updated_at", "rules"}
    )
    prefs = await server.table_prefs(GUILD)
    assert prefs.tables_in_threads and prefs.mention_on_turn and prefs.rules.target_score == 7


async def test_a_refused_change_saves_nothing(db: Database) -> None:
    server = ServerSettings(db, DEFAULTS)
    with pytest.raises(BadValueError, match="doesn't fit the other rules"):
        await server.set_rule(GUILD, ADMIN, "deck", "almonte30")
    with pytest.raises(BadValueError):
        await server.set_setting(GUILD, ADMIN, "turn_time_limit_seconds", "3")
    assert (await GuildSettingsRepo(db).get(GUILD)).updated_at is None


async def test_two_admins_changing_rules_at_once_both_count(db: Database) -> None:
    server = ServerSettings(db, DEFAULTS)
    other = ServerSettings(db, DEFAULTS)
    await asyncio.gather(
        server.set_rule(GUILD, ADMIN, "stick_the_dealer", "yes"),
        other.set_rule(GUILD, ADMIN, "target_score", "7"),
        server.set_rule(GUILD, ADMIN, "partners_best", "yes"),
        other.set_setting(GUILD, ADMIN, "allow_computers", "no"),
    )
    current = await server.current(GUILD)
    assert current.rules == HouseRules().with_changes(
        stick_the_dealer=True, target_score=7, partners_best=True
    )
    assert not current.allow_computers


async def test_resets_touch_only_their_half(db: Database) -> None:
    server = ServerSettings(db, DEFAULTS)
    await server.use_preset(GUILD, ADMIN, "british")
    await server.set_setting(GUILD, ADMIN, "allow_computers", "no")
    await server.reset_rules(GUILD, ADMIN)
    current = await server.current(GUILD)
    assert current.rules == HouseRules() and not current.allow_computers
    await server.use_preset(GUILD, ADMIN, "toronto")
    change = await server.reset_settings(GUILD, ADMIN)
    assert change.changed and change.after.allow_computers and change.after.tables_in_threads
    assert change.after.rules == HouseRules.preset_rules("toronto")


async def test_a_table_keeps_the_rules_it_opened_with(db: Database) -> None:
    server = ServerSettings(db, DEFAULTS)
    tables = TableService(DatabaseTableStore(db), make_player, prefs=server)
    host = Player(1, "Ada")
    before = await tables.open(Place(GUILD, 10), host)
    await server.use_preset(GUILD, ADMIN, "toronto")
    after = await tables.open(Place(GUILD, 11), host)
    assert before.rules == HouseRules() and after.rules == HouseRules.preset_rules("toronto")
    repo = TableRepo(db)
    assert (await repo.get(before.id)).rules == HouseRules()
    chosen = table_rules(await server.current(GUILD), "british")
    casual = await tables.open(
        Place(GUILD, 12), host, rules=chosen.rules, rules_overridden=chosen.overridden
    )
    assert casual.rules_overridden and (await repo.get(casual.id)).rules_overridden
    restarted = TableService(DatabaseTableStore(db), make_player, prefs=server)
    restored = {t.id: t for t in await restarted.restore()}
    assert restored[casual.id].rules_overridden and not restored[before.id].rules_overridden


async def test_fixed_preferences_read_but_do_not_change() -> None:
    prefs = FixedPrefs(TablePrefs(allow_computers=False))
    settings = await settings_of(prefs, GUILD)
    assert not settings.allow_computers and settings.rules == HouseRules()
    with pytest.raises(SettingsReadOnlyError):
        editable(prefs)
