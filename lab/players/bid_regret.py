"""Searched bidding decisions of the expert, collected to measure its rules against.

The expert decides whether to make trump or pass from two estimates of the same
thing, the gain of making trump over passing for this hand at this table with
basic's play after it: the learnt model (``learnt_bidding``; biased, no noise)
and the search's rollouts (``ExpertPlayer.rollouts``; unbiased for the search's
own reading of the table, noisy). ``collect`` gathers real decisions: seeded
games in which one side bids like the expert without searching (its fallback,
``LearntBidder``) and both sides play like basic; at each of that side's
decisions where the model has its say, the expert's own search is run for many
rollouts (``budget=None``), kept in blocks of ``BLOCK`` rollouts (each option's
sums and the sums of products, so the variance of any difference can be
rebuilt), and every option is also played out on the real deal.
``bid_rules`` scores ways of deciding on them.

``SearchBidder`` and ``PastSearchBidder`` bid like the expert with the margin
now and before, and play like basic: players for ``python -m lab
deals``, where only the bidding differs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final

from bot.players.basic import BasicPlayer
from bot.players.effort import Effort
from bot.players.expert import ExpertPlayer
from bot.players.learnt_bidding import score_class
from bot.players.learnt_loners import decide_alone
from bot.players.margins import BID_MARGIN, MODEL_MARGIN, Margin
from bot.players.sampling import dealt_hand
from bot.rules import Action, Game, HouseRules, SeatView, new_game, seat_view

from .arena import game_seed

BLOCK: Final = 25
"""Rollouts a stored block holds: folds are made of whole blocks."""
SIZES: Final = (75, 150, 300)
"""Rollouts a decision, of the folds the report scores (about 150 fit in the 0.1 s of work)."""
MAX_DEALS: Final = 60
"""Deals a collected game is cut off after (players who never make trump)."""
ROLLOUTS: Final = 150
"""Rollouts a searched bid of ``SearchBidder``: about what the 0.1 s budget of work affords."""


@dataclass(slots=True)
class Decision:
    """One decision of the expert's side and what was measured on it."""

    game: int
    round: int
    klass: int
    """The score's class (``learnt_bidding.score_class``)."""
    gain: float
    """The learnt model's gain of making trump with the partner over passing."""
    options: list[str]
    """The options searched, as action JSON."""
    fallback: int
    passing: int
    make: int
    """Making trump with the partner: the bid the model's gain is for."""
    made: int
    """Making trump as the expert would (alone where the loners' model says so)."""
    real: list[float]
    """Each option's worth on the real deal, played out as in the search."""
    blocks: list[list[float]]
    """Per block: the rollouts in it, each option's sum, then the sums of products
    ``v[a] * v[b]`` for ``a <= b`` row by row."""

    def to_json(self) -> dict[str, Any]:
        """The decision as one JSON object."""
        return {
            "game": self.game,
            "round": self.round,
            "klass": self.klass,
            "gain": self.gain,
            "options": self.options,
            "fallback": self.fallback,
            "passing": self.passing,
            "make": self.make,
            "made": self.made,
            "real": self.real,
            "blocks": self.blocks,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        """A decision read back from :meth:`to_json`."""
        return cls(**data)


# ---------------------------------------------------------------------- collecting


def _block(values: list[list[float]]) -> list[float]:
    k = len(values[0])
    sums = [sum(v[a] for v in values) for a in range(k)]
    gram = [sum(v[a] * v[b] for v in values) for a in range(k) for b in range(a, k)]
    return [float(len(values)), *(round(x, 6) for x in sums), *(round(x, 6) for x in gram)]


def _decision(game: Game, index: int, number: int, seed: int, samples: int) -> Decision | None:
    """The expert's decision at the game's turn, searched for ``samples`` rollouts.

    None where the model has no say (or the expert would not search).
    """
    seat = game.turn
    assert seat is not None
    view = seat_view(game, seat)
    expert = ExpertPlayer(
        seed=game_seed(seed, index) * 64 + number,
        budget=None,
        min_samples=samples,
        max_bid_samples=samples,
    )
    bidder = expert.bidder(view)
    estimate = bidder.estimate(view)
    mine = dealt_hand(view)
    legal = list(dict.fromkeys(view.legal))
    passing = next((a for a in legal if a.do == "pass"), None)
    fallback = bidder.choose(view)
    if estimate is None or mine is None or passing is None or fallback.do in ("redeal", "swap"):
        return None
    make, gain = estimate
    made = decide_alone(bidder.loners, view, make)
    options = expert._options(view, legal, fallback)
    for extra in (make, made):
        if extra not in options:
            options.append(extra)
    stakes = expert._stakes(view)
    real = [expert._try(view, game.copy(), option, stakes) for option in options]
    blocks: list[list[float]] = []
    pending: list[list[float]] = []
    for outcome in expert.rollouts(view, mine, options, Effort.start(None)):
        pending.append(outcome)
        if len(pending) == BLOCK:
            blocks.append(_block(pending))
            pending = []
    if not blocks:
        return None
    klass = score_class(view.rules, view.score, view.team)
    return Decision(
        index,
        1 if view.phase == "bid1" else 2,
        klass,
        round(gain, 6),
        [json.dumps(a.to_json(), sort_keys=True) for a in options],
        options.index(fallback),
        options.index(passing),
        options.index(make),
        options.index(made),
        [round(v, 6) for v in real],
        blocks,
    )


def collect_game(fields: dict[str, Any], seed: int, samples: int, index: int) -> list[Decision]:
    """The decisions of game ``index`` of the seed, searched.

    The expert's side (the even seats) bids by its fallback and every seat plays
    like basic; every decision of that side where the model has its say is searched.
    """
    rules = HouseRules.build(fields)
    gseed = game_seed(seed, index)
    game = new_game(rules, seed=gseed)
    basic = BasicPlayer(gseed)
    bidder = ExpertPlayer(seed=gseed).bidder
    found: list[Decision] = []
    number = 0
    while not game.over and game.deal_number <= MAX_DEALS:
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat)
        ours = seat % 2 == 0 and view.phase != "play"
        if ours and view.phase in ("bid1", "bid2") and len(set(view.legal)) > 1:
            decision = _decision(game, index, number, seed, samples)
            number += 1
            if decision is not None:
                found.append(decision)
        game.step((bidder(view) if ours else basic).choose(view))
    return found


