"""Answers in time: what an interaction waited on before its first answer, and its token's life.

Discord drops an interaction that is not answered within 3 seconds. A machine-free
measure of that: every database round trip made while an interaction has no answer
yet is charged to it at :data:`~tests.kit.slow_database.ROUND_TRIP` (300 ms, a slow
database), and the total must stay within :data:`~tests.kit.slow_database.ANSWER_BUDGET`
(2.5 s); an interaction over it fails its call (:class:`~tests.kit.harness.records.HarnessError`),
naming the trips. The trips are counted by the harness's task ownership, so those of a
task the handler started count too.

An interaction's token takes follow-ups and edits for 15 minutes after the interaction
(by the loop's clock); after that the webhook answers 401 ``Invalid Webhook Token``
(50027), as Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib

from tests.kit.harness.records import HarnessError, _Dispatch
from tests.kit.slow_database import ANSWER_BUDGET, ROUND_TRIP, counted_round_trips


class _Timing:
    """Charge database round trips to the interaction waiting for its first answer."""

    def _install_timing(self) -> None:
        stack = contextlib.ExitStack()
        stack.enter_context(counted_round_trips(self._round_trip))
        self._restore.append(stack.close)

    def _round_trip(self) -> None:
        owner = self._current_owner()
        iid = owner.interaction_id
        state = None if iid is None else self._interactions_by_id.get(iid)
        if state is not None and state.response_type is None:
            owner.trips_before_answer += 1

    def _check_answer_time(self, dispatch: _Dispatch, what: str) -> None:
        waited = dispatch.trips_before_answer * ROUND_TRIP
        if waited > ANSWER_BUDGET:
            raise HarnessError(
                f"{what} made {dispatch.trips_before_answer} database round trips before its "
                f"first answer: {waited:.1f} s at {ROUND_TRIP * 1000:.0f} ms each, over the "
                f"{ANSWER_BUDGET} s an answer may take (Discord drops it at 3 s); answer "
                "first (defer), then do the work"
            )

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()
