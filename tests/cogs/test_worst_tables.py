"""Tables at their worst, through the real bot: 100-character names, the longest rules, 8 seats.

Every payload the bot sends goes through Discord's contract in the harness, so a
message past a limit fails here; these games reach every phase of a hand (bidding,
going alone, play, the deal's end, the game's end, Play again) with the longest names
Discord could show.
"""

from __future__ import annotations

from bot.render.names import shown
from bot.rules import HouseRules
from bot.server.settings import ServerSettings
from tests.cogs.euchre_driver import act_through_hand, build_bot, only_table, random_policy
from tests.cogs.worst import long_guild, long_name, longest_rules
from tests.conftest import MakeHarness


async def test_five_long_names_and_a_computer_play_a_game_under_the_longest_rules(
    make_harness: MakeHarness,
) -> None:
    rules = longest_rules().with_changes(deals_per_game=2)
    assert rules.players == 6, "the longest rules are a six-hand preset's"
    bot = build_bot(5, server=ServerSettings(rules=rules, allow_hints=True))
    h = await make_harness(bot)
    g = long_guild(h, 5)
    people = [g.member(f"p{i:02d}") for i in range(5)]

    message = (await h.slash(people[0], "euchre new")).message
    for person in people[1:]:
        await h.click(person, message, label="Join")
    await h.click(people[0], message, label="Add computer")  # a casual game: hints allowed
    levels = f"euchre:lvl:{only_table(bot).id}"
    await h.select(people[0], h.message(message.id), values=["basic"], custom_id=levels)
    lobby = h.message(message.id).text
    assert all(shown(long_name(i)) in lobby for i in range(5)), "every seat names its person whole"
    await h.click(people[0], message, label="Start")
    table = only_table(bot)
    policy = random_policy(5)
    by_id = {p.id: p for p in people}
    hinted = False
    while table.status == "playing":
        game = table.game
        assert game is not None and game.turn is not None
        seat = table.seats[game.turn]
        assert seat is not None and seat.user_id is not None
        member = by_id[seat.user_id]
        if len(game.results) == 2 and not hinted:  # a finished deal to review, a turn to hint
            hand = (await h.click(member, h.message(message.id), label="Your hand")).message
            await h.click(member, hand, label="💡 Hint")
            review = [b for b in hand.buttons if str(b.label).startswith("🔍 Review")]
            await h.click(member, hand, custom_id=review[0].custom_id)
            hinted = True
        await act_through_hand(h, bot, member, message, policy)
    final = h.message(message.id)
    assert "game over" in final.text and hinted
    for label in ("Rules", "Hands of the last deal", "Play again"):
        await h.click(people[0], final, label=label)


async def test_the_longest_house_rules_show_whole(make_harness: MakeHarness) -> None:
    bot = build_bot(1, server=ServerSettings(rules=longest_rules()))
    h = await make_harness(bot)
    g = long_guild(h, 1)
    shown = await h.slash(g.member("p00"), "euchre rules show")
    assert "99" in shown.message.text


async def test_eight_long_names_at_bid_euchre_bid_and_play(make_harness: MakeHarness) -> None:
    server = ServerSettings(rules=HouseRules.preset_rules("bid_euchre_8"))
    bot = build_bot(4, server=server)
    h = await make_harness(bot)
    g = long_guild(h, 8)
    people = [g.member(f"p{i:02d}") for i in range(8)]
    message = (await h.slash(people[0], "euchre new")).message
    seat_picker = f"euchre:seat:{only_table(bot).id}"
    for seat, person in enumerate(people[1:], start=1):
        await h.select(person, h.message(message.id), values=[str(seat)], custom_id=seat_picker)
    await h.click(people[0], message, label="Start")
    table = only_table(bot)
    game = table.game
    assert game is not None
    policy = random_policy(4)
    by_id = {p.id: p for p in people}
    while table.status == "playing" and len(game.results) < 2:
        assert game.turn is not None
        seat_of = table.seats[game.turn]
        assert seat_of is not None and seat_of.user_id is not None
        await act_through_hand(h, bot, by_id[seat_of.user_id], message, policy)
    text = h.message(message.id).text
    assert all(shown(long_name(i)) in text for i in range(8)), "the table names all eight whole"
