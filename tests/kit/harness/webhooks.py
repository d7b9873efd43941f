"""The fake Discord's interaction webhooks.

Callbacks (the first response), follow-ups, and reading, editing or deleting the
original response and follow-ups.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from tests.kit.harness.records import Sent, StoredMessage, UnexpectedRequestError, _Dispatch
from tests.kit.harness.rest import _error
from tests.kit.payloads import (
    AUTOCOMPLETE,
    DEFER,
    DEFER_UPDATE,
    EPHEMERAL,
    JSON,
    LAUNCH_ACTIVITY,
    MESSAGE,
    MODAL,
    PONG,
    UPDATE,
    clone,
)
from tests.kit.slow_database import TOKEN_LIFETIME


@dataclass(eq=False)
class _InteractionState:
    """What the fake Discord knows about one interaction token."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    dispatch: _Dispatch
    message_id: int | None = None  # the message a component/modal came from
    response_type: int | None = None
    original_id: int | None = None
    deferred_pending: bool = False
    deferred_ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    created_at: float = 0.0
    """When the interaction was made (loop time): its token lasts 15 minutes."""


class _Webhooks:
    """Answer the calls made with an interaction token."""

    def _answer_webhook(self, sent: Sent, p: Mapping[str, str]) -> Any:
        token = p.get("webhook_token", "")
        state = self._interactions.get(token)
        if state is None:
            raise UnexpectedRequestError(
                f"webhook call {sent.method} {sent.path} for an unknown token {token!r}"
            )
        sent.interaction_id = state.id
        sent.user_id = state.user_id
        sent.channel_id = state.channel_id
        body = cast(JSON, sent.body or {})
        path = sent.path
        if path == "/interactions/{webhook_id}/{webhook_token}/callback":
            return self._callback(sent, state, body)
        if state.response_type is None:
            raise _error(404, 10015, "Unknown Webhook")  # not acknowledged yet
        if self._now() - state.created_at > TOKEN_LIFETIME:
            raise _error(401, 50027, "Invalid Webhook Token")
        if path == "/webhooks/{webhook_id}/{webhook_token}" and sent.method == "POST":
            return self._followup(sent, state, body)
        if path.startswith("/webhooks/{webhook_id}/{webhook_token}/messages/"):
            mid_text = p.get("message_id", "@original")
            original = mid_text == "@original"
            if original:
                if state.original_id is None:
                    raise _error(404, 10008, "Unknown Message")
                mid = state.original_id
            else:
                mid = int(mid_text)
                if mid not in state.followup_ids and mid != state.original_id:
                    raise _error(404, 10008, "Unknown Message")
            stored = self.messages.get(mid)
            if stored is None or stored.deleted:
                raise _error(404, 10008, "Unknown Message")
            sent.message_id = mid
            sent.visible_to = stored.visible_to
            suffix = "original" if original else "followup"
            if sent.method == "GET":
                sent.kind = f"get_{suffix}"
                return stored.payload
            if sent.method == "PATCH":
                sent.kind = f"edit_{suffix}"
                if original and state.deferred_pending:
                    state.deferred_pending = False
                self._edit_message(stored, body, sent.files)
                return stored.payload
            if sent.method == "DELETE":
                sent.kind = f"delete_{suffix}"
                stored.deleted = True
                if original:  # a follow-up after it is a message of its own
                    state.deferred_pending = False
                return None
        raise UnexpectedRequestError(
            f"the fake Discord has no answer for webhook {sent.method} {path}"
        )

    def _interaction_message(
        self,
        sent: Sent,
        state: _InteractionState,
        body: JSON,
        *,
        ephemeral: bool,
        loading: bool = False,
    ) -> StoredMessage:
        """A new message of the interaction: its response or a follow-up, seen by whom
        ``sent.visible_to`` says, with the files ``sent`` carried."""
        return self._new_message(
            state.channel_id,
            state.guild_id,
            body,
            visible_to=sent.visible_to,
            ephemeral=ephemeral,
            loading=loading,
            interaction=state,
            files=sent.files,
        )

    def _callback(self, sent: Sent, state: _InteractionState, body: JSON) -> JSON:
        rtype = int(body.get("type", 0))
        data = cast(JSON, body.get("data") or {})
        sent.response_type = rtype
        if state.response_type is not None:
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        answer: JSON = {"interaction": {"id": str(state.id), "type": state.type}}
        resource: JSON | None = None
        private = state.user_id
        if rtype == PONG:
            sent.kind = "pong"
        elif rtype in (MESSAGE, DEFER):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            sent.kind = "response" if rtype == MESSAGE else "defer"
            sent.visible_to = private if ephemeral else None
            stored = self._interaction_message(
                sent, state, data, ephemeral=ephemeral, loading=rtype == DEFER
            )
            state.original_id = stored.id
            sent.message_id = stored.id
            if rtype == DEFER:
                state.deferred_pending = True
                state.deferred_ephemeral = ephemeral
            answer["interaction"].update(
                response_message_id=str(stored.id),
                response_message_loading=rtype == DEFER,
                response_message_ephemeral=ephemeral,
            )
            resource = {"type": rtype, "message": stored.payload}
        elif rtype in (DEFER_UPDATE, UPDATE):
            if state.message_id is None:
                raise _error(400, 50035, "Invalid Form Body: this interaction has no message")
            target = self.messages.get(state.message_id)
            if target is None or target.deleted:
                raise _error(404, 10008, "Unknown Message")
            stored = target
            sent.kind = "defer_update" if rtype == DEFER_UPDATE else "update"
            sent.visible_to = stored.visible_to
            sent.message_id = stored.id
            state.original_id = stored.id
            if rtype == UPDATE:
                self._edit_message(stored, data)
                answer["interaction"].update(
                    response_message_id=str(stored.id),
                    response_message_loading=False,
                    response_message_ephemeral=stored.ephemeral,
                )
                resource = {"type": rtype, "message": stored.payload}
        elif rtype == AUTOCOMPLETE:
            sent.kind = "autocomplete"
            sent.visible_to = private
        elif rtype == MODAL:
            sent.kind = "modal"
            sent.visible_to = private
        elif rtype == LAUNCH_ACTIVITY:
            if not self.activities:
                raise _error(400, 50035, "Invalid Form Body: this application has no Activity")
            sent.kind = "launch_activity"
            sent.visible_to = private
        else:
            raise UnexpectedRequestError(f"interaction callback type {rtype} is not supported")
        state.response_type = rtype
        if resource is not None:
            answer["resource"] = clone(resource)
        return answer

    def _followup(self, sent: Sent, state: _InteractionState, body: JSON) -> JSON:
        sent.kind = "followup"
        if state.deferred_pending and state.original_id is not None:
            # The first follow-up after a deferred response replaces the "thinking"
            # message and keeps the defer's visibility, whatever its own flags say.
            state.deferred_pending = False
            stored = self.messages[state.original_id]
            self._edit_message(stored, {**body, "flags": body.get("flags") or 0}, sent.files)
            sent.visible_to = stored.visible_to
            sent.message_id = stored.id
            return stored.payload
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        sent.visible_to = state.user_id if ephemeral else None
        stored = self._interaction_message(sent, state, body, ephemeral=ephemeral)
        state.followup_ids.append(stored.id)
        sent.message_id = stored.id
        return stored.payload
