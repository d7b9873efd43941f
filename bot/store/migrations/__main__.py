"""``python -m bot.store.migrations DIALECT [VERSION]``: the SQL a dialect runs for the migrations.

Every migration, or the one of schema VERSION, as ``sqlite`` or ``postgresql`` runs it
(its sections picked, SQLite's spellings made), one statement after another.
"""

from __future__ import annotations

import argparse
import sys

from bot.cli import run_main
from bot.store.errors import MigrationError
from bot.store.migrations import latest_version, load_migrations
from bot.store.migrations.dialects import DIALECTS


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.store.migrations",
        description="Print the SQL a dialect runs for each migration, or for one.",
    )
    parser.add_argument("dialect", choices=DIALECTS, help="the database it is for")
    parser.add_argument("version", type=int, nargs="?", help="one schema version (default: all)")
    return parser


def main() -> int:
    """Print the statements; 1 when the migrations cannot be loaded."""
    parser = build_parser()
    args = parser.parse_args()
    try:
        newest = latest_version()
        if args.version is not None and not 1 <= args.version <= newest:
            parser.error(f"schema {args.version} does not exist (the migrations run 1 to {newest})")
        for migration in load_migrations(args.dialect):
            if args.version in (None, migration.version):
                print(f"-- {migration.version:04d}_{migration.name}.sql for {args.dialect}\n")
                for statement in migration.statements:
                    print(f"{statement}\n")
    except MigrationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run_main(main)
