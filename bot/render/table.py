"""The public table message: the lobby, the game in progress, the result, and its buttons.

Drawn only from a :class:`~bot.tables.PublicTable`, which holds no hidden card. It is
made to read on a phone: suit symbols, one short line per fact, no wide tables.
:func:`public_controls` says which buttons (and which seat choices) the message shows
at each stage; the cog turns them into components.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

import discord

from bot.tables import CompletedTrick, DealSummary, PublicGame, PublicTable

from .cards import card_text, suit_text
from .hand import ButtonStyle
from .moves import bidding_log
from .rules import rules_line
from .teams import player, seat_label, team_mark, team_names

__all__ = [
    "DEAL_OUTCOMES",
    "LAST_DEAL",
    "TABLE_VERBS",
    "PublicButton",
    "PublicControls",
    "SeatOption",
    "TableVerb",
    "deal_line",
    "played_again_controls",
    "public_controls",
    "table_embed",
    "trick_line",
    "turn_mention",
]

LAST_DEAL: Final = "Last deal"
"""The name of the field about the previous deal (its cards were public in that deal)."""

DEAL_OUTCOMES: Final = {
    "made": "made it",
    "march": "marched (all five tricks)",
    "euchred": "were euchred",
}

_COLOURS: Final = {
    "lobby": discord.Colour.blurple(),
    "playing": discord.Colour.dark_green(),
    "finished": discord.Colour.gold(),
    "aborted": discord.Colour.light_grey(),
}
_TURN_WORDS: Final = {
    "bid1": "bid",
    "bid2": "name trump",
    "discard": "discard",
    "alone": "decide on going alone",
    "give": "pass a card",
    "play": "play",
}


def turn_mention(user_id: int) -> str:
    """The content that tells a person it's their turn (mention them only with this)."""
    return f"<@{user_id}>, it's your turn."


def table_embed(table: PublicTable) -> discord.Embed:
    """The public message of a table at any stage."""
    if table.status == "lobby":
        embed = _lobby(table)
    elif table.status == "aborted":
        embed = discord.Embed(
            title=f"Euchre · table {table.id} · closed",
            description="This table was closed. Start a new one with /euchre new.",
        )
    elif table.game is not None and table.game.view.over:
        embed = _result(table, table.game)
    else:
        assert table.game is not None
        embed = _game(table, table.game)
    embed.colour = _COLOURS[table.status]
    casual = " · host's rules (casual)" if table.rules_overridden else ""
    embed.set_footer(text=f"{rules_line(table.rules)}{casual}")
    return embed


def _seats_line(table: PublicTable) -> str:
    return " → ".join(seat_label(table, s) for s in range(len(table.seats)))


def _score_line(table: PublicTable, game: PublicGame) -> str:
    goal = (
        f"{table.rules.deals_per_game} deals"
        if table.rules.deals_per_game is not None
        else f"to {table.rules.target_score}"
    )
    teams = " — ".join(
        f"{team_mark(t)} {team_names(table, t)} **{game.view.score[t]}**" for t in (0, 1)
    )
    return f"{teams} · {goal}"


# ---------------------------------------------------------------------- lobby


def _lobby(table: PublicTable) -> discord.Embed:
    size = len(table.seats)
    empty = sum(seat is None for seat in table.seats)
    lines = []
    for number, seat in enumerate(table.seats):
        host = " (host)" if seat is not None and seat.user_id == table.host_id else ""
        lines.append(f"{number + 1}. {seat_label(table, number)}{host}")
    teams = " vs ".join(
        f"{team_mark(t)} seats {' & '.join(str(s + 1) for s in range(t, size, 2))}" for t in (0, 1)
    )
    status = (
        f"Waiting for {empty} more player{'s' if empty != 1 else ''}."
        if empty
        else f"Every seat is taken: {table.host_name} can start the game."
    )
    description = (
        f"**Join** takes the next seat; choose a seat to sit opposite your partner. "
        f"The host adds computer players and clicks **Start** when all {size} seats are "
        f"taken.\n{status}"
    )
    embed = discord.Embed(title=f"Euchre · table {table.id} · lobby", description=description)
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    embed.add_field(name="Partners", value=teams, inline=False)
    return embed


# ---------------------------------------------------------------------- game


def _whose_turn(table: PublicTable, game: PublicGame) -> str:
    if game.view.turn is None:
        return ""
    words = _TURN_WORDS.get(game.view.phase or "", "act")
    if game.view.phase == "give" and game.view.turn in game.view.alone:
        words = "ask a partner for a card"
    return f"▶ **{player(table, game.view.turn)}** to {words}"


