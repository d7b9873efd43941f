"""The Activity's websocket: sign-in, a whole game by four sockets and a watcher, no leak.

Moves go through the same service calls as the buttons (a stale stamp is refused alike);
reconnects and a restart of the bot's side get the table as it is now.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import aiohttp

from bot.tables import Place
from tests.kit.oauth import CHANNEL_ID, GUILD_ID
from tests.kit.waiting import until

from .util import Served, Socket
from .watch import SocketWatch


def choices(you: dict[str, Any]) -> list[dict[str, Any]]:
    cards = [
        {"do": "act", "code": c["code"], "stamp": you["stamp"]} for c in you["hand"] if c["code"]
    ]
    buttons = [{"do": "act", "code": b["code"], "stamp": you["stamp"]} for b in you["buttons"]]
    return cards + buttons


def to_act(sockets: list[Socket]) -> Socket | None:
    for s in sockets:
        table, you = s.table, s.you
        playing = table is not None and table["status"] == "playing"
        if playing and you and table.get("turn") == you["seat"] and choices(you):  # type: ignore[union-attr]
            return s
    return None


async def seat_four(served: Served, session: aiohttp.ClientSession) -> list[Socket]:
    """Four people sign in, one opens the table, all sit, the host starts."""
    sockets = []
    for name in ("Ann", "Bo", "Cy", "Di"):
        s, _ = await Socket.sign_in(served, session, name)
        await s.connect()
        sockets.append(s)
    host = sockets[0]
    await host.wait(lambda s: s.last("hello") and s.last("table"), "the host's hello")
    await host.send({"do": "open"})
    await host.wait(lambda s: s.table and s.table["status"] == "lobby", "a lobby")
    for s in sockets[1:]:
        await s.wait(lambda s: s.table and s.table["status"] == "lobby", "the lobby shown")
        await s.send({"do": "sit"})
    await host.wait(lambda s: s.table and all(x["user"] for x in s.table["seats"]), "four seated")
    await host.send({"do": "start"})
    for s in sockets:
        await s.wait(lambda s: s.you is not None and s.you["hand"], "a hand dealt")
    return sockets


def refused(s: Socket) -> int:
    return sum(m["type"] == "refused" for m in s.messages)


def moved(s: Socket, *, stamp: list[int], refusals: int) -> bool:
    """Whether the socket shows a move after ``stamp``, the game's end, or a refusal."""
    assert s.table is not None
    if s.you is None or s.table["status"] != "playing" or refused(s) > refusals:
        return True
    return bool(s.you["stamp"] != stamp)


async def play(sockets: list[Socket], rng: random.Random, *, moves: int | None = None) -> int:
    """Play by the sockets (a random legal move each) until the game ends, or ``moves``."""
    made = 0
    while moves is None or made < moves:
        if sockets[0].table and sockets[0].table["status"] == "finished":
            return made
        await until(lambda: to_act(sockets) or sockets[0].table["status"] == "finished", "a turn")
        s = to_act(sockets)
        if s is None:
            continue
        assert s.you is not None
        stamp, refusals = s.you["stamp"], refused(s)
        await s.send(rng.choice(choices(s.you)))
        made += 1
        await s.wait(partial(moved, stamp=stamp, refusals=refusals), "the move shown")
        assert refused(s) == refusals, s.last("refused")
    return made


async def test_a_sign_in_is_checked_with_discord(
    served: Served, session: aiohttp.ClientSession
) -> None:
    url = f"{served.url}/activity/api/sign-in"
    instance = served.fake.instance()
    async with session.post(
        url, json={"code": "never-given", "instance_id": instance.instance_id}
    ) as r:
        assert r.status == 403
        assert "refused" in (await r.json())["message"]
    _, code = served.fake.person("Eve")
    async with session.post(url, json={"code": code, "instance_id": "i-unknown"}) as r:
        assert r.status == 403
    async with session.post(
        url, data=b"not json", headers={"Content-Type": "application/json"}
    ) as r:
        assert r.status == 400
    other = served.fake.instance("i-2-gc-2")
    _, code = served.fake.person("Fay", other)
    other.users.clear()  # she left the instance before the server asked
    async with session.post(url, json={"code": code, "instance_id": other.instance_id}) as r:
        assert r.status == 403
        assert "not in this Activity" in (await r.json())["message"]


