"""Does a long session cost more? In-process timings (Django test client against the bench
PostgreSQL database and the shared cache, production settings) and query counts for
sessions of 10, 1,000 and 10,000 deals.

    .venv/bin/python bench/history_length.py [--sizes 10,1000,10000] [--repeat 30]

Measured as the table meets them: the API deal POST (its answer carries the scoreboard),
the API scoreboard (rendered for a new version, and answered from the cache), the session
page (rendered, and reused for its version) and the scoreboard fragment polled through the
URL the page embeds, with its grant (rendered, cached, 304). Issue 14's targets: the deal
POST and the API scoreboard at 10,000 deals cost at most 1.2× what they cost at 10; the
rest should stay flat too (at most 1.5×, timing noise on a shared box). A correction
replays the session from the start and may grow. Prints median milliseconds, queries,
the ratio of the largest to the smallest session, and MISSED for a missed target.
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
#: Issue 14's targets for these two.
TARGETS = {"API deal POST": 1.2, "API scoreboard (rendered)": 1.2}


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
    import html
    import re

    from django.core.cache import cache
    from django.test import Client

    from scorepad import conditional

    sid = seeded.session.pk
    browser = Client()
    browser.cookies.load(seeded.cookie)
    api = Client(HTTP_AUTHORIZATION=f"Token {seeded.token}")
    page = f"/sessions/{sid}/"
    api_board = f"/api/v1/sessions/{sid}/scoreboard"

    def ok(response: Any, status: int = 200) -> Any:
        assert response.status_code == status, (response.status_code, response.content[:300])
        return response

    found = re.search(r'id="scoreboard"[^>]*hx-get="([^"]+)"', ok(browser.get(page)).content
                      .decode(), re.S)
    assert found, "no polled scoreboard"
    board = html.unescape(found.group(1))  # with the grant, as a phone polls it
    poller = Client()  # the grant stands for the login

    def uncached(etag: str) -> None:
        """Forget the rendered answer of ``etag`` (and nothing else: tokens, roles and
        versions stay cached, as in production)."""
        cache.delete("board:" + etag.removeprefix("W/"))
        conditional._bodies.clear()

    ok(api.get(api_board))  # a phone's token and role are cached after its first request
    etags: dict[str, str] = {}

    def rendered_board() -> None:
        uncached(etags["board"])
        ok(poller.get(board))

    def rendered_api_board() -> None:
        uncached(etags["api"])
        ok(api.get(api_board))

    def rendered_page() -> None:
        cache.delete_many(_page_keys())
        ok(browser.get(page))

    def _page_keys() -> list[str]:
        from django.test import RequestFactory

        from scorepad.views.common import _page_key

        request = RequestFactory().get(page)
        request.LANGUAGE_CODE = "en"  # type: ignore[attr-defined]
        seeded.session.refresh_from_db()
        return [_page_key(request, seeded.session.pk, seeded.session.version, "owner")]

    bodies = iter(c.continuation(seeded, repeat + 1))
    deals = f"/api/v1/sessions/{sid}/deals/"

    def post() -> None:
        ok(api.post(deals, json.dumps(next(bodies)), content_type="application/json"), 201)

    out = {"API deal POST": measure(post, repeat)}
    etags["board"] = ok(poller.get(board))["ETag"]
    etags["api"] = ok(api.get(api_board))["ETag"]
    out |= {
        "API scoreboard (rendered)": measure(rendered_api_board, repeat),
        "API scoreboard (cached)": measure(lambda: ok(api.get(api_board)), repeat),
        "session page (rendered)": measure(rendered_page, repeat),
        "session page (reused)": measure(lambda: ok(browser.get(page)), repeat),
        "polled fragment, grant (rendered)": measure(rendered_board, repeat),
        "polled fragment, grant (cached)": measure(lambda: ok(poller.get(board)), repeat),
        "polled fragment, grant, 304": measure(
            lambda: ok(poller.get(board, HTTP_IF_NONE_MATCH=etags["board"]), 304), repeat),
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
    parser.add_argument("--sizes", default="10,1000,10000")
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
        mark = ""
        if "replays" not in name:
            limit = TARGETS.get(name, FLAT)
            met = ratio <= limit and queries_equal
            flat &= met
            mark = f"  ≤ {limit}× {'met' if met else 'MISSED'}"
        print(f"{name:<44}{cells}{ratio:7.2f}×{mark}")
    print()
    print(f"{sizes[-1]:,}/{sizes[0]:,}: every target met and equal query counts for "
          f"everything but the correction: {'yes' if flat else 'NO (MISSED above)'}")
    sys.exit(0 if flat else 1)


if __name__ == "__main__":
    main()
