"""Why a card or a discard lost, in the cards' terms: the patterns of the play.

Overtaking a partner who had the trick, letting a trick go that a card in hand would
have taken, winning with a bigger card than needed, leading trump that pulled the
partner's last one, leading into a suit an opponent had shown out of, not drawing
trump as the maker, not cashing the best card left, throwing away a winner; and a
discard that keeps a trump, a side ace or a suit it could have voided. Each pattern
returns its sentence, or None where it does not fit (``reasons.reason`` tries them in
``PLAY``'s order).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.rules import Suit
from bot.rules.cards import ACE, JOKER
from bot.rules.ranking import top_rank_word

from .reason_moment import NUMBERS, Moment, name

__all__ = ["PLAY", "discard_reason"]


def _overtook_partner(m: Moment) -> str | None:
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
            f"your partner's {name(partner_card)} had already won the trick (nobody after you "
            f"could beat it), so {how} it with the {name(done)} threw {spent} away"
        )
    return (
        f"your partner's {name(partner_card)} had the trick: {how} it with the "
        f"{name(done)} spent {spent} your side could use later"
    )


def _would_hold(m: Moment, card: int) -> bool:
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


def _let_trick_go(m: Moment) -> str | None:
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
            f"you could trump {m.who(winning[0])}'s {name(theirs)} with the {name(best)} and "
            f"take the trick; the {name(done)} let the other side have it"
        )
    return (
        f"the {name(best)} would have taken the trick from {m.who(winning[0])}'s "
        f"{name(theirs)}; the {name(done)} let the other side have it"
    )


def _bigger_than_needed(m: Moment) -> str | None:
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
    what = role or ("a trump" if m.is_trump(done) else f"the {name(done)}")
    return (
        f"the {name(best)} would have taken the trick as well: {what} was worth keeping for a "
        "later trick"
    )


def _pulled_partners_trump(m: Moment) -> str | None:
    """Leading trump drew the partner's last trump."""
    if m.view.trick or not m.is_trump(m.card(m.done)) or m.is_trump(m.card(m.best)):
        return None
    for seat, card in m.trick_after()[1:]:
        if not m.partner(seat) or seat == m.view.seat or not m.is_trump(card):
            continue
        hand = m.hand_then(seat)
        if hand is not None and sum(1 for c in hand if m.is_trump(c)) == 1:
            return (
                f"leading trump pulled your partner's last one, the {name(card)}, which could "
                "have trumped a side suit later"
            )
    return None


def _led_into_void(m: Moment) -> str | None:
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
        f"{m.who(seat)} had shown out of {Suit(suit).plural}: leading the {name(done)} "
        "let them trump it"
    )
    for s, c in m.trick_after()[1:]:
        if s == seat and m.is_trump(c):
            return f"{text}, as they did with the {name(c)}"
    return text


def _not_drawing_trump(m: Moment) -> str | None:
    """This side made trump, trumps are out against it, and the action done led a side card."""
    view = m.view
    if view.trick or view.maker is None or not m.partner(view.maker):
        return None
    if not m.is_trump(m.card(m.best)) or m.is_trump(m.card(m.done)):
        return None
    out = m.unseen_trumps()
    if out == 0:
        return None
    trumps = f"{NUMBERS[min(out, 8)]} of the trumps" if out > 1 else "one of the trumps"
    return (
        f"your side made trump and you haven't seen {trumps} yet: leading the "
        f"{name(m.card(m.best))} draws them before they can trump your winners"
    )


def _not_cashing(m: Moment) -> str | None:
    """The best card left of a side suit, not led while the suit is still followed."""
    if m.view.trick:
        return None
    best = m.card(m.best)
    if m.is_trump(best) or not m.best_left(best) or m.suit(m.card(m.done)) == m.suit(best):
        return None
    return (
        f"the {name(best)} was the best {Suit(m.suit(best)).plural[:-1]} left: cashing it "
        "takes a trick before the suit can be trumped"
    )


def _threw_a_winner(m: Moment) -> str | None:
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
        f"{lost} either way: the {name(done)} was {what}, a trick later on; throw the "
        f"{name(best)}, which could not take one"
    )


PLAY: tuple[Callable[[Moment], str | None], ...] = (
    _overtook_partner,
    _let_trick_go,
    _bigger_than_needed,
    _pulled_partners_trump,
    _led_into_void,
    _not_drawing_trump,
    _not_cashing,
    _threw_a_winner,
)
"""The play's patterns, the most telling first."""


def discard_reason(m: Moment) -> str | None:
    """A discard that kept the wrong card: a trump, a side ace, or a suit it could void."""
    if m.trump is None:
        return None
    done, best = m.card(m.done), m.card(m.best)
    hand = list(m.view.hand)
    if m.is_trump(done) and not m.is_trump(best):
        return f"the {name(done)} is a trump: keep it and discard the {name(best)}"
    if done < JOKER and done & 7 == ACE and not m.is_trump(done):
        return f"the {name(done)} is a side ace, a likely trick: discard the {name(best)}"
    suit = m.suit(best)
    if suit != m.trump and sum(1 for c in hand if m.suit(c) == suit) == 1:
        return (
            f"discarding the {name(best)} leaves you void in {Suit(suit).plural}, ready to "
            "trump them"
        )
    return None
