"""The public table message: the lobby, the game in progress and the result.

Drawn only from a :class:`~bot.tables.PublicTable`, which holds no hidden card. It is
made to read on a phone: suit symbols, one short line per fact, no wide tables.
Its buttons are described in :mod:`bot.render.controls`.
"""

from __future__ import annotations

from typing import Final

from bot.tables import CompletedTrick, PublicGame, PublicTable, Seat

from .cards import bower_word, card_text, suit_text, trump_text
from .claims import claim_line
from .deals import DEAL_OUTCOMES, deal_line, tricks_line
from .faces import NO_FACES, CardFaces
from .fitting import shorten
from .moves import bidding_line
from .names import shown
from .panel import Colour, Panel
from .rules import rules_line
from .teams import level_name, player, seat_label, team_mark, team_names
from .turn_words import turn_words
from .web_links import table_page, web_line

__all__ = [
    "DEAL_OUTCOMES",
    "LAST_DEAL",
    "deal_line",
    "result_line",
    "score_line",
    "table_panel",
    "trick_line",
    "turn_mention",
]

LAST_DEAL: Final = "Last deal"
"""The name of the field about the previous deal (its cards were public in that deal)."""


_COLOURS: Final[dict[str, Colour]] = {
    "lobby": "blurple",
    "playing": "dark_green",
    "finished": "gold",
    "aborted": "light_grey",
}
_RESULT_DEALS: Final = 3
"""The deals a result lists (the earlier ones are counted); two at eight seats."""


def _name(table: PublicTable) -> str:
    return "Bid Euchre" if table.rules.game == "bid_euchre" else "Euchre"


def turn_mention(user_id: int) -> str:
    """The content that tells a person it's their turn (mention them only with this)."""
    return f"<@{user_id}>, it's your turn."


def table_panel(table: PublicTable, faces: CardFaces = NO_FACES, *, web: str = "") -> Panel:
    """The public message of a table at any stage (cards drawn with ``faces`` where they can).

    ``web``: the pages' address when the server's are on the web
    (:func:`~bot.render.web_links.public_base`); a game that is over links its replay then.
    A claim that ended the last deal is said first ("Alice claims the last 3 tricks").
    """
    if table.status == "lobby":
        panel = _lobby(table)
    elif table.status == "aborted":
        panel = Panel(
            f"{_name(table)} · table {table.number} · closed",
            "This table was closed. Start a new one with /euchre new.",
        )
    elif table.game is not None and table.game.view.over:
        panel = _result(table, table.game, faces)
        if web:
            url = table_page(web, table.place.guild_id, table.id)
            panel.description = f"{panel.description}\n{web_line('The replay', url)}"
    else:
        assert table.game is not None
        panel = _game(table, table.game, faces)
    if table.claim is not None and table.status != "aborted":
        said = claim_line(shown(table.name(table.claim.seat)), table.claim.tricks)
        panel.description = f"🙌 {said}.\n{panel.description or ''}".rstrip()
    panel.colour = _COLOURS[table.status]
    casual = " · host's rules (casual)" if table.rules_overridden else ""
    if table.hinted:
        casual += " · a hint was used (casual)"
    panel.footer = f"{rules_line(table.rules)}{casual}"
    return panel


def score_line(table: PublicTable, game: PublicGame) -> str:
    """Both partnerships and their points (the goal is in the footer's rules line)."""
    return " · ".join(
        f"{team_mark(t)} {team_names(table, t)} **{game.view.score[t]}**" for t in (0, 1)
    )


def result_line(table: PublicTable, game: PublicGame) -> str:
    """Who won a game that is over, and by what score (or a tie)."""
    score = game.view.score
    if game.view.winner is None:
        return f"🤝 A tie, {score[0]} to {score[1]}."
    w = game.view.winner
    return f"🏆 {team_mark(w)} **{team_names(table, w)}** win {score[w]} to {score[1 - w]}."


# ---------------------------------------------------------------------- lobby


