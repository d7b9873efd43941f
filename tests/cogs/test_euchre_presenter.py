"""The presenter both euchre cogs share: one per bot, and the window open hands refresh in."""

from __future__ import annotations

from bot.discord.tables.presenter import HAND_EDITABLE_FOR, TablePresenter
from tests.cogs.euchre_driver import act_through_hand, clocked_bot, only_table, started
from tests.kit.harness import Harness


async def test_both_cogs_share_one_presenter_and_the_items_reach_the_cog() -> None:
    bot, _ = clocked_bot()
    async with Harness(bot):
        euchre, keeping = bot.get_cog("Euchre"), bot.get_cog("Keeping")
        presenter = getattr(euchre, "presenter", None)
        # Each load of the extension imports its modules afresh: compare by name.
        assert type(presenter).__name__ == TablePresenter.__name__
        assert getattr(keeping, "presenter", None) is presenter
        assert bot.clicks is euchre
        await bot.unload_extension("cogs.euchre")
        assert bot.clicks is None


async def test_an_open_hand_is_refreshed_for_its_turn_until_it_is_too_old_to_edit() -> None:
    bot, clock = clocked_bot()
    async with Harness(bot) as h:
        people, message = await started(h)
        table = only_table(bot)

        async def move() -> bool:
            """The player to act takes their turn; True if they had to reopen their hand."""
            assert table.game is not None and table.game.turn is not None
            seat = table.seats[table.game.turn]
            assert seat is not None
            member = next(p for p in people if p.id == seat.user_id)
            reopened, _ = await act_through_hand(
                h, bot, member, h.message(message.id), lambda b: b[0]
            )
            return reopened

        first_round = [await move() for _ in range(4)]
        assert all(first_round), "nobody had a hand open yet"
        assert [await move() for _ in range(3)] == [False] * 3, "open hands are refreshed"

        await clock.advance(HAND_EDITABLE_FOR + 1)
        # The hand of the player to act was refreshed before the clock moved; the next
        # player's hand is now too old to edit, so they open a fresh one.
        assert [await move(), await move()] == [False, True]
