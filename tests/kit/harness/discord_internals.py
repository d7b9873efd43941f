"""Every touch of discord.py's private surface in the tests is in this module.

Private discord.py surface touched (all of it is in this module; written against
discord.py 2.7.1, and the import fails unless discord.py is 2.7.x):

* ``bot._connection`` (the ConnectionState): its ``parsers`` table is how gateway
  events are fed; ``guild_ready_timeout`` is set to 0 while READY is processed;
  for an ``AutoShardedClient``, ``shard_ids`` / ``shard_count`` are set (normally
  done by ``launch_shards``).
* ``discord.webhook.async_.async_context`` (ContextVar holding the webhook
  adapter every interaction response goes through) is set to a recording
  adapter; the default adapter instance's ``request`` is also redirected, so a
  context that does not see the variable still cannot reach the network.
* instance attributes on ``bot.http`` (``request``, ``get_from_cdn``,
  ``ws_connect``, ``connector``) are replaced for the harness' lifetime and
  restored afterwards.
* the event loop's task factory is wrapped to know which tasks a dispatch spawned.

The rest of the harness reaches the bot only through public discord.py API and
through :meth:`_DiscordInternals._feed` and :attr:`_DiscordInternals._state`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Sequence
from typing import Any, Protocol, cast

import aiohttp
import discord
from discord.http import Route
from discord.webhook import async_ as webhook_async

from tests.kit.harness.records import UnexpectedRequestError, _Dispatch
from tests.kit.harness.tasks import _ACTIVE
from tests.kit.payloads import JSON


class _HttpHandler(Protocol):
    """What the webhook adapter asks of the harness: to answer one HTTP call."""

    async def _handle_http(self, route: Route, **kwargs: Any) -> Any: ...


if (discord.version_info.major, discord.version_info.minor) != (2, 7):  # pragma: no cover
    raise RuntimeError(
        f"tests/kit/harness was written against discord.py 2.7 and touches its internals; "
        f"found discord.py {discord.__version__}. Re-check every private access listed in "
        f"the module docstring against the new source, then update this guard."
    )


class _OfflineConnector(aiohttp.BaseConnector):
    """An aiohttp connector that refuses to open any connection."""

    attempts = 0

    async def connect(self, req: Any, traces: Any, timeout: Any) -> Any:
        type(self).attempts += 1
        raise UnexpectedRequestError(f"network access attempted: {req.method} {req.url}")


class _RecordingAdapter(webhook_async.AsyncWebhookAdapter):
    """The webhook adapter every interaction response goes through, answered offline."""

    def __init__(self, harness: _HttpHandler) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._harness = harness

    async def request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: JSON | None = None,
        multipart: list[JSON] | None = None,
        proxy: Any = None,
        proxy_auth: Any = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: JSON | None = None,
    ) -> Any:
        return await self._harness._handle_http(
            route, payload=payload, multipart=multipart, files=files, params=params, webhook=True
        )


class _DiscordInternals:
    """Patch discord.py's HTTP layers and feed its connection state."""

    def _install(self) -> None:
        loop = asyncio.get_running_loop()
        # 1. know which tasks each dispatch spawns
        previous_factory = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
            task: asyncio.Task[Any]
            if previous_factory is not None:
                task = cast(asyncio.Task[Any], previous_factory(loop, coro, **kwargs))
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            owner = self._dispatching
            if owner is None:
                parent = asyncio.current_task(loop)
                owner = self._owners.get(parent) if parent is not None else None
            if owner is not None:
                self._owners[task] = owner
                owner.tasks.append(task)
            return task

        loop.set_task_factory(factory)
        self._restore.append(lambda: loop.set_task_factory(previous_factory))

        # 2. capture ERROR logs
        root = logging.getLogger()
        root.addHandler(self._log_capture)
        self._restore.append(lambda: root.removeHandler(self._log_capture))
        _ACTIVE.append(self)
        self._restore.append(lambda: _ACTIVE.remove(self))

        # 3. REST: every bot.http call is answered here; the session cannot connect
        http = cast(Any, self.bot.http)
        saved_connector = http.connector

        async def request(route: Route, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
            return await self._handle_http(route, files=files, form=form, **kw)

        async def no_network(*args: Any, **kwargs: Any) -> Any:
            raise UnexpectedRequestError(f"network access attempted: {args!r}")

        http.request = request
        http.get_from_cdn = no_network
        http.ws_connect = no_network
        http.connector = _OfflineConnector()

        def undo_http() -> None:
            for name in ("request", "get_from_cdn", "ws_connect"):
                http.__dict__.pop(name, None)
            http.connector = saved_connector

        self._restore.append(undo_http)

        # 4. webhooks: the adapter every interaction response goes through
        self._adapter = _RecordingAdapter(self)
        self._adapter_token = webhook_async.async_context.set(self._adapter)
        default_adapter = contextvars.Context().run(webhook_async.async_context.get)
        saved_request = default_adapter.__dict__.get("request")  # set by an enclosing harness
        cast(Any, default_adapter).request = self._adapter.request

        def undo_adapter() -> None:
            if saved_request is None:
                cast(Any, default_adapter).__dict__.pop("request", None)
            else:
                cast(Any, default_adapter).request = saved_request
            token, self._adapter_token = self._adapter_token, None
            if token is not None:
                try:
                    webhook_async.async_context.reset(token)
                except ValueError:  # closed from another context (e.g. a fixture teardown)
                    old = token.old_value
                    missing = old is contextvars.Token.MISSING
                    webhook_async.async_context.set(default_adapter if missing else old)

        self._restore.append(undo_adapter)

        # 5. see the real Interaction objects
        add_listener = getattr(self.bot, "add_listener", None)
        if add_listener is not None:

            async def on_interaction(interaction: discord.Interaction[Any]) -> None:
                state = self._interactions_by_id.get(interaction.id)
                if state is not None:
                    state.dispatch.interaction = interaction

            self._interaction_listener = on_interaction
            add_listener(on_interaction, "on_interaction")

    @property
    def _state(self) -> Any:
        """The bot's ConnectionState (private in discord.py 2.7: ``Client._connection``)."""
        return self.bot._connection

    def _feed(self, dispatch: _Dispatch, event: str, data: JSON) -> None:
        parser = self._state.parsers[event]
        self._dispatching = dispatch
        try:
            parser(data)
        finally:
            self._dispatching = None

    async def _ready(self) -> _Dispatch:
        state = self._state
        saved_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = 0.0
        shard_count = 1
        if hasattr(state, "shard_ids"):  # AutoShardedConnectionState (launch_shards does this)
            client = cast(Any, self.bot)
            shard_count = client.shard_count or 1
            client.shard_count = shard_count
            state.shard_count = shard_count
            cast(Any, state).shard_ids = list(client.shard_ids or range(shard_count))
            shard_ids = list(cast(Any, state).shard_ids)
        else:
            shard_ids = [0]
        ready = _Dispatch("READY")
        try:
            for shard_id in shard_ids:
                self._feed(
                    ready,
                    "READY",
                    {
                        "v": 10,
                        "user": {**self.bot_user_payload(), "verified": True, "mfa_enabled": False},
                        "guilds": [],
                        "session_id": "harness-session",
                        "resume_gateway_url": "wss://gateway.invalid",
                        "shard": [shard_id, shard_count],
                        "application": {"id": str(self.application_id), "flags": 0},
                    },
                )
            await asyncio.wait_for(self.bot.wait_until_ready(), self.settle_timeout)
            await self._settle([ready])
        finally:
            state.guild_ready_timeout = saved_timeout
        return ready