def _game(table: PublicTable, game: PublicGame) -> discord.Embed:
    description = "\n".join(
        [_score_line(table, game), f"Seats: {_seats_line(table)}", _whose_turn(table, game)]
    )
    embed = discord.Embed(title=f"Euchre · table {table.id}", description=description)
    embed.add_field(
        name=f"Deal {game.view.deal_number}", value=_deal_facts(table, game), inline=False
    )
    bids = bidding_log(table)
    if bids:
        embed.add_field(name="Bidding", value=" · ".join(bids), inline=False)
    if game.view.phase == "play":
        embed.add_field(
            name=f"Trick {len(game.view.tricks) + 1}",
            value=_current_trick(table, game),
            inline=False,
        )
    last = game.last_trick
    if last is not None and last.deal_number == game.view.deal_number:
        embed.add_field(name="Last trick", value=trick_line(table, last), inline=False)
    previous = game.last_deal
    if previous is not None:
        value = deal_line(table, previous)
        if last is not None and last.deal_number == previous.number:
            value += f"\nLast trick: {trick_line(table, last)}"
        embed.add_field(name=LAST_DEAL, value=value, inline=False)
    return embed


def _deal_facts(table: PublicTable, game: PublicGame) -> str:
    dealer = player(table, game.view.dealer)
    lines = [f"Dealer: {dealer}"]
    upcard = card_text(game.view.upcard)
    if game.view.trump is None and game.view.turned_down is None and game.view.phase == "bid2":
        lines.append(f"The Benny {upcard} is turned up: {dealer} names trump.")
    elif game.view.turned_down is not None:
        lines.append(f"Upcard {upcard} was turned down.")
    elif game.view.upcard_taken:
        lines.append(f"{dealer} picked up {upcard}.")
    else:
        lines.append(f"Upcard: {upcard}")
    if game.view.trump is not None and game.view.maker is not None:
        lines.append(
            f"Trump: **{suit_text(game.view.trump)}**, made by {seat_label(table, game.view.maker)}"
        )
    for seat in game.view.alone:
        side = "goes" if game.view.makers == seat % 2 else "defends"
        lines.append(f"{seat_label(table, seat)} {side} alone.")
    out = [player(table, s) for s, sits_out in enumerate(game.view.out) if sits_out]
    if out:
        lines.append(f"Sitting out: {', '.join(out)}.")
    if game.view.phase == "play" or any(game.view.tricks_won):
        won = game.view.tricks_won
        lines.append(f"Tricks: {team_mark(0)} {won[0]} · {team_mark(1)} {won[1]}")
    return "\n".join(lines)


def _play_order(game: PublicGame, leader: int) -> list[int]:
    size = len(game.view.out)
    return [s for s in ((leader + k) % size for k in range(size)) if not game.view.out[s]]


def _current_trick(table: PublicTable, game: PublicGame) -> str:
    leader = game.view.trick[0][0] if game.view.trick else game.view.turn
    if leader is None:
        return "—"
    played = dict(game.view.trick)
    lines = []
    for seat in _play_order(game, leader):
        if seat in played:
            led = " (led)" if seat == leader else ""
            lines.append(f"{seat_label(table, seat)}: **{card_text(played[seat])}**{led}")
        elif seat == game.view.turn:
            lines.append(f"{seat_label(table, seat)}: ▶ to play")
        else:
            lines.append(f"{seat_label(table, seat)}: …")
    return "\n".join(lines)


def trick_line(table: PublicTable, trick: CompletedTrick) -> str:
    """A finished trick on one line: "Dave took it: Bob A♠ · Carol 9♠ · ..."."""
    cards = " · ".join(
        f"{player(table, s)} {card_text(c)}" for s, c in zip(trick.seats, trick.cards, strict=True)
    )
    return f"{seat_label(table, trick.winner)} took it: {cards}"


def _tricks(n: int) -> str:
    return "1 trick" if n == 1 else f"{n} tricks"


def deal_line(table: PublicTable, deal: DealSummary) -> str:
    """A finished deal in one line: who made what, and the points."""
    if deal.result == "passed":
        return f"Deal {deal.number}: everyone passed, the hand was thrown in."
    if deal.result == "redeal":
        return f"Deal {deal.number}: a hand was thrown in (ace no face)."
    if deal.maker is None or deal.trump is None or deal.makers is None:
        return f"Deal {deal.number}: {deal.result}."
    makers = deal.makers
    alone = " alone" if any(s % 2 == makers for s in deal.alone) else ""
    head = (
        f"Deal {deal.number}: {player(table, deal.maker)} made {suit_text(deal.trump)}{alone}; "
        f"{team_mark(makers)} {team_names(table, makers)} took {_tricks(deal.tricks[makers])}"
    )
    winner = makers if deal.result in ("made", "march") else 1 - makers
    outcome = DEAL_OUTCOMES.get(deal.result, deal.result)
    return f"{head} and {outcome}: {team_mark(winner)} +{deal.points[winner]}."


