"""A finished game's replay as the game page draws it: a table, seat by seat, step by step.

Built from :func:`bot.league.replay_book`'s steps (every hand face up: the game is over).
A step is the bidding of a deal or one of its tricks: each seat's hand around the felt
(without the card it plays to the trick), the trick in the middle in front of whoever
played each card, and what was said in words. The page draws the step it was asked for;
its script steps through the others from :func:`replay_data`, the same views as data,
so a step looks the same however it was reached.

Names stay apart from the words around them: a line of the bidding is a tuple of text
and seat numbers (:data:`Line`), which the page draws each in a ``<bdi>``, so a name
written right to left, or holding a direction override, cannot turn the rest around.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bot.league import ReplayBook, ReplayStep
from bot.render.cards import sort_hand
from bot.render.replays import DEAL_WORDS, Words, describe_action
from bot.rules import Suit
from bot.rules.cards import card_label, card_symbol, card_words
from bot.rules.ranking import NO_TRUMP_HIGH
from bot.store import ArchivedGame

__all__ = [
    "POSITIONS",
    "TEAM_NAMES",
    "CardView",
    "Line",
    "Player",
    "StepView",
    "card_view",
    "deal_starts",
    "players_of",
    "replay_data",
    "step_view",
    "team_members",
    "trump_words",
]

TEAM_NAMES: Final = ("Blue", "Orange")
"""Team 0 (seats 1, 3, 5...) and team 1, as the pages name and colour them."""

POSITIONS: Final = {
    4: ("bottom", "left", "top", "right"),
    6: ("bottom", "left-low", "left-high", "top", "right-high", "right-low"),
    8: (
        "bottom-right",
        "bottom-left",
        "left-low",
        "left-high",
        "top-left",
        "top-right",
        "right-high",
        "right-low",
    ),
}
"""Where each seat sits around the felt, by table size: play passes clockwise."""

Line = tuple[str | int, ...]
"""Words and seats: ``(0, " ordered it up")`` reads "<seat 0's name> ordered it up"."""

_MARK: Final = "\x00"


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as a picture: its label (the sprite's view), its short text and its words."""

    label: str
    text: str
    words: str
    red: bool


def card_view(card: int) -> CardView:
    """A card for the page."""
    red = card < 32 and Suit(card >> 3) in (Suit.HEARTS, Suit.DIAMONDS)
    return CardView(card_label(card), card_symbol(card), card_words(card), red)


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits in a seat: their name as it is, whether a computer, their team and place."""

    seat: int
    name: str
    computer: bool
    team: int
    position: str


def players_of(game: ArchivedGame) -> tuple[Player, ...]:
    """The game's seats in order."""
    size = len(game.players)
    positions = POSITIONS.get(size) or tuple(f"seat-{n}" for n in range(size))
    by_seat = {p.seat: p for p in game.players}
    return tuple(
        Player(
            seat,
            by_seat[seat].display_name if seat in by_seat else "?",
            seat in by_seat and by_seat[seat].is_computer,
            seat % 2,
            positions[seat],
        )
        for seat in range(size)
    )


def team_members(game: ArchivedGame, team: int) -> tuple[Player, ...]:
    """A team's players in seat order."""
    return tuple(p for p in players_of(game) if p.team == team)


@dataclass(frozen=True, slots=True)
class StepView:
    """Everything the game page shows of one step."""

    number: int
    """1-based, as the step's link says (``?step=N``)."""
    count: int
    deal: int
    deals: int
    trick: int
    tricks: int
    dealer: int
    out: tuple[bool, ...]
    hands: tuple[tuple[CardView, ...], ...]
    """Each seat's cards: as dealt while bidding, else those it keeps after the trick."""
    played: tuple[tuple[int, CardView], ...]
    """The trick on the felt: (seat, card) in the order played."""
    upcard: CardView | None
    trump: str | None
    said: tuple[Line, ...]
    """The bidding (``trick`` 0), or the trick's plays, in order."""
    taken_by: int | None
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    deal_result: str | None
    game_result: str | None

    @property
    def heading(self) -> str:
        """The step's heading: "Deal 2 of 5 · trick 3 of 5" (or "· bidding")."""
        part = "bidding" if self.trick == 0 else f"trick {self.trick} of {self.tricks}"
        return f"Deal {self.deal} of {self.deals} · {part}"


def trump_words(trump: int) -> str:
    """Trump as declared: "♥ hearts", "No Trump High", "No Trump Low"."""
    if trump >= NO_TRUMP_HIGH:
        return "No Trump High" if trump == NO_TRUMP_HIGH else "No Trump Low"
    suit = Suit(trump)
    return f"{suit.symbol} {suit.plural}"


