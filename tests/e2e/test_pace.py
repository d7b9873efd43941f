"""The table keeps pace under Discord's limits (tests/kit/pace.py), and quick players go unpinged.

The fake Discord answers rate limits as Discord does. These tests check what players
would notice, not timings to the millisecond: every card played reaches the public
table, no request is refused with a 429, turn mentions are new messages (a mention
added by an edit notifies nobody) and never for the person who just clicked, and a
click of the bot's prefix that nothing claims is answered at once. They count and order,
never time: they pass on a busy machine. The lags against the goals are figures, printed
by ``python -m lab bench pace``.
"""

from __future__ import annotations

import math
from pathlib import Path

import aiohttp
import pytest

from tests.kit.fake_discord import FakeDiscord, Interaction
from tests.kit.pace import (
    Move,
    PaceFigures,
    Ping,
    Scenario,
    card_count,
    card_lag,
    most_in_window,
    run_scenario,
    shown,
    turn_pings,
)


def check(figures: PaceFigures) -> None:
    assert figures.lags, "no card was played"
    assert all(lag < math.inf for lag in figures.lags), "a played card never reached the table"
    assert figures.rate_limited == 0, "the bot ran into a 429"
    assert figures.most_edits <= 5 and figures.most_posts <= 5
    assert figures.mentions_by_edit == 0, "a mention added by an edit notifies nobody"
    assert figures.pinged_clicker == 0
    assert figures.unknown_click < math.inf, "the unknown click was answered"
    print(figures.text())


@pytest.mark.slow
async def test_four_people_who_think_before_each_move(tmp_path: Path) -> None:
    figures = await run_scenario(tmp_path, Scenario(people=4, moves=16, think=0.8))
    check(figures)
    # Quick players are never pinged (the server waits ping_after, 8 s): at most the
    # person left to act when the players stop is, after that wait.
    assert figures.pings <= 1, "a person who moves within ping_after is not pinged"


@pytest.mark.slow
async def test_one_person_and_three_computers_at_the_default_delay(tmp_path: Path) -> None:
    figures = await run_scenario(
        tmp_path, Scenario(people=1, moves=6, think=0.8, computer_move_delay=1.0)
    )
    check(figures)
    assert figures.pings == 0, "the only person is the one who clicked"


def test_the_measures_count_what_they_say() -> None:
    assert most_in_window([0.0, 1.0, 4.9, 5.0, 5.1, 9.95]) == 3, "windows open at 0 and 5"
    assert most_in_window([0.0, 4.0, 4.5, 4.9, 5.2, 5.3, 6.0, 7.0, 8.0]) == 5
    assert most_in_window([]) == 0
    figures = PaceFigures(Scenario(), lags=[0.1, 0.2, 0.3, 0.4, 2.0])
    assert figures.percentile(50) == 0.3 and figures.percentile(100) == 2.0


def test_a_card_is_counted_as_its_picture_or_its_text() -> None:
    table = "P1 <:euchre_JH_fcca1a2ec3:157811> (right) → P2 <:euchre_four_JH_0a:158> → J♥️ · 10♥"
    assert card_count(table, "JH") == 3, "the hand's button may be text, the table a picture"
    assert card_count(table, "10H") == 1 and card_count(table, "JD") == 0


def test_each_ping_belongs_to_the_turn_open_when_it_landed() -> None:
    alice, bob = 1, 2
    moves = [Move(0, alice, 10.0), Move(0, bob, 31.0), Move(0, alice, 32.0), Move(0, bob, 50.0)]
    pings = [
        Ping(0, bob, 18.3),  # bob waited from 10.0: 0.3 s after ping_after
        Ping(0, bob, 40.5),  # bob's second turn, from 32.0
        Ping(0, alice, 60.0),  # alice's turn from 50.0, still open when the players stopped
    ]
    sorted_pings = turn_pings(moves, pings, {0: 0.0}, {bob}, 8.0)
    assert sorted_pings.in_play == 2 and sorted_pings.left_open == 1
    assert sorted(sorted_pings.per_turn.values()) == [1, 1]
    assert [round(late, 2) for late in sorted_pings.lateness] == [0.3, 0.5]
    unpinged = turn_pings(moves, [], {0: 0.0}, {bob}, 8.0)
    assert list(unpinged.per_turn.values()) == [0, 0], "a waited turn without a ping counts"
    again = [*moves[:2], Move(0, bob, 33.0)]  # bob took it up, then discards: his own turn
    assert list(turn_pings(again, [], {0: 0.0}, {bob}, 8.0).own_turns) == [(0, 31.0)]


async def test_a_card_lag_is_read_from_the_versions_of_the_table() -> None:
    async with FakeDiscord(rate_limits=False) as fake:
        message = fake._new_message({"content": "trick: 9♠"})
        fake._edit(message, {"content": "trick: 9♠ 10♥"})
        fake._edit(message, {"content": "trick: 9♠ 10♥ J♦"})
        t0, t1, t2 = message.times
        assert card_lag(message, "10H", t0) == t1 - t0
        assert card_lag(message, "JD", t0) == t2 - t0
        assert card_lag(message, "QC", t0) == t1 - t0, "not shown: the first newer state"
        assert card_lag(message, "QC", t2) == math.inf

        table = fake._new_message({"content": "deal 2 · trick: 9♠"})
        fake._edit(table, {"content": "deal 3 · upcard A♥"})  # A♥ ended deal 2 unseen
        fake._edit(table, {"content": "deal 3 · trick: A♥"})
        t0, t1, _ = table.times
        assert card_lag(table, "AH", t0) == t1 - t0, "the next deal came first: it is newer"
        assert shown(table, "AH", t0)


async def test_an_interactions_webhook_takes_five_requests_in_two_seconds() -> None:
    async with FakeDiscord() as fake:
        now = [0.0]
        fake.clock = lambda: now[0]  # turned by hand: six requests in the window, however slow
        alice = fake.member("alice")
        for token in ("token-a", "token-b"):
            hand = fake._new_message({"content": "hand"}, visible_to=alice.id)
            interaction = Interaction(
                fake.next_id(), token, 3, alice, fake.channel_id, None, "a click", {}
            )
            interaction.response_type, interaction.original_id = 4, hand.id
            fake.interactions[interaction.id] = interaction

        async with aiohttp.ClientSession() as session:

            async def edit(token: str) -> int:
                url = f"{fake.api_base}/webhooks/{fake.application_id}/{token}/messages/@original"
                body = {"content": "edited", "allowed_mentions": {"parse": []}}
                async with session.patch(url, json=body) as response:
                    return response.status

            fake.limits.expect(429)  # this test's own sixth edit
            assert [await edit("token-a") for _ in range(6)] == [200] * 5 + [429]
            assert await edit("token-b") == 200, "each interaction has a bucket of its own"
            now[0] += fake.webhook_period
            assert await edit("token-a") == 200, "the window opened again"
        assert len(fake.rate_limited) == 1 and fake.problems == []
