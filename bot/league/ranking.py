"""Which archived games count for the ratings: the league's ranking rules.

A game is ranked when every seat was a person for the whole game (the table
archives it ``ranked`` only then: a computer seated, or taking over a seat someone
left, makes it casual), the server does not play everything casual, and the game
was played under the server's house rules, unless the server also ranks games
under other rules. Aborted games never reach the archive, so are never rated.

A tournament's game follows its event: casual when the event is not rated; when it is,
the event's rules count as the server's (a progressive table plays a fixed number of
deals), but every seat must still be a person. A rated event's games wait until it is
over (the league leaves them pending): rated in play order when it finishes, casual
when it was cancelled, so a cancelled event changes no rating.
"""

from __future__ import annotations

from typing import Any

from bot.rules import HouseRules, RulesError
from bot.store import ArchivedGame, LeagueSettings
from bot.store.league_models import EventGame

__all__ = ["casual_reason", "record_rules"]


def record_rules(record: dict[str, Any]) -> HouseRules | None:
    """The house rules a record was played under (None if they no longer validate)."""
    spec = record.get("rules")
    try:
        return HouseRules.from_spec(spec if isinstance(spec, dict) else {})
    except RulesError:
        return None


def casual_reason(
    game: ArchivedGame,
    rules: HouseRules | None,
    server_rules: HouseRules,
    settings: LeagueSettings,
    *,
    event: EventGame | None = None,
) -> str | None:
    """Why the game does not count for the ratings, in a few words; None when it counts.

    ``event``: the tournament the game was played in (None: not a tournament game).
    """
    if settings.all_casual:
        return "this server plays every game casual"
    if game.stopped is not None:
        return f"it was {game.stopped}"
    if event is not None and not event.rated:
        return "its tournament is not rated"
    if event is not None and event.phase == "cancelled":
        return "its tournament was cancelled"
    people = [p.user_id for p in game.players if not p.is_computer and p.user_id is not None]
    if not game.ranked or len(people) != len(game.players):
        return "a computer played a seat"
    if len(set(people)) != len(people):
        return "someone played two seats"
    if event is None and not settings.rank_custom_rules and rules != server_rules:
        return "it was played under other rules than the server's"
    return None
