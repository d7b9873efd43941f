"""Why a reviewed decision lost, in terms of the cards: what a person can check on the table.

A review's search says how much a decision lost; this says why, by the patterns a
teacher would point at: overtaking a partner who had the trick, letting a trick go
that a card in hand would have taken, winning with a bigger card than needed,
leading into a suit an opponent had shown out of, leading trump that pulled the
partner's last one, not drawing trump as the maker, not cashing the best card left,
throwing away a winner, a discard that keeps a suit, and in the bidding the hand
itself (the bowers, how many trumps, the upcard gained), or a lone hand beaten.

Each pattern looks at the seat's view and, for what the finished deal showed
afterwards (``Hindsight``), only at cards that were played: the review never tells a
hidden card (a discard, the kitty, a hand that sat out). ``reason`` tries the
patterns of the decision's phase in order and returns the first sentence that
fits, or None (the review then gives the hint's why of the expert's choice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from bot.players.review import ReviewedDecision
from bot.rules import Action, Suit
from bot.rules.cards import ACE, JOKER
from bot.rules.house_rules import deck_cards
from bot.rules.ranking import NO_TRUMP_HIGH, build_ranking, top_rank_word

from .cards import card_text
from .hints import hand_words

__all__ = ["reason"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")

_MAKING = ("order_up", "call")


def reason(decision: ReviewedDecision) -> str | None:
    """What the action done did wrong, in the cards' terms; None where no pattern fits."""
    view = decision.view
    if view.rules.game == "bid_euchre" or decision.done == decision.best:
        return None
    patterns: Sequence[Callable[[_Moment], str | None]]
    if view.phase == "play":
        patterns = _PLAY
    elif view.phase == "discard":
        patterns = (_discard,)
    elif view.phase in ("bid1", "bid2"):
        patterns = (_alone_bid, _making, _not_making, _other_suit)
    elif view.phase == "alone":
        patterns = (_alone_bid,)
    else:
        return None
    moment = _Moment(decision)
    for pattern in patterns:
        found = pattern(moment)
        if found is not None:
            return found
    return None


