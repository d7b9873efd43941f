"""House rules: one validated pydantic model, its presets, and the pack each rule set uses.

Field names and values are those of the game-record format (record-format.md);
``two_bennies`` is this engine's extension for a double pack whose two Bennies
differ in colour (rule source 000).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .cards import (
    ACE,
    BLACK_JOKER,
    EIGHT,
    FOUR_SPADES,
    JACK,
    JOKER,
    KING,
    NINE,
    QUEEN,
    RED_JOKER,
    SEVEN,
    TEN,
    THREE_SPADES,
    TWO_SPADES,
    Suit,
    card,
)
from .errors import RefusedError

PresetName = Literal[
    "north_american",
    "toronto",
    "british",
    "six_player",
    "almonte",
    "bid_euchre",
    "bid_euchre_6",
    "bid_euchre_8",
]
DeckName = Literal["24", "32", "almonte30", "almonte21"]

HAND_SIZE: Final = 5

BID_EUCHRE_PACKS: Final[dict[int, int]] = {4: 1, 6: 2, 8: 2}
"""Bid Euchre's 24-card packs for each number of players (6, 8 and 6 cards each)."""


class HouseRules(BaseModel):
    """Every rule a table can vary. Immutable: a table copies the rules when it opens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: PresetName = Field("north_american", description="the preset these rules start from")
    game: Literal["euchre", "bid_euchre"] = Field(
        "euchre", description="the game: euchre, or Bid Euchre (numeric bids, the whole pack dealt)"
    )
    players: Literal[4, 6, 8] = Field(
        4, description="seats at the table, two teams alternating (eight only in Bid Euchre)"
    )
    deck: DeckName = Field("24", description="the pack: 9 to ace, 7 to ace, or an Almonte pack")
    joker: Literal["none", "joker", "two_of_spades"] = Field(
        "none", description="the Benny (top trump): none, a joker, or the two of spades"
    )
    packs: Literal[1, 2] = Field(1, description="one pack, or a double pack for six players")
    duplicate_card_wins: Literal["second", "first"] = Field(
        "second", description="which of two equal cards wins a trick (double pack)"
    )
    two_bennies: Literal["alike", "red_black"] = Field(
        "alike",
        description="a double pack's Bennies look alike, or are red and black "
        "(the one of trump's colour wins)",
    )
    target_score: int = Field(10, ge=1, le=100, description="points that win the game")
    deals_per_game: int | None = Field(
        None, ge=1, le=200, description="play a fixed number of deals instead of to a target"
    )
    first_dealer: Literal["random", "first_black_jack"] = Field(
        "first_black_jack", description="how the first dealer is chosen"
    )
    stick_the_dealer: bool = Field(False, description="the dealer may not pass the second round")
    dealer_partner_order_up: Literal["with_partner", "must_go_alone"] = Field(
        "with_partner", description="whether the dealer's partner may order up without going alone"
    )
    order_up_needs_suit: Literal["never", "dealer", "everyone"] = Field(
        "never", description="who must hold the upcard's suit (left bower not counted) to take it"
    )
    alone_declaration: Literal["with_call", "after_trump"] = Field(
        "with_call",
        description="a loner is named with the call, or offered in turn once trump is made",
    )
    defend_alone: Literal["never", "vs_lone_maker", "always"] = Field(
        "never", description="when a defender may play alone"
    )
    lone_lead: Literal["left_of_loner", "left_of_dealer"] = Field(
        "left_of_dealer", description="who leads against a loner"
    )
    points_made: int = Field(1, ge=1, le=50, description="makers take 3 or 4 tricks")
    points_march: int = Field(2, ge=1, le=50, description="makers take every trick")
    points_lone_march: int = Field(4, ge=1, le=50, description="a lone maker takes every trick")
    points_euchre: int = Field(2, ge=1, le=50, description="the defenders euchre the makers")
    points_lone_defender_euchre: int = Field(
        4, ge=1, le=50, description="a lone defender euchres the makers"
    )
    points_super_euchre: int | None = Field(
        None, ge=1, le=50, description="the makers take no trick at all (off when empty)"
    )
    benny_upcard: Literal["dealer_names_trump"] = Field(
        "dealer_names_trump", description="a Benny turned up: the dealer names trump unseen"
    )
    partners_best: bool = Field(False, description="a loner's partner passes them their best card")
    no_trump_lead_first_trick: bool = Field(False, description="trump may not lead the first trick")
    trump_must_be_broken: bool = Field(
        False, description="trump may not be led until trump has been played"
    )
    ace_no_face: bool = Field(
        False, description="a hand with no face card and at most one ace may be thrown in"
    )
    farmers_hand: Literal["off", "three_of_a_rank", "nines_and_tens"] = Field(
        "off", description="three nines or tens may be swapped with the face-down kitty"
    )

    bid_minimum: int = Field(3, ge=1, le=16, description="Bid Euchre: the lowest bid")
    dealer_may_match: bool = Field(
        True, description="Bid Euchre: the dealer may equal the highest bid and take it"
    )
    bid_lead: Literal["bidder", "left_of_dealer"] = Field(
        "bidder", description="Bid Euchre: who leads the first trick"
    )
    points_shoot: int | None = Field(
        None, ge=1, le=100, description="Bid Euchre: a shoot won or lost (empty: twice the hand)"
    )
    shoot: bool = Field(True, description="Bid Euchre: a player may shoot (take every trick alone)")

    @field_validator("deck", mode="before")
    @classmethod
    def _deck_from_int(cls, value: object) -> object:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _playable(self) -> Self:
        if self.game == "bid_euchre":
            return self._bid_playable()
        if self.players == 8:
            raise ValueError("players: eight players only play Bid Euchre (set game to bid_euchre)")
        almonte = self.deck.startswith("almonte")
        if almonte:
            wanted = 6 if self.deck == "almonte30" else 4
            if self.players != wanted:
                raise ValueError(
                    f"deck: the {self.deck} pack is for {wanted} players, not {self.players}"
                )
            if self.joker != "none":
                raise ValueError(
                    "joker: an Almonte pack brings its own three jokers (2S, 3S, 4S); "
                    "set joker to none"
                )
            if self.packs != 1:
                raise ValueError("packs: an Almonte pack is played as a single pack")
        if self.two_bennies == "red_black" and (self.packs != 2 or self.joker != "joker"):
            raise ValueError(
                "two_bennies: red and black Bennies need two packs with joker set to joker"
            )
        size = len(deck_cards(self))
        needed = self.players * self.hand_size + 1
        if size < needed:
            raise ValueError(
                f"deck: {self.players} players need at least {needed} cards, "
                f"but this pack has {size}; use a bigger deck or two packs"
            )
        if self.farmers_hand != "off" and size - needed < 3:
            raise ValueError(
                f"farmers_hand: a farmer's hand swaps with three face-down cards, "
                f"but this pack leaves {size - needed}"
            )
        return self

    def _bid_playable(self) -> Self:
        if self.deck != "24" or self.joker != "none":
            raise ValueError("deck: Bid Euchre is played with the 24-card pack and no joker")
        wanted = BID_EUCHRE_PACKS[self.players]
        if self.packs != wanted:
            raise ValueError(
                f"packs: Bid Euchre with players {self.players} is dealt from packs {wanted} "
                f"({24 * wanted // self.players} cards each), not packs {self.packs}; "
                "leave packs out to get it"
            )
        if self.bid_minimum > self.hand_size:
            raise ValueError(
                f"bid_minimum: {self.bid_minimum} is more than the "
                f"{self.hand_size} tricks of a hand"
            )
        return self

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: five in euchre; Bid Euchre deals the whole pack."""
        if self.game == "bid_euchre":
            return 24 * self.packs // self.players
        return HAND_SIZE

    @property
    def shoot_points(self) -> int:
        """Bid Euchre: what a shoot wins or loses (``points_shoot``, else twice the hand)."""
        return self.points_shoot if self.points_shoot is not None else 2 * self.hand_size

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None = None) -> HouseRules:
        """Rules from a preset name plus field overrides: ``{"preset": "toronto", ...}``.

        Unknown fields or values raise RefusedError naming the field.
        """
        spec = dict(spec or {})
        name = spec.pop("preset", "north_american")
        if name not in PRESETS:
            raise RefusedError(
                "not_allowed",
                f"preset: {name!r} is not a preset (choose from {', '.join(PRESETS)})",
            )
        return cls.build(_packs_follow_players({**PRESETS[name], "preset": name, **spec}, spec))

    @classmethod
    def preset_rules(cls, name: str) -> HouseRules:
        """The rules of one preset, with no overrides."""
        return cls.from_spec({"preset": name})

    @classmethod
    def build(cls, fields: Mapping[str, Any]) -> HouseRules:
        """Validate a full set of fields, turning pydantic's errors into one RefusedError."""
        try:
            return cls.model_validate(dict(fields))
        except ValidationError as exc:
            raise RefusedError("not_allowed", describe_validation_error(exc)) from None

    def with_changes(self, **changes: Any) -> HouseRules:
        """These rules with some fields changed, validated again."""
        return self.build(_packs_follow_players({**self.model_dump(), **changes}, changes))

    def to_spec(self) -> dict[str, Any]:
        """The shortest spec that gives these rules back: the preset and what differs from it."""
        base = PRESETS[self.preset]
        out: dict[str, Any] = {"preset": self.preset}
        for name, value in self.model_dump().items():
            if name != "preset" and base.get(name, _NA_DEFAULTS[name]) != value:
                out[name] = value
        return out

    def differences_from_preset(self) -> list[str]:
        """The fields whose value differs from the preset these rules start from."""
        return [name for name in self.to_spec() if name != "preset"]


