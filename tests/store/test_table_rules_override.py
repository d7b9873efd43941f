"""Schema 4: a table remembers whether its host overrode the server's house rules."""

from __future__ import annotations

from bot.rules import HouseRules
from bot.store import Database, TableRepo, migrate

from .conftest import CHANNEL, FOUR_SEATS, GUILD, HOST, build_at_version, write_rows


async def test_the_flag_is_stored_and_read_back(db: Database) -> None:
    tables = TableRepo(db)
    plain = await tables.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, rules=HouseRules(), seed=1
    )
    casual = await tables.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        host_id=HOST,
        rules=HouseRules.preset_rules("british"),
        seed=2,
        seats=FOUR_SEATS,
        rules_overridden=True,
    )
    assert not plain.rules_overridden and casual.rules_overridden
    assert (await tables.get(casual.id)).rules_overridden
    listed = {t.id: t.rules_overridden for t in await tables.list_open_tables()}
    assert listed == {plain.id: False, casual.id: True}
    await tables.set_status(casual.id, "playing")
    assert (await tables.set_status(casual.id, "aborted")).rules_overridden


async def test_tables_from_before_schema_4_were_not_overridden(db_url: str) -> None:
    path = db_url
    await build_at_version(path, 3)
    assert (await migrate(path))[0] == 3
    async with await Database.open(path) as db:
        assert not (await TableRepo(db).get(7)).rules_overridden


async def test_an_overridden_table_from_schema_4_keeps_its_flag(db_url: str) -> None:
    path = db_url
    await build_at_version(path, 4)
    await write_rows(
        path,
        [
            (
                "tables",
                {
                    "id": 9,
                    "guild_id": GUILD,
                    "channel_id": CHANNEL + 9,
                    "host_id": HOST,
                    "status": "lobby",
                    "rules": '{"preset":"british"}',
                    "rules_overridden": True,
                    "seed": 9,
                    "created_at": "2025-03-01T00:00:00+00:00",
                    "updated_at": "2025-03-01T00:00:00+00:00",
                },
            )
        ],
    )
    await migrate(path)
    async with await Database.open(path) as db:
        table = await TableRepo(db).get(9)
    assert table.rules_overridden and table.rules == HouseRules.preset_rules("british")
