"""A player's decision depends only on what its seat may know.

For a decision point of seat F in a real deal, build a second deal in which
every card F cannot have seen is reshuffled among the other hands and the
face-down rest (cards already played stay with whoever played them, shown-out
suits stay out), replay the same actions (hidden discards and passed cards are
replaced by other cards where needed) and check that F's view is identical and
that basic and random decide the same.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.players import make_player
from bot.rules import Action, Deal, Game, HouseRules, RefusedError, SeatView, seat_view
from bot.rules.ranking import build_ranking

from .variants import RULES, label

Origin = tuple[str, int]  # ("hand", seat) or ("kitty", 0) or ("up", 0)


def _play_first_deal(rules: HouseRules, seed: int) -> tuple[Deal, int, list[tuple[int, Action]]]:
    """A first deal played by a mix of basic and random seats: its cards, dealer and actions."""
    seeded = Game(rules, seed=seed)
    deal, dealer = seeded.deal, seeded.dealer
    game = Game(rules, dealer=dealer, deals=[deal])
    rng = random.Random(seed)
    players = [
        make_player("basic" if rng.random() < 0.6 else "random", seed + s)
        for s in range(rules.players)
    ]
    while game.deal_number == 1 and not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, players[seat].choose(seat_view(game, seat)))
    return deal, dealer, list(game.log)


def _track(
    rules: HouseRules, deal: Deal, dealer: int, log: list[tuple[int, Action]], k: int, focus: int
) -> tuple[Counter[Origin], dict[Origin, Counter[int]], bool, dict[int, set[int]]]:
    """Replay the real deal to action ``k``; what must stay put for ``focus``'s knowledge to hold.

    Returns per origin the cards pinned there, whether the kitty is pinned whole
    (a farmer's swap happened), and per seat the suits it has shown out of.
    """
    game = Game(rules, dealer=dealer, deals=[deal])
    held: list[list[tuple[int, Origin]]] = [
        [(c, ("hand", s)) for c in h] for s, h in enumerate(deal.hands)
    ]
    kitty: list[tuple[int, Origin]] = [(c, ("kitty", 0)) for c in deal.kitty]
    pins: dict[Origin, Counter[int]] = {}
    kitty_pinned = False
    voids: dict[int, set[int]] = {s: set() for s in range(rules.players)}
    receiver = -1

    def take(seat: int, card: int) -> tuple[int, Origin]:
        for i, (c, _) in enumerate(held[seat]):
            if c == card:
                return held[seat].pop(i)
        raise AssertionError("card not held")

    def pin(item: tuple[int, Origin]) -> None:
        pins.setdefault(item[1], Counter())[item[0]] += 1

    for seat, action in log[:k]:
        taken_before = game.upcard_taken
        if action.do == "play":
            pin(take(seat, action.card))  # type: ignore[arg-type]
            trick = [c for _, c in game.trick]
            if trick:
                ranking = build_ranking(rules)
                led = ranking.suit[game.trump][trick[0]]
                if ranking.suit[game.trump][action.card] != led:  # type: ignore[index]
                    voids[seat].add(led)
        elif action.do == "discard":
            kitty.append(take(seat, action.card))  # type: ignore[arg-type]
        elif action.do == "ask":
            receiver = seat
        elif action.do == "give":
            item = take(seat, action.card)  # type: ignore[arg-type]
            to = receiver if receiver >= 0 else (seat + 2) % rules.players
            if focus in (seat, to):
                pin(item)
            held[to].append(item)
        elif action.do == "swap":
            kitty_pinned = True
            out = [take(seat, c) for c in action.cards or ()]
            for item in out:
                pin(item)
            held[seat] += kitty[:3]
            kitty[:3] = out
        game.apply(seat, action)
        if game.upcard_taken and not taken_before:
            held[game.dealer].append((deal.upcard, ("up", 0)))
    counts = Counter({("hand", s): len(h) for s, h in enumerate(deal.hands)})
    return counts, pins, kitty_pinned, voids


def _alternative(
    rules: HouseRules,
    deal: Deal,
    focus: int,
    pins: dict[Origin, Counter[int]],
    kitty_pinned: bool,
    voids: dict[int, set[int]],
    trump: int | None,
    rng: random.Random,
) -> Deal | None:
    """Another deal agreeing with everything ``focus`` knows, or None when the fill got stuck."""
    pool = Counter(c for h in deal.hands for c in h) + Counter(deal.kitty)
    pool.subtract(deal.hands[focus])
    hands: list[list[int]] = []
    for s, hand in enumerate(deal.hands):
        fixed = list(hand) if s == focus else list((pins.get(("hand", s)) or Counter()).elements())
        if s != focus:
            pool.subtract(fixed)
        hands.append(fixed)
    kitty = list(deal.kitty) if kitty_pinned else []
    if kitty_pinned:
        pool.subtract(deal.kitty)
    cards = list((+pool).elements())
    rng.shuffle(cards)
    suit = build_ranking(rules).suit
    # The most constrained seats first: a seat keeps only suits it has not shown out of.
    order = sorted((s for s in range(rules.players) if s != focus), key=lambda s: -len(voids[s]))
    for s in order:
        need = len(deal.hands[s]) - len(hands[s])
        for _ in range(need):
            fit = next((c for c in cards if trump is None or suit[trump][c] not in voids[s]), None)
            if fit is None:
                return None
            cards.remove(fit)
            hands[s].append(fit)
    if not kitty_pinned:
        kitty = cards
    return Deal(tuple(tuple(h) for h in hands), deal.upcard, tuple(kitty))


def _replay(
    rules: HouseRules, deal: Deal, dealer: int, log: list[tuple[int, Action]], k: int, focus: int
) -> Game | None:
    """The alternative deal replayed to action ``k``, hidden cards replaced; None if it diverges."""
    game = Game(rules, dealer=dealer, deals=[deal])
    for i, (seat, action) in enumerate(log[:k]):
        if action.do in ("discard", "give") and seat != focus:
            later = Counter(a.card for s, a in log[i + 1 : k] if s == seat and a.card is not None)
            spare = Counter(game.hands[seat]) - later
            if action.card not in spare:
                if not spare:
                    return None
                action = Action(action.do, card=min(spare))
        try:
            game.apply(seat, action)
        except RefusedError:
            return None
    return game


def _differs(alt: Deal, deal: Deal, focus: int) -> bool:
    """Whether some other seat holds different cards (not merely in another order)."""
    return any(
        sorted(a) != sorted(b)
        for s, (a, b) in enumerate(zip(alt.hands, deal.hands, strict=True))
        if s != focus
    )


def view_pairs(
    rules: HouseRules, seeds: range, every: int = 1
) -> Iterator[tuple[SeatView, SeatView | None]]:
    """Views of decisions of the first deal, each with a twin whose unseen cards differ.

    The twin is None where no other deal fits what the seat has seen.
    """
    for seed in seeds:
        deal, dealer, log = _play_first_deal(rules, seed)
        rng = random.Random(seed)
        for k, (focus, _) in enumerate(log):
            if k % every:
                continue
            _, pins, kitty_pinned, voids = _track(rules, deal, dealer, log, k, focus)
            real = Game(rules, dealer=dealer, deals=[deal])
            for seat, action in log[:k]:
                real.apply(seat, action)
            alt_game = None
            for _ in range(10):
                alt = _alternative(rules, deal, focus, pins, kitty_pinned, voids, real.trump, rng)
                if alt is not None and _differs(alt, deal, focus):
                    alt_game = _replay(rules, alt, dealer, log, k, focus)
                    if alt_game is not None:
                        break
            yield seat_view(real, focus), None if alt_game is None else seat_view(alt_game, focus)


@pytest.mark.parametrize("rules", RULES, ids=label)
def test_decisions_ignore_hidden_cards(rules: HouseRules) -> None:
    compared = attempted = 0
    for view, alt_view in view_pairs(rules, range(500, 508)):
        attempted += 1
        if alt_view is None:
            continue
        assert alt_view == view, f"seat {view.seat}'s view differs with other hidden cards"
        for level in ("basic", "random"):
            assert make_player(level, 3).choose(alt_view) == make_player(level, 3).choose(view)
        compared += 1
    print(label(rules), compared, attempted)
    assert compared >= attempted * 0.6, (compared, attempted)
