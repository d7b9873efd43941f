"""Ephemeral replies and the shared error funnel that views use too."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.discord.replies import APOLOGY, report_error, send_ephemeral
from bot.errors import UserFacingError


class FakeInteraction:
    """The part of ``discord.Interaction`` that replies touch, recording what is sent."""

    def __init__(self, *, done: bool = False) -> None:
        self.done = done
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.response = SimpleNamespace(is_done=lambda: self.done, send_message=self._respond)
        self.followup = SimpleNamespace(send=self._follow_up)
        self.guild_id = 1
        self.channel_id = 2
        self.user = SimpleNamespace(id=3)
        self.extras: dict[str, Any] = {}

    async def _respond(self, content: Any = None, **kwargs: Any) -> SimpleNamespace:
        assert not self.done, "an interaction is responded to once"
        self.done = True
        self.sent.append(("response", {"content": content, **kwargs}))
        return SimpleNamespace(message_id=None)

    async def _follow_up(self, content: Any = None, **kwargs: Any) -> SimpleNamespace:
        assert self.done, "a follow-up needs a response first"
        self.sent.append(("followup", {"content": content, **kwargs}))
        return SimpleNamespace(id=len(self.sent))

    def as_interaction(self) -> discord.Interaction[Any]:
        return cast("discord.Interaction[Any]", self)


async def test_first_reply_is_the_response_then_followups() -> None:
    fake = FakeInteraction()
    await send_ephemeral(fake.as_interaction(), "one")
    await send_ephemeral(fake.as_interaction(), "two")
    assert [(where, sent["content"], sent["ephemeral"]) for where, sent in fake.sent] == [
        ("response", "one", True),
        ("followup", "two", True),
    ]


async def test_embed_and_view_are_passed_on() -> None:
    fake = FakeInteraction(done=True)
    embed = discord.Embed(title="Your hand")
    view = discord.ui.View()
    await send_ephemeral(fake.as_interaction(), embed=embed, view=view)
    [(where, sent)] = fake.sent
    assert where == "followup"
    assert sent["embed"] is embed
    assert sent["view"] is view
    assert sent["content"] is discord.utils.MISSING


async def test_report_user_facing_error_says_its_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeInteraction()
    await report_error(fake.as_interaction(), UserFacingError("You must follow suit."))
    assert [sent["content"] for _, sent in fake.sent] == ["You must follow suit."]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_report_other_error_logs_and_apologises(caplog: pytest.LogCaptureFixture) -> None:
    fake = FakeInteraction(done=True)
    error = KeyError("seat")
    await report_error(fake.as_interaction(), error, context="view TableView")
    assert [(where, sent["content"]) for where, sent in fake.sent] == [("followup", APOLOGY)]
    [record] = caplog.records
    assert record.levelno == logging.ERROR
    assert "view TableView" in record.getMessage()
    assert record.exc_info is not None
    assert record.exc_info[1] is error


async def test_report_error_survives_a_failed_send(caplog: pytest.LogCaptureFixture) -> None:
    fake = FakeInteraction()

    async def expired(content: Any = None, **kwargs: Any) -> None:
        response = SimpleNamespace(status=404, reason="Not Found")
        raise discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})

    fake.response.send_message = expired
    await report_error(fake.as_interaction(), UserFacingError("Too late."))
    assert "Unknown interaction" in caplog.records[-1].getMessage()