_WORDS: Final = Words(card_symbol, trump_words, trump_words)
"""The page's: plain suit symbols, which every browser draws."""

_SEATS: Final = tuple(f"{_MARK}{n}{_MARK}" for n in range(8))
"""Stand-ins for names in :func:`describe_action`'s sentences, found again after."""


def _line(text: str) -> Line:
    """A sentence with seat stand-ins, as words and seat numbers."""
    parts = text.split(_MARK)
    return tuple(int(p) if n % 2 else p for n, p in enumerate(parts) if p)


def _deal_result(step: ReplayStep) -> str:
    assert step.result is not None
    if step.maker is None or step.trump is None:
        return DEAL_WORDS[step.result].capitalize() + "."
    makers = step.maker % 2
    side = "bidders" if step.contract is not None else "makers"
    if step.contract is not None:
        points = ", ".join(f"{TEAM_NAMES[t]} {step.points[t]:+d}" for t in (0, 1))
    else:
        winner = makers if step.result in ("made", "march") else 1 - makers
        points = f"{TEAM_NAMES[winner]} +{step.points[winner]}"
    return (
        f"{TEAM_NAMES[makers]} {side} took {step.tricks_won[makers]} and "
        f"{DEAL_WORDS[step.result]}: {points}."
    )


def deal_starts(book: ReplayBook) -> tuple[int, ...]:
    """The 1-based step that opens each deal (its bidding)."""
    return tuple(start + 1 for start in book.deal_starts)


def step_view(book: ReplayBook, index: int) -> StepView:
    """Step ``index`` (0-based) of the game's replay."""
    step = book.steps[index]
    seats = _SEATS[: len(step.hands)]
    deals = len(book.deal_starts)
    start = book.deal_starts[step.deal]
    end = book.deal_starts[step.deal + 1] if step.deal + 1 < deals else len(book.steps)
    plays = step.trick_play.plays if step.trick_play is not None else ()
    played = dict(plays)
    hands = tuple(
        tuple(card_view(c) for c in sort_hand(hand, step.trump) if played.get(seat) != c)
        for seat, hand in enumerate(step.hands)
    )
    if step.trick == 0:
        said = tuple(_line(describe_action(s, a, seats, step, _WORDS)) for s, a in step.actions)
    else:
        said = tuple((s, f" played {card_symbol(c)}") for s, c in plays)
    bidding = book.rules.game == "bid_euchre" or step.contract is not None
    game_result = None
    if index == len(book.steps) - 1:
        if book.winner is None:
            game_result = f"A tie, {book.score[0]} to {book.score[1]}."
        else:
            w = book.winner
            game_result = f"{TEAM_NAMES[w]} won, {book.score[w]} to {book.score[1 - w]}."
    return StepView(
        number=index + 1,
        count=len(book.steps),
        deal=step.deal + 1,
        deals=deals,
        trick=step.trick,
        tricks=end - start - 1,
        dealer=step.dealer,
        out=step.out,
        hands=hands,
        played=tuple((s, card_view(c)) for s, c in plays),
        upcard=None if bidding or step.trick else card_view(step.upcard),
        trump=None if step.trump is None else trump_words(step.trump),
        said=said,
        taken_by=step.trick_play.winner if step.trick_play is not None else None,
        tricks_won=step.tricks_won,
        score=step.score,
        deal_result=None if step.result is None else _deal_result(step),
        game_result=game_result,
    )


def _step_data(view: StepView) -> dict[str, Any]:
    return {
        "heading": view.heading,
        "deal": view.deal,
        "trick": view.trick,
        "dealer": view.dealer,
        "out": view.out,
        "hands": [[c.label for c in hand] for hand in view.hands],
        "played": [[seat, c.label] for seat, c in view.played],
        "upcard": None if view.upcard is None else view.upcard.label,
        "trump": view.trump,
        "said": view.said,
        "takenBy": view.taken_by,
        "tricksWon": view.tricks_won,
        "score": view.score,
        "dealResult": view.deal_result,
        "gameResult": view.game_result,
    }


def replay_data(book: ReplayBook) -> dict[str, Any]:
    """Every step of the game as the page's script reads it (JSON), and each card's words."""
    views = [step_view(book, i) for i in range(len(book.steps))]
    cards = {c.label: c.words for v in views for hand in v.hands for c in hand}
    cards.update({c.label: c.words for v in views for _, c in v.played})
    cards.update({v.upcard.label: v.upcard.words for v in views if v.upcard is not None})
    return {"steps": [_step_data(v) for v in views], "words": cards}
