"""Does a long session cost more? In-process timings (Django test client against the bench
PostgreSQL database, production settings) and query counts for sessions of 10, 100, 1,000
and 10,000 deals.

    .venv/bin/python bench/history_length.py [--sizes 10,100,1000,10000] [--repeat 30]

The scoreboard, the session page and recording a deal must cost the same however long
the session is (the session caches its running state); a correction replays the session
from the start, so it may grow. Prints median milliseconds, queries, and the ratio of the
largest to the smallest session.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402

#: Allowed growth of the largest over the smallest session (timing noise on a shared box).
FLAT = 1.5


def measure(fn: Callable[[], Any], repeat: int) -> tuple[float, int]:
    """Median wall milliseconds of ``fn`` and the queries of one call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        fn()
    queries = len(ctx.captured_queries)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), queries


def scenarios(seeded: c.Seeded, repeat: int) -> dict[str, tuple[float, int]]:
    from django.core.cache import cache
    from django.test import Client

    sid = seeded.session.pk
    browser = Client()
    browser.cookies.load(seeded.cookie)
    api = Client(HTTP_AUTHORIZATION=f"Token {seeded.token}")
    board = f"/sessions/{sid}/board"

    def ok(response: Any, status: int = 200) -> Any:
        assert response.status_code == status, (response.status_code, response.content[:300])
        return response

    def fresh_board() -> None:
        cache.clear()  # render it, not the cached copy
        ok(browser.get(board))

    etag = ok(browser.get(board))["ETag"]
    bodies = iter(c.continuation(seeded, repeat + 1))
    deals = f"/api/v1/sessions/{sid}/deals/"

    def post() -> None:
        ok(api.post(deals, json.dumps(next(bodies)), content_type="application/json"), 201)

    out = {
        "session page": measure(lambda: ok(browser.get(f"/sessions/{sid}/")), repeat),
        "scoreboard fragment (rendered)": measure(fresh_board, repeat),
        "scoreboard fragment (cached)": measure(lambda: ok(browser.get(board)), repeat),
        "scoreboard 304": measure(
            lambda: ok(browser.get(board, HTTP_IF_NONE_MATCH=etag), 304), repeat),
        "API scoreboard": measure(
            lambda: (cache.clear(), ok(api.get(f"/api/v1/sessions/{sid}/scoreboard"))),
            repeat),
        "API deal POST": measure(post, repeat),
    }
    seeded.session.refresh_from_db()
    last = seeded.session.version  # deals recorded so far (the seed writes version = deals)
    last_deal = api.get(f"{deals}{last}/").json()
    body = {**last_deal["deal"], "version": last_deal["version"]}
    out["API correction of the last deal (replays)"] = measure(
        lambda: ok(api.put(f"{deals}{last}/", json.dumps(
            {**body, "version": api.get(f"{deals}{last}/").json()["version"]}),
            content_type="application/json")), max(3, repeat // 5))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,100,1000,10000")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    c.setup_django()

    scenarios(c.seed_session(10, "warm"), 5)  # warm up imports, templates, connections
    results: dict[int, dict[str, tuple[float, int]]] = {}
    for n in sizes:
        t = time.perf_counter()
        seeded = c.seed_session(n, "hl")
        print(f"seeded {n} deals in {time.perf_counter() - t:.1f} s", flush=True)
        results[n] = scenarios(seeded, args.repeat)

    names = list(results[sizes[0]])
    print()
    print(f"{'median ms (queries)':<44}" + "".join(f"{n:>14,}" for n in sizes)
          + f"{'ratio':>8}")
    flat = True
    for name in names:
        cells = "".join(f"{results[n][name][0]:8.2f} ({results[n][name][1]:>2})"
                        for n in sizes)
        ratio = results[sizes[-1]][name][0] / results[sizes[0]][name][0]
        queries_equal = len({results[n][name][1] for n in sizes}) == 1
        replays = "replays" in name
        if not replays and (ratio > FLAT or not queries_equal):
            flat = False
        mark = "" if replays else ("" if ratio <= FLAT and queries_equal else "  GROWS")
        print(f"{name:<44}{cells}{ratio:7.2f}×{mark}")
    print()
    print(f"{sizes[-1]:,}/{sizes[0]:,} ratio ≤ {FLAT} and equal query counts for everything "
          f"but the correction: {'yes' if flat else 'NO'}")
    sys.exit(0 if flat else 1)


if __name__ == "__main__":
    main()
