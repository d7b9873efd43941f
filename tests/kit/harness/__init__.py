"""Layer-2 test harness: run the real discord.py machinery offline.

The harness takes a real ``discord.ext.commands.Bot`` (or any ``discord.Client``),
logs it in against a fake Discord that lives in this package, fakes the gateway
READY, builds guilds/channels/members from GUILD_CREATE payloads, and feeds raw
INTERACTION_CREATE payloads to the connection state's parser exactly as the
gateway does. The real command tree, checks, views, dynamic items, modals and
error handlers run. Every HTTP call discord.py makes is recorded in
:attr:`Harness.sent` and answered offline with realistic JSON; an unknown route
fails the test loudly. Each interaction call waits until every task the
dispatch spawned (and their children) has finished, so tests need no sleeps.

Quick tour::

    async with Harness(bot) as h:                     # enters the bot, logs in, READY
        g = h.guild(members=[("alice", {"manage_guild": True}), "bob"])
        alice, bob = g.member("alice"), g.member("bob")
        r = await h.slash(alice, "euchre new", {"points": 10}, channel=g.channel)
        r.ephemeral, r.content, r.embeds, r.components, r.button("Join")
        msg = h.last_public_message(g.channel)
        r2 = await h.click(bob, msg, label="Join")
        h.sent                                        # every recorded HTTP call
        h.public_payloads()                           # every body others could see

Also: ``h.autocomplete(...)`` (``r.choices``), ``h.select(...)``,
``h.submit_modal(...)``, ``h.dispatch(raw_payload)`` with ``h.build_slash`` /
``h.build_component`` (``h.build_forged_component``: its custom_id changed) /
``h.build_modal_submit``, ``h.gateway(event, data)``,
``h.add_message(...)`` (a message from before a restart), ``h.route(...)`` and
``h.fail_http(...)`` to answer or fail a route, ``h.settle()``, and a moderator's
``h.archive_thread(id, locked=...)`` and ``h.delete_channel(id)`` (an archived thread
refuses edits with 50083, as Discord does; a deleted one answers 10003).

Each interaction call raises (a :class:`HarnessError` subclass) when the bot logged
an ERROR (unless ``allow_errors=True``), called a route the fake Discord does not
know, never acknowledged the interaction (unless ``expect_response=False``) or did
not finish within ``settle_timeout``. It also refuses what Discord would refuse:
clicking a disabled or missing component, someone else's ephemeral message, an
option out of range, a command hidden by ``default_permissions``, a channel request
the bot's permissions do not allow (403); a call fails when an answer of 401, 403 or
429 came that the test did not expect (``h.expect_invalid``), or when its interaction
made database round trips worth more than 2.5 s (300 ms each) before its first answer.

Layout, one concern a module (:class:`Harness` is assembled from their mixins):

* ``core``: :class:`Harness`, its state and life (start, close), raw gateway events;
* ``discord_internals``: every touch of discord.py's private surface (listed at its
  top; it refuses a discord.py other than 2.7.x), nowhere else;
* ``tasks``: which tasks each dispatch spawned, settling them, checking for errors;
* ``timing``: the database round trips before an interaction's first answer;
* ``world``: guilds, channels, members; ``messages``: the messages Discord holds;
* ``rest`` and ``webhooks``: the offline fake Discord that records and answers
  every HTTP call; ``records``: what was recorded (:class:`Sent`, :class:`Result`,
  each dispatch's work);
* ``interactions`` and ``commands``: the payloads members send, and dispatching them;
* ``components``: reading components and visible text in payloads.

The Discord payloads themselves come from ``tests/kit/payloads.py``, shared with
the end-to-end fake Discord.
"""

from tests.kit.harness.components import (
    ComponentData,
    find_component,
    find_components,
    visible_text,
    walk_components,
)
from tests.kit.harness.core import Harness
from tests.kit.harness.discord_internals import _OfflineConnector as _OfflineConnector
from tests.kit.harness.records import (
    HarnessError,
    HarnessTimeoutError,
    NoResponseError,
    Result,
    Sent,
    StoredMessage,
    UnexpectedRequestError,
    is_ephemeral,
)
from tests.kit.harness.tasks import default_background as default_background
from tests.kit.harness.world import FakeGuild, FakeMember, MemberSpec
from tests.kit.payloads import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS, EPHEMERAL

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "EPHEMERAL",
    "ComponentData",
    "FakeGuild",
    "FakeMember",
    "Harness",
    "HarnessError",
    "HarnessTimeoutError",
    "MemberSpec",
    "NoResponseError",
    "Result",
    "Sent",
    "StoredMessage",
    "UnexpectedRequestError",
    "find_component",
    "find_components",
    "is_ephemeral",
    "visible_text",
    "walk_components",
]
