"""Sending interactions as members: components, modals and raw payloads.

The INTERACTION_CREATE payloads Discord would send for a component or a modal,
refused where Discord would refuse them, and :meth:`_Interactions.dispatch`, which
feeds one and waits for its handlers.

Slash commands and autocomplete are in :mod:`tests.kit.harness.commands`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from tests.kit import payloads
from tests.kit.harness.components import ComponentData, find_component, find_components
from tests.kit.harness.records import (
    HarnessError,
    NoResponseError,
    Result,
    Sent,
    StoredMessage,
    _Dispatch,
    _snowflake_str,
)
from tests.kit.harness.webhooks import _InteractionState
from tests.kit.harness.world import FakeMember
from tests.kit.payloads import DEFAULT_BOT_PERMISSIONS, JSON, clone


class _Interactions:
    """Build and dispatch interactions: components, modals, raw payloads."""

    def _resolve_channel(self, user: FakeMember, channel: Any) -> int:
        if channel is None:
            return next(iter(user.guild.channel_ids.values()))
        cid = int(_snowflake_str(channel))
        if cid not in self._channels:
            raise LookupError(f"the fake Discord has no channel {cid}")
        if self._channel_guild.get(cid) is not user.guild:
            raise HarnessError(f"{user!r} is not in the guild of channel {cid}")
        return cid

    def _resolve_user(self, user: FakeMember | discord.abc.Snowflake | int) -> FakeMember:
        if isinstance(user, FakeMember):
            return user
        uid = int(_snowflake_str(user))
        try:
            return self._users[uid]
        except KeyError:
            raise LookupError(f"the fake Discord has no user {uid}") from None

    def _interaction_payload(
        self,
        itype: int,
        user: FakeMember,
        channel_id: int,
        data: JSON,
        *,
        message: StoredMessage | None = None,
        locale: str = "en-US",
    ) -> JSON:
        guild = user.guild
        iid = self.next_id()
        channel = clone(self._channels[channel_id])
        perms = user.permissions
        channel["permissions"] = str(perms.value)
        bot_perms = guild.permissions_for(guild.me) if guild.me else DEFAULT_BOT_PERMISSIONS
        return payloads.interaction(
            iid,
            application_id=self.application_id,
            itype=itype,
            data=data,
            guild_id=guild.id,
            channel=channel,
            member_data=user.member_payload(permissions=True),
            token=f"harness-interaction-token-{iid}",
            app_permissions=bot_perms.value,
            locale=locale,
            message_data=message.payload if message is not None else None,
        )

    async def dispatch(
        self,
        payload: JSON,
        *,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Feed a raw INTERACTION_CREATE payload and wait until its handlers finish.

        Raises :class:`HarnessError` subclasses when the bot logged an ERROR (unless
        ``allow_errors``), called an unknown route, never acknowledged the interaction
        (unless ``expect_response=False``) or did not finish within ``settle_timeout``.
        """
        iid = int(payload["id"])
        user_data = payload.get("member", {}).get("user") or payload.get("user") or {}
        message_id = (payload.get("message") or {}).get("id")
        dispatch = _Dispatch(f"interaction {iid}", interaction_id=iid, payload=payload)
        state = _InteractionState(
            id=iid,
            token=payload["token"],
            type=int(payload["type"]),
            user_id=int(user_data.get("id", 0)),
            channel_id=int(payload.get("channel_id") or payload.get("channel", {}).get("id", 0)),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            dispatch=dispatch,
            message_id=int(message_id) if message_id else None,
            created_at=self._now(),
        )
        self._interactions[state.token] = state
        self._unforgotten.append(state.dispatch)
        self._interactions_by_id[iid] = state
        self._feed(dispatch, "INTERACTION_CREATE", payload)
        await self._settle([dispatch])
        result = Result(dispatch, self)
        self._check(dispatch, allow_errors=allow_errors, what=f"interaction {iid}")
        if expect_response and state.response_type is None:
            raise NoResponseError(
                f"the bot never acknowledged interaction {iid} "
                f"({json.dumps(payload.get('data'))[:200]}); recorded: {dispatch.sent!r}"
            )
        return result

    def _target_message(self, user: FakeMember, message: Any) -> StoredMessage:
        stored = self.message(message)
        if stored.deleted:
            raise HarnessError(f"{stored!r} was deleted")
        if stored.visible_to is not None and stored.visible_to != user.id:
            raise HarnessError(f"{user.name} cannot see {stored!r} (it is private to someone else)")
        guild = self._channel_guild.get(stored.channel_id)
        if guild is not None and guild is not user.guild:
            raise HarnessError(f"{user.name} is not in the guild of {stored!r}")
        return stored

    def build_component(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        values: Sequence[Any] | None = None,
        force: bool = False,
    ) -> JSON:
        """The INTERACTION_CREATE payload (type 3) for using a component of ``message``.

        The component is looked up in the message's current payload (so it must exist),
        and a disabled one is refused unless ``force``.
        """
        user = self._resolve_user(user)
        stored = self._target_message(user, message)
        kinds = (2,) if values is None else (3, 5, 6, 7, 8)
        if custom_id is None and label is None:
            candidates = find_components(stored.components, type=kinds)
            if len(candidates) != 1:
                raise LookupError(
                    f"say which component (custom_id= or label=); {stored!r} has {candidates}"
                )
            comp = candidates[0]
        else:
            comp = find_component(stored.components, custom_id=custom_id, label=label, type=kinds)
        if comp.custom_id is None:
            raise HarnessError(f"{comp!r} has no custom_id (a link button?): it cannot be used")
        if comp.disabled and not force:
            raise HarnessError(f"{comp!r} is disabled: Discord would not let {user.name} use it")
        data: JSON = {"custom_id": comp.custom_id, "component_type": comp.type}
        if "id" in comp:
            data["id"] = comp["id"]
        if values is not None:
            data["values"] = self._encode_select_values(comp, values, user, data)
        return self._interaction_payload(3, user, stored.channel_id, data, message=stored)

    def build_forged_component(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        forged: str,
        *,
        custom_id: str | None = None,
        label: str | None = None,
    ) -> JSON:
        """The payload of a click on a button of ``message`` whose custom_id a client changed
        to ``forged``, in the click and in the message's copy of the button: a forged id, or
        a button the message no longer shows. Discord passes on whatever a client sends."""
        payload = self.build_component(user, message, custom_id=custom_id, label=label)
        shown = payload["data"]["custom_id"]
        payload["data"]["custom_id"] = forged
        for row in payload["message"]["components"]:
            for child in row.get("components", []):
                if child.get("custom_id") == shown:
                    child["custom_id"] = forged
        return payload

    def _encode_select_values(
        self, comp: ComponentData, values: Sequence[Any], user: FakeMember, data: JSON
    ) -> list[str]:
        low, high = int(comp.raw.get("min_values", 1)), int(comp.raw.get("max_values", 1))
        if not low <= len(values) <= high:
            raise HarnessError(f"{comp!r} takes {low}..{high} values, not {len(values)}")
        if comp.type == 3:
            allowed = [o["value"] for o in comp.options]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} are not options of {comp!r}: {allowed}")
            return [str(v) for v in values]
        resolved: JSON = {}
        encoded: list[str] = []
        for value in values:
            if comp.type in (5, 7) and (
                isinstance(value, FakeMember) or int(_snowflake_str(value)) in self._users
            ):
                target = self._resolve_user(value)
                resolved.setdefault("users", {})[str(target.id)] = target.user_payload()
                resolved.setdefault("members", {})[str(target.id)] = target.member_payload(
                    permissions=True, user=False
                )
                encoded.append(str(target.id))
            elif comp.type == 8:
                cid = int(_snowflake_str(value))
                channel = clone(self._channels[cid])
                channel["permissions"] = str(user.permissions.value)
                resolved.setdefault("channels", {})[str(cid)] = channel
                encoded.append(str(cid))
            else:
                rid = int(_snowflake_str(value))
                role = next(r for r in user.guild.roles if int(r["id"]) == rid)
                resolved.setdefault("roles", {})[str(rid)] = role
                encoded.append(str(rid))
        data["resolved"] = resolved
        return encoded

    async def click(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        force: bool = False,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Click a button of ``message`` (by ``custom_id`` or ``label``; the only one if neither)."""
        payload = self.build_component(user, message, custom_id=custom_id, label=label, force=force)
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )

    async def select(
        self,
        user: FakeMember,
        message: StoredMessage | Sent | int,
        values: Sequence[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        force: bool = False,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Pick ``values`` in a select menu of ``message`` (string values, or members/channels/roles)."""
        payload = self.build_component(
            user, message, custom_id=custom_id, label=placeholder, values=values, force=force
        )
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )

    def build_modal_submit(
        self,
        user: FakeMember,
        values: Mapping[str, Any],
        *,
        modal: Sent | Result | None = None,
    ) -> JSON:
        """The INTERACTION_CREATE payload (type 5) for submitting a modal the bot sent ``user``.

        ``modal`` defaults to the last modal sent to ``user``; ``values`` maps the
        inputs' custom_ids to text (or lists of values for selects).
        """
        user = self._resolve_user(user)
        if isinstance(modal, Result):
            modal = modal.modal
        if modal is None:
            sent_modals = [s for s in self.sent if s.kind == "modal" and s.user_id == user.id]
            if not sent_modals:
                raise HarnessError(f"no modal was sent to {user.name}")
            modal = sent_modals[-1]
        origin = self._interactions_by_id.get(modal.interaction_id or 0)
        if origin is None:
            raise HarnessError(f"{modal!r} is not bound to an interaction")
        remaining = dict(values)

        def convert(comp: Mapping[str, Any]) -> JSON | None:
            ctype = comp.get("type")
            if ctype == 1:
                inner = [c for c in map(convert, comp.get("components") or ()) if c]
                return {"type": 1, "components": inner}
            if ctype == 18:
                inner_comp = convert(comp["component"])
                return {"type": 18, "component": inner_comp} if inner_comp else None
            cid = comp.get("custom_id")
            if cid is None:
                return None
            if ctype == 4:
                value = remaining.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise HarnessError(f"text input {cid!r} is required: Discord would refuse")
                return {"type": 4, "custom_id": cid, "value": str(value)}
            picked = remaining.pop(cid, [])
            return {"type": ctype, "custom_id": cid, "values": [str(v) for v in picked]}

        components = [c for c in map(convert, modal.data.get("components") or ()) if c]
        if remaining:
            raise LookupError(f"the modal has no inputs {sorted(remaining)}")
        data: JSON = {"custom_id": modal.data.get("custom_id"), "components": components}
        message = self.messages.get(origin.message_id) if origin.message_id else None
        return self._interaction_payload(5, user, origin.channel_id, data, message=message)

    async def submit_modal(
        self,
        user: FakeMember,
        values: Mapping[str, Any],
        *,
        modal: Sent | Result | None = None,
        allow_errors: bool = False,
        expect_response: bool = True,
    ) -> Result:
        """Submit the modal the bot sent ``user`` (the last one unless ``modal`` is given)."""
        payload = self.build_modal_submit(user, values, modal=modal)
        return await self.dispatch(
            payload, allow_errors=allow_errors, expect_response=expect_response
        )
