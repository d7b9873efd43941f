"""Command line of the rules core: ``replay FILE`` and ``bench``.

``python -m bot.rules replay FILE`` (FILE ``-`` for standard input) prints the
replay object of record-format.md and exits 0, also when it stops at a rejected
action; it exits 2 with a message on standard error when the file is not a
record at all.
"""

from __future__ import annotations

import argparse
import json
import sys

from .bench import main as bench_main
from .record import RecordError, replay


def _replay(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = replay(text)
    except RecordError as exc:
        print(f"error: {path} is not a game record: {exc}", file=sys.stderr)
        return 2
    json.dump(result.to_json(), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.rules", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a game record and print the resulting state")
    rp.add_argument("file", help="the record (JSON); - reads standard input")
    bp = sub.add_parser("bench", help="measure random deals per second for every preset")
    bp.add_argument("--seconds", type=float, default=2.0, help="time per preset (default 2)")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    bench_main(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
