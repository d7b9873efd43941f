"""The interaction harness (tests/kit/harness) drives a tiny real bot, offline."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.kit.harness import (
    DEFAULT_BOT_PERMISSIONS,
    EPHEMERAL,
    FakeGuild,
    Harness,
    HarnessError,
    HarnessTimeoutError,
    MemberSpec,
    NoResponseError,
    UnexpectedRequestError,
    is_ephemeral,
    visible_text,
)

# --------------------------------------------------------------------------- the demo bot


class Numbered:
    """A dynamic item built again from the number in its custom_id."""

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str], /) -> Any:
        return cls(int(match["n"]))  # type: ignore[call-arg]


class CounterButton(
    Numbered, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:(?P<n>[0-9]+)"
):
    """A stateless counter: its state lives in the custom_id, so it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"demo:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = counter_view(self.n + 1)
        await interaction.response.edit_message(content=f"Count: {self.n + 1}", view=view)


class NoteButton(
    Numbered, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo-note:(?P<n>[0-9]+)"
):
    """Acknowledges with a deferred update, then sends a private follow-up."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Note", custom_id=f"demo-note:{n}"))
        self.n = n

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await interaction.followup.send(f"The count is {self.n}.", ephemeral=True)


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    view.add_item(NoteButton(n))
    return view


class PersistentPanel(discord.ui.View):
    """A persistent view registered with bot.add_view in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Help", custom_id="demo:panel:help")
    async def help(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_message("Panel help.", ephemeral=True)


class JoinView(discord.ui.View):
    """A message-bound view: the first click disables the button and says who joined."""

    def __init__(self) -> None:
        super().__init__(timeout=600)
        self.joined: list[int] = []

    @discord.ui.button(label="Join", custom_id="demo:join")
    async def join(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        self.joined.append(interaction.user.id)
        button.disabled = True
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} joined", view=self
        )


class NameModal(discord.ui.Modal, title="Name the table"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"Table named {self.name.value}", ephemeral=True)


CARDS = ["A♠", "K♠", "Q♠", "J♠", "10♠", "9♠"]


class HandView(discord.ui.View):
    """A private hand: one button per card; playing one announces it publicly."""

    def __init__(self, cards: list[str]) -> None:
        super().__init__(timeout=900)
        self.cards = cards
        for card in cards:
            button: discord.ui.Button[HandView] = discord.ui.Button(
                label=f"Play {card}", custom_id=f"demo:play:{card}"
            )
            button.callback = self.make_callback(card)  # type: ignore[method-assign]
            self.add_item(button)

    def make_callback(self, card: str) -> Any:
        async def callback(interaction: discord.Interaction[Any]) -> None:
            self.cards.remove(card)
            await interaction.response.edit_message(
                content=f"Your hand: {' '.join(self.cards)}", view=HandView(self.cards)
            )
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(f"{interaction.user.display_name} played {card}")

        return callback