def _lobby(table: PublicTable) -> Panel:
    size = len(table.seats)
    empty = sum(seat is None for seat in table.seats)
    labels = []
    for number, seat in enumerate(table.seats):
        host = " (host)" if seat is not None and seat.user_id == table.host_id else ""
        labels.append(f"{number + 1}. {seat_label(table, number)}{host}")
    # Eight seats read two to a line, so the lobby still fits a phone.
    per_line = 2 if size > 6 else 1
    lines = [" · ".join(labels[i : i + per_line]) for i in range(0, size, per_line)]
    teams = " vs ".join(
        f"{team_mark(t)} seats {' & '.join(str(s + 1) for s in range(t, size, 2))}" for t in (0, 1)
    )
    status = (
        f"Waiting for {empty} more player{'s' if empty != 1 else ''}."
        if empty
        else f"Every seat is taken: {shown(table.host_name)} can start the game."
    )
    description = (
        f"**Join** takes the next seat; choose a seat to sit opposite your partner. "
        f"The host adds computer players, chooses how well they play, and clicks **Start** "
        f"when all {size} seats are taken.\n"
        f"Computer players: **{level_name(table.computer_level)}**.\n{status}"
    )
    panel = Panel(f"{_name(table)} · table {table.number} · lobby", description)
    panel.add_field(name="Seats", value="\n".join(lines), inline=False)
    panel.add_field(name="Partners", value=teams, inline=False)
    return panel


# ---------------------------------------------------------------------- game
#
# A game in progress is one short description, made to read on a phone: the score,
# the deal's facts (dealer and upcard, then trump and its makers), then what is
# happening now (the bidding, or the trick). The deal before is one field while the
# next one is bid. Each part is a function of its own, so another family of games
# can put its own facts (bids, contracts) in their place.


def _whose_turn(table: PublicTable, game: PublicGame) -> str:
    if game.view.turn is None:
        return ""
    return f"▶ **{player(table, game.view.turn)}** to {turn_words(game.view)}"


def _game(table: PublicTable, game: PublicGame, faces: CardFaces) -> Panel:
    view = game.view
    lines = [score_line(table, game), *_deal_lines(table, game)]
    last = game.last_trick
    if view.phase == "play":
        tricks = tricks_line(game.view)
        lines.append(f"{tricks} · {_whose_turn(table, game)}")
        lines.append(f"**Trick {len(view.tricks) + 1}:** {_current_trick(table, game, faces)}")
        if last is not None and last.deal_number == view.deal_number:
            lines.append(f"Last trick: {trick_line(table, last, faces, view.trump)}")
    else:
        bids = bidding_line(table) if view.trump is None else ""
        if bids:
            lines.append(f"Bids: {bids}")
        bidding = view.rules.game == "bid_euchre"
        lines.append(_bid_turn(table, game) if bidding else _whose_turn(table, game))
    panel = Panel(
        f"{_name(table)} · table {table.number} · deal {view.deal_number}", "\n".join(lines)
    )
    previous = game.last_deal
    if previous is not None and view.trump is None:
        value = deal_line(table, previous)
        if last is not None and last.deal_number == previous.number:
            value += f"\nLast trick: {_cards_and_taker(table, last, faces, previous.trump)}"
        panel.add_field(name=LAST_DEAL, value=value, inline=False)
    return panel


def _bid_turn(table: PublicTable, game: PublicGame) -> str:
    """Bid Euchre before trump is named: whose turn, and the dealer (who may match a bid)."""
    dealer = player(table, game.view.dealer, then=_first_actor(game, game.view.dealer))
    turn = _whose_turn(table, game)
    if not turn:
        return f"Dealer {dealer}"
    return f"{turn} (dealer)" if game.view.turn == game.view.dealer else f"{turn} · dealer {dealer}"


def _contract(table: PublicTable, game: PublicGame) -> str:
    """Bid Euchre: the winning bid and trump: "Bid 🔵 Alice 4 · ♥️ hearts"."""
    view = game.view
    contract = view.contract
    assert contract is not None
    who = _maker(table, game) if view.trump is not None else seat_label(table, contract.seat)
    bid = f"{who} shoots" if contract.shoot else f"{who} {contract.tricks}"
    trump = "" if view.trump is None else f" · **{trump_text(view.trump)}**"
    return f"Bid {bid}{trump}"


def _first_actor(game: PublicGame, seat: int) -> Seat | None:
    """Who made the seat's first action of this deal (None: it has not acted yet)."""
    for index, (actor, _) in enumerate(game.view.history):
        if actor == seat:
            return game.actor(index)
    return None


def _maker(table: PublicTable, game: PublicGame) -> str:
    """The maker with their team mark, named as they were when trump was made."""
    view = game.view
    assert view.maker is not None
    for index, (seat, action) in enumerate(view.history):
        if action.do in ("order_up", "call", "declare"):
            return seat_label(table, seat, then=game.actor(index))
    return seat_label(table, view.maker)