async def test_a_bad_ticket_is_told_to_sign_in_again(
    served: Served, session: aiohttp.ClientSession
) -> None:
    s = Socket(served, session, "forged.ticket")
    await s.connect()
    assert s.reader is not None
    await s.reader
    assert s.closed_with == 4001
    assert s.messages == []


async def test_four_sockets_play_a_game_to_the_end_and_no_hidden_card_leaks(
    served: Served, session: aiohttp.ClientSession
) -> None:
    assert served.activity is not None and served.service is not None
    watch = SocketWatch(served.activity)
    watch.listen(served.service)
    sockets = await seat_four(served, session)
    watcher, _ = await Socket.sign_in(served, session, "Gus")
    await watcher.connect()
    made = await play(sockets, random.Random(3))
    assert made > 20
    for s in [*sockets, watcher]:
        await s.wait(lambda s: s.table and s.table["status"] == "finished", "the game's end")
        assert s.table is not None and max(s.table["score"]) >= s.table["target"]
    assert all(m["you"] is None for m in watcher.messages if m["type"] == "table")
    assert watch.problems == []
    assert watch.checked > 100 and watch.cards_seen > 500
    people = watcher.last("people")
    assert people is not None and people["watching"] == 5
    finished = sockets[0].table
    assert finished is not None
    await watcher.send({"do": "again", "table": finished["table"]})
    await watcher.wait(lambda s: s.last("refused"), "a watcher refused")
    service = served.service
    await until(lambda: service.at(CHANNEL_ID) is None, "the finished game archived")
    await sockets[2].send({"do": "again", "table": finished["table"]})
    for s in [*sockets, watcher]:
        await s.wait(lambda s: s.table and s.table["status"] == "lobby", "the same four again")
        assert s.table is not None and s.table["host"] == sockets[2].you_id
        assert [x["name"] for x in s.table["seats"]] == [x["name"] for x in finished["seats"]]
    for s in [*sockets, watcher]:
        await s.close()


async def test_a_stale_or_foreign_click_is_refused_as_the_buttons_refuse_it(
    served: Served, session: aiohttp.ClientSession
) -> None:
    sockets = await seat_four(served, session)
    s = to_act(sockets)
    assert s is not None and s.you is not None
    old = s.you["stamp"]
    await s.send({"do": "act", "code": choices(s.you)[0]["code"], "stamp": [old[0], old[1] + 5]})
    await s.wait(lambda s: s.last("refused"), "a refusal")
    assert "out of date" in s.last("refused")["message"]  # type: ignore[index]
    other = next(x for x in sockets if x is not s)
    await other.send({"do": "act", "code": "pass", "stamp": old})
    await other.wait(lambda s: s.last("refused"), "a refusal")
    watcher, _ = await Socket.sign_in(served, session, "Hal")
    await watcher.connect()
    await watcher.send({"do": "act", "code": "pass", "stamp": old})
    await watcher.wait(lambda s: s.last("refused"), "a refusal")
    assert "watching" in watcher.last("refused")["message"]  # type: ignore[index]
    await watcher.send({"do": "nonsense"})
    await watcher.send({"do": "act", "code": "x" * 500, "stamp": old})
    for s in [*sockets, watcher]:
        await s.close()