def collect(
    rules: HouseRules,
    games: int,
    seed: int,
    samples: int,
    out: Path,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Games ``0`` to ``games - 1`` of the seed collected into ``out``, one JSON line a game.

    Games already in ``out`` are kept and skipped, so a run can be stopped and
    taken up again; the order of the lines does not matter.
    """
    done = {record["game"] for record in _lines(out)} if out.exists() else set()
    todo = [i for i in range(games) if i not in done]
    fields = rules.model_dump()
    with out.open("a", encoding="utf-8") as file:

        def write(index: int, found: list[Decision]) -> None:
            line = {"game": index, "decisions": [d.to_json() for d in found]}
            file.write(json.dumps(line, separators=(",", ":")) + "\n")
            file.flush()

        if jobs <= 1:
            for count, index in enumerate(todo, 1):
                write(index, collect_game(fields, seed, samples, index))
                if progress is not None:
                    progress(count, len(todo))
            return
        with ProcessPoolExecutor(jobs) as pool:
            futures = {pool.submit(collect_game, fields, seed, samples, i): i for i in todo}
            for count, future in enumerate(as_completed(futures), 1):
                write(futures[future], future.result())
                if progress is not None:
                    progress(count, len(todo))


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as file:
        for line in file:
            if line.strip():
                yield json.loads(line)


def load(path: Path) -> list[Decision]:
    """Every decision collected in ``path``, by game."""
    records = sorted(_lines(path), key=lambda r: int(r["game"]))
    return [Decision.from_json(d) for r in records for d in r["decisions"]]


# ---------------------------------------------------------------------- players for `deals`


class SearchBidder:
    """Bids like the expert and plays like basic: its bidding alone, for ``deals``.

    The search draws exactly ``ROLLOUTS`` rollouts (no clock, so a run is
    reproducible); the other bidding phases (going alone, the dealer's discard)
    are the expert's bidder's without search. Seat it as
    ``lab.players.bid_regret:SearchBidder``; ``PastSearchBidder`` has the rule
    before the regret measurement, a margin of 0.3 points everywhere.
    """

    name: str = "search-bidder"
    margin: ClassVar[Margin] = MODEL_MARGIN

    def __init__(self, seed: int = 0) -> None:
        self.expert = ExpertPlayer(
            seed,
            budget=None,
            min_samples=ROLLOUTS,
            max_bid_samples=ROLLOUTS,
            model_margin=self.margin,
        )
        self.basic = BasicPlayer(seed)

    def choose(self, view: SeatView) -> Action:
        """The expert's searched bid, its bidder's other bidding choices, basic's cards."""
        if view.phase in ("bid1", "bid2"):
            return self.expert.choose(view)
        if view.phase in ("alone", "discard"):
            return self.expert.bidder(view).choose(view)
        return self.basic.choose(view)


class PastSearchBidder(SearchBidder):
    """``SearchBidder`` with a margin of 0.3 points where the learnt model decides too."""

    name: str = "past-search-bidder"
    margin: ClassVar[Margin] = Margin(BID_MARGIN)
