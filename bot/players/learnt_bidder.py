"""The expert's bidder: the learnt models of making trump and of going alone, the count elsewhere.

``learnt_bidding`` decides between making trump and passing, ``learnt_loners``
between going alone and playing with the partner; where neither has its say,
basic's count with the expert's thresholds (``BIDDING``) decides.
"""

from __future__ import annotations

from bot.rules import Action, SeatView

from .basic import BasicPlayer, Tuning
from .learnt_bidding import BiddingModel, features, key_of, score_class, shipped_model
from .learnt_loners import decide_alone, shipped_loners

BIDDING = Tuning(alone=0.06, upcard_share=0.9, second_round=-0.3)
"""Basic's count of a hand with the expert's thresholds: bids that pay off on average.

Making trump or passing is decided by the learnt model of the preset
(``learnt_bidding``) where it has the data, going alone by the learnt loners'
model (``learnt_loners``) likewise; this count decides the hands the models have
no say on, defending alone, and everything else.

Basic goes alone only on hands that sweep most of the time (a sweep chance of
0.28 by its rough count), as people expect of a partner; a loner pays for
itself much earlier. The expert also counts more of the upcard for or against
its side in the first round, and names trump in the second round on a little
less. Each was chosen by duplicate deals against basic (20,000 a setting);
the figures are in docs/players.md.
"""


class LearntBidder:
    """Makes trump or passes by the learnt model; everything else by the count (``tuning``).

    The model is asked with basic's own count, the one it was trained on; the
    count of ``tuning`` decides where the model has no say. Whether to go alone
    is decided by the loners' model (``learnt_loners``) where one is given and
    has its say, by the count's sweep chance otherwise.
    """

    name: str = "learnt-bidder"

    def __init__(
        self,
        seed: int,
        tuning: Tuning,
        model: BiddingModel | None,
        loners: BiddingModel | None = None,
    ) -> None:
        self.count = BasicPlayer(seed, tuning)
        self.basic = BasicPlayer(seed)
        self.model = model
        self.loners = loners

    def estimate(self, view: SeatView) -> tuple[Action, float] | None:
        """The bid that makes trump with the partner and its learnt gain over passing."""
        if self.model is None or view.phase not in ("bid1", "bid2"):
            return None
        made = self.basic.make_count(view)
        if made is None:
            return None
        action, count = made
        klass = score_class(view.rules, view.score, view.team)
        gain = self.model.gain(key_of(view), features(view, action, count, klass))
        return None if gain is None else (action, gain)

    def choose(self, view: SeatView) -> Action:
        """The count's action, with the learnt models deciding making trump and going alone."""
        counted = self.count.choose(view)
        if view.phase == "alone":
            return decide_alone(self.loners, view, counted)
        if view.phase not in ("bid1", "bid2") or counted.do in ("redeal", "swap"):
            return counted
        if counted.alone:
            return decide_alone(self.loners, view, counted)
        passing = next((a for a in view.legal if a.do == "pass"), None)
        estimate = self.estimate(view)
        if estimate is None or passing is None:
            return decide_alone(self.loners, view, counted)
        action, gain = estimate
        return decide_alone(self.loners, view, action) if gain > 0 else passing


def expert_bidder(seed: int, preset: str, expert_partner: bool = False) -> LearntBidder:
    """The expert's bidder for ``preset``: its shipped learnt models, the count where none.

    ``expert_partner``: make trump or pass by the model learnt with a partner who
    bids like the expert (the basic partner's model where none is shipped).
    """
    model = shipped_model(preset, True) if expert_partner else None
    return LearntBidder(seed, BIDDING, model or shipped_model(preset), shipped_loners(preset))
