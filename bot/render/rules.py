"""House rules in plain words: one line for a table, or every rule grouped for reading.

Each field of :class:`~bot.rules.HouseRules` has a sentence here, grouped as a player
thinks of them (pack, bidding, going alone, play, scoring, game length); what differs
from the preset the rules start from is marked. Rules that cannot matter with the
pack in use (which of two equal cards wins, with a single pack) are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bot.rules import HouseRules
from bot.rules.house_rules import PRESET_DESCRIPTIONS, unused_because

from .panel import Panel

__all__ = [
    "CHANGED_MARK",
    "GROUPS",
    "PRESET_NAMES",
    "explain",
    "matters",
    "rules_line",
    "rules_panel",
    "rules_text",
]

CHANGED_MARK: Final = "✏️"
"""Marks a rule that differs from the preset."""

PRESET_NAMES: Final = {
    "north_american": "North American",
    "toronto": "Euchre Toronto",
    "british": "British (Cornwall)",
    "six_player": "Six-hand (Cornwall)",
    "almonte": "Almonte six-hand",
    "bid_euchre": "Bid Euchre",
    "bid_euchre_6": "Bid Euchre for six",
    "bid_euchre_8": "Bid Euchre for eight",
}

_DECKS: Final = {
    "24": "24 cards: nine to ace in each suit",
    "32": "32 cards: seven to ace in each suit",
    "almonte30": "the Almonte six-hand pack: eight to ace plus three jokers (2♠ < 3♠ < 4♠)",
    "almonte21": "the Almonte four-hand pack: 21 cards with three jokers (2♠ < 3♠ < 4♠)",
}
_JOKERS: Final = {
    "none": "No Benny: the right bower is the top trump.",
    "joker": "A joker, the Benny, is in the pack: it is the top trump, above the right bower.",
    "two_of_spades": "The two of spades is the Benny: the top trump, above the right bower.",
}


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


_Explain = Callable[[Any, HouseRules], str]

_SENTENCES: Final[dict[str, _Explain]] = {
    "game": lambda v, r: (
        "Euchre: trump is made from the turned card."
        if v == "euchre"
        else "Bid Euchre: the whole pack is dealt and players bid how many tricks they will take."
    ),
    "players": lambda v, r: {
        4: "Four players, two teams of partners sitting opposite.",
        6: "Six players, three against three, partners in alternate seats.",
        8: "Eight players, four against four, partners in alternate seats.",
    }[v],
    "deck": lambda v, r: f"The pack: {_DECKS[v]}.",
    "joker": lambda v, r: _JOKERS[v],
    "packs": lambda v, r: "One pack." if v == 1 else "Two packs shuffled together.",
    "two_bennies": lambda v, r: (
        "With two packs the two Bennies are equal."
        if v == "alike"
        else "With two packs one Benny is red, one black: the one of trump's colour wins."
    ),
    "first_dealer": lambda v, r: (
        "The first dealer is the first player dealt a black jack."
        if v == "first_black_jack"
        else "The first dealer is chosen at random."
    ),
    "stick_the_dealer": lambda v, r: _yes(
        v,
        "Stick the dealer: if everyone passes twice, the dealer must name trump.",
        "If everyone passes twice, the hand is thrown in and the next player deals.",
    ),
    "dealer_partner_order_up": lambda v, r: (
        "The dealer's partner may order up like anyone else."
        if v == "with_partner"
        else "The dealer's partner may order up only by going alone."
    ),
    "order_up_needs_suit": lambda v, r: {
        "never": "You may order up or call a suit without holding it.",
        "dealer": "The dealer may take up the card only while holding one of its suit "
        "(the left bower doesn't count).",
        "everyone": "To order up you must hold a card of the upcard's suit "
        "(the left bower doesn't count).",
    }[v],
    "benny_upcard": lambda v, r: (
        "When the Benny is turned up, the dealer names trump without looking and takes the Benny."
    ),
    "ace_no_face": lambda v, r: _yes(
        v,
        "Ace no face: a hand with no face card and at most one ace may be thrown in.",
        "A poor hand can't be thrown in.",
    ),
    "farmers_hand": lambda v, r: {
        "off": "No farmer's hand: nobody swaps with the kitty.",
        "three_of_a_rank": "Farmer's hand: three nines or three tens may be swapped "
        "for the face-down kitty.",
        "nines_and_tens": "Farmer's hand: three nines and tens may be swapped "
        "for the face-down kitty.",
    }[v],
    "alone_declaration": lambda v, r: (
        "Going alone is said with the bid (Order up alone, or a suit alone)."
        if v == "with_call"
        else "Once trump is made the maker, then the partner, is asked whether to go alone."
    ),
    "defend_alone": lambda v, r: {
        "never": "Defenders can't play alone.",
        "vs_lone_maker": "A defender may defend alone against a lone maker.",
        "always": "A defender may defend alone against any bid.",
    }[v],
    "lone_lead": lambda v, r: (
        "Against a lone player, the player on the loner's left leads."
        if v == "left_of_loner"
        else "Against a lone player, the player on the dealer's left leads, as usual."
    ),
    "partners_best": lambda v, r: _yes(
        v,
        "Partner's best: a lone player's partner passes them their best card, "
        "and the loner discards one.",
        "A lone player gets no card from their partner.",
    ),
    "duplicate_card_wins": lambda v, r: (
        "When two equal cards fall in a trick, the second one played wins."
        if v == "second"
        else "When two equal cards fall in a trick, the first one played wins."
    ),
    "no_trump_lead_first_trick": lambda v, r: _yes(
        v,
        "No trump may be led to the first trick (unless you hold only trumps).",
        "Trump may be led to the first trick.",
    ),
    "trump_must_be_broken": lambda v, r: _yes(
        v,
        "Trump can't be led until a trump has been played (unless you hold only trumps).",
        "Trump may be led at any time.",
    ),
    "points_made": lambda v, r: f"Makers taking three or four tricks score {_points(v)}.",
    "points_march": lambda v, r: f"Makers taking all five tricks (a march) score {_points(v)}.",
    "points_lone_march": lambda v, r: f"A lone maker taking all five tricks scores {_points(v)}.",
    "points_euchre": lambda v, r: f"Defenders who euchre the makers score {_points(v)}.",
    "points_lone_defender_euchre": lambda v, r: (
        f"A lone defender who euchres the makers scores {_points(v)}."
    ),
    "points_super_euchre": lambda v, r: (
        "No super-euchre bonus."
        if v is None
        else f"Super-euchre: makers who take no trick at all give the defenders {_points(v)}."
    ),
    "target_score": lambda v, r: (
        f"The first team to {v} points wins."
        if r.deals_per_game is None
        else f"(A target of {v} points, unused: the game is a fixed number of deals.)"
    ),
    "bid_minimum": lambda v, r: (
        f"Bids start at {v} tricks; if everyone passes the dealer bids {v}."
    ),
    "dealer_may_match": lambda v, r: _yes(
        v,
        "The dealer may match the highest bid and take it.",
        "The dealer, like everyone, must bid above the highest bid.",
    ),
    "bid_lead": lambda v, r: (
        "The winner of the bidding leads the first trick."
        if v == "bidder"
        else "The player on the dealer's left leads the first trick."
    ),
    "shoot": lambda v, r: _yes(
        v,
        f"Shooting: bid to take every trick alone, with a card from each partner; "
        f"it wins or loses {_points(r.shoot_points)}.",
        "Nobody may shoot.",
    ),
    "points_shoot": lambda v, r: (
        f"A shoot wins or loses {_points(r.shoot_points)}"
        + (" (twice the cards in a hand)." if v is None else ".")
    ),
    "deals_per_game": lambda v, r: (
        "The game has no fixed number of deals."
        if v is None
        else f"The game lasts {v} deals; the team ahead then wins (a tie is possible)."
    ),
}

GROUPS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("Pack", ("game", "players", "deck", "joker", "packs", "two_bennies")),
    (
        "Bidding",
        (
            "stick_the_dealer",
            "dealer_partner_order_up",
            "order_up_needs_suit",
            "benny_upcard",
            "ace_no_face",
            "farmers_hand",
        ),
    ),
    ("Going alone", ("alone_declaration", "defend_alone", "lone_lead", "partners_best")),
    ("Play", ("duplicate_card_wins", "no_trump_lead_first_trick", "trump_must_be_broken")),
    (
        "Scoring",
        (
            "points_made",
            "points_march",
            "points_lone_march",
            "points_euchre",
            "points_lone_defender_euchre",
            "points_super_euchre",
        ),
    ),
    ("Game length", ("target_score", "deals_per_game", "first_dealer")),
    ("Bid Euchre", ("bid_minimum", "dealer_may_match", "bid_lead", "shoot", "points_shoot")),
)
"""Every rule field but ``preset``, in the groups players think in."""

_SHORT: Final[dict[str, Callable[[Any], str]]] = {
    "stick_the_dealer": lambda v: "stick the dealer" if v else "no stick the dealer",
    "dealer_partner_order_up": lambda v: (
        "dealer's partner orders up alone" if v == "must_go_alone" else "partner may order up"
    ),
    "order_up_needs_suit": lambda v: {
        "never": "order up freely",
        "dealer": "dealer needs the suit",
        "everyone": "hold the suit to order",
    }[v],
    "defend_alone": lambda v: {
        "never": "no lone defence",
        "vs_lone_maker": "defend alone vs loners",
        "always": "defend alone",
    }[v],
    "alone_declaration": lambda v: (
        "alone with the bid" if v == "with_call" else "alone after trump"
    ),
    "lone_lead": lambda v: "loner's left leads" if v == "left_of_loner" else "dealer's left leads",
    "points_super_euchre": lambda v: "no super-euchre" if v is None else f"super-euchre {v}",
    "partners_best": lambda v: "partner's best" if v else "no partner's best",
    "no_trump_lead_first_trick": lambda v: "no first-trick trump lead" if v else "trump leads ok",
    "trump_must_be_broken": lambda v: "trump must be broken" if v else "trump leads ok",
    "ace_no_face": lambda v: "ace no face" if v else "no ace no face",
    "farmers_hand": lambda v: "no farmer's hand" if v == "off" else "farmer's hand",
    "joker": lambda v: {"none": "no Benny", "joker": "Benny", "two_of_spades": "2♠ Benny"}[v],
    "deck": lambda v: {"24": "24 cards", "32": "32 cards"}.get(v, "Almonte pack"),
    "players": lambda v: f"{v} players",
    "game": lambda v: "Bid Euchre" if v == "bid_euchre" else "euchre",
    "shoot": lambda v: "shooting" if v else "no shooting",
    "dealer_may_match": lambda v: "dealer may match" if v else "dealer must overbid",
    "bid_lead": lambda v: "bidder leads" if v == "bidder" else "dealer's left leads",
    "first_dealer": lambda v: "random first dealer" if v == "random" else "black jack deals",
}


def explain(field: str, rules: HouseRules) -> str:
    """One plain sentence saying what ``field`` means with the value these rules give it."""
    return _SENTENCES[field](getattr(rules, field), rules)


def _short(field: str, rules: HouseRules) -> str:
    value = getattr(rules, field)
    if field in _SHORT:
        return _SHORT[field](value)
    if field.startswith("points_"):
        return f"{field.removeprefix('points_').replace('_', ' ')} {value}"
    return f"{field.replace('_', ' ')}: {value}"


def rules_line(rules: HouseRules) -> str:
    """The rules in one line: "North American · to 10 · stick the dealer"."""
    parts = [PRESET_NAMES[rules.preset]]
    if rules.deals_per_game is not None:
        parts.append(f"{rules.deals_per_game} deals")
    else:
        parts.append(f"to {rules.target_score}")
    for field in rules.differences_from_preset():
        if field not in ("target_score", "deals_per_game"):
            parts.append(_short(field, rules))
    return " · ".join(parts)


def matters(field: str, rules: HouseRules) -> bool:
    """Whether a rule can make a difference in this game and pack (the others are not listed)."""
    return unused_because(field, rules) is None


def _group_lines(rules: HouseRules, fields: tuple[str, ...]) -> list[str]:
    changed = set(rules.differences_from_preset())
    lines = []
    for field in fields:
        if field not in changed and not matters(field, rules):
            continue
        mark = f"{CHANGED_MARK} " if field in changed else ""
        lines.append(f"{mark}{explain(field, rules)}")
    return lines


def rules_text(rules: HouseRules) -> str:
    """Every rule as plain text, grouped under headings (for logs and tests)."""
    out = [f"{PRESET_NAMES[rules.preset]} rules"]
    for title, fields in GROUPS:
        lines = _group_lines(rules, fields)
        if lines:
            out.append(f"\n{title}")
            out += [f"- {line}" for line in lines]
    return "\n".join(out)


def rules_panel(rules: HouseRules, *, title: str = "House rules") -> Panel:
    """Every rule in plain words, one field per group, changes from the preset marked."""
    changed = rules.differences_from_preset()
    base = PRESET_NAMES[rules.preset]
    intro = f"Starting from **{base}**: {PRESET_DESCRIPTIONS[rules.preset]}."
    if changed:
        intro += f"\n{CHANGED_MARK} marks the {len(changed)} rule(s) changed from {base}."
    else:
        intro += f"\nNo rule is changed from {base}."
    panel = Panel(title=title, description=intro, colour="dark_green")
    for heading, fields in GROUPS:
        lines = _group_lines(rules, fields)
        if lines:
            panel.add_field(name=heading, value="\n".join(lines), inline=False)
    return panel
