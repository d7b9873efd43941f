"""The Discord side draws a table's events from their snapshots: it never asks the service back."""

from __future__ import annotations

from typing import Any

from bot.tables import TableEvent
from tests.cogs.test_euchre_ping_after import room
from tests.conftest import MakeHarness


class NoCalls:
    """A table service that answers nothing: every attribute asked for is noted and refused."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.asked.append(name)
        raise AssertionError(f"the presenter asked the table service for {name!r}")


async def test_the_presenter_handles_every_event_without_the_service(
    make_harness: MakeHarness,
) -> None:
    r = await room(make_harness, 8)
    assert r.message is not None
    for person in r.people:  # open hands, redrawn as the turn passes
        await r.h.click(person, r.message, label="Your hand")
    cog: Any = r.bot.get_cog("Euchre")
    presenter = cog.presenter
    refusing = NoCalls()
    presenter.service = refusing
    heard: list[TableEvent] = []
    r.bot.tables.listeners.append(heard.append)
    before = len(r.h.sent)

    for _ in range(10):
        await r.move()
    await r.someone_elses_turn()
    await r.wait(30)  # the person to act is pinged

    assert refusing.asked == []
    assert {"move", "turn", "ping"} <= {e.kind for e in heard}
    kinds = {s.kind for s in r.h.sent[before:]}
    assert {"channel_edit", "channel_send", "edit_original"} <= kinds, (
        "the table shown, a ping sent, open hands redrawn"
    )
    assert len(r.pings(before)) == 1
