"""The public table message: what it shows at each stage, and never a hidden card."""

from __future__ import annotations

import re

import discord
import pytest

from bot.discord.tables.embeds import table_embed
from bot.render import LAST_DEAL, CardFaces, card_text
from bot.render.cards import card_symbol
from bot.render.faces import CardEmoji
from bot.rules import HouseRules
from bot.rules.cards import JACK, card
from bot.tables import Place, Player, Table
from tests.render.games import BID_VARIANTS, VARIANTS, seated_table, steps

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🃏(?:red|black)?")


def text_of(embed: discord.Embed, *, skip: str | None = None) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields if f.name != skip]
    return "\n".join(parts)


def check_limits(embed: discord.Embed) -> None:
    assert len(embed) <= 6000 and len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.value or "") <= 1024, field


def test_the_lobby_shows_seats_partners_host_and_rules() -> None:
    rules = HouseRules.preset_rules("north_american")
    table = Table(7, Place(1, 2), 101, rules, 1)
    table.join(Player(101, "Alice"))
    table.join(Player(102, "Bob"), 2)
    table.add_computer(101)
    embed = table_embed(table.public())
    text = text_of(embed)
    assert "table 7" in text and "lobby" in text
    assert "1. 🔵 Alice (host)" in text and "2. 🟠 Babbage 🤖" in text
    assert "3. 🔵 Bob" in text and "4. 🟠 (empty)" in text
    assert "seats 1 & 3" in text and "Waiting for 1 more player." in text
    assert embed.footer.text == "North American · to 10"


def test_the_game_shows_dealer_upcard_turn_and_score() -> None:
    table = seated_table({"preset": "north_american"}, 3)
    game = table.game
    assert game is not None
    text = text_of(table_embed(table.public()))
    dealer = table.name(game.dealer)
    assert f"Dealer {dealer} · upcard **{card_symbol(game.upcard)}" in text
    assert f"▶ **{table.name(game.turn)}** to bid" in text  # type: ignore[arg-type]
    assert "🔵 Alice & Carol **0** · 🟠 Bob & Dave **0**" in text
    assert text.count("to 10") == 1 and "Seats:" not in text


def test_a_trick_is_laid_out_in_playing_order() -> None:
    for table in steps({"preset": "north_american"}, 5):
        game = table.game
        assert game is not None
        if game.phase == "play" and len(game.trick) == 2:
            break
    else:
        pytest.fail("no trick with two cards")
    embed = table_embed(table.public())
    line = next(x for x in (embed.description or "").splitlines() if x.startswith("**Trick"))
    parts = line.split(":** ", 1)[1].split(" → ")
    assert len(parts) == 4 - game.out.count(True)
    leader, card = game.trick[0]
    assert parts[0].startswith(f"{table.name(leader)} {card_symbol(card)}")
    assert parts[2] == f"▶ {table.name(game.turn)}"  # type: ignore[arg-type]


# Bid Euchre at four only: with a double pack, a hidden card's twin may be shown played.
@pytest.mark.parametrize(
    "spec", [*VARIANTS, BID_VARIANTS[0]], ids=lambda s: "-".join(map(str, s.values()))
)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_hidden_card_is_ever_shown(spec: dict[str, object], seed: int) -> None:
    shown = 0
    for table in steps(spec, seed):
        game = table.game
        assert game is not None
        hidden = {c for hand in game.hands for c in hand} | set(game.kitty)
        hidden.discard(game.upcard)
        hidden_symbols = {card_symbol(c) for c in hidden}
        embed = table_embed(table.public())
        check_limits(embed)
        tokens = set(CARD.findall(text_of(embed, skip=LAST_DEAL)))
        assert not tokens & hidden_symbols, (tokens & hidden_symbols, text_of(embed))
        last = table.last_trick
        previous = {card_symbol(c) for c in last.cards} if last else set()
        for field in embed.fields:
            if field.name == LAST_DEAL:
                assert set(CARD.findall(field.value or "")) <= previous
        shown += len(tokens)
    assert shown > 0
    assert "game over" in (embed.title or "") or not game.over


def test_the_result_names_the_winners_and_the_deals() -> None:
    *_, table = steps({"preset": "north_american"}, 8, limit=5000)
    game = table.game
    assert game is not None and game.over and game.winner is not None
    embed = table_embed(table.public())
    check_limits(embed)
    text = text_of(embed)
    winners = "Alice & Carol" if game.winner == 0 else "Bob & Dave"
    assert f"🏆 {'🔵' if game.winner == 0 else '🟠'} **{winners}** win" in text
    assert "Last deals" in text and "Play again" in text


def test_a_closed_table_says_so() -> None:
    table = seated_table({"preset": "north_american"}, 1)
    table.abort(table.host_id)
    embed = table_embed(table.public())
    assert "closed" in (embed.title or "") and not embed.fields


def test_a_bower_in_the_trick_is_named_as_the_trump_it_is_and_pictures_replace_text() -> None:
    found = None
    for table in steps({"preset": "north_american"}, 5, limit=5000):
        game = table.game
        assert game is not None
        if game.trump is not None and any(
            c >> 3 == 3 - game.trump and c & 7 == JACK for _, c in game.trick
        ):
            found = table
            break
    assert found is not None and found.game is not None
    trump = found.game.trump
    assert trump is not None
    left = card(JACK, 3 - trump)
    text = table_embed(found.public()).description or ""
    assert f"{card_text(left)} (left)" in text
    faces = CardFaces({c: CardEmoji(f"euchre_c{c}_00", 1000 + c) for c in range(38)})
    drawn = table_embed(found.public(), faces).description or ""
    assert f"<:euchre_c{left}_00:{1000 + left}> (left)" in drawn
    trick = next(x for x in drawn.splitlines() if x.startswith("**Trick"))
    assert not any(s in trick for s in "♣♦♥♠")


@pytest.mark.parametrize("spec", [VARIANTS[0], BID_VARIANTS[0]], ids=["euchre", "bid_euchre"])
def test_the_last_trick_of_a_deal_stays_readable_while_the_next_is_bid(
    spec: dict[str, object],
) -> None:
    for table in steps(spec, 4, limit=5000):
        game = table.game
        last = table.last_trick
        assert game is not None
        if game.deal_number >= 2 and game.trump is None and last is not None:
            break
    else:
        pytest.fail("no bidding after a played deal")
    assert last.deal_number == game.deal_number - 1
    embed = table_embed(table.public())
    check_limits(embed)
    field = next(f for f in embed.fields if f.name == LAST_DEAL)
    lines = (field.value or "").splitlines()
    assert lines[0].startswith(f"Deal {last.deal_number}:")
    assert lines[1].startswith("Last trick: ")
    shown = set(CARD.findall(lines[1]))
    assert shown == {card_symbol(c) for c in last.cards}
