"""What comes first in the search pool: the kinds of work, most urgent first.

A job waits in the pool's queue until a worker is free; the free worker takes the
most urgent job, and among equals the one that came first. Nothing is pre-empted:
a job started runs to its end, so each job is kept short (a review is asked deal by
deal, never a whole game at once).
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["REVIEWS", "Priority"]


class Priority(IntEnum):
    """How urgent a job is: a lower value goes first."""

    MOVE = 0
    """A computer's move at a table where people wait for it."""
    HINT = 1
    """A person's Hint."""
    CLAIM = 2
    """A claim's check and the plays it stands for."""
    PLAY = 3
    """The daily deal and the lesson: one person plays against the computers."""
    REVIEW = 4
    """A review a person asked for (a Review click, ``/euchre review``)."""
    AUTO_REVIEW = 5
    """A finished game reviewed for a person who asked for every game's review."""


REVIEWS = frozenset({Priority.REVIEW, Priority.AUTO_REVIEW})
"""The background work: kept in a bounded queue, the oldest dropped when it is full."""
