"""Finished games for league tests: scripted with the rules core, archived through the store."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.rules import HouseRules, game_record, new_game
from bot.store import ArchivedGame, Database, GameArchiveRepo, GuildSettingsRepo, Seat

GUILD = 1_000_000_000_000_001
OTHER_GUILD = 1_000_000_000_000_002
RULES = HouseRules().with_changes(target_score=5)
"""The test servers' house rules: short games."""

NAMES = ("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
USERS = {name: 5_000_000_000_000_000 + n for n, name in enumerate(NAMES)}


def finished_record(seed: int, rules: HouseRules = RULES) -> dict[str, Any]:
    """A finished game of random legal moves (the same for the same seed)."""
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(list(game.legal())))
    return game_record(game)


def seats(*names: str | None) -> list[Seat]:
    """Seats in order: a name is that person, None a computer."""
    return [
        Seat.computer(n, f"Computer {n + 1}") if name is None else Seat.person(n, USERS[name], name)
        for n, name in enumerate(names)
    ]


async def use_rules(db: Database, guild_id: int = GUILD, rules: HouseRules = RULES) -> None:
    await GuildSettingsRepo(db).set_rules(guild_id, rules)


async def archive(
    db: Database,
    seed: int,
    players: Sequence[str | None],
    *,
    guild_id: int = GUILD,
    rules: HouseRules = RULES,
) -> ArchivedGame:
    """Archive a scripted game the way the table service does (ranked: no computer)."""
    return await GameArchiveRepo(db).archive(
        guild_id=guild_id,
        record=finished_record(seed, rules),
        players=seats(*players),
        ranked=all(p is not None for p in players),
    )
