"""One step of a finished game's replay as the game page shows it: seats, cards, words.

Built from :func:`bot.league.replay_book`'s steps (every hand face up: the game is over).
Cards are named in words for their pictures' alternative text; names stay plain text,
which the templates escape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.league import ReplayBook, ReplayStep
from bot.render.cards import sort_hand
from bot.render.replays import DEAL_WORDS, Words, describe_action
from bot.rules import Suit
from bot.rules.cards import card_label, card_symbol, card_words
from bot.rules.ranking import NO_TRUMP_HIGH
from bot.store import ArchivedGame

__all__ = [
    "TEAM_NAMES",
    "CardView",
    "SeatView",
    "StepView",
    "card_view",
    "seat_names",
    "step_view",
    "team_of",
]

TEAM_NAMES: Final = ("Blue", "Orange")
"""Team 0 (seats 1, 3, 5...) and team 1, as the pages name and colour them."""


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as a picture: its file's label, its short text and its words."""

    label: str
    text: str
    words: str
    red: bool
    played: bool = False


def card_view(card: int, *, played: bool = False) -> CardView:
    """A card for the page; ``played`` marks the card a seat plays in the step's trick."""
    red = card < 32 and Suit(card >> 3) in (Suit.HEARTS, Suit.DIAMONDS)
    return CardView(card_label(card), card_symbol(card), card_words(card), red, played)


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat at this step: who, their team, whether they deal or sit out, their hand."""

    seat: int
    name: str
    team: int
    dealer: bool
    out: bool
    cards: tuple[CardView, ...]


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
    seats: tuple[SeatView, ...]
    upcard: CardView | None
    trump: str | None
    said: tuple[str, ...]
    """The bidding (``trick`` 0) or the trick's plays, in order, in words."""
    taken_by: str | None
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    deal_result: str | None
    game_result: str | None


def seat_names(game: ArchivedGame) -> list[str]:
    """Each seat's player, a computer marked "(computer)"."""
    names = ["?"] * len(game.players)
    for p in game.players:
        names[p.seat] = f"{p.display_name} (computer)" if p.is_computer else p.display_name
    return names


def team_of(game: ArchivedGame, team: int) -> str:
    """A team's players in seat order: "Ada & Cy"."""
    names = seat_names(game)
    return " & ".join(
        names[p.seat] for p in sorted(game.players, key=lambda p: p.seat) if p.team == team
    )


def trump_words(trump: int) -> str:
    """Trump as declared: "♥ hearts", "No Trump High", "No Trump Low"."""
    if trump >= NO_TRUMP_HIGH:
        return "No Trump High" if trump == NO_TRUMP_HIGH else "No Trump Low"
    suit = Suit(trump)
    return f"{suit.symbol} {suit.plural}"


_WORDS: Final = Words(card_symbol, trump_words, trump_words)
"""The page's: plain suit symbols, which every browser draws."""


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


def step_view(game: ArchivedGame, book: ReplayBook, index: int) -> StepView:
    """Step ``index`` (0-based) of the game's replay."""
    step = book.steps[index]
    names = seat_names(game)
    deals = len(book.deal_starts)
    start = book.deal_starts[step.deal]
    end = book.deal_starts[step.deal + 1] if step.deal + 1 < deals else len(book.steps)
    played = dict(step.trick_play.plays) if step.trick_play is not None else {}
    seats = tuple(
        SeatView(
            seat,
            names[seat],
            seat % 2,
            seat == step.dealer,
            step.out[seat],
            tuple(card_view(c, played=played.get(seat) == c) for c in sort_hand(hand, step.trump)),
        )
        for seat, hand in enumerate(step.hands)
    )
    if step.trick == 0:
        said = tuple(describe_action(s, a, names, step, _WORDS) for s, a in step.actions)
    elif step.trick_play is not None:
        said = tuple(f"{names[s]} played {card_symbol(c)}" for s, c in step.trick_play.plays)
    else:
        said = ()
    bidding = book.rules.game == "bid_euchre" or step.contract is not None
    game_result = None
    if index == len(book.steps) - 1:
        if book.winner is None:
            game_result = f"A tie, {book.score[0]} to {book.score[1]}."
        else:
            w = book.winner
            game_result = f"{TEAM_NAMES[w]} won, {book.score[w]} to {book.score[1 - w]}."
    winner = step.trick_play.winner if step.trick_play is not None else None
    return StepView(
        number=index + 1,
        count=len(book.steps),
        deal=step.deal + 1,
        deals=deals,
        trick=step.trick,
        tricks=end - start - 1,
        seats=seats,
        upcard=None if bidding else card_view(step.upcard),
        trump=None if step.trump is None else trump_words(step.trump),
        said=said,
        taken_by=None if winner is None else names[winner],
        tricks_won=step.tricks_won,
        score=step.score,
        deal_result=None if step.result is None else _deal_result(step),
        game_result=game_result,
    )
