"""Discord's contract in the interaction harness: every payload checked, as Discord would.

Each recorded call is checked against :mod:`tests.kit.contract`. A payload Discord
would refuse is answered as Discord answers (a 400 with code 50035 and the path, a
413 for a file too large), so the bot's handling of a refusal runs; every violation
is kept on the dispatch that made the call, and the interaction (or the harness'
close) fails the test with a :class:`~tests.kit.contract.ContractError` naming the
path and the limit.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from tests.kit.contract import ContractError, Violation, check_request, error_answer
from tests.kit.harness.records import Sent, _Dispatch


class _Contract:
    """Check each call against Discord's contract."""

    violations: list[tuple[Sent, Violation]]

    def _keep_contract(self, sent: Sent, owner: _Dispatch) -> None:
        """Record ``sent``'s violations on ``owner``; raise Discord's refusal, if it refuses."""
        files = [(name, len(raw)) for name, raw in sent.files]
        found = check_request(sent.method, sent.path, sent.body, files)
        if not found:
            return
        self.violations.extend((sent, v) for v in found)
        owner.broken.append(ContractError(f"{sent.method} {sent.path}", found))
        answer = error_answer(found)
        if answer is None:
            return
        status, body = answer
        sent.status = status
        response = cast(Any, SimpleNamespace(status=status, reason="Bad Request"))
        raise discord.HTTPException(response, body)
