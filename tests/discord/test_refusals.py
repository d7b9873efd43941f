"""A request Discord refuses is logged as an ERROR naming its route and Discord's reason.

The log line of :func:`bot.discord.refusals.log_refusal` for each kind of answer, and a paced
edit of a table's message refused through the harness, as an operator would read it.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import yarl

from bot.discord.refusals import EXPIRED_INTERACTION, describe, log_refusal, refused
from tests.cogs.euchre_driver import build_bot, only_table
from tests.conftest import MakeHarness


def answer(status: int, body: dict[str, Any], method: str = "PATCH") -> discord.HTTPException:
    url = yarl.URL("https://discord.com/api/v10/channels/12/messages/34")
    response: Any = SimpleNamespace(status=status, reason="Bad Request", method=method, url=url)
    return discord.HTTPException(response, body)


FORM = {
    "code": 50035,
    "errors": {
        "embeds": {
            "0": {
                "fields": {
                    "3": {
                        "value": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_BAD_LENGTH",
                                    "message": "Must be between 1 and 1024 in length.",
                                }
                            ]
                        }
                    }
                }
            }
        }
    },
    "message": "Invalid Form Body",
}


def test_a_refusal_names_the_route_the_code_and_discords_reason() -> None:
    text = describe(answer(400, FORM))
    assert text == (
        "PATCH /channels/12/messages/34 → 400 (code 50035): Invalid Form Body / "
        "In embeds.0.fields.3.value: Must be between 1 and 1024 in length."
    )


@pytest.mark.parametrize(
    ("status", "code", "level"),
    [
        (400, 50035, logging.ERROR),
        (403, 50013, logging.ERROR),
        (404, 10003, logging.ERROR),
        (404, 10015, logging.INFO),  # expected by the caller below
        (500, 0, logging.WARNING),
        (503, 0, logging.WARNING),
    ],
)
def test_refusals_are_errors_discords_trouble_a_warning(
    status: int, code: int, level: int, caplog: pytest.LogCaptureFixture
) -> None:
    log = logging.getLogger("tests.refusals")
    exc = answer(status, {"code": code, "message": "why"})
    with caplog.at_level(logging.INFO, "tests.refusals"):
        log_refusal(log, exc, "a paced edit in channel 12", expected=EXPIRED_INTERACTION)
    (record,) = caplog.records
    assert record.levelno == level
    assert record.getMessage().startswith("a paced edit in channel 12: Discord ")
    assert refused(exc) is (status < 500)


async def test_a_refused_paced_edit_of_a_table_is_an_error_with_its_route(
    make_harness: MakeHarness,
) -> None:
    bot = build_bot()
    h = await make_harness(bot)
    g = h.guild(members=["alice"])
    alice = g.member("alice")
    message = (await h.slash(alice, "euchre new")).message
    for _ in range(3):
        await h.click(alice, message, label="Add computer")
    h.fail_http(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        status=400,
        code=50035,
        message="Invalid Form Body",
    )
    await h.click(alice, message, label="Start", allow_errors=True)  # computers move: paced edits
    await h.settle()
    [logged] = h.take_errors("Discord refused it")
    assert logged.levelno == logging.ERROR and logged.name == "bot.discord.tables.publishing"
    text = logged.getMessage()
    assert f"table {only_table(bot).id}: editing its message" in text
    assert f"PATCH /channels/{g.channel.id}/messages/{message.id} → 400 (code 50035)" in text
