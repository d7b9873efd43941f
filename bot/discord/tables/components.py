"""The discord.ui components of the table and of a private hand, as render describes them.

:func:`bot.render.public_controls` and :func:`bot.render.hand_buttons` say which buttons
a message shows; this module turns them into the :mod:`.routes` items, whose custom_ids
carry the table id, so they keep working after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.discord.buttons import (
    action_button,
    level_select,
    seat_select,
    table_button,
    table_review_button,
)
from bot.discord.routes import CLAIM_CODE
from bot.discord.tables.embeds import closed_hand_embed, hand_embed
from bot.league import LeagueService
from bot.render import (
    NO_FACES,
    CardFaces,
    HandButton,
    PublicControls,
    hand_buttons,
    played_again_controls,
    public_controls,
)
from bot.tables import (
    NoTableError,
    PublicTable,
    TableClosedError,
    TableSnapshot,
)

__all__ = [
    "PublicMessage",
    "closed_hand",
    "end_embed",
    "finished_of",
    "finished_view",
    "gone_view",
    "hand_view",
    "private_hand",
    "public_view",
    "table_review_view",
]

_STYLES: Final = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class PublicMessage:
    """The arguments of a public table message (it mentions nobody: pings are apart)."""

    embed: discord.Embed
    view: discord.ui.View | None

    @property
    def view_or_missing(self) -> discord.ui.View:
        """The view, or discord.py's "none" for a new message (which takes no None)."""
        return discord.utils.MISSING if self.view is None else self.view


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    # Clicks reach the items through the dynamic-item registry, not through this view:
    # a stopped view is sent as components only, and discord.py keeps nothing per message.
    view.stop()
    return view


def _controls_view(table_id: int, controls: PublicControls) -> discord.ui.View:
    """The discord.ui components of what :func:`bot.render.public_controls` describes."""
    items: list[discord.ui.Item[Any]] = [
        table_button(
            table_id,
            b.verb,
            label=b.label,
            style=_STYLES[b.style],
            disabled=b.disabled,
            row=b.row,
        )
        for b in controls.buttons
    ]
    if controls.seats:
        options = [
            discord.SelectOption(label=o.label, value=str(o.seat), description=o.description)
            for o in controls.seats
        ]
        items.append(seat_select(table_id, options, row=1, placeholder=controls.seat_prompt))
    if controls.levels:
        levels = [
            discord.SelectOption(label=o.label, value=o.level, default=o.chosen)
            for o in controls.levels
        ]
        items.append(level_select(table_id, levels, row=2))
    return _view(*items)


def public_view(table: PublicTable, *, activity: bool = False) -> discord.ui.View | None:
    """The components of the public table message at its stage (None once it is closed)."""
    controls = public_controls(table, activity=activity)
    return None if controls is None else _controls_view(table.id, controls)


def finished_view(table_id: int) -> discord.ui.View:
    """The components of a result whose "Play again" was used: the rules only."""
    return _controls_view(table_id, played_again_controls())


def hand_view(
    table_id: int,
    seat: int,
    stamp: tuple[int, int],
    buttons: list[HandButton],
    faces: CardFaces = NO_FACES,
    *,
    hint: bool = False,
    claim: bool = False,
    review: int = 0,
) -> discord.ui.View:
    """The components of a private hand, with Refresh (and Hint, if ``hint``) on the last row.

    With ``claim``, a Claim button on that row too: the seat's cards take every trick left.
    With ``review`` (a finished deal's number), a Review button for that deal.

    A card's button shows its picture from ``faces`` where there is one (its label then
    only names a bower), else its text.
    """
    items: list[discord.ui.Item[Any]] = []
    for b in buttons:
        face = None if b.card is None else faces.emoji(b.card)
        emoji = None if face is None else discord.PartialEmoji(name=face.name, id=face.id)
        items.append(
            action_button(
                table_id,
                seat,
                stamp,
                str(b.action),
                b.position,
                label=b.label if emoji is None else b.role,
                emoji=emoji,
                style=_STYLES[b.style],
                disabled=b.disabled,
                row=b.row,
            )
        )
    items.append(table_button(table_id, "hand", label="↻ Refresh", row=4))
    if hint:
        items.append(table_button(table_id, "hint", label="💡 Hint", row=4))
    if claim:
        items.append(
            action_button(
                table_id,
                seat,
                stamp,
                CLAIM_CODE,
                label="🙌 Claim the rest",
                style=discord.ButtonStyle.success,
                row=4,
            )
        )
    if review:
        items.append(
            table_review_button(table_id, seat, review, label=_review_label(review), row=4)
        )
    return _view(*items)


