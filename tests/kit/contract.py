"""Discord's contract: what a payload the bot sends may hold, checked as Discord checks it.

:func:`check_request` takes one HTTP request (method, path, JSON body, files) and
returns every :class:`Violation` of Discord's documented limits (:mod:`tests.kit.limits`):
messages, embeds, components, modals, autocomplete choices, application commands at
sync time, attachments, thread and scheduled-event names. It also holds the bot to one
rule of its own that Discord does not enforce: a message whose text can mention anyone
says who it may mention (``allowed_mentions``), never ``@everyone`` or roles by parsing,
so that a member's display name or typed text never pings a crowd.

Both fakes of Discord run it on every request: the interaction harness
(``tests/kit/harness``) and the loopback fake (``tests/kit/fake_discord.py``). A violation
Discord would refuse is answered as Discord answers it (:func:`error_answer`: a 400 with
``{"code": 50035, "errors": {...path...}, "message": "Invalid Form Body"}``, a 413 for a
file over the limit), so the bot's own handling of a refusal runs; and the test fails,
naming the JSON path and the limit (:class:`ContractError`).

The checks are plain functions over JSON; :mod:`tests.kit.commands` checks commands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.kit import limits
from tests.kit.commands import check_command, check_commands
from tests.kit.components import check_choices, check_modal
from tests.kit.messages import check_message
from tests.kit.violations import Check, ContractError, Path, Violation, describe, error_answer

__all__ = [
    "ContractError",
    "Violation",
    "check_callback",
    "check_request",
    "describe",
    "error_answer",
]

_MESSAGE, _DEFER, _UPDATE, _AUTOCOMPLETE, _MODAL = 4, 5, 7, 8, 9


def check_callback(
    body: Mapping[str, Any] | None, files: Sequence[tuple[str, int]] = ()
) -> list[Violation]:
    """An interaction's response: a message, an update, a modal or autocomplete choices."""
    data = (body or {}).get("data") or {}
    kind = int((body or {}).get("type") or 0)
    prefix: Path = ("data",)
    if kind in (_MESSAGE, _UPDATE):
        return check_message(data, create=kind == _MESSAGE, files=files, prefix=prefix)
    if kind == _DEFER:
        return []
    if kind == _AUTOCOMPLETE:
        return check_choices(data.get("choices"), (*prefix, "choices"))
    if kind == _MODAL:
        return check_modal(data, prefix=prefix)
    return []


_SEGMENT = r"[^/]+"
_ROUTES: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (method, re.compile(pattern.replace("*", _SEGMENT)), kind)
    for method, pattern, kind in (
        ("POST", r"/channels/*/messages", "message"),
        ("PATCH", r"/channels/*/messages/*", "edit"),
        ("POST", r"/interactions/*/*/callback", "callback"),
        ("POST", r"/webhooks/*/*", "message"),
        ("PATCH", r"/webhooks/*/*/messages/*", "edit"),
        ("PUT", r"/applications/*/commands", "commands"),
        ("PUT", r"/applications/*/guilds/*/commands", "commands"),
        ("POST", r"/applications/*/commands", "command"),
        ("POST", r"/applications/*/guilds/*/commands", "command"),
        ("POST", r"/channels/*/threads", "thread"),
        ("POST", r"/channels/*/messages/*/threads", "thread"),
        ("POST", r"/guilds/*/scheduled-events", "scheduled_event"),
        ("PATCH", r"/guilds/*/scheduled-events/*", "scheduled_event_edit"),
    )
)


def check_request(
    method: str, path: str, body: Any, files: Sequence[tuple[str, int]] = ()
) -> list[Violation]:
    """Every violation in one request; ``path`` is the route after the API version.

    Either the real path (``/channels/123/messages``) or a route template
    (``/channels/{channel_id}/messages``). Other routes carry nothing to check.
    """
    bare = path.split("?", 1)[0]
    kind = next(
        (k for m, pattern, k in _ROUTES if m == method.upper() and pattern.fullmatch(bare)), None
    )
    data = body if isinstance(body, Mapping) else {}
    if kind == "message":
        return check_message(data, create=True, files=files)
    if kind == "edit":
        return check_message(data, create=False, files=files)
    if kind == "callback":
        return check_callback(data, files)
    if kind == "commands":
        return check_commands(body if isinstance(body, list) else [])
    if kind == "command":
        return check_command(data)
    check = Check()
    if kind == "thread":
        check.text(("name",), data.get("name") or "", limits.THREAD_NAME, 1)
    elif kind == "scheduled_event":
        check.text(("name",), data.get("name") or "", limits.EVENT_NAME, 1)
        check.text(("description",), data.get("description"), limits.EVENT_DESCRIPTION)
    elif kind == "scheduled_event_edit":
        if "name" in data:
            check.text(("name",), data.get("name") or "", limits.EVENT_NAME, 1)
        check.text(("description",), data.get("description"), limits.EVENT_DESCRIPTION)
    return check.found
