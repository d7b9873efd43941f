"""A tournament night with the bot as a process: eight members play three rounds to the
champion, and the bot is killed (SIGKILL) in the middle of a round and started again.

Each round's two tables open in threads of the event's channel and ping their four
members there; the members play their hands as people do (tests/kit/fake_players.py), and
the director presses Next round between rounds. After the kill the restarted bot
resumes the event and its tables where they were: the members reopen their hands and
play on, and the event ends with its champion, final standings, and the champion role
given to the winner(s) in the server.
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from tests.kit.bot_process import BotProcess
from tests.kit.fake_discord import FakeDiscord
from tests.kit.payloads import DEFAULT_BOT_PERMISSIONS
from tests.kit.tournament_play import (
    DIRECTOR,
    answered,
    event_id,
    new_event,
    play_round,
    round_tables,
    stored_event,
    wait_for_champion,
    wait_for_next_round,
)
from tests.kit.waiting import BOUND

MEMBERS = [f"m{n}" for n in range(8)]
ROUNDS = 3
ROLE_MANAGER = DEFAULT_BOT_PERMISSIONS.value | discord.Permissions(manage_roles=True).value


@pytest.mark.slow
async def test_a_night_killed_mid_round_plays_on_to_its_champion(tmp_path: Path) -> None:
    async with FakeDiscord(
        members=[DIRECTOR, *MEMBERS], managers=[DIRECTOR], bot_permissions=ROLE_MANAGER
    ) as fake:
        role = fake.add_role("Euchre champion")
        bot = BotProcess(fake, tmp_path / "bot")
        async with bot.killed_at_the_end():
            await bot.start()
            director = fake.member(DIRECTOR)
            event = await new_event(
                fake,
                {"name": "E2E night", "rounds": ROUNDS, "deals": 2, "champion_role": str(role)},
            )
            for name in MEMBERS:
                await answered(fake, fake.member(name), event, "Join")
            await answered(fake, director, fake.messages[event.id], "Start now")

            for number in range(1, ROUNDS + 1):
                tables = await round_tables(fake, number, MEMBERS)
                if number == 2:  # mid-round: some moves made, then kill -9
                    first = tables[0]
                    await first.open_hands()
                    stopped = await first.play(stop=lambda _, p=first: len(p.clicks) >= 6)
                    assert stopped is not None, "the table ended before the kill"
                    await bot.kill()
                    await bot.start()
                await play_round(tables)
                if number < ROUNDS:
                    await wait_for_next_round(fake, event)
                    await answered(fake, director, fake.messages[event.id], "Next round")

            await wait_for_champion(fake, event)
            ended = fake.messages[event.id].buttons
            assert [b.label for b in ended] == ["Standings"], "only the final standings stay"
            events = [m for m in fake.public_messages() if "E2E night" in str(m.payload)]
            assert sum("Final standings" in str(m.payload) for m in events) == 1
            finished = await stored_event(bot, event_id(event))
            by_number = {e.number: e.user_id for e in finished.state.entrants}
            champions = {
                user
                for line in finished.champions()
                for number in line.entrants
                if (user := by_number[number]) is not None
            }
            assert champions, "a champion among the members"

            def crowned() -> bool:
                holders = {u for u, held in fake.member_roles.items() if role in held}
                notices = " ".join(m.content for m in fake.public_messages())
                told = all(f"<@{u}> holds <@&{role}> until" in notices for u in champions)
                return holders == champions and told

            await fake.wait_for(crowned, timeout=BOUND, what="the champion role given and told")
            crowning = next(
                m.content for m in fake.public_messages() if "has finished. Champion" in m.content
            )
            for user in champions:
                assert fake.user(user).name.casefold() in crowning.casefold(), "announced"
            await bot.stop_clean(kills=1)
