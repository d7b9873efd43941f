"""Command line of the rules core: ``replay FILE [--text]``.

``python -m bot.rules replay FILE`` (FILE ``-`` for standard input) prints the
replay object of record-format.md, a fixed contract whose seats count from 0, and
exits 0, also when it stops at a rejected action; it exits 2 with a message on
standard error when the file is not a record at all. ``--text`` prints the same
for people: seats counted from 1 as Discord shows them, results in words.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli import run_main

from .cards import SUIT_NAMES, card_symbol, parse_card, parse_suit
from .errors import RecordError
from .record import Replay, replay

_PHASES = {
    "bid1": "the first round of bidding",
    "bid2": "the second round of bidding",
    "discard": "the dealer's discard",
    "alone": "the alone round",
    "give": "partner's best",
    "play": "play",
    "bid": "the bidding",
    "declare": "naming trump",
}
_NO_TRUMP = {"high": "No Trump High", "low": "No Trump Low"}


def _read(path: str) -> str | None:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return None


def _replay(path: str, text: bool) -> int:
    content = _read(path)
    if content is None:
        return 2
    try:
        result = replay(content)
    except RecordError as exc:
        print(f"error: {path} is not a game record: {exc}", file=sys.stderr)
        return 2
    if text:
        print(replay_text(result))
    else:
        json.dump(result.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


def replay_text(result: Replay) -> str:
    """The replay in words for people: seats counted from 1, as Discord shows them."""
    out = result.to_json()
    players = result.game.rules.players
    teams = [_team(t, players) for t in (0, 1)]
    lines = [
        f"Seats are numbered 1-{players} as Discord shows them "
        f"(the JSON output counts from 0): {teams[0]} play against {teams[1]}."
    ]
    for number, deal in enumerate(out["deals"], start=1):
        lines.append(f"Deal {number}: {_deal(deal, teams)}")
    score = out["score"]
    lines.append(f"Score: {_points(score[0])} for {teams[0]}, {score[1]} for {teams[1]}.")
    if out["winner"] is not None:
        lines.append(f"Game over: {teams[out['winner']]} won.")
    elif out["turn"] is None:
        lines.append("Game over: a tie.")
    else:
        turn = out["turn"]
        options = _either([_action(a) for a in turn["legal"]])
        phase = _PHASES.get(turn["phase"], turn["phase"])
        lines.append(f"Next: {_seat(turn['seat'])}, in {phase}, may {options}.")
    error = out["error"]
    if error is not None:
        lines.append(
            f"The record stops at its action {error['index'] + 1} (counting from 1), "
            f"which was refused: {error['message']} ({error['code']})"
        )
    return "\n".join(lines)


def _team(team: int, players: int) -> str:
    seats = [str(s + 1) for s in range(team, players, 2)]
    return f"seats {', '.join(seats[:-1])} and {seats[-1]}"


def _seat(seat: int) -> str:
    return f"seat {seat + 1}"


def _deal(deal: dict[str, Any], teams: list[str]) -> str:
    parts = [f"{_seat(deal['dealer'])} dealt"]
    bid = deal.get("bid")
    if bid is not None:
        what = "shot" if bid.get("shoot") else f"bid {bid['tricks']}"
        parts.append(f"{_seat(bid['seat'])} {what}")
    if deal["trump"] in _NO_TRUMP:
        parts.append(f"{_NO_TRUMP[deal['trump']]} declared")
    elif deal["trump"] is not None and deal["maker"] is not None:
        made = f"{SUIT_NAMES[parse_suit(deal['trump'])]} made trump by {_seat(deal['maker'])}"
        alone = deal["alone"]
        if alone:
            who = _seat(alone[0]) if len(alone) == 1 else f"seats {alone[0] + 1} and {alone[1] + 1}"
            made += f" ({who} alone)"
        parts.append(made)
    result = deal["result"]
    makers = deal["makers"]
    points = deal["points"]
    tricks = deal["tricks"]
    if result == "in_play":
        parts.append(f"tricks so far {tricks[0]}-{tricks[1]}, still in play")
    elif result == "passed":
        parts.append("everyone passed and the hands were thrown in")
    elif result == "redeal":
        parts.append("thrown in (ace-no-face)")
    elif makers is not None and result in ("set", "shot_failed"):
        defenders = 1 - makers
        parts.append(
            f"{teams[makers]} fell short ({tricks[makers]} tricks): {_points(points[makers])}, "
            f"{teams[defenders]} {_points(points[defenders])}"
        )
    elif makers is not None and result == "shot":
        parts.append(f"{teams[makers]} took every trick: {_points(points[makers])}")
    elif makers is not None and bid is not None:
        parts.append(
            f"{teams[makers]} made it ({tricks[makers]} tricks): {_points(points[makers])}, "
            f"{teams[1 - makers]} {_points(points[1 - makers])}"
        )
    elif makers is not None:
        defenders = 1 - makers
        if result == "euchred":
            parts.append(
                f"{teams[makers]} were euchred: {teams[defenders]} score "
                f"{_points(points[defenders])}"
            )
        else:
            how = "took every trick" if result == "march" else "made it"
            parts.append(
                f"{teams[makers]} {how} ({tricks[makers]} tricks): {_points(points[makers])}"
            )
    else:
        parts.append(result)
    return "; ".join(parts) + "."


def _either(options: list[str]) -> str:
    return options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _card(label: str) -> str:
    return card_symbol(parse_card(label))


def _action(action: dict[str, Any]) -> str:
    do = action["do"]
    alone = " alone" if action.get("alone") else ""
    if do == "order_up":
        return f"order up{alone}"
    if do == "call":
        return f"call {SUIT_NAMES[parse_suit(action['suit'])]}{alone}"
    if do in ("play", "discard", "give"):
        return f"{do} {_card(action['card'])}"
    if do == "alone":
        return "go alone"
    if do == "ask":
        return f"ask {_seat(action['seat'])} for a card"
    if do == "redeal":
        return "throw the hand in"
    if do == "bid":
        return f"bid {action['tricks']}"
    if do == "declare":
        trump = action["trump"]
        return _NO_TRUMP.get(trump) or f"declare {SUIT_NAMES[parse_suit(trump)]}"
    if do == "swap":
        return "swap " + " ".join(_card(c) for c in action["cards"])
    return str(do)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m bot.rules``."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.rules",
        description="The rules core from the command line: replay a game record "
        "(docs/record-format.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rp = sub.add_parser(
        "replay",
        help="replay a game record and print the resulting state",
        description="Replay a game record and print the resulting state: by default the "
        "JSON object of docs/record-format.md, in which seats count from 0 (seat 0 is "
        "the seat Discord calls seat 1). Exits 2 if the file is not a game record.",
    )
    rp.add_argument("file", help="the record (JSON); - reads standard input")
    rp.add_argument(
        "--text",
        action="store_true",
        help="print the state in words instead, seats counted from 1 as Discord shows them",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    return _replay(args.file, args.text)


if __name__ == "__main__":
    run_main(main)
