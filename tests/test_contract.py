"""Discord's contract (tests/kit): each limit holds at its edge and fails one past it.

Every case builds the payload at Discord's limit (which passes) and one character or
item past it (which fails, naming the JSON path, the limit and Discord's error code).
Payloads come from discord.py's own objects where it has them, so the shapes are the
ones the bot sends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest

from tests.kit import limits
from tests.kit.contract import (
    ContractError,
    Violation,
    check_callback,
    check_request,
    describe,
    error_answer,
)
from tests.kit.messages import check_message

JSON = dict[str, Any]
NO_PINGS: JSON = {"parse": []}


def message(**fields: Any) -> JSON:
    return {"allowed_mentions": NO_PINGS, **fields}


def embed(**parts: Any) -> JSON:
    return discord.Embed(**parts).to_dict()  # type: ignore[return-value]


def with_fields(count: int, name: str = "n", value: str = "v") -> JSON:
    e = discord.Embed()
    for _ in range(count):
        e.add_field(name=name, value=value)
    return e.to_dict()  # type: ignore[return-value]


def buttons(count: int, label: str = "b", custom_id: str | None = None) -> JSON:
    """A row of ``count`` buttons (discord.py itself refuses a sixth, so the row is built here)."""
    items = [
        discord.ui.Button[Any](label=label, custom_id=custom_id or f"b{i}") for i in range(count)
    ]
    return {"type": 1, "components": [b.to_component_dict() for b in items]}


def select(options: int = 1, *, label: str = "o", placeholder: str = "p", cid: str = "s") -> JSON:
    choices = [discord.SelectOption(label=label, value=f"{i}") for i in range(options)]
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=cid, options=choices, placeholder=placeholder
    )
    return {"type": 1, "components": [item.to_component_dict()]}


Case = tuple[str, Callable[[int], JSON], int, str, str]
"""(name, the message at size n, Discord's limit, the path past it, the code past it)."""

CASES: list[Case] = [
    ("content", lambda n: message(content="x" * n), 2000, "content", "BASE_TYPE_MAX_LENGTH"),
    ("embeds", lambda n: message(embeds=[embed()] * n), 10, "embeds", "BASE_TYPE_MAX_LENGTH"),
    (
        "title",
        lambda n: message(embeds=[embed(title="t" * n)]),
        256,
        "embeds.0.title",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "description",
        lambda n: message(embeds=[embed(description="d" * n)]),
        4096,
        "embeds.0.description",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "fields",
        lambda n: message(embeds=[with_fields(n)]),
        25,
        "embeds.0.fields",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "field name",
        lambda n: message(embeds=[with_fields(1, name="n" * n)]),
        256,
        "embeds.0.fields.0.name",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "field value",
        lambda n: message(embeds=[with_fields(1, value="v" * n)]),
        1024,
        "embeds.0.fields.0.value",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "footer",
        lambda n: message(embeds=[{"footer": {"text": "f" * n}}]),
        2048,
        "embeds.0.footer.text",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "author",
        lambda n: message(embeds=[{"author": {"name": "a" * n}}]),
        256,
        "embeds.0.author.name",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "6,000 across the embeds",
        lambda n: message(
            embeds=[embed(description="d" * 3000), embed(description="d" * (n - 3000))]
        ),
        6000,
        "embeds",
        "MAX_EMBED_SIZE_EXCEEDED",
    ),
    (
        "action rows",
        lambda n: message(components=[buttons(1, custom_id=f"r{i}") for i in range(n)]),
        5,
        "components",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "buttons a row",
        lambda n: message(components=[buttons(n)]),
        5,
        "components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "button label",
        lambda n: message(components=[buttons(1, label="l" * n)]),
        80,
        "components.0.components.0.label",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "custom_id",
        lambda n: message(components=[buttons(1, custom_id="c" * n)]),
        100,
        "components.0.components.0.custom_id",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "select options",
        lambda n: message(components=[select(n)]),
        25,
        "components.0.components.0.options",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "option label",
        lambda n: message(components=[select(label="o" * n)]),
        100,
        "components.0.components.0.options.0.label",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "placeholder",
        lambda n: message(components=[select(placeholder="p" * n)]),
        150,
        "components.0.components.0.placeholder",
        "BASE_TYPE_MAX_LENGTH",
    ),
]


@pytest.mark.parametrize(
    ("name", "build", "limit", "path", "code"), CASES, ids=[c[0] for c in CASES]
)
def test_a_message_limit_holds_at_its_edge_and_fails_past_it(
    name: str, build: Callable[[int], JSON], limit: int, path: str, code: str
) -> None:
    assert check_message(build(limit), create=True) == []
    found = check_message(build(limit + 1), create=True)
    assert [(v.where, v.code) for v in found] == [(path, code)], describe(found)
    assert str(limit) in found[0].limit.replace(",", ""), found[0]


def test_a_select_shares_its_row_with_nothing() -> None:
    row = select()
    row["components"].append(buttons(1)["components"][0])
    (found,) = check_message(message(components=[row]), create=True)
    assert (found.where, found.code) == (
        "components.0.components",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    )


def test_a_custom_id_appears_once_a_message() -> None:
    rows = [buttons(1, custom_id="same"), buttons(1, custom_id="same")]
    (found,) = check_message(message(components=rows), create=True)
    assert found.code == "COMPONENT_CUSTOM_ID_DUPLICATED" and "'same' 2 times" in found.found


def test_an_embed_field_needs_a_name_and_a_value() -> None:
    found = check_message(message(embeds=[{"fields": [{"name": "", "value": ""}]}]), create=True)
    assert [v.where for v in found] == ["embeds.0.fields.0.name", "embeds.0.fields.0.value"]


def test_a_new_message_needs_something_to_show_and_an_edit_does_not() -> None:
    (found,) = check_message({}, create=True)
    assert error_answer([found]) == (
        400,
        {"code": 50006, "message": "Cannot send an empty message"},
    )
    assert check_message({}, create=False) == []


def test_files_are_ten_at_most_of_ten_mebibytes_each() -> None:
    at_limit = [("a.png", limits.FILE_BYTES)] * 10
    assert check_message(message(), create=True, files=at_limit) == []
    found = check_message(
        message(), create=True, files=[*at_limit, ("b.png", limits.FILE_BYTES + 1)]
    )
    assert [v.where for v in found] == ["attachments", "files[10]"]
    assert error_answer(found[1:]) == (413, {"code": 40005, "message": "Request entity too large"})


def test_text_that_can_mention_says_whom_and_never_everyone() -> None:
    (unset,) = check_message({"content": "hi"}, create=True)
    assert (unset.where, unset.refused) == ("allowed_mentions", False)
    assert error_answer([unset]) is None, "Discord takes it; the bot's own rule fails the test"
    crowd = {"content": "@everyone", "allowed_mentions": {"parse": ["everyone", "users"]}}
    (broad,) = check_message(crowd, create=True)
    assert "everyone" in broad.found
    assert check_message({"embeds": [embed(title="no text")]}, create=True) == []
    assert (
        check_message({"content": "<@1>", "allowed_mentions": {"parse": ["users"]}}, create=True)
        == []
    )


def test_a_modal_has_a_short_title_and_one_to_five_inputs() -> None:
    modal = discord.ui.Modal(title="t" * 45, custom_id="m")
    for i in range(5):
        modal.add_item(
            discord.ui.TextInput(label="l" * 45, custom_id=f"i{i}", placeholder="p" * 100)
        )
    body = {"type": 9, "data": modal.to_dict()}
    assert check_callback(body) == []
    body["data"]["title"] = "t" * 46
    body["data"]["components"].append(body["data"]["components"][0])
    row = body["data"]["components"][0]
    inner = row["components"][0] if row["type"] == 1 else row["component"]
    inner["placeholder"] = "p" * 101
    found = {v.where for v in check_callback(body)}
    assert {"data.title", "data.components"} <= found
    assert any(w.endswith("placeholder") for w in found), found
    body["data"]["components"] = []
    assert "data.components" in {v.where for v in check_callback(body)}


def test_autocomplete_answers_twenty_five_choices_at_most() -> None:
    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    assert check_callback({"type": 8, "data": {"choices": choices}}) == []
    too_many = [*choices, {"name": "n" * 101, "value": "v"}]
    found = check_callback({"type": 8, "data": {"choices": too_many}})
    assert [v.where for v in found] == ["data.choices", "data.choices.25.name"]


def test_interaction_responses_are_checked_under_data() -> None:
    body = {"type": 4, "data": message(content="x" * 2001)}
    assert [v.where for v in check_callback(body)] == ["data.content"]
    assert check_callback({"type": 5, "data": {"flags": 64}}) == []
    assert check_callback({"type": 7, "data": {}}) == [], "an update may change nothing"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/channels/1/messages"),
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/1/messages/2"),
        ("POST", "/webhooks/1/tok"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ],
)
def test_every_route_that_carries_a_message_is_checked(method: str, path: str) -> None:
    found = check_request(method, path, message(content="x" * 2001))
    assert [v.where for v in found] == ["content"]


