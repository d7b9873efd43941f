"""Card play that foresees the other side's cards as basic's: the best reply to basic.

Double dummy assumes every seat finds its best card. Basic does not: holding
given cards after given play, it always plays the same card, so a side that
sees every hand and knows it faces basic can play into the cards basic will
play rather than against perfect defence. ``Responder`` searches the rest of a
deal that way: at its side's turns it tries every card (its partners see the
hands too, as in double dummy), at the other side's turns it plays basic's
card, and it values the deal's end by ``worth``.

It is a measuring tool: ``ceiling --foresee`` plays it on the real deal, the
most card play can win against basic. Searching sampled deals instead, as a
player would, it gained nothing measurable over double dummy at equal samples,
and a deal at the first trick took it 13-25 ms compiled where double dummy
solves one in about 1 ms (docs/players.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.players.basic import BasicPlayer
from bot.rules import Game, seat_view

_Key = tuple[tuple[tuple[int, ...], ...], int, int]


class Responder:
    """Searches the rest of a deal, every hand known, the other side's cards played by ``model``.

    ``worth[t]`` is what the deal is worth to ``team`` if it ends with the
    team's taking ``t`` tricks (it never falls as ``t`` grows). A line stops
    where its worth is settled, and a card is not tried where the line cannot
    beat what an earlier card reached. Between tricks, the same hands left
    with the same seat to lead and the same tricks won share one value, however
    the cards before went (``model`` could read those histories differently; the
    tests check that the values come true).
    """

    def __init__(self, model: BasicPlayer, team: int, worth: Sequence[float]) -> None:
        self.model = model
        self.team = team
        self.worth = tuple(worth)

    def values(self, game: Game) -> dict[int, float]:
        """Each legal card of the seat to play: what the deal is worth after it, by this search."""
        memo: dict[_Key, tuple[float, bool]] = {}
        number = game.deal_number
        found: dict[int, float] = {}
        for action in dict.fromkeys(game.legal()):
            assert action.card is not None
            after = game.copy()
            after.step(action)
            found[action.card] = self._value(after, number, memo, -math.inf)
        return found

    def _value(
        self, game: Game, number: int, memo: dict[_Key, tuple[float, bool]], floor: float
    ) -> float:
        """The deal's worth from ``game`` on when above ``floor``; else at most ``floor``."""
        team = self.team
        worth = self.worth
        if game.deal_number != number or game.over:
            return worth[game.results[number - 1].tricks[team]]
        won = game.tricks_won[team]
        high = worth[won + game.hand_size - len(game.tricks)]
        if high <= floor or worth[won] == high:
            return high
        seat = game.turn
        assert seat is not None
        key: _Key | None = None
        if not game.trick:
            key = (tuple(tuple(h) for h in game.hands), seat, won)
            known = memo.get(key)
            if known is not None and (known[1] or known[0] <= floor):
                return known[0]
        legal = game.legal()
        if seat % 2 != team:
            action = legal[0] if len(legal) == 1 else self.model.choose(seat_view(game, seat))
            after = game.copy()
            after.step(action)
            value = self._value(after, number, memo, floor)
        else:
            value = -math.inf
            for action in dict.fromkeys(legal):
                after = game.copy()
                after.step(action)
                value = max(value, self._value(after, number, memo, max(floor, value)))
                if value >= high:
                    break
        if key is not None:
            memo[key] = (value, value > floor)
        return value