class _Moment:
    """A decision's view, its two actions and the card tables of its trump, for the patterns."""

    def __init__(self, decision: ReviewedDecision) -> None:
        self.view = view = decision.view
        self.done = decision.done
        self.best = decision.best
        self.hindsight = decision.hindsight
        self.trump = view.trump
        self.ranking = build_ranking(view.rules)

    # ------------------------------------------------------------------ seats

    def partner(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's side (this seat included)."""
        return seat % 2 == self.view.seat % 2

    def who(self, seat: int) -> str:
        """Another seat as this seat sees it: "your partner", "the player on your left"."""
        view = self.view
        if self.partner(seat):
            return "your partner"
        if view.players == 4:
            left = (view.seat + 1) % 4 == seat
            return f"the player on your {'left' if left else 'right'}"
        return "an opponent"

    # ------------------------------------------------------------------ cards

    def suit(self, card: int) -> int:
        """The suit ``card`` follows under the trump in play."""
        assert self.trump is not None
        return self.ranking.suit[self.trump][card]

    def is_trump(self, card: int) -> bool:
        """Whether ``card`` is a trump."""
        return self.suit(card) == self.trump

    def power(self, card: int, led: int) -> int:
        """How ``card`` ranks in a trick led in ``led`` (0: it cannot win)."""
        assert self.trump is not None
        return self.ranking.power[self.trump][led][card]

    def led(self) -> int | None:
        """The suit the current trick was led in (None: this seat leads)."""
        trick = self.view.trick
        return self.suit(trick[0][1]) if trick else None

    def winning(self) -> tuple[int, int] | None:
        """The (seat, card) winning the current trick so far."""
        led = self.led()
        if led is None:
            return None
        return max(self.view.trick, key=lambda sc: self.power(sc[1], led))

    def beats(self, card: int, other: int) -> bool:
        """Whether ``card`` played now beats ``other`` in the current trick."""
        led = self.led()
        assert led is not None
        return self.power(card, led) > self.power(other, led)

    def best_left(self, card: int) -> bool:
        """Whether no card that beats ``card`` in its suit is out, besides this hand's."""
        suit = self.suit(card)
        higher = Counter(
            c
            for c in deck_cards(self.view.rules)
            if self.suit(c) == suit and self.power(c, suit) > self.power(card, suit)
        )
        higher.subtract(self.view.hand)
        for trick in self.view.tricks:
            higher.subtract(trick.cards)
        higher.subtract(c for _, c in self.view.trick)
        return all(n <= 0 for n in higher.values())

    def shown_out(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has not followed ``suit`` when it was led, this deal."""
        for trick in self.view.tricks:
            if self.suit(trick.cards[0]) != suit:
                continue
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if s == seat and self.suit(c) != suit:
                    return True
        return False

    def unseen_trumps(self) -> int:
        """Trumps this seat has not seen: not in its hand, not played, not the upcard taken."""
        view = self.view
        pack = [c for c in deck_cards(view.rules) if self.is_trump(c)]
        seen = Counter(view.hand)
        if view.upcard_taken:
            seen[view.upcard] += 1
        for trick in self.view.tricks:
            seen.update(trick.cards)
        seen.update(c for _, c in self.view.trick)
        left = Counter(pack)
        left.subtract(seen)
        return sum(n for n in left.values() if n > 0)

    # ------------------------------------------------------------------ the deal afterwards

    def active(self) -> int:
        """Seats that play to each trick: everyone, less a lone hand's partner.

        Before the bidding is over the view cannot know who sits out: the seats that
        played cards in the rest of the deal tell.
        """
        view = self.view
        if view.phase == "play" or self.hindsight is None:
            return view.players - sum(view.out)
        playing = {s for s, a in self.hindsight.later if a.do == "play"}
        return len(playing) or view.players

    def trick_after(self) -> list[tuple[int, int]]:
        """The current trick as it was finished after the action done: (seat, card) in order."""
        trick = [*self.view.trick, (self.view.seat, self.card(self.done))]
        if self.hindsight is None:
            return trick
        active = self.active()
        for seat, action in self.hindsight.later:
            if len(trick) >= active:
                break
            if action.do == "play" and action.card is not None:
                trick.append((seat, action.card))
        return trick

    def hand_then(self, seat: int) -> tuple[int, ...] | None:
        """``seat``'s hand at the moment of the decision, from the finished deal."""
        if self.hindsight is None or seat >= len(self.hindsight.hands):
            return None
        return self.hindsight.hands[seat]

    @staticmethod
    def card(action: Action) -> int:
        """The card an action plays or discards."""
        assert action.card is not None
        return action.card


def _name(card: int) -> str:
    return card_text(card)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------------- the play


def _overtook_partner(m: _Moment) -> str | None:
    """The partner had the trick, and the action done took it off them."""
    winning = m.winning()
    if winning is None or not m.partner(winning[0]):
        return None
    done, best = m.card(m.done), m.card(m.best)
    partner_card = winning[1]
    if not m.beats(done, partner_card) or m.beats(best, partner_card):
        return None
    held = _would_hold(m, partner_card)
    led = m.led()
    how = "trumping" if m.is_trump(done) and led != m.trump else "overtaking"
    spent = "a trump" if m.is_trump(done) else "a winner"
    if held:
        return (
            f"your partner's {_name(partner_card)} had already won the trick (nobody after you "
            f"could beat it), so {how} it with the {_name(done)} threw {spent} away"
        )
    return (
        f"your partner's {_name(partner_card)} had the trick: {how} it with the "
        f"{_name(done)} spent {spent} your side could use later"
    )


def _would_hold(m: _Moment, card: int) -> bool:
    """Whether no seat still to play to this trick could beat ``card`` (the deal's hands)."""
    view = m.view
    led = m.led()
    assert led is not None
    played = {s for s, _ in view.trick} | {view.seat}
    for seat in range(view.players):
        if seat in played or view.out[seat]:
            continue
        hand = m.hand_then(seat)
        if hand is None:
            return False
        follow = [c for c in hand if m.suit(c) == led] or list(hand)
        if any(m.power(c, led) > m.power(card, led) for c in follow):
            return False
    return True


def _let_trick_go(m: _Moment) -> str | None:
    """The other side had the trick, a card in hand would have taken it, and it went."""
    winning = m.winning()
    if winning is None or m.partner(winning[0]):
        return None
    done, best = m.card(m.done), m.card(m.best)
    theirs = winning[1]
    if m.beats(done, theirs) or not m.beats(best, theirs):
        return None
    trick = m.trick_after()
    led = m.led()
    assert led is not None
    if m.hindsight is not None and len(trick) == m.active():
        taker = max(trick, key=lambda sc: m.power(sc[1], led))[0]
        if m.partner(taker):
            return None  # the partner took it in the end
    if m.is_trump(best) and led != m.trump:
        return (
            f"you could trump {m.who(winning[0])}'s {_name(theirs)} with the {_name(best)} and "
            f"take the trick; the {_name(done)} let the other side have it"
        )
    return (
        f"the {_name(best)} would have taken the trick from {m.who(winning[0])}'s "
        f"{_name(theirs)}; the {_name(done)} let the other side have it"
    )


def _bigger_than_needed(m: _Moment) -> str | None:
    """Both cards take the trick, and the one played was the bigger."""
    winning = m.winning()
    if winning is None:
        return None
    done, best = m.card(m.done), m.card(m.best)
    led = m.led()
    assert led is not None
    if not (m.beats(done, winning[1]) and m.beats(best, winning[1])):
        return None
    if m.power(done, led) <= m.power(best, led):
        return None
    role = top_rank_word(done, m.trump or 0)
    what = role or ("a trump" if m.is_trump(done) else f"the {_name(done)}")
    return (
        f"the {_name(best)} would have taken the trick as well: {what} was worth keeping for a "
        "later trick"
    )


def _pulled_partners_trump(m: _Moment) -> str | None:
    """Leading trump drew the partner's last trump."""
    if m.view.trick or not m.is_trump(m.card(m.done)) or m.is_trump(m.card(m.best)):
        return None
    for seat, card in m.trick_after()[1:]:
        if not m.partner(seat) or seat == m.view.seat or not m.is_trump(card):
            continue
        hand = m.hand_then(seat)
        if hand is not None and sum(1 for c in hand if m.is_trump(c)) == 1:
            return (
                f"leading trump pulled your partner's last one, the {_name(card)}, which could "
                "have trumped a side suit later"
            )
    return None


def _led_into_void(m: _Moment) -> str | None:
    """The suit led had been shown out of by an opponent, who could trump it."""
    if m.view.trick:
        return None
    done = m.card(m.done)
    suit = m.suit(done)
    if suit == m.trump or m.suit(m.card(m.best)) == suit:
        return None
    void = [
        s
        for s in range(m.view.players)
        if not m.partner(s) and not m.view.out[s] and m.shown_out(s, suit)
    ]
    if not void:
        return None
    seat = void[0]
    text = (
        f"{m.who(seat)} had shown out of {Suit(suit).plural}: leading the {_name(done)} "
        "let them trump it"
    )
    for s, c in m.trick_after()[1:]:
        if s == seat and m.is_trump(c):
            return f"{text}, as they did with the {_name(c)}"
    return text


def _not_drawing_trump(m: _Moment) -> str | None:
    """This side made trump, trumps are out against it, and the action done led a side card."""
    view = m.view
    if view.trick or view.maker is None or not m.partner(view.maker):
        return None
    if not m.is_trump(m.card(m.best)) or m.is_trump(m.card(m.done)):
        return None
    out = m.unseen_trumps()
    if out == 0:
        return None
    trumps = f"{_NUMBERS[min(out, 8)]} of the trumps" if out > 1 else "one of the trumps"
    return (
        f"your side made trump and you haven't seen {trumps} yet: leading the "
        f"{_name(m.card(m.best))} draws them before they can trump your winners"
    )


def _not_cashing(m: _Moment) -> str | None:
    """The best card left of a side suit, not led while the suit is still followed."""
    if m.view.trick:
        return None
    best = m.card(m.best)
    if m.is_trump(best) or not m.best_left(best) or m.suit(m.card(m.done)) == m.suit(best):
        return None
    return (
        f"the {_name(best)} was the best {Suit(m.suit(best)).plural[:-1]} left: cashing it "
        "takes a trick before the suit can be trumped"
    )


def _threw_a_winner(m: _Moment) -> str | None:
    """The trick was lost either way, and the card thrown could have won a trick later."""
    winning = m.winning()
    if winning is None:
        return None
    done, best = m.card(m.done), m.card(m.best)
    if m.beats(done, winning[1]) or m.beats(best, winning[1]):
        return None
    if m.is_trump(done) and not m.is_trump(best):
        what = "a trump"
    elif m.best_left(done) and not m.best_left(best):
        what = f"the best {Suit(m.suit(done)).plural[:-1]} left"
    else:
        return None
    lost = "your partner had the trick" if m.partner(winning[0]) else "the trick was lost"
    return (
        f"{lost} either way: the {_name(done)} was {what}, a trick later on; throw the "
        f"{_name(best)}, which could not take one"
    )


_PLAY: tuple[Callable[[_Moment], str | None], ...] = (
    _overtook_partner,
    _let_trick_go,
    _bigger_than_needed,
    _pulled_partners_trump,
    _led_into_void,
    _not_drawing_trump,
    _not_cashing,
    _threw_a_winner,
)


# ---------------------------------------------------------------------- the discard


def _discard(m: _Moment) -> str | None:
    """A discard that kept the wrong card: a trump, a side ace, or a suit it could void."""
    if m.trump is None:
        return None
    done, best = m.card(m.done), m.card(m.best)
    hand = list(m.view.hand)
    if m.is_trump(done) and not m.is_trump(best):
        return f"the {_name(done)} is a trump: keep it and discard the {_name(best)}"
    if done < JOKER and done & 7 == ACE and not m.is_trump(done):
        return f"the {_name(done)} is a side ace, a likely trick: discard the {_name(best)}"
    suit = m.suit(best)
    if suit != m.trump and sum(1 for c in hand if m.suit(c) == suit) == 1:
        return (
            f"discarding the {_name(best)} leaves you void in {Suit(suit).plural}, ready to "
            "trump them"
        )
    return None


# ---------------------------------------------------------------------- the bidding


def _making_suit(m: _Moment, action: Action) -> int | None:
    """The trump an action makes (order up: the upcard's suit; call: its suit)."""
    if action.do == "order_up" and m.view.upcard < JOKER:
        return m.view.upcard >> 3
    if action.do == "call":
        return action.suit
    return None


def _making(m: _Moment) -> str | None:
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
    upcard = view.upcard
    if left is not None and m.best.do == "order_up":
        if dealer:
            return (
                f"you held the left bower ({_name(left)}): taking up the {_name(upcard)} makes "
                "you two trumps stronger"
            )
        if partner_deals:
            return (
                f"you held the left bower ({_name(left)}): ordering up makes your side two "
                f"trumps stronger, your partner taking up the {_name(upcard)}"
            )
    words = hand_words(view, suit)
    gain = ""
    if m.best.do == "order_up" and dealer:
        gain = f", and taking up the {_name(upcard)} adds a trump"
    elif m.best.do == "order_up" and partner_deals:
        gain = f", and your partner takes up the {_name(upcard)}"
    return f"in {Suit(suit).plural} you held {words}{gain}: enough to make trump"


def _not_making(m: _Moment) -> str | None:
    """The expert passes where the action done made trump: too little, and what was against it."""
    suit = _making_suit(m, m.done)
    if suit is None or m.best.do != "pass":
        return None
    words = hand_words(m.view, suit)
    text = f"in {Suit(suit).plural} you held only {words}: not enough to make trump"
    against = _their_top_trumps(m, suit)
    if against:
        text += f"; the other side held {against}"
    return text


def _other_suit(m: _Moment) -> str | None:
    """Both make trump, in different suits: the hand in each."""
    mine, theirs = _making_suit(m, m.best), _making_suit(m, m.done)
    if mine is None or theirs is None or mine == theirs:
        return None
    return (
        f"in {Suit(mine).plural} you held {hand_words(m.view, mine)}, in "
        f"{Suit(theirs).plural} only {hand_words(m.view, theirs)}"
    )


def _their_top_trumps(m: _Moment, suit: int) -> str:
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
        (top_rank_word(c, suit) or "the ace").removeprefix("the ") + f" ({_name(c)})"
        for _, c in named
    ]
    if not words:
        return ""
    return "the " + (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0])


def _alone_bid(m: _Moment) -> str | None:
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


def _their_tricks(m: _Moment, trump: int) -> str:
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
    cards = ", ".join(f"the {_name(c)}" for c in winners)
    return f"{_NUMBERS[len(winners)]} trick{'s' if len(winners) > 1 else ''} ({cards})"
