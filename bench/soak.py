"""An evening at 50 tables on one server: gunicorn + PostgreSQL, production settings.

    .venv/bin/python bench/soak.py [--duration 60] [--tables 50] [--watchers 200]

Every table records a deal every second (``--deal-every``) through the API (token auth,
Idempotency-Key); every watcher polls its table's watch-link scoreboard every 2 s with
If-None-Match, as a phone does (gzip accepted). Each simulated phone keeps one keep-alive
connection. Prints requests, errors (target 0), 304 share and latency percentiles.
"""

from __future__ import annotations

import argparse
import http.client
import json
import secrets
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {"deal POST": [], "watch poll": []}
        self.status: dict[str, dict[int, int]] = {"deal POST": {}, "watch poll": {}}
        self.errors: list[str] = []

    def add(self, kind: str, ms: float, status: int, ok: bool, note: str = "") -> None:
        with self.lock:
            self.latencies[kind].append(ms)
            self.status[kind][status] = self.status[kind].get(status, 0) + 1
            if not ok:
                self.errors.append(f"{kind}: {status} {note}"[:200])


STALE = (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected)
reconnects = 0


def _request(conn: http.client.HTTPConnection, method: str, path: str,
             headers: dict[str, str], body: str | None = None) -> tuple[int, bytes, Any]:
    """One request; like a browser, retry once on a fresh connection when the server had
    closed the idle keep-alive one (gunicorn keeps idle connections 5 s). Deal POSTs carry
    an Idempotency-Key, so a retry never records twice."""
    global reconnects
    for attempt in (1, 2):
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read(), response.headers
        except STALE:
            if attempt == 2:
                raise
            reconnects += 1
            conn.close()
    raise AssertionError("unreachable")


def table(port: int, sid: int, token: str, bodies: list[str], stop: float,
          stats: Stats, every: float) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    path = f"/api/v1/sessions/{sid}/deals/"
    n = 0
    next_at = time.monotonic() + secrets.randbelow(int(every * 1000)) / 1000  # start apart
    while True:
        time.sleep(max(0.0, next_at - time.monotonic()))
        if time.monotonic() >= stop:
            break
        next_at += every
        body = bodies[n] if n < len(bodies) else '{"kind": "passed"}'
        n += 1
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json",
                   "Idempotency-Key": secrets.token_urlsafe(16)}
        t0 = time.perf_counter()
        try:
            status, content, _h = _request(conn, "POST", path, headers, body)
        except (OSError, http.client.HTTPException) as e:
            stats.add("deal POST", (time.perf_counter() - t0) * 1000, 0, False, repr(e))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        stats.add("deal POST", (time.perf_counter() - t0) * 1000, status, status == 201,
                  content[:120].decode(errors="replace"))
    conn.close()


def watcher(port: int, token: str, stop: float, stats: Stats) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    path = f"/watch/{token}/board"
    etag = ""
    next_at = time.monotonic() + secrets.randbelow(2000) / 1000
    while True:
        time.sleep(max(0.0, next_at - time.monotonic()))
        if time.monotonic() >= stop:
            break
        next_at += 2.0
        headers = {"Accept-Encoding": "gzip", "HX-Request": "true"}
        if etag:
            headers["If-None-Match"] = etag
        t0 = time.perf_counter()
        try:
            status, _content, response_headers = _request(conn, "GET", path, headers)
        except (OSError, http.client.HTTPException) as e:
            stats.add("watch poll", (time.perf_counter() - t0) * 1000, 0, False, repr(e))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        etag = response_headers.get("ETag", etag)
        stats.add("watch poll", (time.perf_counter() - t0) * 1000, status,
                  status in (200, 304))
    conn.close()


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--deal-every", type=float, default=1.0,
                        help="seconds between two deals at a table (a real table: 60-120)")
    args = parser.parse_args()
    c.setup_django()
    from scorepad import sharing

    t = time.perf_counter()
    seeded = [c.seed_session(20, "soak") for _ in range(args.tables)]
    tokens = [sharing.watch_link_create(session=s.session) for s in seeded]
    bodies = [json.dumps(b) for b in c.continuation(seeded[0], int(args.duration) + 5)]
    print(f"seeded {args.tables} sessions in {time.perf_counter() - t:.1f} s; "
          f"{args.watchers} watchers; a deal every {args.deal_every:g} s at each table; "
          f"{args.duration:g} s", flush=True)

    stats = Stats()
    with c.gunicorn() as base:
        port = int(base.rsplit(":", 1)[1])
        stop = time.monotonic() + args.duration
        threads = [threading.Thread(target=table, args=(port, s.session.pk, s.token, bodies,
                                                        stop, stats, args.deal_every))
                   for s in seeded]
        threads += [threading.Thread(target=watcher,
                                     args=(port, tokens[i % len(tokens)], stop, stats))
                    for i in range(args.watchers)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()

    print()
    print(f"{'':<12}{'requests':>9}{'req/s':>8}{'errors':>8}{'p50 ms':>8}{'p90 ms':>8}"
          f"{'p99 ms':>8}{'max ms':>8}  statuses")
    for kind, values in stats.latencies.items():
        bad = sum(1 for e in stats.errors if e.startswith(kind))
        print(f"{kind:<12}{len(values):>9}{len(values) / args.duration:8.1f}{bad:>8}"
              f"{pct(values, 50):8.1f}{pct(values, 90):8.1f}{pct(values, 99):8.1f}"
              f"{max(values, default=float('nan')):8.1f}  "
              f"{dict(sorted(stats.status[kind].items()))}")
    polls = stats.status["watch poll"]
    if polls:
        print(f"304 share of polls: {100 * polls.get(304, 0) / sum(polls.values()):.0f} %")
    if values := stats.latencies["deal POST"]:
        print(f"deal POST mean {statistics.mean(values):.1f} ms")
    for line in stats.errors[:10]:
        print("  error:", line)
    print(f"reconnects after an idle keep-alive connection was closed: {reconnects}")
    print(f"errors: {len(stats.errors)} (target 0)")
    sys.exit(0 if not stats.errors else 1)


if __name__ == "__main__":
    main()
