"""A tournament evening on one server: 25 tables of 4 (100 players), gunicorn + PostgreSQL +
Redis, production settings (docs/tournaments.md); the cup final is 100 tables.

    .venv/bin/python bench/tournament.py [--duration 60] [--tables 25] [--watchers 100]
    .venv/bin/python bench/tournament.py --tables 100 --watchers 100 --deal-every 30

Each table's phone records a deal every ``--deal-every`` seconds through the API with its
table code (``Authorization: Table <code>``, Idempotency-Key) and its four phones poll its
scoreboard every 2 s with If-None-Match; the screen and ``--watchers`` phones poll the
public screen's two parts (its ranking and its live tables) every 5 s with If-None-Match,
the director polls the ranking (ETag) every 2 s; one client asks ``/ping`` every 0.2 s
throughout, interleaved with the rest, as the baseline.

All clients live in this one process on one asyncio event loop (HTTP/1.1 keep-alive over
the standard library's streams, one connection per client), so the load costs the box
little: the run prints this process's CPU share beside gunicorn's, PostgreSQL's and
Redis's, and how late the loop woke the clients (if that is large, the generator itself
was short of CPU and the latencies are not the server's).
Prints each kind's requests, errors (target 0) and latency percentiles, and the 99th
percentiles against /ping's; exits non-zero (MISSED) when any kind misses 100 ms at the
99th percentile, /ping misses 50 ms, or on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402
from soak import pct  # noqa: E402

TARGET_MS = 100.0
PING_TARGET_MS = 50.0
TIMEOUT = 30.0
KINDS = ("deal POST", "table poll", "screen ranking", "screen live", "ranking poll", "ping")

Request = tuple[str, str, dict[str, str], str | None]  # method, path, headers, body


class Stats:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {k: [] for k in KINDS}
        self.status: dict[str, dict[int, int]] = {k: {} for k in KINDS}
        self.errors: list[str] = []
        self.late: list[float] = []  # ms a client woke after its time (the loop's lag)
        self.behind = 0  # requests sent late because the answer before came late
        self.reconnects = 0
        self.counting = True  # False during the warm-up: only errors count

    def add(self, kind: str, ms: float, status: int, ok: bool, note: str = "") -> None:
        if not ok:
            self.errors.append(f"{kind}: {status} {note}"[:200])
        if not self.counting:
            return
        self.latencies[kind].append(ms)
        self.status[kind][status] = self.status[kind].get(status, 0) + 1


class Connection:
    """One keep-alive HTTP/1.1 connection, as a browser keeps one: a request on a
    connection the server has closed meanwhile (its keep-alive timeout) is sent again once
    on a fresh one."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port, self.stats = port, stats
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: str | None) -> tuple[int, dict[str, str], bytes]:
        data = body.encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                 *(f"{k}: {v}" for k, v in headers.items())]
        if body is not None:
            lines.append(f"Content-Length: {len(data)}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        for attempt in (1, 2):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                assert self.writer is not None
                self.writer.write(raw)
                await self.writer.drain()
                return await self._response(method)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if not reused or attempt == 2:
                    raise
                self.stats.reconnects += 1
        raise AssertionError("unreachable")

    async def _response(self, method: str) -> tuple[int, dict[str, str], bytes]:
        reader = self.reader
        assert reader is not None
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionResetError("closed by the server")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            content = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            content = await self._chunked(reader)
        elif "content-length" in headers:
            content = await reader.readexactly(int(headers["content-length"]))
        else:  # until the server closes
            content = await reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, content

    @staticmethod
    async def _chunked(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(parts)
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)


async def client(port: int, kind: str, every: float, stop: float, stats: Stats,
                 make: Callable[[str], Request], ok: tuple[int, ...], arrive: float = 0
                 ) -> None:
    """Ask ``make(last ETag)`` every ``every`` s until ``stop``, on one connection; the
    first time within ``arrive`` s (at least within ``every``)."""
    conn = Connection(port, stats)
    etag = ""
    next_at = time.monotonic() + random.random() * max(every, arrive)  # start apart
    while True:
        wait = next_at - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        now = time.monotonic()
        if now >= stop:
            break
        if stats.counting and wait > 0:  # how late the loop woke it: its own delay
            stats.late.append((now - next_at) * 1000)
        elif stats.counting:  # the last answer came after this request's time: the server's
            stats.behind += 1
        next_at += every
        method, path, headers, body = make(etag)
        t0 = time.perf_counter()
        try:
            status, got, content = await asyncio.wait_for(
                conn.request(method, path, headers, body), TIMEOUT)
        except (OSError, asyncio.IncompleteReadError, ValueError,  # TimeoutError: an OSError
                IndexError) as e:
            stats.add(kind, (time.perf_counter() - t0) * 1000, 0, False, repr(e))
            conn.close()
            continue
        etag = got.get("etag", etag)
        stats.add(kind, (time.perf_counter() - t0) * 1000, status, status in ok,
                  content[:120].decode(errors="replace"))
    conn.close()


async def warm(port: int, jobs: list[tuple[str, float, Callable[[str], Request],
                                           tuple[int, ...]]], rounds: int) -> None:
    """A server that was up before the draw: ``rounds`` rounds of 16 requests at once, of
    every kind but a deal and of the first table only, so that every worker thread has its
    database connection and every worker its compiled templates and catalogues; the other
    tables' first answers stay to be made, as after a real draw. Not counted."""
    asking, seen = [], set()
    for kind, _every, make, _ok in jobs:
        if kind != "deal POST" and kind not in seen:
            seen.add(kind)
            asking.append((kind, make))
    for r in range(rounds):
        batch = [asking[(r * 16 + k) % len(asking)] for k in range(16)]
        conns = [Connection(port, Stats()) for _ in batch]
        await asyncio.gather(*(conn.request(*make("")) for conn, (_kind, make) in
                               zip(conns, batch, strict=True)))
        for conn in conns:
            conn.close()


async def run(port: int, jobs: list[tuple[str, float, Callable[[str], Request],
                                          tuple[int, ...]]],
              duration: float, warmup: float, stats: Stats, server: set[int],
              arrive: float = 0) -> dict[str, float]:
    """Every client for ``warmup`` + ``duration`` seconds, counting after the warm-up;
    the CPU shares of the counted part."""
    stop = time.monotonic() + warmup + duration
    stats.counting = warmup <= 0

    async def count() -> Cpu:
        await asyncio.sleep(warmup)
        stats.counting = True
        return Cpu(server)

    cpu, *_ = await asyncio.gather(count(), *(
        client(port, kind, every, stop, stats, make, ok, arrive if kind != "ping" else 0)
        for kind, every, make, ok in jobs))
    return cpu.shares()


def seed(tables: int) -> tuple[object, list[tuple[int, str]], str]:
    """A tournament of ``tables`` × 4 players with round 1 drawn: (tournament, [(session,
    code)], the director's token)."""
    from django.contrib.auth import get_user_model

    from scorepad import accounts, games, rosters
    from scorepad.tournaments import services as tour

    director = get_user_model().objects.create_user(
        username=f"bench-director-{secrets.token_hex(4)}", password=secrets.token_hex(16))
    group = rosters.group_create(user=director, name="bench tournament")
    game = games.for_tournaments()[0]
    made = tour.tournament_create(group=group, user=director, name="bench evening",
                                  game=game, rounds=3, round_ends="deals",
                                  deals_per_round=1000, table_size=4, scoring="placement",
                                  draw="random")
    for i in range(tables * 4):
        tour.entrant_register(tournament=made, name=f"Spieler {i + 1:03d}")
    drawn = tour.round_draw(tournament=made, user=director, rng=random.Random(1))
    pairs = [(t.session_id, t.code) for t in drawn.tables.order_by("number")]
    return made, pairs, accounts.token_of(user=director)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--deal-every", type=float, default=2.0,
                        help="seconds between two deals at a table (a real table: 60-120)")
    parser.add_argument("--warmup", type=float, default=0,
                        help="seconds at the start whose answers count only if they fail "
                        "(every client starts at once, as at a round's draw)")
    parser.add_argument("--arrive", type=float, default=0,
                        help="seconds over which the phones and screens come in after the "
                        "draw, each at a random moment, all counted (0: every client "
                        "within its first interval, 2 s for a table's phones)")
    parser.add_argument("--warm", type=int, default=0,
                        help="rounds of 16 requests at once before the load, not counted: a "
                        "server that was up before the draw (0: a fresh server)")
    parser.add_argument("--cache-url", default=os.environ.get("SCHREIBER_CACHE_URL")
                        or "redis://127.0.0.1:6379/1",
                        help='SCHREIBER_CACHE_URL of the server ("": memory per worker)')
    args = parser.parse_args()
    os.environ["SCHREIBER_CACHE_URL"] = args.cache_url  # the seeding writes to it too
    c.setup_django()
    made, pairs, director = seed(args.tables)
    c.settle()
    screen = f"/screen/{made.screen_token}/"  # type: ignore[attr-defined]
    ranking = f"/api/v1/tournaments/{made.pk}/ranking"  # type: ignore[attr-defined]
    print(f"{args.tables} tables, {len(pairs) * 4} players, {args.watchers} screen watchers, "
          f"a deal every {args.deal_every:g} s at each table, {args.duration:g} s counted "
          f"after {args.warmup:g} s of warm-up, clients coming in over "
          f"{args.arrive:g} s, {args.warm} rounds of warming first; cache: "
          f"{args.cache_url or '(memory per worker)'}; load average at start: "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    stats = Stats()
    passed = json.dumps({"kind": "passed"})

    def deal(sid: int, code: str) -> Callable[[str], Request]:
        return lambda _etag: ("POST", f"/api/v1/sessions/{sid}/deals/", {
            "Authorization": f"Table {code}", "Content-Type": "application/json",
            "Idempotency-Key": secrets.token_urlsafe(16)}, passed)

    def board(sid: int, code: str) -> Callable[[str], Request]:
        return lambda etag: ("GET", f"/api/v1/sessions/{sid}/scoreboard", {
            "Authorization": f"Table {code}", **({"If-None-Match": etag} if etag else {})},
            None)

    def polled(path: str, auth: str = "") -> Callable[[str], Request]:
        return lambda etag: ("GET", path, {
            "Accept-Encoding": "gzip", **({"Authorization": auth} if auth else {}),
            **({"If-None-Match": etag} if etag else {})}, None)

    jobs: list[tuple[str, float, Callable[[str], Request], tuple[int, ...]]] = []
    for sid, code in pairs:
        jobs.append(("deal POST", args.deal_every, deal(sid, code), (201,)))
        jobs += [("table poll", 2.0, board(sid, code), (200, 304))] * 4
    jobs += [("screen ranking", 5.0, polled(screen + "board"), (200, 304))] * (
        args.watchers + 1)
    jobs += [("screen live", 5.0, polled(screen + "live"), (200, 304))] * (args.watchers + 1)
    jobs.append(("ranking poll", 2.0, polled(ranking, f"Token {director}"), (200, 304)))
    jobs.append(("ping", 0.2, polled("/ping"), (200,)))

    pids: list[int] = []
    with c.gunicorn(cache_url=args.cache_url, pids=pids) as base:
        port = int(base.rsplit(":", 1)[1])
        if args.warm:
            asyncio.run(warm(port, jobs, args.warm))
        shares = asyncio.run(run(port, jobs, args.duration, args.warmup, stats, set(pids),
                                 args.arrive))
    report(stats, args.duration, shares)


class Cpu:
    """CPU seconds per wall second over the run (1.0 is one core of the box's
    ``os.cpu_count()``): this process, gunicorn (master and workers), PostgreSQL and
    Redis."""

    def __init__(self, server: set[int]) -> None:
        self.server = server
        self.wall = time.monotonic()
        self.start = self._now()

    def _now(self) -> dict[str, float]:
        return {"load generator": time.process_time(),
                "gunicorn": c.cpu_seconds(self.server),
                "PostgreSQL": c.cpu_of_command("postgres"),
                "Redis": c.cpu_of_command("redis-server")}

    def shares(self) -> dict[str, float]:
        wall, now = time.monotonic() - self.wall, self._now()
        return {name: (now[name] - self.start[name]) / wall for name in now}


def report(stats: Stats, duration: float, shares: dict[str, float]) -> None:
    ping99 = pct(stats.latencies["ping"], 99)
    print(f"\n{'':<14}{'requests':>9}{'req/s':>8}{'errors':>8}{'p50 ms':>8}{'p90 ms':>8}"
          f"{'p99 ms':>8}{'p99/ping':>9}  statuses")
    missed = []
    for kind in KINDS:
        values = stats.latencies[kind]
        bad = sum(1 for e in stats.errors if e.startswith(kind))
        p99 = pct(values, 99)
        print(f"{kind:<14}{len(values):>9}{len(values) / duration:8.1f}{bad:>8}"
              f"{pct(values, 50):8.1f}{pct(values, 90):8.1f}{p99:8.1f}"
              f"{p99 / ping99 if ping99 else float('nan'):9.1f}  "
              f"{dict(sorted(stats.status[kind].items()))}")
        if not p99 < (PING_TARGET_MS if kind == "ping" else TARGET_MS):
            missed.append(kind)
    for line in stats.errors[:10]:
        print("  error:", line)
    print(f"\nCPU per wall second (1.00 = one core; the box has {os.cpu_count()}): "
          + ", ".join(f"{name} {share:.2f}" for name, share in shares.items()))
    print(f"the loop woke its clients late by p50 {pct(stats.late, 50):.1f} ms, p99 "
          f"{pct(stats.late, 99):.1f} ms (the generator's own delay); {stats.behind} "
          f"requests sent late because the answer before came late; {stats.reconnects} "
          f"sent again on a fresh connection (the server's keep-alive had ended); load "
          f"average at the end: {os.getloadavg()[0]:.1f}")
    print(f"errors: {len(stats.errors)} (target 0); p99 at or over {TARGET_MS:g} ms "
          f"(/ping: {PING_TARGET_MS:g} ms): {', '.join(missed) or 'none'}")
    if stats.errors or missed:
        print("MISSED")
        sys.exit(1)


if __name__ == "__main__":
    main()
