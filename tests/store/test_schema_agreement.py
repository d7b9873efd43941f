"""One migration source gives SQLite and PostgreSQL the same schema, and databases in use go on.

- A fresh SQLite file and a fresh PostgreSQL database, migrated, hold the same tables,
  columns (names, NULL or not, types by :data:`POSTGRES_TYPES`), primary keys, unique
  constraints, foreign keys and indexes.
- Every migration released when each dialect had files of its own renders, from the one
  source, the statements each dialect ran then (``released_migrations.json``).
- A database those released statements built is recognised at its version by this
  code, and migrates on from there (through a migration added after them, too) to the
  schema a fresh database gets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Database, latest_version, migrate
from bot.store.catalog import TableShape, describe
from bot.store.migrations import load_migrations
from bot.store.migrations.dialects import DIALECTS

from .conftest import schema_version
from .schemas import folded, released, schema

RELEASED = 22
"""The last migration released as two files, one per dialect."""

POSTGRES_TYPES = {
    "INTEGER": {"bigint", "integer"},
    "REAL": {"double precision"},
    "BOOLEAN": {"boolean"},
    "TEXT": {"text"},
    "BLOB": {"bytea"},
}
"""SQLite's declared type of a column, and what PostgreSQL may call the same column's."""


def test_every_released_migration_renders_the_statements_it_ran() -> None:
    assert latest_version() >= RELEASED
    for dialect in DIALECTS:
        then = released(dialect)
        now = load_migrations(dialect)[:RELEASED]
        assert [(m.version, m.name) for m in then] == [(m.version, m.name) for m in now]
        for old, new in zip(then, now, strict=True):
            assert [folded(s) for s in new.statements] == list(old.statements), (
                f"{new.version:04d}_{new.name}.sql now runs other statements on {dialect}: "
                "a released migration never changes"
            )


def differences(lite: dict[str, TableShape], pg: dict[str, TableShape]) -> list[str]:
    """Every way the two schemas differ, in words."""
    found = [f"only SQLite has table {t}" for t in sorted(set(lite) - set(pg))]
    found += [f"only PostgreSQL has table {t}" for t in sorted(set(pg) - set(lite))]
    for name in sorted(set(lite) & set(pg)):
        a, b = lite[name], pg[name]
        names_a, names_b = {c.name for c in a.columns}, {c.name for c in b.columns}
        found += [f"{name}.{c}: only in SQLite" for c in sorted(names_a - names_b)]
        found += [f"{name}.{c}: only in PostgreSQL" for c in sorted(names_b - names_a)]
        for column in sorted(names_a & names_b):
            x, y = a.column(column), b.column(column)
            if y.type not in POSTGRES_TYPES.get(x.type, set()):
                found.append(f"{name}.{column}: {x.type} in SQLite but {y.type} in PostgreSQL")
            if x.nullable != y.nullable:
                found.append(f"{name}.{column}: NULL allowed in only one ({x} / {y})")
            if (column == "id" or column.endswith("_id")) and y.type != "bigint":
                found.append(f"{name}.{column}: an id is BIGINT, not {y.type}")
        for part in ("primary_key", "uniques", "foreign_keys", "indexes"):
            if getattr(a, part) != getattr(b, part):
                found.append(
                    f"{name} {part}: {getattr(a, part)} in SQLite, {getattr(b, part)} in PostgreSQL"
                )
    return found


async def test_fresh_sqlite_and_postgresql_get_the_same_schema(
    db_path: Path, postgres_url: str
) -> None:
    async with await Database.open(db_path) as lite, await Database.open(postgres_url) as pg:
        lite_shape, pg_shape = await describe(lite), await describe(pg)
    assert len(lite_shape) >= 20
    assert differences(lite_shape, pg_shape) == []
    # The comparison sees what it compares: a foreign key, a partial unique index, an
    # expression in an index, a row id the database gives.
    seats = pg_shape["table_seats"]
    assert any(k.table == "tables" and k.on_delete == "CASCADE" for k in seats.foreign_keys)
    one_open = next(i for i in pg_shape["tables"].indexes if i.name == "tables_one_open_per_place")
    assert one_open.unique and one_open.partial
    names = next(i for i in lite_shape["seasons"].indexes if i.name == "seasons_unique_name")
    assert names.columns == ("guild_id", "(expression)")
    assert not lite_shape["tables"].column("id").nullable


async def build_released(url: str, version: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database the released migrations made, to ``version``, by the runner of then."""
    with monkeypatch.context() as patched:
        patched.setattr("bot.store.database.load_migrations", released)
        assert await migrate(url, target=version) == (0, version)


TRIAL = """\
-- A migration added after the released ones, written as the next one will be.
CREATE TABLE trial_notes (
    id        BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id  BIGINT NOT NULL,
    weight    DOUBLE PRECISION
);

ALTER TABLE guild_settings ADD COLUMN trial_flag BOOLEAN NOT NULL DEFAULT FALSE;

-- [sqlite]
CREATE INDEX trial_notes_by_guild ON trial_notes (guild_id, id);
-- [postgresql]
CREATE INDEX trial_notes_by_guild ON trial_notes USING btree (guild_id, id);
-- [end]
"""


@pytest.fixture
def with_trial_migration(migration_folder: Path) -> int:
    """The shipped migrations and one more after them (:data:`TRIAL`); its version."""
    version = len(list(migration_folder.iterdir())) + 1
    (migration_folder / f"{version:04d}_trial.sql").write_text(TRIAL)
    assert latest_version() == version
    return version


@pytest.mark.parametrize("version", [6, RELEASED])
async def test_a_database_the_released_migrations_made_goes_on(
    db_url: str, other_url: str, version: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Schema 6 comes before every migration with dialect sections (7, 9 and 10).
    old, fresh = db_url, other_url
    await build_released(old, version, monkeypatch)
    assert await schema_version(old) == version
    assert await migrate(old) == (version, latest_version())  # (22, 22): up to date
    assert await migrate(fresh) == (0, latest_version())
    assert await schema(old) == await schema(fresh)
    async with await Database.open(old) as a, await Database.open(fresh) as b:
        assert a.schema_version == latest_version()
        assert await describe(a) == await describe(b)


async def test_a_released_database_takes_the_next_migration(
    db_url: str, other_url: str, with_trial_migration: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, fresh, trial = db_url, other_url, with_trial_migration
    await build_released(old, RELEASED, monkeypatch)
    assert await migrate(old) == (RELEASED, trial)
    assert await migrate(fresh) == (0, trial)
    assert await schema(old) == await schema(fresh)
    async with await Database.open(old) as db:
        assert db.schema_version == trial
        shape = await describe(db)
        flag = shape["guild_settings"].column("trial_flag")
        assert (flag.kind, flag.nullable) == ("bool", False)
        assert {i.name for i in shape["trial_notes"].indexes} == {"trial_notes_by_guild"}
        await db.execute("INSERT INTO trial_notes (guild_id, weight) VALUES (?, ?)", (2**62, 0.1))
        await db.execute("INSERT INTO trial_notes (guild_id) VALUES (?)", (1,))
        rows = await db.fetch_all("SELECT id, guild_id, weight FROM trial_notes ORDER BY id")
    assert [(r["id"], r["guild_id"], r["weight"]) for r in rows] == [(1, 2**62, 0.1), (2, 1, None)]
