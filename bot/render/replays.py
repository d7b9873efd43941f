"""A finished game's replay in Discord: one page per bidding and per trick, every hand face up.

Drawn from :func:`bot.league.replay_book`'s steps; only finished games are replayed,
so showing every hand hides nothing from anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.league import ReplayBook, ReplayStep
from bot.rules import Action
from bot.store import ArchivedGame

from .action_words import DISCORD_WORDS, Words, bid_words
from .cards import card_text, hand_text, suit_text, trump_text
from .names import shown
from .panel import Panel
from .rules import rules_line
from .teams import COMPUTER_MARK, joined, team_mark

__all__ = ["DEAL_WORDS", "DISCORD_WORDS", "Words", "describe_action", "replay_panel", "seat_names"]

DEAL_WORDS: Final = {
    "made": "made it",
    "march": "marched: every trick",
    "euchred": "were euchred",
    "passed": "everyone passed: the hand was thrown in",
    "redeal": "a hand was thrown in (ace no face)",
    "set": "were set",
    "shot": "shot: every trick",
    "shot_failed": "failed the shoot",
}
"""What a side did in a deal, by the deal's outcome."""


def seat_names(game: ArchivedGame) -> list[str]:
    """Each seat's player of an archived game as Discord text, computers marked."""
    names = ["?"] * len(game.players)
    for p in game.players:
        names[p.seat] = (
            f"{p.display_name} {COMPUTER_MARK}" if p.is_computer else shown(p.display_name)
        )
    return names


def describe_action(
    seat: int,
    action: Action,
    names: Sequence[str],
    step: ReplayStep,
    words: Words = DISCORD_WORDS,
) -> str:
    """One action of a replay's step in words: "Alice ordered it up alone"."""
    who = names[seat]
    said = bid_words(
        who, action, dealer=seat == step.dealer, name_of=names.__getitem__, words=words
    )
    if said is not None:
        return said
    do = action.do
    if do == "pass":
        return f"{who} passed"
    if do == "shoot":
        return f"{who} shot"
    if do == "discard":
        assert action.card is not None
        return f"{who} discarded {words.card(action.card)}"
    if do == "alone":
        return f"{who} went alone"
    if do == "give":
        assert action.card is not None
        return f"{who} passed {words.card(action.card)} to the lone partner"
    if do == "swap":
        cards = " ".join(words.card(c) for c in action.cards or ())
        return f"{who} swapped {cards} with the kitty"
    assert action.card is not None
    return f"{who} played {words.card(action.card)}"


def _hands(step: ReplayStep, names: Sequence[str]) -> str:
    lines = []
    for seat, hand in enumerate(step.hands):
        dealer = " (dealer)" if seat == step.dealer else ""
        if step.out[seat]:
            lines.append(f"{team_mark(seat)} {names[seat]}{dealer}: sits out")
            continue
        lines.append(f"{team_mark(seat)} {names[seat]}{dealer}: {hand_text(hand, step.trump)}")
    return "\n".join(lines)


def _deal_result(step: ReplayStep, names: Sequence[str]) -> str:
    assert step.result is not None
    if step.maker is None or step.trump is None:
        return DEAL_WORDS[step.result].capitalize() + "."
    makers = step.maker % 2
    if step.contract is not None:
        points = " ".join(f"{team_mark(t)} {step.points[t]:+d}" for t in (0, 1))
        return (
            f"{team_mark(makers)} bidders took {step.tricks_won[makers]} and "
            f"{DEAL_WORDS[step.result]}: {points}."
        )
    winner = makers if step.result in ("made", "march") else 1 - makers
    return (
        f"{team_mark(makers)} makers took {step.tricks_won[makers]} and "
        f"{DEAL_WORDS[step.result]}: {team_mark(winner)} +{step.points[winner]}."
    )


def replay_panel(game: ArchivedGame, book: ReplayBook, index: int) -> Panel:
    """Step ``index`` of a finished game's replay, every hand face up."""
    step = book.steps[index]
    names = seat_names(game)
    deals = len(book.deal_starts)
    start = book.deal_starts[step.deal]
    end = book.deal_starts[step.deal + 1] if step.deal + 1 < deals else len(book.steps)
    tricks = end - start - 1
    where = f"deal {step.deal + 1} of {deals}"
    where += " · bidding" if step.trick == 0 else f" · trick {step.trick} of {tricks}"
    panel = Panel(title=f"🔁 Game #{game.shown_number} · {where}", colour="blurple")
    sides = [joined(names[t::2]) for t in (0, 1)]
    teams = " — ".join(f"{team_mark(t)} {sides[t]} **{step.score[t]}**" for t in (0, 1))
    if step.contract is not None or book.rules.game == "bid_euchre":
        facts = [teams, f"Dealer: {names[step.dealer]}"]
    else:
        facts = [teams, f"Dealer: {names[step.dealer]} · upcard {card_text(step.upcard)}"]
    contract = step.contract
    if contract is not None and step.trump is not None:
        bid = "shot" if contract.shoot else f"bid {contract.tricks}"
        facts.append(f"{names[contract.seat]} {bid} · trump **{trump_text(step.trump)}**")
    elif step.trump is not None and step.maker is not None:
        alone = "".join(f" · {names[s]} alone" for s in step.alone)
        facts.append(f"Trump: **{suit_text(step.trump)}**, made by {names[step.maker]}{alone}")
    panel.description = "\n".join(facts)
    title = "Hands as dealt" if step.trick == 0 else f"Hands before trick {step.trick}"
    panel.add_field(name=title, value=_hands(step, names), inline=False)
    if step.trick == 0:
        said = " · ".join(describe_action(s, a, names, step) for s, a in step.actions)
        panel.add_field(name="Bidding", value=said or "—", inline=False)
    elif step.trick_play is not None:
        plays = " · ".join(f"{names[s]} {card_text(c)}" for s, c in step.trick_play.plays)
        won = step.tricks_won
        panel.add_field(
            name=f"Trick {step.trick}",
            value=(
                f"{plays}\n{team_mark(step.trick_play.winner)} {names[step.trick_play.winner]} "
                f"took it · tricks {team_mark(0)} {won[0]} · {team_mark(1)} {won[1]}"
            ),
            inline=False,
        )
    if step.result is not None:
        panel.add_field(name="Deal over", value=_deal_result(step, names), inline=False)
    if index == len(book.steps) - 1:
        if book.winner is None:
            final = f"🤝 A tie, {book.score[0]} to {book.score[1]}."
        else:
            w = book.winner
            final = f"🏆 {team_mark(w)} won {book.score[w]} to {book.score[1 - w]}."
        panel.add_field(name="Game over", value=final, inline=False)
    panel.footer = f"Step {index + 1} of {len(book.steps)} · {rules_line(book.rules)}"
    return panel
