"""/euchre rules and /euchre settings through the real bot, on a real SQLite file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from discord import app_commands

from bot.discord.app import EuchreBot, database_tables
from bot.discord.fields import LIMITS, OFFERS
from bot.render.rules import CHANGED_MARK, PRESET_NAMES, explain, matters
from bot.render.server_config import setting_sentence
from bot.rules import HouseRules, RefusedError
from bot.rules.house_rules import PRESETS
from bot.server.fields import RULE_FIELDS, SETTING_FIELDS, FieldValues
from bot.server.settings import ServerSettings
from bot.settings import Settings
from bot.store import Database, GuildSettingsRepo, TableRepo
from bot.tables import Table
from cogs.euchre import Euchre
from cogs.euchre.server_config import HouseRulesCommands
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness
from tests.kit.harness import FakeGuild, FakeMember, Harness, MemberSpec, Result, StoredMessage
from tests.sqlite_only import db

__all__ = ["db"]

NO_PERMISSION = "needs the Manage Server permission"


@dataclass
class Server:
    h: Harness
    bot: EuchreBot
    db: Database
    guild: FakeGuild

    @property
    def admin(self) -> FakeMember:
        return self.guild.member("admin")

    @property
    def bob(self) -> FakeMember:
        return self.guild.member("bob")

    @property
    def carol(self) -> FakeMember:
        """Has a role of her own (carol-role) and no Manage Server."""
        return self.guild.member("carol")

    async def stored(self) -> ServerSettings:
        return await GuildSettingsRepo(self.db).get(self.guild.id)

    async def rules(self) -> HouseRules:
        return (await self.stored()).rules

    async def set_rule(self, member: FakeMember, rule: str, value: str) -> Result:
        return await self.h.slash(member, "euchre rules set", {"rule": rule, "value": value})

    async def set_setting(self, member: FakeMember, setting: str, value: str) -> Result:
        return await self.h.slash(
            member, "euchre settings set", {"setting": setting, "value": value}
        )

    def table_here(self, channel: str = "table") -> Table:
        table = self.bot.tables.at(self.guild.channels[channel].id)
        assert table is not None
        return table


@pytest.fixture
async def server(db: Database, make_harness: MakeHarness) -> Server:
    settings = Settings(computer_move_delay=0)
    bot = EuchreBot(settings, tables=database_tables(settings, db))
    h = await make_harness(bot)
    guild = h.guild(
        members=[
            ("admin", {"manage_guild": True}),
            "bob",
            MemberSpec("carol", {"priority_speaker": True}),
        ],
        channels=("table", "other"),
    )
    return Server(h, bot, db, guild)


def assert_private(result: Result, *words: str) -> str:
    assert result.ephemeral, result.reply
    for word in words:
        assert word in result.text, result.text
    return result.text


# ---------------------------------------------------------------------- commands


def test_the_mixins_groups_are_subgroups_of_euchre() -> None:
    assert issubclass(Euchre, HouseRulesCommands)
    names = {c.qualified_name for c in Euchre.__cog_app_commands__}
    assert {"rules", "settings", "new", "help"} <= names


async def test_every_command_is_in_the_tree(server: Server) -> None:
    tree = server.bot.tree
    names = {c.qualified_name for c in tree.walk_commands()}
    for command in ("show", "preset", "set", "reset"):
        assert f"euchre rules {command}" in names
    for command in ("show", "set", "reset"):
        assert f"euchre settings {command}" in names
    root = tree.get_command("euchre")
    assert isinstance(root, app_commands.Group)
    assert root.get_command("rules") is not None and root.get_command("new") is not None


async def test_everyone_may_read_the_rules_and_settings(server: Server) -> None:
    shown = assert_private(
        await server.h.slash(server.bob, "euchre rules show"), "This server's house rules"
    )
    assert "North American" in shown and CHANGED_MARK not in shown
    for group in ("Pack", "Bidding", "Going alone", "Play", "Scoring", "Game length"):
        assert group in shown
    settings = assert_private(
        await server.h.slash(server.bob, "euchre settings show"), "This server's settings"
    )
    for name in SETTING_FIELDS:
        assert f"`{name}`" in settings


# ---------------------------------------------------------------------- permission


async def test_a_member_without_permission_is_refused_and_nothing_changes(server: Server) -> None:
    bob = server.bob
    attempts = [
        ("euchre rules set", {"rule": "stick_the_dealer", "value": "yes"}),
        ("euchre rules preset", {"preset": "toronto"}),
        ("euchre rules reset", {}),
        ("euchre settings set", {"setting": "allow_computers", "value": "no"}),
        ("euchre settings set", {"setting": "rules_admin_role_id", "value": "none"}),
        ("euchre settings reset", {}),
    ]
    for command, options in attempts:
        result = await server.h.slash(bob, command, options)
        assert_private(result, NO_PERMISSION)
        assert not [s for s in result.sent if s.public and s.is_message]
    stored = await server.stored()
    assert stored.updated_at is None and stored == ServerSettings()


async def test_the_rules_admin_role_may_change_the_rules(server: Server) -> None:
    carol, bob = server.carol, server.bob
    refused = await server.set_rule(carol, "stick_the_dealer", "yes")
    assert_private(refused, NO_PERMISSION)
    role_id = carol.role_ids[0]

    named = await server.set_setting(server.admin, "rules_admin_role_id", "carol-role")
    assert_private(named, "rules_admin_role_id", f"<@&{role_id}>")
    assert (await server.stored()).rules_admin_role_id == role_id

    allowed = await server.set_rule(carol, "stick_the_dealer", "yes")
    assert_private(allowed, "stick_the_dealer", "yes")
    assert (await server.rules()).stick_the_dealer is True
    refused = await server.set_rule(bob, "stick_the_dealer", "no")
    assert_private(refused, NO_PERMISSION, f"<@&{role_id}>")
    assert (await server.rules()).stick_the_dealer is True

    await server.set_setting(carol, "rules_admin_role_id", "none")
    assert_private(await server.set_rule(carol, "target_score", "11"), NO_PERMISSION)
    assert (await server.rules()).target_score == 10


async def test_a_role_the_server_does_not_have_is_refused(server: Server) -> None:
    result = await server.set_setting(server.admin, "rules_admin_role_id", "no-such-role")
    assert_private(result, "no role of that name", "Nothing was changed")
    result = await server.set_setting(server.admin, "rules_admin_role_id", "<@&123456789012345678>")
    assert_private(result, "no such role")
    assert (await server.stored()).updated_at is None


# ---------------------------------------------------------------------- presets and rules


async def test_an_admin_sets_a_preset_then_single_rules(server: Server) -> None:
    admin, h = server.admin, server.h
    chosen = await h.slash(admin, "euchre rules preset", {"preset": "toronto"})
    assert_private(chosen, "Euchre Toronto", "Tables already open keep their rules")
    assert await server.rules() == HouseRules.preset_rules("toronto")

    changed = await server.set_rule(admin, "stick_the_dealer", "yes")
    text = assert_private(changed, "stick_the_dealer", "**yes**", "it was no")
    assert explain("stick_the_dealer", await server.rules()) in text
    changed = await server.set_rule(admin, "target score", "7")
    assert_private(changed, "target_score", "**7**")
    rules = await server.rules()
    assert rules == HouseRules.preset_rules("toronto").with_changes(
        stick_the_dealer=True, target_score=7
    )

    shown = assert_private(await h.slash(server.bob, "euchre rules show"), "Euchre Toronto")
    assert f"{CHANGED_MARK} {explain('stick_the_dealer', rules)}" in shown
    assert "2 rule(s) changed from Euchre Toronto" in shown

    again = await server.set_rule(admin, "stick_the_dealer", "on")
    assert_private(again, "already", "nothing changed")

    rebased = await server.set_rule(admin, "preset", "british")
    assert_private(rebased, "British", "keeping 2 changed rule(s)")
    assert (await server.rules()).to_spec() == {
        "preset": "british",
        "stick_the_dealer": True,
        "target_score": 7,
    }

    dropped = await h.slash(admin, "euchre rules preset", {"preset": "british"})
    assert_private(dropped, "2 rule(s) changed before were dropped")
    assert await server.rules() == HouseRules.preset_rules("british")

    reset = await h.slash(admin, "euchre rules reset")
    assert_private(reset, "back to the bot's defaults", "North American")
    assert await server.rules() == HouseRules()


def _candidates(name: str, values: FieldValues) -> list[Any]:
    found = values.suggestions("", LIMITS.choices)
    # a bid cannot exceed the tricks of a hand (at most 12)
    big = 5 if name == "bid_minimum" else 33
    return found if values.kind != "int" else [*found, 2, big]


_BASES = [HouseRules.preset_rules(name) for name in PRESETS] + [
    HouseRules(packs=2, joker="joker"),
]


def _playable(rules: HouseRules, name: str, value: Any) -> bool:
    try:
        if name == "preset":
            HouseRules.from_spec({**rules.to_spec(), "preset": value})
        else:
            rules.with_changes(**{name: value})
    except RefusedError:
        return False
    return True


async def _bring_to(server: Server, rules: HouseRules) -> None:
    await server.h.slash(server.admin, "euchre rules preset", {"preset": rules.preset})
    for name in rules.differences_from_preset():
        shown = RULE_FIELDS[name].text(getattr(rules, name))
        assert_private(await server.set_rule(server.admin, name, shown), name)
    assert await server.rules() == rules


async def test_every_rule_field_can_be_set_and_read_back(server: Server) -> None:
    assert list(RULE_FIELDS) == list(HouseRules.model_fields)
    for name in HouseRules.model_fields:
        values = RULE_FIELDS[name]
        tried = 0
        for value in _candidates(name, values):
            current = await server.rules()
            if not _playable(current, name, value):
                base = next((b for b in _BASES if _playable(b, name, value)), None)
                assert base is not None, (name, value)
                await _bring_to(server, base)
            typed = values.text(value)
            result = await server.set_rule(server.admin, name, typed)
            assert_private(result, name, typed)
            rules = await server.rules()
            assert getattr(rules, name) == value, (name, value, result.text)

            shown = (await server.h.slash(server.bob, "euchre rules show")).text
            if name == "preset":
                assert PRESET_NAMES[value] in shown
            elif matters(name, rules) or name in rules.differences_from_preset():
                assert explain(name, rules) in shown, (name, value)
            tried += 1
        assert tried >= len(values.choices) and tried >= 1, name


async def test_bad_values_are_refused_with_the_reason_and_nothing_is_saved(
    server: Server,
) -> None:
    admin = server.admin
    cases = [
        ("target_score", "lots", ["not a number", "a whole number from 1 to 100"]),
        ("target_score", "101", ["the largest it can be is 100"]),
        ("target_score", "7.5", ["whole number"]),
        ("points_super_euchre", "0", ["smallest it can be is 1", "or off"]),
        ("stick_the_dealer", "maybe", ["not yes or no", "takes yes or no"]),
        ("deck", "52", ["not one of its values", "one of 24, 32, almonte30, almonte21"]),
        ("deck", "almonte30", ["doesn't fit the other rules", "for 6 players, not 4"]),
        ("two_bennies", "red_black", ["two packs with joker set to joker", "alike, red_black"]),
        ("stick_dealer", "yes", ["no rule called", "Did you mean stick_the_dealer"]),
    ]
    before = await server.stored()
    for rule, value, words in cases:
        result = await server.set_rule(admin, rule, value)
        assert_private(result, *words)
        if "no rule called" not in words:
            assert "Nothing was changed" in result.text
        assert await server.stored() == before, (rule, value)
    assert before.updated_at is None

    settings_cases = [
        ("turn_time_limit_seconds", "5", ["smallest it can be is 10", "or off"]),
        ("computer_move_delay", "soon", ["not a number", "or default"]),
        ("computer_default_level", "genius", ["one of beginner, basic, expert"]),
        ("allow_robots", "yes", ["no setting called"]),
    ]
    for setting, value, words in settings_cases:
        assert_private(await server.set_setting(admin, setting, value), *words)
        assert await server.stored() == before


# ---------------------------------------------------------------------- tables


async def _playing_table(server: Server, channel: str) -> StoredMessage:
    h, bob = server.h, server.bob
    message = (await h.slash(bob, "euchre new", channel=server.guild.channels[channel])).message
    for _ in range(3):
        await h.click(bob, h.message(message.id), label="Add computer")
    await h.click(bob, h.message(message.id), label="Start")
    assert server.table_here(channel).status == "playing"
    return h.message(message.id)


async def test_a_change_never_reaches_a_table_already_open(server: Server) -> None:
    h, admin = server.h, server.admin
    message = await _playing_table(server, "table")
    table = server.table_here("table")
    old = HouseRules()
    record_before = table.record()

    await h.slash(admin, "euchre rules preset", {"preset": "british"})
    await server.set_rule(admin, "stick_the_dealer", "yes")
    new = HouseRules.preset_rules("british").with_changes(stick_the_dealer=True)
    assert await server.rules() == new

    assert table.rules == old and table.record()["rules"] == record_before["rules"]
    assert (await TableRepo(server.db).get(table.id)).rules == old
    button = await h.click(server.bob, h.message(message.id), label="Rules")
    assert_private(button, f"Rules of table {table.number}", "changed after this table opened")
    assert "North American" in button.text
    both = await h.slash(server.bob, "euchre rules show")
    assert len(both.embeds) == 2 and f"Rules of table {table.number}" in both.text

    restarted = database_tables(server.bot.settings, server.db)
    [restored] = await restarted.restore()
    assert restored.id == table.id and restored.rules == old

    await h.slash(server.bob, "euchre new", channel=server.guild.channels["other"])
    later = server.table_here("other")
    assert later.rules == new and not later.rules_overridden
    assert "British (Cornwall)" in h.last_public_message(server.guild.channels["other"]).text


async def test_a_host_may_change_the_rules_of_one_table(server: Server) -> None:
    h, bob = server.h, server.bob
    opened = await h.slash(
        bob, "euchre new", {"preset": "british", "rules": "stick_the_dealer=yes, target_score 7"}
    )
    table = server.table_here()
    wanted = HouseRules.preset_rules("british").with_changes(stick_the_dealer=True, target_score=7)
    assert table.rules == wanted and table.rules_overridden
    assert "host's rules (casual)" in opened.text
    stored = await TableRepo(server.db).get(table.id)
    assert stored.rules == wanted and stored.rules_overridden
    button = await h.click(bob, opened.message, label="Rules")
    assert_private(button, "The host chose these rules for this table")
    assert await server.rules() == HouseRules()

    plain = await h.slash(server.admin, "euchre new", channel=server.guild.channels["other"])
    assert not server.table_here("other").rules_overridden
    assert "casual" not in plain.text


async def test_host_overrides_are_checked_and_can_be_forbidden(server: Server) -> None:
    h, bob = server.h, server.bob
    bad = await h.slash(bob, "euchre new", {"rules": "deck=almonte30"})
    assert_private(bad, "can't be played together", "No table was opened")
    unknown = await h.slash(bob, "euchre new", {"rules": "sticky=yes"})
    assert_private(unknown, "no rule called")
    assert server.bot.tables.at(server.guild.channel.id) is None

    await server.set_setting(server.admin, "host_may_override_rules", "no")
    refused = await h.slash(bob, "euchre new", {"preset": "toronto"})
    assert_private(refused, "doesn't let a table's host change the rules")
    assert server.bot.tables.open_tables == []
    opened = await h.slash(bob, "euchre new")
    assert not opened.ephemeral and not server.table_here().rules_overridden


# ---------------------------------------------------------------------- settings


async def test_every_setting_can_be_set_and_read_back(server: Server) -> None:
    role_id = server.carol.role_ids[0]
    for name, values in SETTING_FIELDS.items():
        candidates = (
            [role_id, None] if values.kind == "role" else values.suggestions("", LIMITS.choices)
        )
        assert candidates, name
        for value in candidates:
            typed = values.text(value)
            result = await server.set_setting(server.admin, name, typed)
            assert_private(result, name)
            stored = await server.stored()
            assert getattr(stored, name) == value, (name, value, result.text)
            shown = (await server.h.slash(server.bob, "euchre settings show")).text
            assert setting_sentence(name, stored, 0) in shown, (name, value)
    reset = await server.h.slash(server.admin, "euchre settings reset")
    assert_private(reset, "back to its default")
    assert (await server.stored()).allow_computers is True


async def test_a_first_change_keeps_the_configured_defaults(server: Server) -> None:
    before = (await server.h.slash(server.bob, "euchre settings show")).text
    assert "`ping_after` **8**" in before
    await server.set_rule(server.admin, "stick_the_dealer", "yes")
    after = (await server.h.slash(server.bob, "euchre settings show")).text
    assert after == before
    assert (await server.stored()).ping_after == 8


async def test_settings_reach_new_tables(server: Server) -> None:
    h, admin, bob = server.h, server.admin, server.bob
    await server.set_setting(admin, "computer_default_level", "expert")
    message = (await h.slash(bob, "euchre new")).message
    await h.click(bob, message, label="Add computer")
    seat = server.table_here().seats[1]
    assert seat is not None and seat.level == "expert"

    await server.set_setting(admin, "allow_computers", "no")
    refused = await h.click(bob, h.message(message.id), label="Add computer")
    assert_private(refused, "doesn't allow computer players")


# ---------------------------------------------------------------------- autocomplete


async def test_autocomplete_offers_rule_names_with_their_meaning(server: Server) -> None:
    h, bob = server.h, server.bob
    every = await h.autocomplete(bob, "euchre rules set", {"rule": ""}, focused="rule")
    assert len(every.choices) == 25
    stick = await h.autocomplete(bob, "euchre rules set", {"rule": "stick"}, focused="rule")
    assert stick.choices[0]["value"] == "stick_the_dealer"
    assert "the dealer may not pass the second round" in stick.choices[0]["name"]
    alone = await h.autocomplete(bob, "euchre rules set", {"rule": "alone"}, focused="rule")
    assert {"alone_declaration", "defend_alone"} <= {c["value"] for c in alone.choices}
    for choice in every.choices:
        assert len(choice["name"]) <= 100


async def test_autocomplete_offers_the_values_of_the_chosen_rule(server: Server) -> None:
    h, bob = server.h, server.bob

    async def values(rule: str, typed: str = "") -> list[dict[str, Any]]:
        result = await h.autocomplete(
            bob, "euchre rules set", {"rule": rule, "value": typed}, focused="value"
        )
        return result.choices

    decks = await values("deck")
    assert [c["value"] for c in decks] == ["24", "32", "almonte30", "almonte21"]
    assert "(now)" in decks[0]["name"]
    assert "doesn't fit" in decks[2]["name"]
    stick = await values("stick_the_dealer")
    assert [c["value"] for c in stick] == ["yes", "no"]
    assert "Stick the dealer" in stick[0]["name"]
    target = await values("target_score", "1")
    assert target[0]["value"] == "1" and all("1" in c["value"] for c in target)
    assert "11" in [c["value"] for c in target]
    assert await values("no_such_rule") == []
    super_euchre = await values("points_super_euchre")
    assert "off" in [c["value"] for c in super_euchre]


async def test_autocomplete_offers_settings_and_roles(server: Server) -> None:
    h, bob = server.h, server.bob
    names = await h.autocomplete(
        bob, "euchre settings set", {"setting": "thread"}, focused="setting"
    )
    assert names.choices[0]["value"] == "tables_in_threads"
    roles = await h.autocomplete(
        bob,
        "euchre settings set",
        {"setting": "rules_admin_role_id", "value": "car"},
        focused="value",
    )
    assert roles.choices == [
        {
            "name": "@carol-role: may change the rules and settings",
            "value": str(server.carol.role_ids[0]),
        }
    ]
    directors = await h.autocomplete(
        bob,
        "euchre settings set",
        {"setting": "tournament_director_role_id", "value": ""},
        focused="value",
    )
    assert {
        "name": "@carol-role: may direct tournament events",
        "value": str(server.carol.role_ids[0]),
    } in directors.choices
    assert directors.choices[-1] == {
        "name": "none (now): the rules-admins and each event's creator",
        "value": "none",
    }
    delay = await h.autocomplete(
        bob, "euchre settings set", {"setting": "computer_move_delay", "value": ""}, focused="value"
    )
    assert "default (now)" in delay.choices[0]["name"]


def test_every_role_and_channel_setting_says_what_choosing_one_does() -> None:
    objects = {n for n, f in SETTING_FIELDS.items() if f.kind in ("role", "channel")}
    assert objects == set(OFFERS)


async def test_autocomplete_of_a_hosts_rule_changes(server: Server) -> None:
    h, bob = server.h, server.bob
    first = await h.autocomplete(bob, "euchre new", {"rules": "stick"}, focused="rules")
    assert first.choices[0]["value"] == "stick_the_dealer="
    second = await h.autocomplete(
        bob, "euchre new", {"rules": "stick_the_dealer=yes, target_score="}, focused="rules"
    )
    assert "stick_the_dealer=yes, target_score=10" in [c["value"] for c in second.choices]


# ---------------------------------------------------------------------- without a database


async def test_a_bot_without_a_database_shows_rules_but_cannot_change_them(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(build_bot())
    admin = h.guild(members=[("admin", {"manage_guild": True})]).member("admin")
    assert_private(await h.slash(admin, "euchre rules show"), "North American")
    assert_private(await h.slash(admin, "euchre settings show"), "`allow_computers` **yes**")
    refused = await h.slash(admin, "euchre rules set", {"rule": "stick_the_dealer", "value": "yes"})
    assert_private(refused, "without a database")


async def test_a_hosts_rules_also_reach_a_table_in_its_own_thread(server: Server) -> None:
    await server.set_setting(server.admin, "tables_in_threads", "yes")
    opened = await server.h.slash(server.bob, "euchre new", {"preset": "toronto"})
    assert not opened.ephemeral and "thread" in opened.text
    [table] = server.bot.tables.open_tables
    assert table.place.thread_id is not None
    assert table.rules == HouseRules.preset_rules("toronto") and table.rules_overridden


# ------------------------------------------------------------------------------- words


async def test_command_texts_name_commands_as_typed_and_admins_plainly(server: Server) -> None:
    tree = server.bot.tree
    for command in tree.walk_commands():
        assert "Manage Server" not in command.description, command.qualified_name
    preset = tree.get_command("euchre")
    assert isinstance(preset, app_commands.Group)
    rules = preset.get_command("rules")
    assert isinstance(rules, app_commands.Group)
    command = rules.get_command("preset")
    assert isinstance(command, app_commands.Command)
    (option,) = command.parameters
    assert "/euchre rules set" in option.description
    names = [c.name for c in option.choices]
    assert names and all(n.startswith(tuple(PRESET_NAMES.values())) for n in names)
    assert not any("north_american" in n or "Toronto: Euchre Toronto" in n for n in names)
    values = await server.h.autocomplete(
        server.bob, "euchre rules set", {"rule": "preset", "value": ""}, focused="value"
    )
    assert values.choices and all(
        c["name"].startswith(tuple(PRESET_NAMES.values())) for c in values.choices
    )


async def test_settings_show_reads_right_and_help_gives_this_servers_scores(
    server: Server,
) -> None:
    shown = assert_private(await server.h.slash(server.bob, "euchre settings show"))
    assert "After 2 timed-out turns in a row, a computer plays the seat" in shown
    await server.h.slash(server.admin, "euchre rules preset", {"preset": "six_player"})
    rules = await server.rules()
    assert rules.points_march == 3  # not the default 2: the help reads the server's rules
    helped = assert_private(await server.h.slash(server.bob, "euchre help"))
    for words in (
        "/euchre standings",
        "/euchre stats",
        "/euchre history",
        "/euchre replay",
        "/euchre export",
        "/euchre season settings",
        "Take a computer's seat",
        "Take my seat back",
        "Refresh",
        "15 minutes",
        f"{rules.points_march} points for all of them (a **march**)",
        f"{rules.points_lone_march} points for a march played alone (a **loner**)",
        f"**euchred**: the defenders score {rules.points_euchre} points",
        f"to {rules.target_score} wins",
    ):
        assert words in helped, words
