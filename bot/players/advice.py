"""What a searching player found: its choice and the figures it chose by.

``ExpertPlayer.advise(view)`` returns an :class:`Advice`: the action, and the
expected points of every option it searched (one deal's result, weighed by
what it is worth at the score), averaged over the sampled deals. A hint is
worded from these figures, never from canned text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.rules import Action

__all__ = ["Advice"]


@dataclass(frozen=True, slots=True)
class Advice:
    """A decision with the expected points of each option searched (empty: nothing searched)."""

    action: Action
    values: dict[Action, float] = field(default_factory=dict)
    """Expected points a deal of each option searched, for this seat's side."""
    samples: int = 0
    """Sampled deals behind the figures."""
    tricks: dict[int, float] = field(default_factory=dict)
    """Bid Euchre: the tricks this seat's side is expected to take declaring each trump searched
    (0-3 a suit, 4 No Trump High, 5 No Trump Low), over the same samples."""

    def runner_up(self) -> Action | None:
        """The best searched option other than the choice, if any."""
        others = [a for a in self.values if a != self.action]
        return max(others, key=lambda a: self.values[a]) if others else None

    def margin(self) -> float | None:
        """By how many expected points the choice beats the runner-up (None: nothing to compare)."""
        other = self.runner_up()
        if other is None or self.action not in self.values:
            return None
        return self.values[self.action] - self.values[other]
