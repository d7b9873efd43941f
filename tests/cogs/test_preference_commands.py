"""/euchre me and /euchre privacy through the real bot: private answers, kept per person."""

from __future__ import annotations

from bot.discord.app import EuchreBot, database_tables
from bot.server.fields import PREFERENCE_FIELDS
from bot.server.preferences import Preferences
from bot.settings import Settings
from bot.store import Database, PreferenceRepo
from cogs.euchre import Euchre
from cogs.euchre.preferences import PreferenceCommands
from tests.cogs.euchre_driver import build_bot
from tests.conftest import MakeHarness
from tests.kit.harness import Harness, MemberSpec, Result
from tests.sqlite_only import db

__all__ = ["db"]


def private(result: Result, *words: str) -> str:
    assert result.ephemeral, result.reply
    assert not [s for s in result.sent if s.public and s.is_message]
    for word in words:
        assert word in result.text, result.text
    return result.text


def stored_bot(db: Database) -> EuchreBot:
    settings = Settings(computer_move_delay=0)
    tables = database_tables(settings, db)
    return EuchreBot(settings, tables=tables, preferences=PreferenceRepo(db))


def test_the_commands_are_part_of_euchre() -> None:
    assert issubclass(Euchre, PreferenceCommands)
    names = {c.qualified_name for c in Euchre.__cog_app_commands__}
    assert {"me", "privacy"} <= names


async def test_show_lists_every_preference_privately(make_harness: MakeHarness) -> None:
    h = await make_harness(build_bot())
    alice = h.guild(members=["alice"]).member("alice")
    text = private(await h.slash(alice, "euchre me show"), "Your preferences")
    for name in PREFERENCE_FIELDS:
        assert f"`{name}`" in text
    assert "`pings` **when_away**" in text and "every server" in text


async def test_set_and_reset_change_only_the_person_who_asks(make_harness: MakeHarness) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    guild = h.guild(members=["alice", "bob"])
    alice, bob = guild.member("alice"), guild.member("bob")
    changed = await h.slash(alice, "euchre me set", {"preference": "pings", "value": "never"})
    private(changed, "**pings** is now **never**", "it was when_away", "never mentions you")
    assert (await bot.preferences.get(alice.id)).pings == "never"
    assert await bot.preferences.get(bob.id) == Preferences()
    again = await h.slash(alice, "euchre me set", {"preference": "pings", "value": "Never"})
    private(again, "already", "nothing changed")
    colours = await h.slash(alice, "euchre me set", {"preference": "four colour", "value": "yes"})
    private(colours, "four_colour", "diamonds blue", "🔷", "☘️")
    private(await h.slash(alice, "euchre me reset"), "back to its default")
    assert await bot.preferences.get(alice.id) == Preferences()
    private(await h.slash(alice, "euchre me reset"), "already are the defaults")


async def test_a_bad_value_is_one_sentence_and_changes_nothing(make_harness: MakeHarness) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    alice = h.guild(members=["alice"]).member("alice")
    bad = await h.slash(alice, "euchre me set", {"preference": "pings", "value": "sometimes"})
    text = private(bad, "Can't set pings to 'sometimes'", "Nothing was changed")
    assert text.count(". ") <= 2
    unknown = await h.slash(alice, "euchre me set", {"preference": "colour", "value": "yes"})
    private(unknown, "There's no preference called 'colour'")
    assert await bot.preferences.get(alice.id) == Preferences()


async def test_privacy_hides_and_shows_in_one_word(make_harness: MakeHarness) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    alice = h.guild(members=["alice"]).member("alice")
    hidden = await h.slash(alice, "euchre privacy", {"web": "hide"})
    private(hidden, '"a player"', "/euchre privacy show")
    assert (await bot.preferences.get(alice.id)).hide_from_web
    private(await h.slash(alice, "euchre privacy", {"web": "hide"}), "Nothing changed")
    shown = await h.slash(alice, "euchre privacy", {"web": "show"})
    private(shown, "show your name and page")
    assert not (await bot.preferences.get(alice.id)).hide_from_web


async def test_autocomplete_offers_preferences_and_their_values(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(build_bot())
    alice = h.guild(members=["alice"]).member("alice")
    names = await h.autocomplete(alice, "euchre me set", {"preference": ""}, focused="preference")
    assert [c["value"] for c in names.choices] == list(PREFERENCE_FIELDS)
    forced = await h.autocomplete(
        alice, "euchre me set", {"preference": "forced"}, focused="preference"
    )
    assert forced.choices[0]["value"] == "play_forced_card"
    values = await h.autocomplete(
        alice, "euchre me set", {"preference": "pings", "value": ""}, focused="value"
    )
    assert [c["value"] for c in values.choices] == ["always", "when_away", "never"]
    assert "(now)" in values.choices[1]["name"]
    assert all(len(c["name"]) <= 100 for c in values.choices)
    none = await h.autocomplete(
        alice, "euchre me set", {"preference": "nothing", "value": ""}, focused="value"
    )
    assert none.choices == []


async def test_preferences_are_kept_across_a_restart_and_servers(db: Database) -> None:
    alice_id = 4_000_000_000_000_004
    first = stored_bot(db)
    async with Harness(first) as h:
        alice = h.guild(members=[MemberSpec("alice", id=alice_id)]).member("alice")
        await h.slash(alice, "euchre me set", {"preference": "play_forced_card", "value": "on"})
        await h.slash(alice, "euchre privacy", {"web": "hide"})
    second = stored_bot(db)
    async with Harness(second) as h:
        elsewhere = h.guild(members=[MemberSpec("alice", id=alice_id)], name="Another server")
        shown = await h.slash(elsewhere.member("alice"), "euchre me show")
        private(shown, "`play_forced_card` **yes**", "`hide_from_web` **yes**")
    prefs = await PreferenceRepo(db).get(alice_id)
    assert prefs.play_forced_card and prefs.hide_from_web and not prefs.four_colour