def _packs_follow_players(fields: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """Bid Euchre's packs for the players, where ``changes`` sets ``players`` but not ``packs``."""
    if "players" in changes and "packs" not in changes and fields.get("game") == "bid_euchre":
        packs = BID_EUCHRE_PACKS.get(fields["players"])
        if packs is not None:
            return {**fields, "packs": packs}
    return fields


def describe_validation_error(exc: ValidationError) -> str:
    """One readable sentence per problem, each naming its field."""
    parts = []
    for err in exc.errors():
        field = ".".join(str(x) for x in err["loc"]) or "rules"
        msg = str(err["msg"])
        if msg.startswith("Value error, "):
            msg = msg.removeprefix("Value error, ")
            parts.append(msg if ":" in msg.split(" ")[0] else f"{field}: {msg}")
        elif err["type"] == "extra_forbidden":
            parts.append(f"{field}: unknown rule field")
        elif err["type"] == "literal_error":
            allowed = err.get("ctx", {}).get("expected", "")
            parts.append(f"{field}: {err.get('input')!r} is not allowed (expected {allowed})")
        else:
            parts.append(f"{field}: {msg}")
    return "; ".join(parts)


_NA_DEFAULTS: Final[dict[str, Any]] = {
    name: info.default for name, info in HouseRules.model_fields.items()
}

_BRITISH: Final[dict[str, Any]] = {
    "joker": "joker",
    "target_score": 11,
    "first_dealer": "random",
    "dealer_partner_order_up": "must_go_alone",
    "alone_declaration": "after_trump",
    "defend_alone": "always",
    "lone_lead": "left_of_loner",
}
_SIX_POINTS: Final[dict[str, Any]] = {
    "points_made": 1,
    "points_march": 3,
    "points_lone_march": 6,
    "points_euchre": 3,
    "points_lone_defender_euchre": 6,
}

_BID: Final[dict[str, Any]] = {
    "game": "bid_euchre",
    "target_score": 32,
    "first_dealer": "random",
    "duplicate_card_wins": "first",
    "partners_best": True,
}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "north_american": {},
    "toronto": {
        "dealer_partner_order_up": "must_go_alone",
        "order_up_needs_suit": "everyone",
        "defend_alone": "vs_lone_maker",
        "lone_lead": "left_of_loner",
        "points_super_euchre": 4,
    },
    "british": _BRITISH,
    "six_player": {**_BRITISH, **_SIX_POINTS, "players": 6, "deck": "32"},
    "almonte": {
        **_BRITISH,
        **_SIX_POINTS,
        "players": 6,
        "deck": "almonte30",
        "joker": "none",
        "target_score": 15,
    },
    "bid_euchre": _BID,
    "bid_euchre_6": {**_BID, "players": 6, "packs": 2},
    "bid_euchre_8": {**_BID, "players": 8, "packs": 2},
}
"""Every preset as its differences from the North American defaults."""

PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "north_american": "24 cards, right bower high, to 10; dealer's partner may order up",
    "toronto": "Euchre Toronto: hold the suit to order up, dealer's partner goes alone, "
    "super-euchre 4",
    "british": "Cornwall/British: 25 cards with the Benny, to 11, loners offered after trump",
    "six_player": "Cornwall six-hand: three against three, 33 cards with the Benny, to 11",
    "almonte": "Almonte six-hand: 31 cards with three jokers, every card dealt, to 15",
    "bid_euchre": "Bid Euchre: four players, 6 cards each, bid tricks, no-trump high or low, to 32",
    "bid_euchre_6": "Bid Euchre for six: two packs, 8 cards each, to 32",
    "bid_euchre_8": "Bid Euchre for eight: two packs, 6 cards each, to 32",
}

_SUITED_RANKS: Final[dict[str, tuple[int, ...]]] = {
    "24": (NINE, TEN, JACK, QUEEN, KING, ACE),
    "32": (SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE),
    "almonte30": (EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE),
}


def deck_cards(rules: HouseRules) -> list[int]:
    """The whole pack, as a new list (see ``_pack``)."""
    # keyed by the fields that make the pack: hashing the whole model costs far more
    return list(_pack(rules.deck, rules.packs, rules.joker, rules.two_bennies))


