"""A computer's search that is not back in time gives way to basic's move: no table stalls."""

from __future__ import annotations

from bot.players import make_player
from bot.search_pool import SearchPool
from bot.server.settings import ServerSettings
from bot.server.sources import FixedSettings
from bot.tables import MemoryTableStore, TableService
from tests.search_pool.fakes import HeldSlot
from tests.tables.util import ALICE, started


def tables_at(level: str, pool: SearchPool | None = None) -> TableService:
    server = FixedSettings(ServerSettings(computer_default_level=level))
    return TableService(
        MemoryTableStore(),
        make_player,
        seeds=lambda: 8,
        server_settings=server,
        play_on=False,
        pool=pool,
        search_grace=0.0 if pool is not None else None,
    )


async def play(tables: TableService, rounds: int) -> list[str]:
    """Alice's first legal action and the computers' turns, ``rounds`` times: the log."""
    table = await started(tables)
    for _ in range(rounds):
        await tables.get_any(table.id).turns.run_computers()
        seat, view = tables.get_any(table.id).view_for(ALICE.user_id)
        await (await tables.fetch(table.id)).turns.act(
            ALICE.user_id, seat, table.stamp, view.legal[0]
        )
    await tables.get_any(table.id).turns.run_computers()
    return [f"{seat}:{action}" for seat, action in table.require_game().log]


async def test_a_search_that_never_answers_gives_way_to_basics_move() -> None:
    stuck = HeldSlot()  # a worker that never answers
    late = tables_at("expert", SearchPool(0, slots=[stuck]))
    played = await play(late, 4)
    assert stuck.started, "the experts did start their searches"
    assert late.crew.thinking.fallbacks == sum(1 for entry in played if not entry.startswith("0:"))
    assert played == await play(tables_at("basic"), 4), "basic's moves, seeded as the expert's"
    assert late.pool.waiting == 0, "the late searches left the queue"