async def test_the_activity_and_the_buttons_play_one_table(
    served: Served, session: aiohttp.ClientSession
) -> None:
    """Two seats click in the Activity, two through the service as their buttons do."""
    assert served.service is not None
    service = served.service
    sockets = await seat_four(served, session)
    table = service.at(CHANNEL_ID)
    assert table is not None and table.place == Place(GUILD_ID, CHANNEL_ID)
    rng = random.Random(5)
    seats = {s.you["seat"]: s for s in sockets}  # type: ignore[index]
    by_buttons = {seat for seat in seats if seat >= 2}
    while table.status == "playing":
        assert table.game is not None and table.game.turn is not None
        seat = table.game.turn
        stamp = list(table.stamp)
        if seat in by_buttons:
            user = seats[seat].you is not None and table.seats[seat].user_id  # type: ignore[union-attr]
            _, view = service.get_any(table.id).view_for(int(user))
            await (await service.fetch(table.id)).turns.act(
                int(user), seat, table.stamp, rng.choice(view.legal)
            )
        else:
            s = seats[seat]
            await s.wait(lambda s, at=stamp: s.you is not None and s.you["stamp"] == at, "the turn")
            await s.send(rng.choice(choices(s.you)))  # type: ignore[arg-type]
            await until(lambda at=stamp: list(table.stamp) != at, "the click applied")
    for s in sockets:
        await s.wait(lambda s: s.table["status"] == "finished", "the end shown")  # type: ignore[index]
        assert s.table["score"] == list(table.game.score)  # type: ignore[index,union-attr]
        await s.close()


async def test_a_socket_reconnects_mid_deal_and_after_a_restart(
    served: Served, session: aiohttp.ClientSession
) -> None:
    sockets = await seat_four(served, session)
    await play(sockets, random.Random(7), moves=6)
    first = sockets[1]
    hand = first.you["hand"]  # type: ignore[index]
    await first.close()
    again = Socket(served, session, first.ticket)
    await again.connect()
    await again.wait(lambda s: s.you is not None, "the hand again")
    assert again.you["hand"] == hand  # type: ignore[index]
    await served.stop()  # the bot's side goes away: every socket closes
    for s in [sockets[0], *sockets[2:], again]:
        assert s.reader is not None
        await s.reader
    stamp = again.you["stamp"]  # type: ignore[index]
    await served.start()  # restored from the store
    back = []
    for s in [sockets[0], again, *sockets[2:]]:
        b = Socket(served, session, s.ticket)
        await b.connect()
        back.append(b)
    for b in back:
        await b.wait(lambda s: s.you is not None, "the table after the restart")
        assert b.you["stamp"] == stamp  # type: ignore[index]
    assert back[1].you["hand"] == hand  # type: ignore[index]
    await play(back, random.Random(8), moves=4)
    for b in back:
        await b.close()


async def test_the_suits_are_drawn_in_four_colours_for_who_prefers_it(
    served: Served, session: aiohttp.ClientSession
) -> None:
    assert served.service is not None
    plain, _ = await Socket.sign_in(served, session, "Ivy")
    four, user = await Socket.sign_in(served, session, "Jo")
    await served.service.crew.preferences.update(user, four_colour=True)
    for s in (plain, four):
        await s.connect()
        await s.wait(lambda s: s.last("hello"), "the hello")
    assert plain.last("hello")["four_colour"] is False  # type: ignore[index]
    assert four.last("hello")["four_colour"] is True  # type: ignore[index]
    for s in (plain, four):
        await s.close()


async def test_a_seated_persons_four_colours_come_with_their_part_of_the_table(
    served: Served, session: aiohttp.ClientSession
) -> None:
    assert served.service is not None
    sockets = await seat_four(served, session)
    bo = sockets[1]
    assert bo.table is not None and bo.you is not None
    assert not any(s.you and s.you["four_colour"] for s in sockets)
    user = int(bo.table["seats"][bo.you["seat"]]["user"])
    await served.service.crew.preferences.update(user, four_colour=True)
    await play(sockets, random.Random(3), moves=1)  # the next snapshot carries it
    await bo.wait(lambda s: s.you is not None and s.you["four_colour"], "Bo's four colours")
    assert not any(s.you and s.you["four_colour"] for s in sockets if s is not bo)
    for s in sockets:
        await s.close()