# ---------------------------------------------------------------------- result


def _result(table: PublicTable, game: PublicGame) -> discord.Embed:
    if game.view.winner is None:
        headline = f"🤝 A tie, {game.view.score[0]} to {game.view.score[1]}."
    else:
        w = game.view.winner
        headline = (
            f"🏆 {team_mark(w)} **{team_names(table, w)}** win "
            f"{game.view.score[w]} to {game.view.score[1 - w]}."
        )
    description = "\n".join([headline, _score_line(table, game), f"Seats: {_seats_line(table)}"])
    embed = discord.Embed(title=f"Euchre · table {table.id} · game over", description=description)
    if game.last_trick is not None:
        embed.add_field(name="Last trick", value=trick_line(table, game.last_trick), inline=False)
    played = [d for d in game.deals if d.result not in ("passed", "redeal")]
    if played:
        lines = [deal_line(table, d) for d in played[-8:]]
        skipped = len(played) - len(lines)
        if skipped:
            lines.insert(0, f"({skipped} earlier deals)")
        embed.add_field(name="Deals", value=_fit("\n".join(lines)), inline=False)
    embed.add_field(
        name="Another game?",
        value="Click **Play again** for a new table with the same seats and rules.",
        inline=False,
    )
    return embed


def _fit(text: str, limit: int = 1024) -> str:
    """Cut text to an embed field's limit, whole lines first."""
    while len(text) > limit and "\n" in text:
        text = text.split("\n", 1)[1]
    return text[:limit]


# ---------------------------------------------------------------------- buttons

TableVerb = Literal["join", "leave", "cpu", "start", "hand", "rules", "again", "back"]
"""What a button of the public message does (the hand's Refresh reopens the hand: "hand")."""

TABLE_VERBS: Final[tuple[TableVerb, ...]] = get_args(TableVerb)


@dataclass(frozen=True, slots=True)
class PublicButton:
    """One button of the public table message."""

    verb: TableVerb
    label: str
    style: ButtonStyle = "secondary"
    disabled: bool = False
    row: int = 0


@dataclass(frozen=True, slots=True)
class SeatOption:
    """A seat that may be chosen in the message's seat picker."""

    seat: int
    label: str
    description: str


@dataclass(frozen=True, slots=True)
class PublicControls:
    """The components of the public message: buttons, then a seat picker on row 1."""

    buttons: tuple[PublicButton, ...]
    seats: tuple[SeatOption, ...] = ()
    """The seats to choose from (none: no seat picker)."""


_RULES: Final = PublicButton("rules", "Rules")


def _seat_options(table: PublicTable) -> tuple[SeatOption, ...]:
    """Empty seats and computers' seats, each with its partners."""
    size = len(table.seats)
    options = []
    for number, seat in enumerate(table.seats):
        if seat is not None and not seat.is_computer:
            continue
        partners = " & ".join(str(p + 1) for p in range(number % 2, size, 2) if p != number)
        now = "" if seat is None else f" (instead of {seat.name}, computer)"
        options.append(SeatOption(number, f"Seat {number + 1}{now}", f"Partner of seat {partners}"))
    return tuple(options)


def _lobby_controls(table: PublicTable) -> PublicControls:
    full = all(seat is not None for seat in table.seats)
    options = _seat_options(table)
    buttons = (
        PublicButton("join", "Join", "primary", disabled=not options),
        PublicButton("leave", "Leave"),
        PublicButton("cpu", "Add computer", disabled=full),
        PublicButton("start", "Start", "success", disabled=not full),
        _RULES,
    )
    return PublicControls(buttons, options)


def _game_controls(table: PublicTable) -> PublicControls:
    """Your hand and the rules; taking back a seat left away, taking over a computer's."""
    buttons = [PublicButton("hand", "Your hand", "primary"), _RULES]
    if any(seat is not None and seat.away for seat in table.seats):
        buttons.append(PublicButton("back", "Take my seat back"))
    options = _seat_options(table) if table.allow_takeover else ()
    if options:
        buttons.append(PublicButton("join", "Take a computer's seat"))
    return PublicControls(tuple(buttons), options)


def public_controls(table: PublicTable) -> PublicControls | None:
    """The components of the public table message at its stage (None once it is closed)."""
    if table.status == "lobby":
        return _lobby_controls(table)
    if table.status == "playing":
        return _game_controls(table)
    if table.status == "finished":
        return PublicControls((PublicButton("again", "Play again", "success"), _RULES))
    return None


def played_again_controls() -> PublicControls:
    """The components of a result whose "Play again" was used: the rules only."""
    return PublicControls((_RULES,))
