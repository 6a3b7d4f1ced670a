"""A tournament evening on one server: 25 tables of 4 (100 players), gunicorn + PostgreSQL,
production settings (docs/tournaments.md).

    .venv/bin/python bench/tournament.py [--duration 60] [--tables 25] [--watchers 100]

Each table's phone records a deal every ``--deal-every`` seconds through the API with its
table code (``Authorization: Table <code>``, Idempotency-Key) and polls its scoreboard
every 2 s with If-None-Match; the screen and ``--watchers`` phones poll the public screen's
two parts (its ranking and its live tables) every 5 s with If-None-Match, the director
polls the ranking (ETag) every 2 s; one client asks ``/ping`` every 0.2 s throughout,
interleaved with the rest, as the baseline.
Prints each kind's requests, errors (target 0) and latency percentiles, and the 99th
percentiles against /ping's; exits non-zero when a deal POST or a screen or ranking answer
misses 100 ms at the 99th percentile, or on any error.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import secrets
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402
from soak import STALE, pct  # noqa: E402

TARGET_MS = 100.0
KINDS = ("deal POST", "table poll", "screen ranking", "screen live", "ranking poll", "ping")


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {k: [] for k in KINDS}
        self.status: dict[str, dict[int, int]] = {k: {} for k in KINDS}
        self.errors: list[str] = []

    def add(self, kind: str, ms: float, status: int, ok: bool, note: str = "") -> None:
        with self.lock:
            self.latencies[kind].append(ms)
            self.status[kind][status] = self.status[kind].get(status, 0) + 1
            if not ok:
                self.errors.append(f"{kind}: {status} {note}"[:200])


def _request(conn: http.client.HTTPConnection, method: str, path: str,
             headers: dict[str, str], body: str | None = None
             ) -> tuple[http.client.HTTPConnection, int, bytes, dict[str, str]]:
    for attempt in (1, 2):
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return conn, response.status, response.read(), dict(response.headers)
        except STALE:
            if attempt == 2:
                raise
            conn.close()
            conn = http.client.HTTPConnection(conn.host, conn.port, timeout=30)
    raise AssertionError("unreachable")


def loop(port: int, kind: str, every: float, stop: float, stats: Stats, make: object,
         ok: tuple[int, ...]) -> None:
    """Ask ``make(last headers)`` → (method, path, headers, body) every ``every`` s."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    etag = ""
    next_at = time.monotonic() + random.random() * every  # start apart
    while True:
        time.sleep(max(0.0, next_at - time.monotonic()))
        if time.monotonic() >= stop:
            break
        next_at += every
        method, path, headers, body = make(etag)  # type: ignore[operator]
        t0 = time.perf_counter()
        try:
            conn, status, content, got = _request(conn, method, path, headers, body)
        except (OSError, http.client.HTTPException) as e:
            stats.add(kind, (time.perf_counter() - t0) * 1000, 0, False, repr(e))
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        etag = got.get("ETag", etag)
        stats.add(kind, (time.perf_counter() - t0) * 1000, status, status in ok,
                  content[:120].decode(errors="replace"))
    conn.close()


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
    args = parser.parse_args()
    c.setup_django()
    made, pairs, director = seed(args.tables)
    screen = f"/screen/{made.screen_token}/"  # type: ignore[attr-defined]
    ranking = f"/api/v1/tournaments/{made.pk}/ranking"  # type: ignore[attr-defined]
    print(f"{args.tables} tables, {len(pairs) * 4} players, {args.watchers} screen watchers, "
          f"a deal every {args.deal_every:g} s at each table, {args.duration:g} s",
          flush=True)
    stats = Stats()
    passed = json.dumps({"kind": "passed"})

    def deal(sid: int, code: str) -> object:
        return lambda _etag: ("POST", f"/api/v1/sessions/{sid}/deals/", {
            "Authorization": f"Table {code}", "Content-Type": "application/json",
            "Idempotency-Key": secrets.token_urlsafe(16)}, passed)

    def board(sid: int, code: str) -> object:
        return lambda etag: ("GET", f"/api/v1/sessions/{sid}/scoreboard", {
            "Authorization": f"Table {code}", **({"If-None-Match": etag} if etag else {})},
            None)

    def polled(path: str, auth: str = "") -> object:
        return lambda etag: ("GET", path, {
            "Accept-Encoding": "gzip", **({"Authorization": auth} if auth else {}),
            **({"If-None-Match": etag} if etag else {})}, None)

    with c.gunicorn() as base:
        port = int(base.rsplit(":", 1)[1])
        stop = time.monotonic() + args.duration
        jobs = []
        for sid, code in pairs:
            jobs.append(("deal POST", args.deal_every, deal(sid, code), (201,)))
            jobs += [("table poll", 2.0, board(sid, code), (200, 304))] * 4
        jobs += [("screen ranking", 5.0, polled(screen + "board"), (200, 304))] * (
            args.watchers + 1)
        jobs += [("screen live", 5.0, polled(screen + "live"), (200, 304))] * (
            args.watchers + 1)
        jobs.append(("ranking poll", 2.0, polled(ranking, f"Token {director}"), (200, 304)))
        jobs.append(("ping", 0.2, polled("/ping"), (200,)))
        threads = [threading.Thread(target=loop, args=(port, kind, every, stop, stats, make,
                                                       ok))
                   for kind, every, make, ok in jobs]
        for th in threads:
            th.start()
        for th in threads:
            th.join()

    ping99 = pct(stats.latencies["ping"], 99)
    print(f"\n{'':<14}{'requests':>9}{'req/s':>8}{'errors':>8}{'p50 ms':>8}{'p90 ms':>8}"
          f"{'p99 ms':>8}{'p99/ping':>9}  statuses")
    missed = []
    for kind in KINDS:
        values = stats.latencies[kind]
        bad = sum(1 for e in stats.errors if e.startswith(kind))
        p99 = pct(values, 99)
        print(f"{kind:<14}{len(values):>9}{len(values) / args.duration:8.1f}{bad:>8}"
              f"{pct(values, 50):8.1f}{pct(values, 90):8.1f}{p99:8.1f}"
              f"{p99 / ping99 if ping99 else float('nan'):9.1f}  "
              f"{dict(sorted(stats.status[kind].items()))}")
        if kind in ("deal POST", "screen ranking", "screen live", "ranking poll") \
                and not p99 <= TARGET_MS:
            missed.append(kind)
    for line in stats.errors[:10]:
        print("  error:", line)
    print(f"errors: {len(stats.errors)} (target 0); p99 over {TARGET_MS:g} ms: "
          f"{', '.join(missed) or 'none'}")
    sys.exit(0 if not stats.errors and not missed else 1)


if __name__ == "__main__":
    main()
