"""A hint in one line: the expert's choice, why in euchre terms, and what the search found it worth.

The figures come from the expert's own search (:class:`bot.tables.Advice`): the
expected points a deal of the choice against the best other option it tried.
The why describes the hand in the suit at stake (bowers, trumps, side aces) for a
bid, and what the card does in the trick for the play. In Bid Euchre a bid or a
declaration is explained by the tricks the search expects the side to take with
the trump at stake.
"""

from __future__ import annotations

from collections import Counter

from bot.rules import Action, SeatView, Suit
from bot.rules.cards import ACE, JOKER, NINE
from bot.rules.house_rules import deck_cards
from bot.rules.ranking import NO_TRUMP_HIGH, NO_TRUMP_LOW, build_ranking, top_rank_word
from bot.tables import Advice

from .cards import card_text, trump_text, trump_words

__all__ = ["action_phrase", "hint_text", "why_text"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six")

_TOP_ORDER = {"the Benny": 0, "a joker": 0, "the right bower": 1, "the left bower": 2}
"""The named trumps from the highest, as a hand is described."""

EVEN = 0.05
"""A margin smaller than this (points a deal) is told as "about even", not as +0.0."""


def hint_text(view: SeatView, advice: Advice) -> str:
    """The hint for ``view``'s seat: "Order up: right and left bower and a side ace; ..."."""
    choice = advice.action
    head = f"{_imperative(view, choice)}: {_why(view, advice)}"
    runner = advice.runner_up()
    margin = advice.margin()
    if runner is None or margin is None:
        if len(set(view.legal)) == 1:
            return f"{head}; it is the only move you have."
        return f"{head}; there is nothing to weigh here, so this is how a club player would do it."
    against = _gerund(view, runner)
    mine = _gerund(view, choice)
    if abs(margin) < EVEN:
        return (
            f"{head}; {mine} and {against} come out about even here "
            f"({advice.samples} deals sampled)."
        )
    if margin >= 0:
        return (
            f"{head}; {mine} is worth about {margin:+.1f} points against {against} here "
            f"({advice.samples} deals sampled)."
        )
    return (
        f"{head}; the samples put {mine} {-margin:.1f} points behind {against}, too close "
        f"to overrule the count of the hand ({advice.samples} deals sampled)."
    )


def why_text(view: SeatView, advice: Advice) -> str:
    """Why the advice's choice, in euchre terms: "in hearts you hold the right bower ..."."""
    return _why(view, advice)


def action_phrase(view: SeatView, action: Action) -> tuple[str, str]:
    """An option as advice ("Order up") and as a thing to weigh ("ordering up")."""
    return _phrase(view, action)


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _option_suit(view: SeatView, action: Action) -> int | None:
    """The trump suit an option is about."""
    if action.do == "call":
        return action.suit
    if action.do == "order_up" and view.upcard < JOKER:
        return view.upcard >> 3
    return view.trump


def hand_words(view: SeatView, trump: int) -> str:
    """The hand described for ``trump``: "the right and left bowers and a side ace"."""
    suit_of = build_ranking(view.rules).suit[trump]
    hand = list(view.hand)
    if view.phase == "bid1" and view.seat == view.dealer and view.upcard >> 3 == trump:
        hand.append(view.upcard)
    trumps = [c for c in hand if suit_of[c] == trump]
    named = (r for c in trumps if (r := top_rank_word(c, trump)))
    roles = sorted(named, key=_TOP_ORDER.__getitem__)
    bowers = [r.removeprefix("the ") for r in roles]
    others = len(trumps) - len(bowers)
    aces = sum(1 for c in hand if suit_of[c] != trump and c < JOKER and c & 7 == ACE)
    parts = []
    if bowers:
        names = [b.removesuffix(" bower") for b in bowers]
        bower = "bowers" if len(names) > 1 else "bower"
        parts.append(
            f"the {_join(names)} {bower}"
            if all(b.endswith("bower") for b in bowers)
            else _join(bowers)
        )
    if others:
        more = "more " if bowers else ""
        parts.append(f"{_NUMBERS[others]} {more}trump{'s' if others > 1 else ''}")
    if not trumps:
        parts.append(f"no {Suit(trump).plural}")
    if aces:
        parts.append("a side ace" if aces == 1 else f"{_NUMBERS[aces]} side aces")
    return _join(parts)


def _why(view: SeatView, advice: Advice) -> str:
    choice = advice.action
    if choice.do == "play" and choice.card is not None:
        return _card_role(view, choice.card)
    if view.rules.game == "bid_euchre":
        return _bid_why(view, advice)
    if choice.do == "discard" and choice.card is not None and view.trump is not None:
        suit_of = build_ranking(view.rules).suit[view.trump]
        suit = suit_of[choice.card]
        if suit != view.trump and sum(suit_of[c] == suit for c in view.hand) == 1:
            return f"it leaves you void in {Suit(suit).plural}, ready to trump them"
        return "it is the card your hand needs least"
    compare = choice if choice.do not in ("pass", "discard") else advice.runner_up() or choice
    trump = _option_suit(view, compare)
    if trump is None or trump >= NO_TRUMP_HIGH:  # Bid Euchre's no-trump: no suit at stake
        return "your hand"
    return f"in {Suit(trump).plural} you hold {hand_words(view, trump)}"


def _bid_why(view: SeatView, advice: Advice) -> str:
    """Bid Euchre: the tricks the search expects the side to take with the trump at stake."""
    choice = advice.action
    tricks = advice.tricks
    size = view.rules.hand_size
    trump = choice.trump
    if choice.do == "declare" and trump is not None and trump in tricks:
        return f"your side expects about {tricks[trump]:.1f} of {size} tricks"
    if choice.do in ("bid", "shoot", "pass") and tricks:
        trump = max(tricks, key=tricks.__getitem__)
        expected = f"about {tricks[trump]:.1f} of {size} tricks"
        if choice.do != "pass":
            return f"naming {trump_words(trump)}, your side expects {expected}"
        numbers = [a.tricks for a in view.legal if a.tricks is not None]
        against = f", for a bid of at least {min(numbers)}" if numbers else ""
        return f"your side's best choice, {trump_words(trump)}, brings it {expected}{against}"
    if choice.do == "give":
        return "a shooter needs your strongest card"
    if choice.do == "discard":
        return "it is the card your hand needs least"
    return "your hand"


def _card_role(view: SeatView, card: int) -> str:
    """What ``card`` does in the trick: leads trump, takes the trick, throws off..."""
    assert view.trump is not None
    ranking = build_ranking(view.rules)
    trump = view.trump
    if not view.trick:
        if ranking.suit[trump][card] == trump:
            return "lead trump to draw the other side's trumps"
        if card < JOKER and card & 7 == (NINE if trump == NO_TRUMP_LOW else ACE):
            if trump >= NO_TRUMP_HIGH:
                return "cash the top card of its suit while the suit is still followed"
            return "cash a side ace while the suit is still followed"
        if _best_left(view, card):
            return "cash the best card left in its suit while the suit is still followed"
        return "lead low and keep your winners"
    led = ranking.suit[trump][view.trick[0][1]]
    power = ranking.power[trump][led]
    best_seat, best = max(view.trick, key=lambda sc: power[sc[1]])
    partner = best_seat % 2 == view.seat % 2
    if power[card] > power[best]:
        if ranking.suit[trump][card] == trump and led != trump:
            return "trump in and take the trick"
        return "overtake and take the trick" if partner else "take the trick"
    low = _lowest(view, card)
    throw = "throw your cheapest card" if low else "throw a card you can spare"
    if partner:
        return f"your partner has the trick, so {'play low' if low else throw}"
    playable = [a.card for a in view.legal if a.do == "play" and a.card is not None]
    if any(power[c] > power[best] for c in playable):
        return f"let this trick go and {throw}"
    return f"the trick is lost, so {throw}"


def _lowest(view: SeatView, card: int) -> bool:
    """Whether ``card`` is the least of the cards the seat may play (side suits before trump)."""
    trump = view.trump
    assert trump is not None
    ranking = build_ranking(view.rules)
    suit_of = ranking.suit[trump]

    def worth(c: int) -> tuple[bool, int]:
        return suit_of[c] == trump, ranking.power[trump][suit_of[c]][c]

    playable = [a.card for a in view.legal if a.do == "play" and a.card is not None]
    return worth(card) <= min(map(worth, playable), default=worth(card))


def _best_left(view: SeatView, card: int) -> bool:
    """Whether every card that would beat ``card`` in its suit is played or in the hand."""
    assert view.trump is not None
    ranking = build_ranking(view.rules)
    suit_of = ranking.suit[view.trump]
    suit = suit_of[card]
    power = ranking.power[view.trump][suit]
    pack = deck_cards(view.rules)
    out = Counter(c for c in pack if suit_of[c] == suit and power[c] > power[card])
    out.subtract(view.hand)
    for trick in view.tricks:
        out.subtract(trick.cards)
    return all(n <= 0 for n in out.values())


def _imperative(view: SeatView, action: Action) -> str:
    return _phrase(view, action)[0]


def _gerund(view: SeatView, action: Action) -> str:
    return _phrase(view, action)[1]


def _phrase(view: SeatView, action: Action) -> tuple[str, str]:
    """An option as advice ("Order up") and as a thing to weigh ("ordering up")."""
    dealer = view.seat == view.dealer
    alone = " alone" if action.alone else ""
    do = action.do
    if do == "pass":
        if view.phase == "bid1" and dealer:
            return "Turn it down", "turning it down"
        if view.phase == "alone":
            if view.makers == view.team:
                return "Play with your partner", "playing with your partner"
            return "Defend together", "defending together"
        return "Pass", "passing"
    if do == "order_up":
        if dealer:
            return f"Take it up{alone}", f"taking it up{alone}"
        return f"Order up{alone}", f"ordering up{alone}"
    if do == "call" and action.suit is not None:
        suit = Suit(action.suit).plural
        return f"Name {suit}{alone}", f"naming {suit}{alone}"
    if do == "bid" and action.tricks is not None:
        return f"Bid {action.tricks}", f"bidding {action.tricks}"
    if do == "shoot":
        return "Shoot", "shooting"
    if do == "declare" and action.trump is not None:
        trump = trump_text(action.trump)
        return f"Name {trump}", f"naming {trump}"
    if do == "alone":
        if view.makers == view.team:
            return "Go alone", "going alone"
        return "Defend alone", "defending alone"
    if do in ("play", "discard", "give") and action.card is not None:
        card = card_text(action.card)
        verb = {"play": "Play", "discard": "Discard", "give": "Give"}[do]
        return f"{verb} {card}", f"{verb.lower()}ing {card}".replace("giveing", "giving")
    return do.replace("_", " ").capitalize(), do.replace("_", " ")
