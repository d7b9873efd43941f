"""Game records (record-format.md, format 1): load, validate, replay and write them.

A record that is not a record at all (not JSON, unknown rule, malformed card,
impossible deal) raises RecordError; a record whose actions break the rules
replays up to the rejected action and reports it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .actions import Action, action_from_json
from .cards import card_label, parse_card
from .dealing import NO_UPCARD, Deal, seeded_deal
from .errors import ActionError, CardError, RecordError, RefusedError, RulesError
from .game import Game, new_game
from .house_rules import HouseRules, deals_every_card, deck_cards


class DealSpec(BaseModel):
    """One explicit deal: the hands as dealt, the upcard and the face-down rest."""

    model_config = ConfigDict(extra="forbid")

    hands: list[list[str]]
    upcard: str | None = None
    """Absent where nothing is turned (Bid Euchre); required everywhere else."""
    kitty: list[str] | None = None


class GameRecord(BaseModel):
    """The JSON document of one game."""

    model_config = ConfigDict(extra="forbid")

    format: Literal[1]
    rules: dict[str, Any] = Field(default_factory=dict)
    dealer: int | None = None
    seed: int | None = None
    deals: list[DealSpec] | None = None
    actions: list[dict[str, Any]] = Field(default_factory=list)
    meta: dict[str, Any] | None = None
    """Free-form facts about the game outside the rules (table, players); extension."""

    @field_validator("rules", mode="before")
    @classmethod
    def _rules_object(cls, value: object) -> object:
        if value is None:
            return {}
        return value


@dataclass(frozen=True)
class LoadedRecord:
    """A record checked and turned into engine values, ready to replay."""

    rules: HouseRules
    dealer: int | None
    seed: int
    deals: tuple[Deal, ...]
    actions: tuple[tuple[int | None, Action], ...]


def parse_record(doc: Any) -> LoadedRecord:
    """Check a record given as JSON text or as a decoded object."""
    if isinstance(doc, str | bytes):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
    try:
        record = GameRecord.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "record"
        raise RecordError(f"{where}: {first['msg']}") from None
    try:
        rules = HouseRules.from_spec(record.rules)
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    if record.dealer is not None and not 0 <= record.dealer < rules.players:
        raise RecordError(f"dealer: seat {record.dealer} is not at a {rules.players}-seat table")
    deals = tuple(_check_deal(spec, rules, i) for i, spec in enumerate(record.deals or ()))
    actions = []
    for i, obj in enumerate(record.actions):
        try:
            actions.append(action_from_json(obj))
        except ActionError as exc:
            raise RecordError(f"actions[{i}]: {exc}") from None
    return LoadedRecord(rules, record.dealer, record.seed or 0, deals, tuple(actions))


def _check_deal(spec: DealSpec, rules: HouseRules, index: int) -> Deal:
    where = f"deals[{index}]"
    try:
        hands = tuple(tuple(parse_card(c) for c in hand) for hand in spec.hands)
        upcard = NO_UPCARD if spec.upcard is None else parse_card(spec.upcard)
        kitty = None if spec.kitty is None else tuple(parse_card(c) for c in spec.kitty)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if len(hands) != rules.players:
        raise RecordError(f"{where}: {len(hands)} hands for {rules.players} players")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise RecordError(
                f"{where}: seat {seat} holds {len(hand)} cards, not {rules.hand_size}"
            )
    turns = rules.game != "bid_euchre"
    if turns != (upcard != NO_UPCARD):
        why = "names the turned card" if turns else "must be absent: Bid Euchre turns no card"
        raise RecordError(f"{where}: upcard {why}")
    pack = Counter(deck_cards(rules))
    dealt = Counter(c for hand in hands for c in hand)
    if turns:
        dealt[upcard] += 1
    extra = dealt - pack
    if extra:
        names = ", ".join(card_label(c) for c in sorted(extra))
        raise RecordError(f"{where}: {names} not in this pack, or dealt too often")
    rest = pack - dealt
    if kitty is None:
        kitty = () if deals_every_card(rules) else tuple(sorted(rest.elements()))
    elif Counter(kitty) != rest:
        raise RecordError(f"{where}: the kitty must hold exactly the cards not dealt")
    return Deal(hands, upcard, kitty)


@dataclass
class Replay:
    """A replayed record: the game as far as it went and the rejected action, if any."""

    game: Game
    error_index: int | None = None
    error: RefusedError | None = None

    def to_json(self) -> dict[str, Any]:
        """The replay output object of record-format.md."""
        game = self.game
        error = None
        if self.error is not None:
            error = {
                "index": self.error_index,
                "code": self.error.code,
                "message": self.error.message,
            }
        turn = None
        if game.turn is not None:
            turn = {
                "seat": game.turn,
                "phase": game.phase,
                "legal": [a.to_json() for a in game.legal()],
            }
        return {
            "ok": self.error is None,
            "error": error,
            "score": list(game.score),
            "winner": game.winner,
            "deals": [d.to_json() for d in game.results],
            "turn": turn,
        }


def starting_game(loaded: LoadedRecord) -> Game:
    """The game a record starts from, before any action."""
    return new_game(loaded.rules, seed=loaded.seed, dealer=loaded.dealer, deals=loaded.deals)


def replay(doc: Any) -> Replay:
    """Replay a record (JSON text or object) up to its end or its first rejected action."""
    loaded = parse_record(doc)
    game = starting_game(loaded)
    for index, (seat, action) in enumerate(loaded.actions):
        actor = game.turn if seat is None else seat
        try:
            game.apply(-1 if actor is None else actor, action)
        except RefusedError as exc:
            return Replay(game, index, exc)
    return Replay(game)


def game_record(
    game: Game, *, with_deals: bool = False, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The record of a game so far: rules, first dealer, seed, (deals,) and every action."""
    out: dict[str, Any] = {
        "format": 1,
        "rules": game.rules.to_spec(),
        "dealer": game.first_dealer,
        "seed": game.seed,
    }
    deals = _dealt(game) if with_deals else list(game.preset_deals)
    if deals:
        out["deals"] = [_deal_json(d) for d in deals]
    out["actions"] = [action.to_json(seat) for seat, action in game.log]
    if meta:
        out["meta"] = meta
    return out


def _deal_json(deal: Deal) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": [[card_label(c) for c in hand] for hand in deal.hands]}
    if deal.upcard != NO_UPCARD:
        out["upcard"] = card_label(deal.upcard)
    out["kitty"] = [card_label(c) for c in deal.kitty]
    return out


def _dealt(game: Game) -> list[Deal]:
    """Every deal begun so far, as dealt (replaying the seeded shuffle where needed)."""
    return [
        game.preset_deals[i]
        if i < len(game.preset_deals)
        else seeded_deal(game.rules, game.seed, i)
        for i in range(game.deal_number)
    ]
