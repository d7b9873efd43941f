"""A yardstick for the arena: how well a side would do against basic if it could see every card.

``run_ceiling`` plays duplicate games, exactly like the arena, between the
basic player and a side that cheats: it bids like basic but plays every card
double dummy on the real hands (``--bids`` too: it tries each bid on the real
deal, played out to the end). Double dummy plays against perfect defence;
``--foresee`` plays into the cards basic will play instead (``best_response``:
at the other side's turns the search plays basic's card), which is the most
card play can win against basic, seeing every card. No fair player can do
better at card play, so its figures bound what any searching player can win
by play alone; the bids bound what reading the other hands could ever be
worth. This is a measuring tool only; no table ever seats it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.players.basic import BasicPlayer
from bot.players.double_dummy import Position, Solver
from bot.players.expert import deal_points
from bot.rules import Action, Game, HouseRules, SeatView, new_game, seat_view

from .arena import MatchResult, game_seed, score_game
from .best_response import Responder
from .parallel import Progress, in_parts

_BIDS = frozenset({"pass", "order_up", "call", "alone", "discard"})


def _sighted_card(game: Game, seat: int, basic: BasicPlayer) -> Action:
    """The card that keeps the most tricks for ``seat``'s side with every hand face up."""
    view = seat_view(game, seat)
    fallback = basic.choose(view)
    if len(set(view.legal)) == 1:
        return fallback
    assert view.trump is not None
    solver = Solver(game.rules, view.trump, list(game.out), view.team)
    broken = any(solver.eff[c] == view.trump for t in view.tricks for c in t.cards)
    position = Position(
        game.rules,
        view.trump,
        [list(h) for h in game.hands],
        list(game.out),
        seat,
        list(view.trick),
        game.rules.hand_size - len(view.tricks),
        broken,
    )
    return _best(view, fallback, solver.values(position))


def _foreseen_card(game: Game, seat: int, basic: BasicPlayer) -> Action:
    """The card worth the most points of the deal for ``seat``'s side, foreseeing basic's cards."""
    view = seat_view(game, seat)
    fallback = basic.choose(view)
    if len(set(view.legal)) == 1:
        return fallback
    worth = []
    for tricks in range(game.rules.hand_size + 1):
        mine, theirs = deal_points(view, tricks)
        worth.append(float(mine - theirs))
    return _best(view, fallback, Responder(basic, view.team, worth).values(game))


def _best(view: SeatView, fallback: Action, values: Mapping[int, float]) -> Action:
    """The card of the highest value; basic's own card where it ties for the highest."""
    best = max(values.values())
    if fallback.card is not None and values.get(fallback.card) == best:
        return fallback
    card = max(values, key=lambda c: values[c])
    return next(a for a in view.legal if a.card == card)


def _choose(
    game: Game, basics: list[BasicPlayer], team: int, bids: bool, foresee: bool = False
) -> Action:
    seat = game.turn
    assert seat is not None
    if seat % 2 == team and game.phase == "play":
        play = _foreseen_card if foresee else _sighted_card
        return play(game, seat, basics[seat])
    view = seat_view(game, seat)
    if bids and seat % 2 == team and game.phase in ("bid1", "bid2", "alone", "discard"):
        best: tuple[int, Action] | None = None
        for option in dict.fromkeys(a for a in view.legal if a.do in _BIDS):
            trial = game.copy()
            number = trial.deal_number
            trial.step(option)
            while trial.deal_number == number and not trial.over:
                trial.step(_choose(trial, basics, team, bids=False, foresee=foresee))
            points = trial.results[number - 1].points
            net = points[team] - points[1 - team]
            if best is None or net > best[0]:
                best = (net, option)
        if best is not None:
            return best[1]
    return basics[seat].choose(view)


def _name(bids: bool, foresee: bool) -> str:
    play = "foreseeing play" if foresee else "sighted play"
    return f"{play} and bids" if bids else play


def _run_part(
    fields: dict[str, Any], seed: int, bids: bool, foresee: bool, first: int, last: int
) -> MatchResult:
    rules = HouseRules.build(fields)
    name = _name(bids, foresee)
    result = MatchResult(name, "basic", rules, last - first, seed, names=(name, "basic"))
    for index in range(first, last):
        gseed = game_seed(seed, index)
        for team in (0, 1):
            game = new_game(rules, seed=gseed)
            basics = [BasicPlayer(gseed * 8 + s) for s in range(rules.players)]
            while not game.over:
                game.step(_choose(game, basics, team, bids, foresee))
            score_game(result, game, team, [[] for _ in basics])
    return result


def run_ceiling(
    games: int,
    seed: int = 1,
    rules: HouseRules | None = None,
    bids: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
    foresee: bool = False,
) -> MatchResult:
    """``games`` duplicate pairs of a side that sees every card against basic.

    ``foresee``: it plays into basic's cards rather than double dummy.
    """
    rules = rules or HouseRules.preset_rules("north_american")
    name = _name(bids, foresee)
    result = MatchResult(name, "basic", rules, games, seed, names=(name, "basic"))
    fields = rules.model_dump()
    for part in in_parts(_run_part, games, jobs, fields, seed, bids, foresee, progress=progress):
        result.add(part)
    return result