def test_threads_and_scheduled_events_keep_their_names_short() -> None:
    assert check_request("POST", "/channels/1/threads", {"name": "n" * 100}) == []
    (long,) = check_request("POST", "/channels/1/messages/2/threads", {"name": "n" * 101})
    assert long.where == "name"
    event = {"name": "n" * 101, "description": "d" * 1001}
    found = check_request("POST", "/guilds/1/scheduled-events", event)
    assert [v.where for v in found] == ["name", "description"]
    assert check_request("GET", "/channels/1/messages", None) == []


FIELD_TOO_LONG: JSON = {
    "embeds": {
        "0": {
            "fields": {
                "0": {
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
}
"""Discord's ``errors`` for a message whose first embed's first field is too long."""


def test_discord_answers_a_form_error_with_its_path_nested() -> None:
    found = check_message(
        message(content="x" * 2001, embeds=[with_fields(1, value="v" * 1025)]), create=True
    )
    status, body = error_answer(found) or (0, {})
    assert status == 400
    content = {
        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]
    }
    assert body == {
        "code": 50035,
        "errors": {"content": content, **FIELD_TOO_LONG},
        "message": "Invalid Form Body",
    }


def test_discord_py_reads_the_refusal_with_its_path() -> None:
    found = check_message(message(embeds=[with_fields(1, value="v" * 1025)]), create=True)
    status, body = error_answer(found) or (0, {})
    response: Any = type("Response", (), {"status": status, "reason": "Bad Request"})()
    error = discord.HTTPException(response, body)
    assert error.code == 50035
    assert "In embeds.0.fields.0.value: Must be between 1 and 1024 in length." in str(error)


def test_a_contract_error_names_the_request_the_path_and_the_limit() -> None:
    violation = Violation(
        ("embeds", 0, "fields", 3, "value"), "1 to 1024 characters", "1052 characters"
    )
    error = ContractError("PATCH /channels/{channel_id}/messages/{message_id}", [violation])
    assert str(error) == (
        "PATCH /channels/{channel_id}/messages/{message_id} breaks Discord's contract: "
        "embeds.0.fields.3.value: 1052 characters (Discord's limit: 1 to 1024 characters)"
    )
