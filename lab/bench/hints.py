"""How long a hint takes: the expert's advice and its one line, timed over real positions.

Games are played by the basic player in every seat from a seed; at each decision
with a choice to make, the expert advises the seat (as the Hint button asks it)
and the hint is worded. Prints the CPU time from the question to the sentence (one
thread: other work on the machine counts little; the search is a fixed amount of work).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.players import make_player
from bot.players.expert import ExpertPlayer
from bot.render.hints import hint_text
from bot.rules import HouseRules, new_game, seat_view
from lab.players.arena import percentile


@dataclass(frozen=True, slots=True)
class HintTimes:
    """Hint times in nanoseconds, sorted."""

    times: list[int]

    def report(self) -> str:
        """The figures as one line."""
        t = self.times

        def ms(ns: int) -> str:
            return f"{ns / 1e6:.0f} ms"

        return (
            f"{len(t)} hints (CPU time): p50 {ms(percentile(t, 0.5))}, "
            f"p95 {ms(percentile(t, 0.95))}, max {ms(t[-1])}"
        )


def time_hints(rules: HouseRules, hints: int, seed: int = 1) -> HintTimes:
    """Time ``hints`` hints at positions of basic-played games from ``seed``."""
    times: list[int] = []
    game_index = 0
    while len(times) < hints:
        game = new_game(rules, seed=seed * 1000 + game_index)
        players = [make_player("basic", seed + s) for s in range(rules.players)]
        game_index += 1
        while not game.over and len(times) < hints:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            if len(set(view.legal)) > 1:
                start = time.thread_time_ns()
                hint_text(view, ExpertPlayer(seed=len(times)).advise(view))
                times.append(time.thread_time_ns() - start)
            game.step(players[seat].choose(view))
    return HintTimes(sorted(times))
