"""A load client for the web bench: a fixed number of GETs of one address, some at a time.

Run as its own process (``python -m lab.bench.load URL COUNT CONCURRENCY``), so that the
server's process spends its time on serving only; prints one JSON line: requests, seconds,
requests a second and the statuses seen.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter

import aiohttp

__all__ = ["load"]


async def load(url: str, count: int, concurrency: int) -> dict[str, object]:
    """GET ``url`` ``count`` times, ``concurrency`` at once; the figures as a dict."""
    statuses: Counter[int] = Counter()
    left = count
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            nonlocal left
            while left > 0:
                left -= 1
                async with session.get(url) as response:
                    await response.read()
                    statuses[response.status] += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        seconds = time.perf_counter() - start
    return {
        "requests": count,
        "seconds": seconds,
        "per_second": count / seconds,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


def main(argv: list[str]) -> int:
    """``URL COUNT CONCURRENCY``: run the load and print its figures as JSON."""
    url, count, concurrency = argv[0], int(argv[1]), int(argv[2])
    print(json.dumps(asyncio.run(load(url, count, concurrency))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