def _review_label(deal: int) -> str:
    return f"🔍 Review deal {deal}"


def closed_hand(
    public: PublicTable, seat: int | None, review: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """A closed table's hand of ``seat``: its end, with a finished game's Review of ``review``."""
    if seat is None or not review:
        return closed_hand_embed(public), None
    button = table_review_button(public.id, seat, review, label=_review_label(review))
    return closed_hand_embed(public), _view(button)


def private_hand(
    table: TableSnapshot, user_id: int, faces: CardFaces = NO_FACES
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The private hand of ``user_id`` (with Review where allowed); once closed, its end.

    All from the snapshot: the person's view, colours, claim and hint offers. Refused
    (``NotSeatedError``, ``WrongStageError``) as the table refuses a hand.
    """
    review, public = table.reviewable, table.public
    if not table.is_open:
        return closed_hand(public, table.seat_of(user_id), review)
    person, view = table.hand_of(user_id)
    four_colour = person.four_colour
    buttons = hand_buttons(public, view, four_colour=four_colour)
    shown = hand_view(
        table.id,
        person.seat,
        table.stamp,
        buttons,
        faces.coloured(four_colour),
        hint=person.hint,
        claim=person.claim,
        review=review,
    )
    return hand_embed(public, view, four_colour=four_colour), shown


def table_review_view(table_id: int, seat: int, deal: int, deals: int) -> discord.ui.View | None:
    """Previous and next deal of a table's review; None when there is one deal to review."""
    if deals <= 1:
        return None
    return _view(
        table_review_button(
            table_id, seat, deal - 1, "p", label="◀ Previous deal", disabled=deal <= 1
        ),
        table_review_button(
            table_id, seat, deal + 1, "n", label="Next deal ▶", disabled=deal >= deals
        ),
    )


def end_embed(refusal: TableClosedError | NoTableError) -> discord.Embed | None:
    """A hand's end below the refusal: the closed table's result, where it is known."""
    public = refusal.public if isinstance(refusal, TableClosedError) else None
    return None if public is None else closed_hand_embed(public)


def finished_of(refusal: TableClosedError | NoTableError) -> PublicTable | None:
    """The finished game a refused hand's click was at, if the refusal says it finished."""
    public = refusal.public if isinstance(refusal, TableClosedError) else None
    return public if public is not None and public.status == "finished" else None


def gone_view(
    table: TableSnapshot | None,
    refusal: TableClosedError | NoTableError,
    user_id: int,
    league: LeagueService | None,
) -> discord.ui.View | None:
    """A closed table's hand after a click on it: a finished game's Review, where it is kept.

    A table memory still holds (``table``, its snapshot) offers the review of its last deal,
    as its hands did; one it no longer holds (after a restart) offers it from the archive,
    where the bot's ``league`` keeps finished games: the refusal's public table says who sat
    where and how many deals the game had.
    """
    public = finished_of(refusal)
    if public is None:
        return None
    if table is not None:
        return closed_hand(table.public, table.seat_of(user_id), table.reviewable)[1]
    if league is None or public.game is None:
        return None
    seat = next(
        (n for n, s in enumerate(public.seats) if s is not None and s.user_id == user_id), None
    )
    deals = len(public.game.deals)
    if seat is None or not deals:
        return None
    return _view(table_review_button(public.id, seat, deals, label=_review_label(deals)))
