"""Load clients for the web bench: many visitors, each from a loopback address of its own.

The pages keep their shipped rate limit (120 pages a minute per address, in bursts of
12), so a bench that sent everything from one address would measure 429s. Linux routes
the whole of 127.0.0.0/8 to the loopback, so :class:`Visitors` gives each visitor an
address of its own there (``127.1.0.1``, ``127.1.0.2``...), bound as the source of its
connection, and moves to the next one after ``per_address`` requests, fewer than a
burst: a crowd of visitors within their limits, each request still counted by the limit.

Run as its own process (``python -m lab.bench.load BASE CONCURRENCY FIRST`` with the
paths to get, one per line, on stdin), so that the server's process spends its
time on serving only; prints one JSON line: requests, seconds, requests a second with
its 95% interval, the statuses seen and the latency's p50 and p95 as the client saw it
(ms).

The interval is by batch means: the answers, in the order they completed, are cut
into ``BATCHES`` equal runs, each run's seconds a page is one sample, and Student's t
over those samples bounds the mean; a rate is its inverse. A short load gets a wide
interval, so that its figure is not read against a goal it cannot decide.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Final

import aiohttp

__all__ = ["Visitors", "load"]

PER_ADDRESS = 10
"""Requests a visitor makes before the next address takes over (a burst is 12)."""

BATCHES: Final = 10
"""Runs of answers a load's rate interval is worked out from (see the module's docstring)."""
T_95: Final = 2.262
"""Student's t for a two-sided 95% interval at ``BATCHES - 1`` degrees of freedom."""


def rate_interval(done: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of requests a second, from when each answer completed (s, from 0)."""
    ends = sorted(done)
    size = len(ends) // BATCHES
    if size < 1:
        return 0.0, math.inf
    samples, last = [], 0.0
    for b in range(BATCHES):
        end = ends[(b + 1) * size - 1]
        samples.append((end - last) / size)
        last = end
    mean = statistics.fmean(samples)
    half = T_95 * statistics.stdev(samples) / math.sqrt(BATCHES)
    return 1 / (mean + half), (1 / (mean - half) if mean > half else math.inf)


def _addresses(first: int) -> Iterator[str]:
    """Loopback addresses from the ``first``-th on: 127.1.0.1, 127.1.0.2, ... 127.1.1.1..."""
    for n in itertools.count(first):
        yield f"127.{1 + n // 62_500}.{n // 250 % 250}.{n % 250 + 1}"


class Visitors:
    """Sessions from distinct loopback addresses, each used for ``per_address`` requests."""

    def __init__(self, base: str, *, per_address: int = PER_ADDRESS, first: int = 0) -> None:
        """Visit ``base`` (``http://127.0.0.1:PORT``) from address number ``first`` on."""
        self.base = base
        self.per_address = per_address
        self._addresses = _addresses(first)
        self.used = 0
        """Addresses used so far."""

    def session(self) -> aiohttp.ClientSession:
        """A new visitor: a session whose connections come from an address of its own."""
        self.used += 1
        connector = aiohttp.TCPConnector(local_addr=(next(self._addresses), 0), limit=1)
        return aiohttp.ClientSession(self.base, connector=connector)

    async def get_all(self, paths: Sequence[str], concurrency: int) -> dict[str, Any]:
        """GET every path, ``concurrency`` visitors at once; the figures.

        Each visitor keeps one connection for its requests, as a browser does, and takes
        every answer whole (gzipped, as a browser asks for pages), without a client
        library's work per request that a browser would do in another process.
        """
        statuses: Counter[int] = Counter()
        latencies: list[float] = []
        done: list[float] = []
        queue = iter(paths)
        host, _, port = self.base.removeprefix("http://").partition(":")

        async def visitor() -> None:
            while True:
                batch = list(itertools.islice(queue, self.per_address))
                if not batch:
                    return
                self.used += 1
                reader, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(next(self._addresses), 0)
                )
                try:
                    for path in batch:
                        start = time.perf_counter()
                        writer.write(_request(path, self.base))
                        statuses[await _answer(reader)] += 1
                        now = time.perf_counter()
                        latencies.append(now - start)
                        done.append(now - begun)
                finally:
                    writer.close()
                    await writer.wait_closed()

        begun, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(visitor() for _ in range(concurrency)))
        seconds = time.perf_counter() - begun
        cpu = time.process_time() - cpu
        latencies.sort()

        def p(q: float) -> float:
            return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

        return {
            "requests": len(paths),
            "seconds": seconds,
            "per_second": len(paths) / seconds,
            "per_second_95": rate_interval(done),
            "client_cpu_ms": cpu * 1000 / len(paths),
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "addresses": self.used,
            "p50": p(0.5),
            "p95": p(0.95),
        }


def _request(path: str, base: str) -> bytes:
    host = base.removeprefix("http://")
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: gzip\r\n"
        "User-Agent: euchre-web-bench\r\n\r\n"
    ).encode()


async def _answer(reader: asyncio.StreamReader) -> int:
    """Read one whole answer (its body to the last byte); its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    fields = {
        k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])
    }
    if "content-length" in fields:
        await reader.readexactly(int(fields["content-length"]))
    elif fields.get("transfer-encoding") == "chunked":
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    else:
        raise RuntimeError(f"an answer of status {status} with no length: {lines}")
    return status


async def load(base: str, paths: Sequence[str], concurrency: int, first: int) -> dict[str, Any]:
    """GET ``paths`` from ``base`` as a crowd of visitors, ``concurrency`` at once."""
    return await Visitors(base, first=first).get_all(paths, concurrency)


def main(argv: list[str]) -> int:
    """``BASE CONCURRENCY FIRST`` with paths on stdin: run the load, print its figures."""
    base, concurrency, first = argv[0], int(argv[1]), int(argv[2])
    paths = [line.strip() for line in sys.stdin if line.strip()]
    print(json.dumps(asyncio.run(load(base, paths, concurrency, first))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
