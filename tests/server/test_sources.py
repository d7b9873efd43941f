"""Each server's settings on a real SQLite file: read, changed by whom may, saved whole."""

from __future__ import annotations

import asyncio

import pytest

from bot.players import make_player
from bot.rules import HouseRules
from bot.server.fields import BadValueError, ServerNames, ServerObjects
from bot.server.overrides import table_rules
from bot.server.settings import Editor, NotRulesAdminError, ServerSettings
from bot.server.sources import FixedSettings, SettingsReadOnlyError
from bot.store import Database, GuildSettingsRepo, TableRepo
from bot.store.server_settings import StoredSettings, editable
from bot.tables import Place, Player, TableService
from bot.tables.database import DatabaseTableStore
from tests.sqlite_only import db

__all__ = ["db"]

GUILD = 77
ADMIN = Editor(manage_guild=True)
ROLE = 555555555555555555
MEMBER = Editor(manage_guild=False, role_ids=frozenset({ROLE}))
ROLES = ServerObjects(roles=ServerNames({ROLE: "Rules"}))
DEFAULTS = ServerSettings(tables_in_threads=True, ping_after=0)


async def test_a_change_needs_manage_server_or_the_role(db: Database) -> None:
    server = StoredSettings(db, DEFAULTS)
    with pytest.raises(NotRulesAdminError, match="Manage Server"):
        await server.set_rule(GUILD, MEMBER, "stick_the_dealer", "yes")
    assert (await GuildSettingsRepo(db).get(GUILD)).updated_at is None
    await server.set_setting(GUILD, ADMIN, "rules_admin_role_id", str(ROLE), ROLES)
    change = await server.set_rule(GUILD, MEMBER, "stick_the_dealer", "yes")
    assert change.changed and change.after.stick_the_dealer
    with pytest.raises(NotRulesAdminError, match=f"or the {ROLE} role"):
        await server.use_preset(GUILD, Editor(manage_guild=False), "toronto")
    mentioned = Editor(manage_guild=False, shown_role=lambda role: f"@{role}")
    with pytest.raises(NotRulesAdminError, match=f"or the @{ROLE} role"):
        await server.use_preset(GUILD, mentioned, "toronto")


async def test_the_first_change_keeps_the_configured_defaults(db: Database) -> None:
    server = StoredSettings(db, DEFAULTS)
    before = await server.get(GUILD)
    assert before.tables_in_threads and before.ping_after == 0
    await server.set_rule(GUILD, ADMIN, "target_score", "7")
    after = await server.get(GUILD)
    assert after.updated_at is not None
    assert after.model_dump(exclude={"updated_at", "rules"}) == before.model_dump(
        exclude={"updated_at", "rules"}
    )
    assert after.tables_in_threads and after.ping_after == 0 and after.rules.target_score == 7


async def test_a_refused_change_saves_nothing(db: Database) -> None:
    server = StoredSettings(db, DEFAULTS)
    with pytest.raises(BadValueError, match="doesn't fit the other rules"):
        await server.set_rule(GUILD, ADMIN, "deck", "almonte30")
    with pytest.raises(BadValueError):
        await server.set_setting(GUILD, ADMIN, "turn_time_limit_seconds", "3")
    assert (await GuildSettingsRepo(db).get(GUILD)).updated_at is None


async def test_two_admins_changing_rules_at_once_both_count(db: Database) -> None:
    server = StoredSettings(db, DEFAULTS)
    other = StoredSettings(db, DEFAULTS)
    await asyncio.gather(
        server.set_rule(GUILD, ADMIN, "stick_the_dealer", "yes"),
        other.set_rule(GUILD, ADMIN, "target_score", "7"),
        server.set_rule(GUILD, ADMIN, "partners_best", "yes"),
        other.set_setting(GUILD, ADMIN, "allow_computers", "no"),
    )
    current = await server.get(GUILD)
    assert current.rules == HouseRules().with_changes(
        stick_the_dealer=True, target_score=7, partners_best=True
    )
    assert not current.allow_computers


async def test_resets_touch_only_their_half(db: Database) -> None:
    server = StoredSettings(db, DEFAULTS)
    await server.use_preset(GUILD, ADMIN, "british")
    await server.set_setting(GUILD, ADMIN, "allow_computers", "no")
    await server.reset_rules(GUILD, ADMIN)
    current = await server.get(GUILD)
    assert current.rules == HouseRules() and not current.allow_computers
    await server.use_preset(GUILD, ADMIN, "toronto")
    change = await server.reset_settings(GUILD, ADMIN)
    assert change.changed and change.after.allow_computers and change.after.tables_in_threads
    assert change.after.rules == HouseRules.preset_rules("toronto")


async def test_a_table_keeps_the_rules_it_opened_with(db: Database) -> None:
    server = StoredSettings(db, DEFAULTS)
    tables = TableService(DatabaseTableStore(db), make_player, server_settings=server)
    host = Player(1, "Ada")
    before = await tables.open(Place(GUILD, 10), host)
    await server.use_preset(GUILD, ADMIN, "toronto")
    after = await tables.open(Place(GUILD, 11), host)
    assert before.rules == HouseRules() and after.rules == HouseRules.preset_rules("toronto")
    repo = TableRepo(db)
    assert (await repo.get(before.id)).rules == HouseRules()
    chosen = table_rules(await server.get(GUILD), "british")
    casual = await tables.open(
        Place(GUILD, 12), host, rules=chosen.rules, rules_overridden=chosen.overridden
    )
    assert casual.rules_overridden and (await repo.get(casual.id)).rules_overridden
    restarted = TableService(DatabaseTableStore(db), make_player, server_settings=server)
    restored = {t.id: t for t in await restarted.restore()}
    assert restored[casual.id].rules_overridden and not restored[before.id].rules_overridden


async def test_fixed_settings_read_but_do_not_change() -> None:
    fixed = FixedSettings(ServerSettings(allow_computers=False))
    settings = await fixed.get(GUILD)
    assert not settings.allow_computers and settings.rules == HouseRules()
    with pytest.raises(SettingsReadOnlyError):
        editable(fixed)