@lru_cache(maxsize=64)
def _pack(deck: str, packs: int, joker: str, two_bennies: str) -> tuple[int, ...]:
    """The whole pack in a fixed order, copies included (the order seeded shuffles start from).

    The Almonte six-hand pack is 8 to ace in each suit plus the three jokers: 31
    cards, not the 30 the rule source counts, because it deals five to each of
    six players (30) and then turns "the last one" for the dealer. Dealing every
    card and turning one more needs 31, so this engine plays the 31-card pack.
    """
    if deck == "almonte21":
        suited = [card(r, s) for s in (Suit.CLUBS, Suit.DIAMONDS) for r in (JACK, QUEEN, KING, ACE)]
        suited += [
            card(r, s) for s in (Suit.HEARTS, Suit.SPADES) for r in (TEN, JACK, QUEEN, KING, ACE)
        ]
        return tuple(sorted([*suited, TWO_SPADES, THREE_SPADES, FOUR_SPADES]))
    ranks = _SUITED_RANKS[deck]
    one_pack = [card(r, s) for s in Suit for r in ranks]
    if deck == "almonte30":
        return (*one_pack, TWO_SPADES, THREE_SPADES, FOUR_SPADES)
    cards = one_pack * packs
    if joker == "joker":
        cards += [RED_JOKER, BLACK_JOKER] if two_bennies == "red_black" else [JOKER] * packs
    elif joker == "two_of_spades":
        cards += [TWO_SPADES] * packs
    return tuple(sorted(cards))


def deals_every_card(rules: HouseRules) -> bool:
    """Whether the variant deals the whole pack (Almonte, which turns the last card; Bid Euchre)."""
    return rules.deck.startswith("almonte") or rules.game == "bid_euchre"


def has_bennies(rules: HouseRules) -> bool:
    """Whether the pack holds a top trump above the right bower."""
    return rules.joker != "none" or rules.deck.startswith("almonte")


BID_EUCHRE_ONLY: Final = frozenset(
    ("bid_minimum", "dealer_may_match", "bid_lead", "shoot", "points_shoot")
)
"""The rules only Bid Euchre reads."""
BID_EUCHRE_ALSO: Final = frozenset(
    ("preset", "game", "players", "packs", "duplicate_card_wins", "partners_best")
) | {"target_score", "deals_per_game", "first_dealer"}
"""The other rules Bid Euchre reads."""


def unused_because(field: str, rules: HouseRules) -> str | None:
    """Why the rule ``field`` makes no difference to a game of ``rules``; None where it can."""
    if rules.game == "bid_euchre":
        if field not in BID_EUCHRE_ONLY and field not in BID_EUCHRE_ALSO:
            return "Bid Euchre does not use it"
        return None
    if field in BID_EUCHRE_ONLY:
        return "it is a rule of Bid Euchre"
    if field in ("two_bennies", "duplicate_card_wins") and rules.packs == 1:
        return "it matters only with two packs"
    if field == "benny_upcard" and not has_bennies(rules):
        return "it matters only with a Benny in the pack"
    if field == "target_score" and rules.deals_per_game is not None:
        return "the game is a fixed number of deals"
    return None


ALMONTE_JOKERS: Final = (TWO_SPADES, THREE_SPADES, FOUR_SPADES)
BENNY_CARDS: Final = frozenset(
    (JOKER, TWO_SPADES, THREE_SPADES, FOUR_SPADES, RED_JOKER, BLACK_JOKER)
)
