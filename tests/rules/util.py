"""Helpers for rules-core tests: deals from readable strings, records, snapshots."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.rules import Action, Game, HouseRules, Replay, new_game, parse_record, replay
from bot.rules.record import starting_game


def record(
    rules: dict[str, Any],
    hands: list[str],
    upcard: str,
    actions: list[dict[str, Any]] | None = None,
    dealer: int = 0,
    more_deals: list[tuple[list[str], str]] | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """A format-1 record; hands as space-separated card names, the kitty left to the loader."""
    deals = [{"hands": [h.split() for h in hands], "upcard": upcard}]
    for h, up in more_deals or []:
        deals.append({"hands": [x.split() for x in h], "upcard": up})
    return {
        "format": 1,
        "rules": rules,
        "dealer": dealer,
        "seed": seed,
        "deals": deals,
        "actions": actions or [],
    }


def run(doc: dict[str, Any]) -> Replay:
    """Replay a record and insist it was accepted to the end."""
    result = replay(doc)
    assert result.error is None, result.error
    return result


def game_of(doc: dict[str, Any]) -> Game:
    """A game at the start of a record, its actions not applied."""
    return starting_game(parse_record(doc))


def play_out(game: Game) -> None:
    """Finish the current deal taking the first legal action each turn."""
    number = game.deal_number
    while not game.over and game.deal_number == number:
        game.apply(game.turn, game.legal()[0])  # type: ignore[arg-type]


def snapshot(game: Game) -> str:
    """Everything observable about a game, to compare before and after a rejected action."""
    return json.dumps(
        {
            "replay": Replay(game).to_json(),
            "hands": game.hands,
            "kitty": game.kitty,
            "trick": game.trick,
            "log": len(game.log),
            "swapped": game.state.swapped,
            "out": game.out,
        }
    )


def acts(*pairs: tuple[int, str] | tuple[int, str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Actions from (seat, verb) or (seat, verb, fields) tuples."""
    out = []
    for p in pairs:
        extra = p[2] if len(p) == 3 else {}  # type: ignore[misc]
        out.append({"seat": p[0], "do": p[1], **extra})
    return out


NA = {"preset": "north_american"}

TWO_PACKS_SIX_SEATS = [
    "9S 9S 10S 10S 9H 9H 10H 10H",
    "AS KS QS JS 9D 9D 10D 10D",
    "JH JH QH QH 9C 9C 10C 10C",
    "AS KS QS JS JD JD QD QD",
    "KH KH AH AH JC JC QC QC",
    "KD KD AD AD KC KC AC AC",
]
"""A Bid Euchre deal of six seats from two packs: seats 1 and 3 hold the same four spades."""


def rules_of(spec: dict[str, Any]) -> HouseRules:
    """HouseRules from a spec."""
    return HouseRules.from_spec(spec)


def calm_choice(game: Game, rng: random.Random) -> Action:
    """A random legal action, but one that lets a random game of Bid Euchre end.

    Uniformly random bids and shoots are mostly set, so both scores drift below
    zero and the game never reaches its target: here a bidder passes when it may
    (four times in five) and never shoots. Euchre's choices stay uniform.
    """
    legal = list(game.legal())
    if game.phase == "bid":
        calm = [a for a in legal if a.do != "shoot"]
        if calm[0].do == "pass" and rng.random() < 0.8:
            return calm[0]
        return rng.choice(calm)
    return rng.choice(legal)


def uniform_choice(game: Game, rng: random.Random) -> Action:
    """Any legal action, each as likely."""
    return rng.choice(list(game.legal()))


def cards_in_play(game: Game) -> Counter[int]:
    """Every card in the hands, the kitty, the trick, the tricks taken and a turned-down upcard."""
    held = Counter(c for hand in game.hands for c in hand)
    held += Counter(game.kitty) + Counter(c for _, c in game.trick)
    held += Counter(c for t in game.tricks for c in t.cards)
    if not game.upcard_taken and game.upcard >= 0:  # Bid Euchre turns up no card
        held[game.upcard] += 1
    return held


def checked_random_game(
    rules: HouseRules,
    seed: int,
    pick: int,
    choose: Callable[[Game, random.Random], Action] = uniform_choice,
    limit: int = 10_000,
) -> Game:
    """A game from ``seed`` played to its end by ``choose`` (seeded by ``pick``), checked
    at every step: some action is legal, none is listed twice, and every card of the
    pack is in play once."""
    rng = random.Random(pick)
    game = new_game(rules, seed=seed)
    pack = Counter(game.pack)
    for _ in range(limit):
        if game.over:
            return game
        legal = game.legal()
        assert legal, f"no legal action in phase {game.phase}"
        assert len(set(legal)) == len(legal)
        game.apply(game.turn, choose(game, rng))  # type: ignore[arg-type]
        if not game.over:
            assert cards_in_play(game) == pack
    raise AssertionError("the game did not end")


def replay_command(record: Path | str, text: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bot.rules replay`` of the file ``record`` (``-``: ``text`` on its input)."""
    return subprocess.run(
        [sys.executable, "-m", "bot.rules", "replay", str(record)],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
