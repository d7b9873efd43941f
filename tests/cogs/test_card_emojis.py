"""The card pictures: uploaded as the application's emojis only when missing or changed, used
on the hand's buttons and in the table's trick."""

from __future__ import annotations

import base64

from bot.discord.app import EuchreBot
from bot.discord.tables.card_emojis import upload_card_faces
from bot.render import NO_FACES
from bot.render.card_images import CardPicture, card_pictures, draw_card, emoji_pictures
from bot.rules import parse_card
from tests.cogs.euchre_driver import action_buttons, only_table
from tests.cogs.test_euchre_keeping import make_bot, one_person_playing
from tests.kit.harness import Harness

PNG = b"\x89PNG\r\n\x1a\n"


async def uploaded(bot: EuchreBot) -> None:
    cog = bot.get_cog("CardEmojis")
    assert cog is not None and cog.task is not None  # type: ignore[attr-defined]
    await cog.task  # type: ignore[attr-defined]


def posts(h: Harness) -> list[str]:
    return [
        str(s.body["name"])  # type: ignore[index]
        for s in h.sent
        if s.kind == "app_emoji" and s.method == "POST"
    ]


def test_every_card_has_a_small_picture_and_a_name_carrying_its_hash() -> None:
    pictures = card_pictures()
    assert len(pictures) == 38 and len({p.name for p in pictures}) == 38
    for picture in pictures:
        assert picture.png.startswith(PNG) and len(picture.png) < 256 * 1024
        assert 2 <= len(picture.name) <= 32 and picture.name.replace("_", "").isalnum()
    ten = pictures[parse_card("10H")]
    assert ten.name.startswith("euchre_10H_") and ten.label_prefix == "euchre_10H_"
    assert draw_card(parse_card("10H")).size == (96, 96)


async def test_the_first_start_uploads_every_picture_and_the_next_none() -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        await uploaded(bot)
        pictures = card_pictures()
        assert sorted(posts(h)) == sorted(p.name for p in emoji_pictures())
        body = next(s.body for s in h.sent if s.kind == "app_emoji" and s.method == "POST")
        image = str(body["image"])  # type: ignore[index]
        assert image.startswith("data:image/png;base64,")
        assert base64.b64decode(image.split(",", 1)[1]).startswith(PNG)
        first = {e["name"]: e["id"] for e in h.app_emojis.values()}
        assert bot.card_faces.inline(parse_card("JD")) == (
            f"<:{pictures[parse_card('JD')].name}:{first[pictures[parse_card('JD')].name]}>"
        )
        kept = dict(h.app_emojis)

    again, _ = make_bot()
    second = Harness(again)
    second.app_emojis.update(kept)
    async with second:
        await uploaded(again)
        assert posts(second) == [] and second.app_emojis == kept
        assert again.card_faces.emoji(parse_card("JD")) is not None


async def test_a_changed_picture_replaces_the_old_emoji_and_others_are_left_alone() -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        await uploaded(bot)
        h.app_emojis[1] = {"id": "1", "name": "someone_elses", "image": "x"}
        pictures = list(emoji_pictures())
        old = pictures[0]
        changed = CardPicture(old.card, old.png + b"\0", f"{old.label_prefix}0123456789")
        pictures[0] = changed
        faces, count = await upload_card_faces(bot, pictures)
        assert count == 1
        names = {e["name"] for e in h.app_emojis.values()}
        assert changed.name in names and old.name not in names and "someone_elses" in names
        assert len(names) == 38 + 16 + 1
        emoji = faces.emoji(old.card)
        assert emoji is not None and emoji.name == changed.name


async def test_the_hand_and_the_trick_show_the_pictures_and_the_text_stays_a_fallback() -> None:
    bot, _ = make_bot()
    async with Harness(bot) as h:
        _, alice, message = await one_person_playing(h)
        await uploaded(bot)
        table = only_table(bot)
        assert table.game is not None and table.game.trick and table.game.trump is not None
        hand = await h.click(alice, h.message(message.id), label="Your hand")
        cards = [b for b in hand.reply.buttons if (b.custom_id or "").count(":") >= 6]
        assert cards and all(b["emoji"]["name"].startswith("euchre_") for b in cards)
        assert all(b.label in (None, "", "right", "left", "Benny") for b in cards)
        assert "Blue buttons are trump" in hand.reply.text
        (play,) = action_buttons(h.last_ephemeral(alice))[:1]
        await h.click(alice, h.last_ephemeral(alice), custom_id=play.custom_id)
        (embed,) = h.message(message.id).embeds
        lines = embed["description"].splitlines()
        played = [x for x in lines if x.startswith(("**Trick", "Last trick"))]
        shown = "".join(played)
        assert "<:euchre_" in shown and not any(s in shown for s in "♣♦♥♠"), played

        bot.card_faces = NO_FACES
        text_hand = await h.click(alice, h.message(message.id), label="Your hand")
        labels = [b.label or "" for b in text_hand.reply.buttons if "emoji" not in b]
        assert any("\ufe0f" in label for label in labels)  # suits in their coloured form
