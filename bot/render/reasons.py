"""Why a reviewed decision lost, in terms of the cards: what a person can check on the table.

A review's search says how much a decision lost; this says why, by the patterns a
teacher would point at: in the play and the discard those of ``card_reasons``; in the
bidding (here) the hand itself (the bowers, how many trumps, the upcard gained), the
other side's top trumps against a weak call, or a lone hand beaten.

Each pattern looks at the seat's view and, for what the finished deal showed
afterwards (``Hindsight``), only at cards that were played: the review never tells a
hidden card (a discard, the kitty, a hand that sat out). ``reason`` tries the
patterns of the decision's phase in order and returns the first sentence that
fits, or None (the review then gives the hint's why of the expert's choice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.players.review import ReviewedDecision
from bot.rules import Action, Suit
from bot.rules.cards import ACE, JOKER
from bot.rules.ranking import NO_TRUMP_HIGH, build_ranking, top_rank_word

from .card_reasons import PLAY, discard_reason
from .hints import hand_words
from .reason_moment import NUMBERS, Moment, name

__all__ = ["reason"]


def reason(decision: ReviewedDecision) -> str | None:
    """What the action done did wrong, in the cards' terms; None where no pattern fits."""
    view = decision.view
    if view.rules.game == "bid_euchre" or decision.done == decision.best:
        return None
    patterns: Sequence[Callable[[Moment], str | None]]
    if view.phase == "play":
        patterns = PLAY
    elif view.phase == "discard":
        patterns = (discard_reason,)
    elif view.phase in ("bid1", "bid2"):
        patterns = (_alone_bid, _making, _not_making, _other_suit)
    elif view.phase == "alone":
        patterns = (_alone_bid,)
    else:
        return None
    moment = Moment(decision)
    for pattern in patterns:
        found = pattern(moment)
        if found is not None:
            return found
    return None


def _making_suit(m: Moment, action: Action) -> int | None:
    """The trump an action makes (order up: the upcard's suit; call: its suit)."""
    if action.do == "order_up" and m.view.upcard < JOKER:
        return m.view.upcard >> 3
    if action.do == "call":
        return action.suit
    return None


def _making(m: Moment) -> str | None:
    """The expert makes trump where the action done passed: the hand says why."""
    suit = _making_suit(m, m.best)
    if suit is None or m.done.do != "pass":
        return None
    view = m.view
    left = next(
        (c for c in view.hand if c < JOKER and top_rank_word(c, suit) == "the left bower"), None
    )
    dealer = view.seat == view.dealer
    partner_deals = not dealer and m.partner(view.dealer)
    upcard = _upcard_words(view.upcard, suit)
    if left is not None and m.best.do == "order_up":
        if dealer:
            return (
                f"you held the left bower ({name(left)}): taking up {upcard} makes you two "
                "trumps stronger"
            )
        if partner_deals:
            return (
                f"you held the left bower ({name(left)}): ordering up makes your side two "
                f"trumps stronger, your partner taking up {upcard}"
            )
    words = hand_words(view, suit)
    gain = ""
    if m.best.do == "order_up" and dealer:
        gain = f", and taking up {upcard} adds a trump"
    elif m.best.do == "order_up" and partner_deals:
        gain = f", and your partner takes up {upcard}"
    return f"in {Suit(suit).plural} you held {words}{gain}: enough to make trump"


def _upcard_words(card: int, trump: int) -> str:
    """The upcard as taken up: "the 9♥️", "the right bower (J♥️)"."""
    role = top_rank_word(card, trump)
    return f"{role} ({name(card)})" if role else f"the {name(card)}"


def _not_making(m: Moment) -> str | None:
    """The expert passes where the action done made trump: too little, and what was against it."""
    suit = _making_suit(m, m.done)
    if suit is None or m.best.do != "pass":
        return None
    words = hand_words(m.view, suit)
    if words.startswith("no "):
        text = f"you held {words}: not enough to make {Suit(suit).plural} trump"
    else:
        text = f"in {Suit(suit).plural} you held only {words}: not enough to make trump"
    against = _their_top_trumps(m, suit)
    if against:
        text += f"; the other side held {against}"
    return text


def _other_suit(m: Moment) -> str | None:
    """Both make trump, in different suits: the hand in each."""
    mine, theirs = _making_suit(m, m.best), _making_suit(m, m.done)
    if mine is None or theirs is None or mine == theirs:
        return None
    return (
        f"in {Suit(mine).plural} you held {hand_words(m.view, mine)}, in "
        f"{Suit(theirs).plural} only {hand_words(m.view, theirs)}"
    )


def _their_top_trumps(m: Moment, suit: int) -> str:
    """The top trumps (bowers, ace) the other side held, of those it played."""
    if m.hindsight is None:
        return ""
    played = {(s, a.card) for s, a in m.hindsight.later if a.do == "play" and a.card is not None}
    named = []
    for seat, hand in enumerate(m.hindsight.hands):
        if m.partner(seat):
            continue
        for card in hand:
            if (seat, card) not in played or card >= JOKER:
                continue
            role = top_rank_word(card, suit)
            if role or (card >> 3 == suit and card & 7 == ACE):
                named.append((0 if role == "the right bower" else 1 if role else 2, card))
    named.sort()
    words = [
        (top_rank_word(c, suit) or "the ace").removeprefix("the ") + f" ({name(c)})"
        for _, c in named
    ]
    if not words:
        return ""
    return "the " + (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0])


def _alone_bid(m: Moment) -> str | None:
    """Going alone or not: a sure march alone, or a lone hand the other side beat."""
    best_alone = bool(m.best.alone) or m.best.do == "alone"
    done_alone = bool(m.done.alone) or m.done.do == "alone"
    if best_alone == done_alone:
        return None
    view = m.view
    rules = view.rules
    if view.phase == "alone":
        suit = view.trump
    else:
        suit = _making_suit(m, m.best)
        if suit != _making_suit(m, m.done):
            return None  # not the same bid with and without the partner
    if suit is None or suit >= NO_TRUMP_HIGH:
        return None
    words = hand_words(view, suit)
    if best_alone:
        return (
            f"you held {words}: enough to take every trick alone, and a march alone scores "
            f"{rules.points_lone_march} points, not {rules.points_march}"
        )
    taken = _their_tricks(m, suit)
    text = f"with {words} you needed every trick alone"
    if taken:
        text += f": the other side took {taken}"
    return text + "; your partner's cards would have helped"


def _their_tricks(m: Moment, trump: int) -> str:
    """The cards that took the other side's tricks in the rest of the deal, from hindsight."""
    if m.hindsight is None:
        return ""
    ranking = build_ranking(m.view.rules)
    trick: list[tuple[int, int]] = []
    winners: list[int] = []
    for seat, action in m.hindsight.later:
        if action.do != "play" or action.card is None:
            continue
        trick.append((seat, action.card))
        if len(trick) == m.active():
            led = ranking.suit[trump][trick[0][1]]
            seat_won, card = max(trick, key=lambda sc: ranking.power[trump][led][sc[1]])
            if not m.partner(seat_won):
                winners.append(card)
            trick = []
    if not winners:
        return ""
    cards = ", ".join(f"the {name(c)}" for c in winners)
    return f"{NUMBERS[len(winners)]} trick{'s' if len(winners) > 1 else ''} ({cards})"
