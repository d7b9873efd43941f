"""What a computer player is, and how one is made from a level name or ``module:Class``.

A player is any object with a ``name`` and a ``choose`` method that takes one
seat's view and returns one of ``view.legal``. Players never see the Game:
whoever runs them (a table, the arena) builds ``seat_view(game, seat)`` and
passes only that, so a player cannot peek at hidden cards.

    >>> from bot.rules import Game, HouseRules, seat_view
    >>> game = Game(HouseRules.preset_rules("north_american"), seed=7)
    >>> player = make_player("basic", seed=1)
    >>> player.choose(seat_view(game, game.turn)) in game.legal()
    True

Built-in levels are registered in ``LEVELS`` by their own ``module:Class``
path and loaded exactly like an outside player, so adding the searching
expert is one line there. A level that searches takes a ``budget``: the work of
a decision, in seconds of an idle core (``SEARCH_BUDGET``; counted by the search,
never timed, so a decision is the same at any load), or None to draw a fixed
number of samples, cheaper still (tests build their tables' players that way).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Final, Protocol, runtime_checkable

from bot.rules import Action, SeatView


@runtime_checkable
class Player(Protocol):
    """A computer player: decides one action from what its seat may see.

    ``choose`` is called only when ``view.turn == view.seat`` and must return
    one of ``view.legal`` (the same object or an equal ``Action``). It may
    keep state between calls, but everything it needs is in the view: a
    table restored from its record hands the player views, not a history.
    """

    name: str

    def choose(self, view: SeatView) -> Action:
        """The action to take now; one of ``view.legal``."""
        ...


class PlayerError(ValueError):
    """A player spec that does not give a player (unknown level, bad ``module:Class``)."""


LEVELS: Final[dict[str, str]] = {
    "random": "bot.players.random_player:RandomPlayer",
    "beginner": "bot.players.beginner:BeginnerPlayer",
    "basic": "bot.players.basic:BasicPlayer",
    "expert": "bot.players.expert:ExpertPlayer",
}
"""Built-in levels and the ``module:Class`` that implements each."""

SEARCH_BUDGET: Final = 0.1
"""A searching level's work a decision at a table: what fits in 0.1 s of an idle core."""


def make_player(level: str, seed: int = 0, *, budget: float | None = SEARCH_BUDGET) -> Player:
    """A player of a built-in level (``random``, ``basic``) or an outside ``module:Class``.

    The class (or any callable) is called as ``Class(seed=seed)`` when it takes
    a ``seed`` argument, else as ``Class()``, and with ``budget=budget`` too when
    it names a ``budget`` parameter (a searching level: seconds of work a decision, None
    for a fixed number of samples). The result must have a ``name`` and a
    ``choose`` method.
    """
    spec = LEVELS.get(level, level)
    if ":" not in spec:
        raise PlayerError(
            f"{level!r} is not a player level (choose from {', '.join(LEVELS)}) "
            "nor a module:Class path"
        )
    factory = _load(spec)
    options: dict[str, object] = {"seed": seed} if _takes_seed(factory) else {}
    if _takes_budget(factory):
        options["budget"] = budget
    player: object = factory(**options)
    if not isinstance(player, Player) or not isinstance(player.name, str):
        raise PlayerError(f"{spec} did not make a player: it needs a name (str) and a choose(view)")
    return player


def _load(spec: str) -> Callable[..., object]:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PlayerError(f"{spec}: cannot import {module_name} ({exc})") from None
    factory: object = module
    for part in attr.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise PlayerError(f"{spec}: {module_name} has no {attr}")
    if not callable(factory):
        raise PlayerError(f"{spec}: {attr} is not a class or a function")
    return factory


def _parameters(factory: Callable[..., object]) -> Mapping[str, inspect.Parameter]:
    try:
        return inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return {}


def _takes_seed(factory: Callable[..., object]) -> bool:
    params = _parameters(factory)
    return "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _takes_budget(factory: Callable[..., object]) -> bool:
    return "budget" in _parameters(factory)
