"""The bot process serves the Activity beside its pages, as an operator turns it on.

The unmodified bot runs against the fake Discord with ``activity_client_id``, its pages'
port and ``DISCORD_CLIENT_SECRET``; the application has Activities on (its Entry Point
command). A member launches the Activity from the table message; people sign in through
the fake Discord's OAuth2 (the code exchanged by the bot, the instance read with its
token) and play over the websocket beside the buttons; after ``kill -9`` and a start,
the sockets come back with their tickets to the table as it was.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord, User
from tests.kit.fake_players import EuchreTable
from tests.kit.oauth import CLIENT_SECRET
from tests.kit.waiting import BOUND, until


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Person:
    """One person's socket to the bot's Activity, signed in through the fake Discord."""

    def __init__(self, session: aiohttp.ClientSession, url: str, ticket: str) -> None:
        self.session, self.url, self.ticket = session, url, ticket
        self.messages: list[dict[str, Any]] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    @classmethod
    async def sign_in(
        cls, session: aiohttp.ClientSession, url: str, fake: FakeDiscord, user: User
    ) -> Person:
        _, code = fake.oauth.person(user.name, user_id=user.id)
        instance = fake.oauth.instance().instance_id
        body = {"code": code, "instance_id": instance}
        async with session.post(f"{url}/activity/api/sign-in", json=body) as answer:
            signed = await answer.json()
            assert answer.status == 200, signed
        return cls(session, url, signed["ticket"])

    async def connect(self) -> None:
        self.messages.clear()
        self.ws = await self.session.ws_connect(f"{self.url}/activity/ws")
        await self.ws.send_str(json.dumps({"ticket": self.ticket}))

    async def last_table(self) -> dict[str, Any]:
        """Read what the socket got until it closed; the last ``table`` message."""
        assert self.ws is not None
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.messages.append(json.loads(message.data))
        return next(m for m in reversed(self.messages) if m["type"] == "table")

    async def read_until(self, wanted: Any, what: str) -> dict[str, Any]:
        """Read messages until a ``table`` message satisfies ``wanted``."""
        assert self.ws is not None
        while True:
            message = await self.ws.receive(timeout=BOUND)
            assert message.type == aiohttp.WSMsgType.TEXT, (what, message)
            data = json.loads(message.data)
            self.messages.append(data)
            if data["type"] == "table" and wanted(data):
                return data


@pytest.mark.slow
async def test_the_bot_process_serves_the_activity_through_a_kill(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.turn_on_activities()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    options = {
        "web_port": port,
        "web_base_url": url,
        "activity_client_id": fake.application_id,
        "discord_api_url": fake.api_base,
    }
    bot = BotProcess(
        fake, tmp_path / "bot", options=options, secrets={"DISCORD_CLIENT_SECRET": CLIENT_SECRET}
    )
    async with bot.killed_at_the_end(show=200):
        await bot.start()
        alice, bob = fake.member("alice"), fake.member("bob")
        table = await EuchreTable.open(fake, alice)
        launch = await fake.click(bob, table.message, label="Open the table")
        await launch.wait_answered(BOUND)
        assert launch.response_type == 12 and launch.original_id is None
        async with aiohttp.ClientSession() as session:
            person = await Person.sign_in(session, url, fake, bob)
            await person.connect()
            await person.read_until(lambda d: d["table"]["status"] == "lobby", "the lobby")
            assert person.ws is not None
            await person.ws.send_str(json.dumps({"do": "sit"}))
            seated = await person.read_until(
                lambda d: any(s["user"] == str(bob.id) for s in d["table"]["seats"]), "Bob seated"
            )
            assert seated["you"] is None, "no hand before the deal"
            await until(lambda: shows(table, bob.name), "the table message showing Bob seated")
            for _ in range(2):
                await (await fake.click(alice, table.message, label="Add computer")).wait_answered(
                    BOUND
                )
            await (await fake.click(alice, table.message, label="Start")).wait_answered(BOUND)
            dealt = await person.read_until(lambda d: d["you"] and d["you"]["hand"], "a hand")
            hand = [c["card"] for c in dealt["you"]["hand"]]

            await bot.kill()
            seen = await person.last_table()  # the computers may have played on meanwhile
            await bot.start()
            await person.connect()
            again = await person.read_until(lambda d: d["you"] is not None, "the hand again")
            assert [c["card"] for c in again["you"]["hand"]] == hand, "nobody but Bob plays it"
            assert again["table"]["table"] == seen["table"]["table"]
            assert tuple(again["table"]["stamp"]) >= tuple(seen["table"]["stamp"]), "nothing lost"
            await person.ws.close()
    assert not fake.problems, fake.problems
    assert not bot.faults(), bot.faults()


def shows(table: EuchreTable, text: str) -> bool:
    """Whether the table message's embeds say ``text``."""
    return text in json.dumps(table.message.payload.get("embeds") or [])