def _deal_lines(table: PublicTable, game: PublicGame) -> list[str]:
    """Dealer and upcard while bidding; trump, its makers and who is alone once made."""
    view = game.view
    dealer = player(table, view.dealer, then=_first_actor(game, view.dealer))
    if view.rules.game == "bid_euchre":
        if view.contract is None or view.trump is None:
            return []  # the dealer is named on the turn line (_bid_turn), saving a phone line
        if view.phase == "play":
            return [_contract(table, game)]
        return [f"Dealer {dealer} · {_contract(table, game)}"]
    upcard = card_text(view.upcard)
    lines = []
    if view.trump is None:
        if view.turned_down is None and view.phase == "bid2":
            lines.append(f"The Benny {upcard} is turned up: dealer {dealer} names trump.")
        elif view.turned_down is not None:
            lines.append(f"Dealer {dealer} · {upcard} turned down")
        else:
            lines.append(f"Dealer {dealer} · upcard **{upcard}**")
    elif view.upcard_taken and view.phase != "play":
        lines.append(f"Dealer {dealer} picked up **{upcard}**")
    if view.trump is not None and view.maker is not None:
        alone = " alone" if view.maker in view.alone else ""
        line = f"Trump **{suit_text(view.trump)}**, made by {_maker(table, game)}{alone}"
        defenders = [s for s in view.alone if view.makers != s % 2]
        for seat in defenders:
            line += f" · {seat_label(table, seat)} defends alone"
        lines.append(line)
    return lines


def _play_order(game: PublicGame, leader: int) -> list[int]:
    size = len(game.view.out)
    return [s for s in ((leader + k) % size for k in range(size)) if not game.view.out[s]]


def _card(card: int, trump: int | None, faces: CardFaces) -> str:
    """A card of a trick: its face, a top trump named ("J♥️ (left)")."""
    word = bower_word(card, trump)
    return f"{faces.inline(card)} ({word})" if word and word != "Benny" else faces.inline(card)


def _current_trick(table: PublicTable, game: PublicGame, faces: CardFaces) -> str:
    """The trick so far in playing order: "Carol 10♣️ → Dave Q♣️ → ▶ Alice → Bob"."""
    view = game.view
    leader = view.trick[0][0] if view.trick else view.turn
    if leader is None:
        return "—"
    played = {seat: (i, card) for i, (seat, card) in enumerate(view.trick)}
    first_play = len(view.history) - len(view.trick)
    parts = []
    for seat in _play_order(game, leader):
        if seat in played:
            i, card = played[seat]
            who = player(table, seat, then=game.actor(first_play + i))
            parts.append(f"{who} {_card(card, view.trump, faces)}")
        elif seat == view.turn:
            parts.append(f"▶ {player(table, seat)}")
        else:
            parts.append(player(table, seat))
    return " → ".join(parts)


def trick_line(
    table: PublicTable, trick: CompletedTrick, faces: CardFaces = NO_FACES, trump: int | None = None
) -> str:
    """A finished trick on one line, the winner in bold: "Alice J♥️ · **Carol J♣️** · ..."."""
    parts = []
    for i, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
        part = f"{player(table, seat, then=trick.player(i))} {_card(card, trump, faces)}"
        parts.append(f"**{part}**" if seat == trick.winner else part)
    return " · ".join(parts)


def _cards_and_taker(
    table: PublicTable, trick: CompletedTrick, faces: CardFaces, trump: int | None
) -> str:
    """A finished trick in few columns: its cards in order, then who took it."""
    cards = " ".join(_card(card, None, faces) for card in trick.cards)
    taker = trick.seats.index(trick.winner)
    return f"{cards} · **{player(table, trick.winner, then=trick.player(taker))}** took it"


# ---------------------------------------------------------------------- result


def _result(table: PublicTable, game: PublicGame, faces: CardFaces) -> Panel:
    description = "\n".join([result_line(table, game), score_line(table, game)])
    panel = Panel(f"{_name(table)} · table {table.number} · game over", description)
    last = game.last_trick
    if last is not None:
        trump = game.last_deal.trump if game.last_deal is not None else None
        panel.add_field(
            name="Last trick", value=trick_line(table, last, faces, trump), inline=False
        )
    played = [d for d in game.deals if d.result not in ("passed", "redeal")]
    if played:
        shown = _RESULT_DEALS if len(table.seats) <= 6 else _RESULT_DEALS - 1
        lines = [deal_line(table, d) for d in played[-shown:]]
        skipped = len(played) - len(lines)
        if skipped:
            lines.insert(0, f"({skipped} earlier deals)")
        panel.add_field(name="Last deals", value=_fit("\n".join(lines)), inline=False)
    panel.description = (
        f"{panel.description}\n**Play again** deals a new game with the same seats and rules."
    )
    return panel


def _fit(text: str, limit: int = 1024) -> str:
    """Cut text to an panel field's limit, whole lines first."""
    while len(text) > limit and "\n" in text:
        text = text.split("\n", 1)[1]
    return shorten(text, limit)