class RuleSelect(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="demo:rules",
        placeholder="Pick rules",
        min_values=1,
        max_values=2,
        options=[
            discord.SelectOption(label="Stick the dealer", value="std"),
            discord.SelectOption(label="Canadian loner", value="canadian"),
            discord.SelectOption(label="Farmer's hand", value="farmer"),
        ],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(
            f"Rules: {', '.join(select.values)}", ephemeral=True
        )


class DemoCog(commands.GroupCog, group_name="demo", group_description="Demo commands"):
    settings = app_commands.Group(name="settings", description="Settings")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Say hello in public")
    async def hello(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"Hello, {interaction.user.display_name}!", view=counter_view(1)
        )
        message = await interaction.original_response()
        self.bot.notes["hello_message_id"] = message.id

    @app_commands.command(description="A private hello")
    async def secret(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.user, discord.Member)
        assert isinstance(interaction.channel, discord.TextChannel)
        assert interaction.guild is not None and interaction.guild.me is not None
        await interaction.response.send_message(
            f"Psst {interaction.user.name} in #{interaction.channel.name} of "
            f"{interaction.guild.name}",
            ephemeral=True,
        )

    @app_commands.command(description="Pick a card")
    @app_commands.describe(card="The card", count="How many", target="Give it to")
    async def pick(
        self,
        interaction: discord.Interaction[Any],
        card: str,
        count: app_commands.Range[int, 1, 5] = 1,
        target: discord.Member | None = None,
    ) -> None:
        to = f" for {target.display_name}" if target else ""
        await interaction.response.send_message(f"{count} x {card}{to}", ephemeral=True)

    @pick.autocomplete("card")
    async def pick_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(current)]

    @app_commands.command(description="Think, then answer")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0)
        message = await interaction.followup.send("Done thinking.", wait=True)
        self.bot.notes["slow_followup_id"] = message.id
        extra = await interaction.followup.send("One more thing.", ephemeral=True, wait=True)
        self.bot.notes["slow_extra_flags"] = extra.flags.value

    @app_commands.command(description="Fails")
    async def boom(self, interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("kaboom")

    @app_commands.command(description="Managers only")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def admin(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Admin ok.", ephemeral=True)

    @app_commands.command(description="Post a table in the channel and open a thread")
    async def post(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("Table open", view=JoinView())
        await message.edit(content="Table open (1 seat left)")
        thread = await message.create_thread(name="table-chat")
        await thread.send("Chat here")
        await interaction.followup.send(f"Posted {message.id}", ephemeral=True)

    @app_commands.command(description="Post the persistent panel")
    async def panel(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Panel", view=PersistentPanel())

    @app_commands.command(description="Open a modal")
    async def rename(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Calls a route the fake Discord does not know")
    async def roles(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild is not None
        await interaction.guild.fetch_roles()
        await interaction.response.send_message("unreachable")

    @app_commands.command(description="Never answers")
    async def mute(self, interaction: discord.Interaction[Any]) -> None:
        return

    @app_commands.command(description="Hangs")
    async def hang(self, interaction: discord.Interaction[Any]) -> None:
        await asyncio.Event().wait()

    @app_commands.command(description="Sends in the channel, tolerating failures")
    async def announce(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send("Announcement")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"Cannot post: {exc.text}", ephemeral=True)
            return
        await interaction.response.send_message("Announced.", ephemeral=True)

    @app_commands.command(description="Your private hand")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            "Your hand: A♠ K♠ 9♠", view=HandView(["A♠", "K♠", "9♠"]), ephemeral=True
        )

    @app_commands.command(description="Choose house rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Choose:", view=RuleSelect())

    @app_commands.command(description="A picture of your hand")
    async def picture(self, interaction: discord.Interaction[Any]) -> None:
        file = discord.File(io.BytesIO(b"\x89PNG fake"), filename="hand.png")
        await interaction.response.send_message("Your hand:", file=file, ephemeral=True)

    @app_commands.command(description="Direct message")
    async def dm(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.user.send("A private note")
        await interaction.response.send_message("Check your DMs.", ephemeral=True)

    @settings.command(name="show", description="Show a setting")
    async def settings_show(self, interaction: discord.Interaction[Any], key: str) -> None:
        await interaction.response.send_message(f"{key} = on", ephemeral=True)


class DemoTree(app_commands.CommandTree[Any]):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            text = "You need Manage Server for that."
        else:
            text = f"Error: {getattr(error, 'original', error)}"
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


@app_commands.command(description="Server configuration")
@app_commands.default_permissions(manage_guild=True)
async def configure(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("Configured.", ephemeral=True)


NO_CROWDS = discord.AllowedMentions(everyone=False, roles=False)
"""What the demo bots' text may mention, as Discord's contract in the harness asks."""


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            tree_cls=DemoTree,
            help_command=None,
            allowed_mentions=NO_CROWDS,
        )
        self.notes: dict[str, Any] = {}
        self.setup_ran = False
        self.ready_seen = False

    async def setup_hook(self) -> None:
        await self.add_cog(DemoCog(self))
        self.tree.add_command(configure)
        self.add_view(PersistentPanel())
        self.add_dynamic_items(CounterButton, NoteButton)
        await self.tree.sync()
        self.setup_ran = True

    async def on_ready(self) -> None:
        self.ready_seen = True


class ShardedDemoBot(commands.AutoShardedBot):
    """Like the project's bot: an AutoShardedBot (READY is per shard)."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            tree_cls=DemoTree,
            allowed_mentions=NO_CROWDS,
        )

    async def setup_hook(self) -> None:
        await self.add_cog(DemoCog(self))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
async def h() -> Any:
    async with Harness(DemoBot()) as harness:
        yield harness


@pytest.fixture
def guild(h: Harness) -> FakeGuild:
    return h.guild(members=[("alice", {"manage_guild": True}), "bob"], name="Euchre Club")


# --------------------------------------------------------------------------- start-up


async def test_startup_runs_setup_hook_and_ready_offline(h: Harness) -> None:
    bot = h.bot
    assert isinstance(bot, DemoBot)
    assert bot.setup_ran and bot.is_ready() and bot.ready_seen
    assert bot.user is not None and bot.user.id == h.bot_id
    assert bot.application_id == h.application_id
    assert [s.kind for s in h.sent] == ["login", "login", "sync_commands"]
    synced = h.synced_commands[None]
    assert sorted(c["name"] for c in synced) == ["configure", "demo"]


async def test_guild_create_builds_real_objects(h: Harness, guild: FakeGuild) -> None:
    real = guild.guild
    assert real.name == "Euchre Club" and real.me is not None
    assert guild.channel.name == "table" and isinstance(guild.channel, discord.TextChannel)
    alice = guild.member("alice")
    assert alice.permissions.manage_guild
    assert not guild.member("bob").permissions.manage_guild
    member = alice.discord_member()
    assert member.guild_permissions.manage_guild and member.guild is real


async def test_autosharded_bot_gets_ready() -> None:
    async with Harness(ShardedDemoBot()) as h:
        assert h.bot.is_ready()
        g = h.guild(members=["carol"])
        r = await h.slash(g.member("carol"), "demo secret")
        assert r.ephemeral


# --------------------------------------------------------------------------- slash commands


async def test_public_response_with_original_response(h: Harness, guild: FakeGuild) -> None:
    alice = guild.member("alice")
    r = await h.slash(alice, "demo hello", channel=guild.channel)
    assert not r.ephemeral and r.content == "Hello, Alice!"
    assert r.response_type is discord.InteractionResponseType.channel_message
    assert r.button("Count 1").custom_id == "demo:1"
    assert not r.button(custom_id="demo:1").disabled
    assert h.bot.notes["hello_message_id"] == r.message.id  # type: ignore[attr-defined]
    assert [s.kind for s in r.sent] == ["response", "get_original"]
    assert r.interaction is not None and r.interaction.command is not None
    assert r.interaction.command.qualified_name == "demo hello"
    assert h.last_public_message(guild.channel).id == r.message.id


async def test_ephemeral_response_sees_real_member_channel_guild(
    h: Harness, guild: FakeGuild
) -> None:
    r = await h.slash(guild.member("bob"), "demo secret")
    assert r.ephemeral and is_ephemeral(r.reply) and r.reply.flags & EPHEMERAL
    assert r.content == "Psst bob in #table of Euchre Club"
    assert not list(h.public_payloads()) or all(not s.ephemeral for s in h.public_payloads())
    assert [s.kind for s in h.ephemeral_payloads(guild.member("bob"))] == ["response"]
    with pytest.raises(LookupError):
        h.last_public_message(guild.channel)


async def test_options_subcommand_groups_and_autocomplete(h: Harness, guild: FakeGuild) -> None:
    alice, bob = guild.member("alice"), guild.member("bob")
    r = await h.autocomplete(alice, "demo pick", {"card": "K"}, focused="card")
    assert r.choices == [{"name": "K♠", "value": "K♠"}]
    assert r.response is not None and not r.response.public

    r = await h.slash(alice, "demo pick", {"card": "A♠", "count": 3, "target": bob})
    assert r.content == "3 x A♠ for Bob"
    r = await h.slash(alice, "demo pick", {"card": "9♠"})
    assert r.content == "1 x 9♠"
    r = await h.slash(alice, "demo settings show", {"key": "stick_the_dealer"})
    assert r.content == "stick_the_dealer = on"

    with pytest.raises(LookupError, match="no option"):
        h.build_slash(alice, "demo pick", {"card": "A♠", "colour": "red"})
    with pytest.raises(ValueError, match="requires option"):
        h.build_slash(alice, "demo pick", {})
    with pytest.raises(LookupError, match="no slash command"):
        h.build_slash(alice, "demo nothing")


async def test_ranges_are_enforced_like_discord_does(h: Harness, guild: FakeGuild) -> None:
    with pytest.raises(ValueError, match="not between 1 and 5"):
        await h.slash(guild.member("alice"), "demo pick", {"card": "A♠", "count": 9})


async def test_defer_then_followups(h: Harness, guild: FakeGuild) -> None:
    r = await h.slash(guild.member("alice"), "demo slow")
    assert r.deferred
    assert [s.kind for s in r.sent] == ["defer", "followup", "followup"]
    first, extra = r.replies
    # the first follow-up replaces the public "thinking" message (same id)
    assert first.message_id == r.response.message_id  # type: ignore[union-attr]
    assert not first.ephemeral and first.content == "Done thinking."
    assert r.content == "Done thinking." and not r.ephemeral
    assert extra.ephemeral and extra.message_id != first.message_id
    assert h.bot.notes["slow_followup_id"] == first.message_id  # type: ignore[attr-defined]
    assert h.bot.notes["slow_extra_flags"] & EPHEMERAL  # type: ignore[attr-defined]
    assert not h.message(first.message_id or 0).flags & 128  # no longer loading


async def test_errors_go_to_the_tree_error_handler(h: Harness, guild: FakeGuild) -> None:
    r = await h.slash(guild.member("bob"), "demo boom")
    assert r.ephemeral and r.content == "Error: kaboom"
    assert r.interaction is not None and r.interaction.command_failed


async def test_permission_check_refuses_member_without_it(h: Harness, guild: FakeGuild) -> None:
    refused = await h.slash(guild.member("bob"), "demo admin")
    assert refused.ephemeral and refused.content == "You need Manage Server for that."
    allowed = await h.slash(guild.member("alice"), "demo admin")
    assert allowed.ephemeral and allowed.content == "Admin ok."


async def test_guild_owner_and_administrators_have_every_permission(h: Harness) -> None:
    g = h.guild(
        members=["owner", MemberSpec("root", {"administrator": True}), "pleb"], owner="owner"
    )
    for name in ("owner", "root"):
        r = await h.slash(g.member(name), "demo admin")
        assert r.content == "Admin ok."
    r = await h.slash(g.member("pleb"), "demo admin")
    assert r.content == "You need Manage Server for that."


# --------------------------------------------------------------------------- components


async def test_dynamic_item_click_edits_the_message(h: Harness, guild: FakeGuild) -> None:
    alice, bob = guild.member("alice"), guild.member("bob")
    await h.slash(alice, "demo hello")
    msg = h.last_public_message(guild.channel)

    r = await h.click(bob, msg, custom_id="demo:1")
    assert r.response_type is discord.InteractionResponseType.message_update
    assert not r.ephemeral and r.content == "Count: 2"
    assert r.reply.message_id == msg.id
    assert r.interaction is not None and r.interaction.message is not None
    assert r.interaction.message.id == msg.id  # interaction.message is real
    updated = h.last_public_message(guild.channel)
    assert updated is msg and updated.content == "Count: 2" and updated.edited
    assert updated.button("Count 2").custom_id == "demo:2"
    assert msg.history[0]["content"] == "Hello, Alice!"

    r = await h.click(alice, msg, label="Count 2")
    assert h.last_public_message(guild.channel).content == "Count: 3"

    with pytest.raises(LookupError, match="no component"):
        await h.click(alice, msg, custom_id="demo:1")  # that button is gone


async def test_dynamic_item_deferred_update_then_ephemeral_followup(
    h: Harness, guild: FakeGuild
) -> None:
    await h.slash(guild.member("alice"), "demo hello")
    msg = h.last_public_message(guild.channel)
    r = await h.click(guild.member("bob"), msg, label="Note")
    assert [s.kind for s in r.sent] == ["defer_update", "followup"]
    assert r.ephemeral and r.content == "The count is 1."
    assert h.last_ephemeral(guild.member("bob")).content == "The count is 1."
    assert h.last_public_message(guild.channel).content == "Hello, Alice!"  # untouched


async def test_dynamic_items_survive_a_restart(guild: FakeGuild, h: Harness) -> None:
    await h.slash(guild.member("alice"), "demo hello")
    old = h.last_public_message(guild.channel)
    async with Harness(DemoBot()) as h2:
        g2 = h2.guild(
            members=[MemberSpec("bob", id=guild.member("bob").id)], id=guild.id, name=guild.name
        )
        copy = h2.add_message(g2.channel, like=old)
        r = await h2.click(g2.member("bob"), copy, custom_id="demo:1")
        assert r.content == "Count: 2"


async def test_persistent_view_and_message_bound_view(h: Harness, guild: FakeGuild) -> None:
    alice, bob = guild.member("alice"), guild.member("bob")
    await h.slash(alice, "demo panel")
    panel = h.last_public_message(guild.channel)
    r = await h.click(bob, panel, label="Help")
    assert r.ephemeral and r.content == "Panel help."

    r = await h.slash(alice, "demo post")
    table_id = int(r.content.split()[-1])
    table = h.message(table_id)
    assert table.content == "Table open (1 seat left)"
    kinds = [s.kind for s in r.sent]
    assert kinds == [
        "defer",
        "channel_send",
        "channel_edit",
        "thread_create",
        "channel_send",
        "followup",
    ]
    assert r.ephemeral  # the follow-up inherits the ephemeral defer
    thread = guild.guild.get_thread(table_id)
    assert thread is not None and thread.name == "table-chat"
    assert h.last_public_message(thread).content == "Chat here"

    r = await h.click(bob, table, label="Join")
    assert r.content == "Bob joined"
    assert h.message(table_id).button("Join").disabled
    with pytest.raises(HarnessError, match="disabled"):
        await h.click(alice, table, label="Join")


async def test_ephemeral_messages_only_clickable_by_their_owner(h: Harness) -> None:
    g = h.guild(members=["alice", "bob"])
    await h.slash(g.member("alice"), "demo panel")
    r = await h.click(g.member("alice"), h.last_public_message(g.channel), label="Help")
    with pytest.raises(HarnessError, match="cannot see"):
        await h.click(g.member("bob"), r.message)


async def test_modal_submit(h: Harness, guild: FakeGuild) -> None:
    alice = guild.member("alice")
    r = await h.slash(alice, "demo rename")
    assert r.modal.data["title"] == "Name the table" and not r.modal.public
    r2 = await h.submit_modal(alice, {"demo:name": "Lucky table"})
    assert r2.ephemeral and r2.content == "Table named Lucky table"
    with pytest.raises(HarnessError, match="required"):
        h.build_modal_submit(alice, {}, modal=r)


async def test_concurrent_clicks_are_attributed_to_their_interaction(
    h: Harness, guild: FakeGuild
) -> None:
    alice, bob = guild.member("alice"), guild.member("bob")
    await h.slash(alice, "demo hello")
    msg = h.last_public_message(guild.channel)
    r1, r2 = await asyncio.gather(
        h.click(alice, msg, label="Note"), h.click(bob, msg, label="Note")
    )
    assert r1.content == r2.content == "The count is 1."
    assert {s.user_id for s in r1.sent} == {alice.id}
    assert {s.user_id for s in r2.sent} == {bob.id}


async def test_private_hand_is_played_by_its_owner_only(h: Harness, guild: FakeGuild) -> None:
    alice, bob = guild.member("alice"), guild.member("bob")
    r = await h.slash(alice, "demo hand")
    hand = r.message
    assert hand.ephemeral and hand.visible_to == alice.id
    with pytest.raises(HarnessError, match="cannot see"):
        await h.click(bob, hand, label="Play K♠")

    played = await h.click(alice, hand, label="Play K♠")
    assert played.ephemeral and played.content == "Your hand: A♠ 9♠"
    assert [s.kind for s in played.sent] == ["update", "channel_send"]
    assert h.last_ephemeral(alice) is hand and hand.content == "Your hand: A♠ 9♠"
    assert h.last_public_message(guild.channel).content == "Alice played K♠"
    # what others could see never shows the cards still in the hand
    for sent in h.public_payloads():
        assert "A♠" not in sent.dump() and "9♠" not in sent.dump()
    # the new view is bound to the same message: a second card can be played
    await h.click(alice, hand, label="Play 9♠")
    assert hand.content == "Your hand: A♠"


async def test_select_menu(h: Harness, guild: FakeGuild) -> None:
    alice = guild.member("alice")
    await h.slash(alice, "demo rules")
    msg = h.last_public_message(guild.channel)
    assert msg.select("Pick rules").options[0]["value"] == "std"
    r = await h.select(alice, msg, ["std", "farmer"], placeholder="Pick rules")
    assert r.content == "Rules: std, farmer"
    with pytest.raises(HarnessError, match="not options"):
        await h.select(alice, msg, ["nope"], custom_id="demo:rules")
    with pytest.raises(HarnessError, match=r"takes 1\.\.2 values"):
        await h.select(alice, msg, ["std", "farmer", "canadian"], custom_id="demo:rules")


async def test_direct_messages_are_private(h: Harness, guild: FakeGuild) -> None:
    alice = guild.member("alice")
    r = await h.slash(alice, "demo dm")
    dm = next(s for s in r.sent if s.kind == "channel_send")
    assert dm.content == "A private note" and not dm.public and dm.visible_to == alice.id
    assert h.ephemeral_messages(alice)[0].content == "A private note"
    assert all("private note" not in s.text for s in h.public_payloads())


async def test_files_are_recorded(h: Harness, guild: FakeGuild) -> None:
    r = await h.slash(guild.member("alice"), "demo picture")
    assert r.ephemeral and r.content == "Your hand:"
    assert r.reply.files == [("hand.png", b"\x89PNG fake")]
    assert r.message.payload["attachments"][0]["filename"] == "hand.png"


async def test_default_permissions_hide_commands_like_discord(h: Harness, guild: FakeGuild) -> None:
    with pytest.raises(HarnessError, match="does not show /configure to bob"):
        await h.slash(guild.member("bob"), "configure")
    r = await h.slash(guild.member("alice"), "configure")
    assert r.content == "Configured."


# --------------------------------------------------------------------------- loud failures


async def test_unknown_route_fails_loudly(h: Harness, guild: FakeGuild) -> None:
    with pytest.raises(UnexpectedRequestError, match=r"GET /guilds/\{guild_id\}/roles"):
        await h.slash(guild.member("alice"), "demo roles")


async def test_unanswered_interaction_fails(h: Harness, guild: FakeGuild) -> None:
    with pytest.raises(NoResponseError):
        await h.slash(guild.member("alice"), "demo mute")
    r = await h.slash(guild.member("alice"), "demo mute", expect_response=False)
    assert not r.responded


async def test_hanging_handler_times_out_with_its_stack(h: Harness, guild: FakeGuild) -> None:
    h.settle_timeout = 0.2
    with pytest.raises(HarnessTimeoutError, match="hang"):
        await h.slash(guild.member("alice"), "demo hang")


async def test_logged_errors_fail_unless_allowed() -> None:
    class QuietTree(app_commands.CommandTree[Any]):
        pass  # the default on_error logs the exception

    class Bot(commands.Bot):
        async def setup_hook(self) -> None:
            await self.add_cog(DemoCog(self))  # type: ignore[arg-type]

    bot = Bot(
        command_prefix="!",
        intents=discord.Intents(guilds=True),
        tree_cls=QuietTree,
        allowed_mentions=NO_CROWDS,
    )
    async with Harness(bot) as h:
        g = h.guild(members=["alice"])
        with pytest.raises(HarnessError, match="kaboom"):
            await h.slash(g.member("alice"), "demo boom", expect_response=False)
        r = await h.slash(g.member("alice"), "demo boom", allow_errors=True, expect_response=False)
        assert len(r.errors) == 1 and "kaboom" in repr(r.errors[0].exc_info)


async def test_injected_http_failure(h: Harness, guild: FakeGuild) -> None:
    h.fail_http("POST", "/channels/{channel_id}/messages", status=403, message="Missing Access")
    r = await h.slash(guild.member("alice"), "demo announce")
    assert r.content == "Cannot post: Missing Access"
    assert r.sent[0].status == 403
    r = await h.slash(guild.member("alice"), "demo announce")
    assert r.content == "Announced."


# --------------------------------------------------------------------------- recording


async def test_every_call_is_recorded_and_nothing_reaches_the_network(
    h: Harness, guild: FakeGuild
) -> None:
    alice, bob = guild.member("alice"), guild.member("bob")
    await h.slash(alice, "demo hello")
    await h.slash(bob, "demo secret")
    await h.click(bob, h.last_public_message(guild.channel), label="Note")
    await h.slash(alice, "demo post")

    from tests.kit.harness import _OfflineConnector

    assert _OfflineConnector.attempts == 0
    public = list(h.public_payloads())
    assert all(not s.ephemeral and s.visible_to is None for s in public)
    public_text = "\n".join(s.text for s in public)
    assert "Psst" not in public_text and "The count is" not in public_text
    assert "Hello, Alice!" in public_text and "table-chat" in public_text
    private_text = "\n".join(s.text for s in h.ephemeral_payloads())
    assert "Psst" in private_text and "The count is 1." in private_text
    for s in h.sent:
        assert s.method in ("GET", "POST", "PATCH", "PUT", "DELETE") and s.status == 200


def test_visible_text_covers_embeds_and_components() -> None:
    embed = discord.Embed(title="Trick 3", description="Led: J♥").add_field(name="N", value="9♣")
    embed.set_footer(text="footer")
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Play 10♦", custom_id="x"))
    text = visible_text(
        {"content": "c", "embeds": [embed.to_dict()], "components": view.to_components()}
    )
    for part in ("c", "Trick 3", "Led: J♥", "9♣", "footer", "Play 10♦"):
        assert part in text


async def test_make_harness_fixture(make_harness: Any) -> None:
    h = await make_harness(DemoBot())
    g = h.guild(members=["dora"])
    r = await h.slash(g.member("dora"), "demo secret")
    assert r.ephemeral and r.content.startswith("Psst dora")


# --------------------------------------------------------------------------- permissions


async def test_a_request_the_bots_permissions_forbid_is_refused_and_fails_the_test(
    h: Harness,
) -> None:
    lacking = discord.Permissions(DEFAULT_BOT_PERMISSIONS.value & ~(1 << 14))  # no Embed Links
    g = h.guild(members=["alice"], everyone=lacking, bot_permissions=lacking)
    channel = g.channel
    h.expect_invalid(403)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(embed=discord.Embed(title="A table"))
    assert refused.value.code == 50013
    await channel.send("no embed: allowed")
    assert [s.status for s in h.invalid] == [403]
    with pytest.raises(discord.Forbidden):
        await channel.send(embed=discord.Embed(title="again"))
    with pytest.raises(UnexpectedRequestError, match="answered 403"):
        await h.settle()
        h._check(h._root_dispatch, allow_errors=False, what="the test")
