"""Loners learnt from play: expected points of going alone against playing with the partner.

Where a seat makes trump (ordering up or naming a suit, alone declared with the
call) or is asked after trump whether to go alone (the maker, then its partner,
where the house rules ask separately), a model per preset
(``bot/players/data/loners_<preset>.json``) predicts the gain in expected points
of going alone. It is a ridge regression, the same kind as the bidding's
(``learnt_bidding``, whose sums and file format it shares), for each round in
which trump was made and role (0: the maker; 1: the maker's partner, asked
after the maker passed) on the decision's features (``features``):

- the sweep chance basic computes for the hand alone (``evaluation.sweep_chance``);
- the score: this side, or the other, within two points of the game;
- the hand's shape in trump (``learnt_bidding.shape``; the dealer's hand after
  taking the upcard and discarding);
- the seat: the dealer, on the dealer's side, leading the first trick alone.

The house rules' points for a loner are the preset's, so each preset's model
has them in its constant. Where the sweep chance is outside ``SWEEPS`` or the
round and role has too few decisions, the count (``BIDDING``'s sweep chance
threshold) decides. Defending alone stays with the count.

The model is built by ``python -m lab train-loners`` (``training``):
deals from a seed, bid by the expert's bidder, and at every decision to go
alone both choices tried on a copy of the real deal, played out by the basic
player in every seat and valued at the deal's score (``stakes``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Final

from bot.rules import Action, HouseRules, SeatView

from .basic import leads_alone, upcard_fate
from .deck import deck_facts
from .evaluation import after_pickup, sweep_chance
from .learnt_bidding import BiddingModel, Key, score_class, shape

SWEEPS: Final = (0.02, 0.6)
"""The sweep chances where the model decides: below, the hand plays with its partner (the count
never goes alone there); above, the count decides (it goes alone)."""
WIDTH: Final = 4 + 11 + 3
"""Features of a decision: see ``features``."""
MAKER: Final = 0
PARTNER: Final = 1


@dataclass(frozen=True, slots=True)
class LonerChoice:
    """A decision to go alone: its round and role, its features, and the two actions."""

    key: Key
    x: list[float]
    alone: Action
    partner: Action
    """Playing with the partner: the same bid without ``alone``, or passing the alone round."""


def _variant(view: SeatView, made: Action, alone: bool) -> Action | None:
    for a in view.legal:
        if a.do == made.do and a.suit == made.suit and bool(a.alone) == alone:
            return a
    return None


def _round(view: SeatView) -> int:
    """The round in which trump was made (this one during the bidding)."""
    if view.phase in ("bid1", "bid2"):
        return 1 if view.phase == "bid1" else 2
    return 1 if any(a.do == "order_up" for _, a in view.history) else 2


def loner_choice(view: SeatView, made: Action, klass: int | None = None) -> LonerChoice | None:
    """The decision to go alone that ``made`` stands for, if the seat has one to take.

    ``klass`` is the score's class (``score_class``), the view's score's by default.

    ``made`` is the bid the seat makes trump with (in either bidding round, alone
    or not) or, in the alone round, its choice there. None where there is no
    choice: no alone variant legal, a loner the rules force, a defender's turn, a
    bid with the partner where the rules ask about loners after trump is made.
    """
    rules = view.rules
    facts = deck_facts(rules)
    dead: tuple[int, ...] = ()
    live: tuple[int, ...] = ()
    hand = list(view.hand)
    if view.phase in ("bid1", "bid2"):
        if made.do not in ("order_up", "call") or not hand:
            return None
        if rules.alone_declaration == "after_trump" and not made.alone:
            return None  # asked again in the alone round, with the hand after the discard
        alone, partner = _variant(view, made, True), _variant(view, made, False)
        if alone is None or partner is None:
            return None
        if view.phase == "bid1":
            trump = view.upcard >> 3
            forced = rules.dealer_partner_order_up == "must_go_alone"
            if view.seat == view.dealer:
                hand, discard = after_pickup(hand, view.upcard, trump, facts)
                dead = (discard,)
            elif (view.seat - view.dealer) % 2 == 0:
                if forced:
                    return None
                dead = (view.upcard,)
            else:
                live = (view.upcard,)
        else:
            assert made.suit is not None
            trump = made.suit
            dead = (view.upcard,)
        role = MAKER
    elif view.phase == "alone" and view.makers == view.team and view.trump is not None:
        trump = view.trump
        dead, live = upcard_fate(view)
        role = MAKER if view.maker == view.seat else PARTNER
        alone = next(a for a in view.legal if a.do == "alone")
        partner = next(a for a in view.legal if a.do == "pass")
    else:
        return None
    leads = leads_alone(view)
    chance = sweep_chance(
        hand, trump, facts, opponents=view.players // 2, leads=leads, dead=dead, live=live
    )
    if klass is None:
        klass = score_class(rules, view.score, view.team)
    x = [1.0, chance, float(klass == 1), float(klass == 2), *shape(hand, trump, facts)]
    x += [
        float(view.seat == view.dealer),
        float((view.seat - view.dealer) % 2 == 0),
        float(leads),
    ]
    return LonerChoice((_round(view), role), x, alone, partner)


def new_model(rules: HouseRules, seed: int = 0, deals: int = 0) -> BiddingModel:
    """An empty loners' model of ``rules``'s preset."""
    return BiddingModel(rules.preset, seed, deals, width=WIDTH, span=SWEEPS)


def data_name(preset: str) -> str:
    """The file name of a preset's loners' model in ``bot/players/data``."""
    return f"loners_{preset}.json"


@cache
def shipped_loners(preset: str) -> BiddingModel | None:
    """The loners' model shipped for ``preset`` (None when there is none)."""
    resource = files("bot.players").joinpath("data", data_name(preset))
    if not resource.is_file():
        return None
    data = json.loads(resource.read_text(encoding="utf-8"))
    return BiddingModel.from_json(data, WIDTH, SWEEPS)


def decide_alone(model: BiddingModel | None, view: SeatView, made: Action) -> Action:
    """``made``, or the loner's model's choice between going alone and with the partner."""
    if model is None:
        return made
    choice = loner_choice(view, made)
    if choice is None:
        return made
    gain = model.gain(choice.key, choice.x)
    if gain is None:
        return made
    return choice.alone if gain > 0 else choice.partner
