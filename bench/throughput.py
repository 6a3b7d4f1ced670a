"""Requests per second through gunicorn + PostgreSQL with production settings.

    .venv/bin/python bench/throughput.py [--duration 5] [--connections 4]

(a) /ping, a view that answers "ok" without the database: the yardstick;
(b) the scoreboard fragment of a 1,000-deal session, as a phone polls it: the URL the
    session page embeds, with its poll grant (scorepad/fastpoll.py), logged in;
(c) an API deal POST followed by the API scoreboard (token auth), counted as pairs;
(d) the 304 answer to that poll of an unchanged scoreboard (If-None-Match);
(e) the same 304 poll of a watch link's board (its own grant, no login);
(f) for comparison, the 304 poll by login alone (no grant: session, user, version).
The server uses the shared cache --cache-url (default: SCHREIBER_CACHE_URL, else the local
Redis, redis://127.0.0.1:6379/1); --cache-url "" runs it with memory per worker, where
each poll reads the version from the database.
Prints requests/s, p50/p99 latency and the ratio to (a) measured in the same run, and
whether each target is met. Needs wrk (apt-get install -y wrk).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402

TARGETS = {"b": 50, "c": 25, "d": 80}

DEAL_LUA = """
local counter = 0
local sessions = {%(sessions)s}
local tokens = {%(tokens)s}
function setup(thread)
  counter = counter + 1
  thread:set("sid", sessions[counter])
  thread:set("tok", tokens[counter])
end
local bodies = {%(bodies)s}
local i = 0
local post = true
function request()
  local auth = {["Authorization"] = "Token " .. tok, ["Content-Type"] = "application/json"}
  if post then
    post = false
    i = i + 1
    local body = bodies[sid][i] or '{"kind": "passed"}'
    return wrk.format("POST", "/api/v1/sessions/" .. sid .. "/deals/", auth, body)
  end
  post = true
  return wrk.format("GET", "/api/v1/sessions/" .. sid .. "/scoreboard", auth)
end
local shown = 0
function response(status, headers, body)
  if status >= 400 and shown < 3 then
    shown = shown + 1
    io.stderr:write("(c) answer " .. status .. ": " .. string.sub(body, 1, 300) .. "\\n")
  end
end
"""


def polled_url(base: str, page: str, cookie: str) -> str:
    """The scoreboard URL a page polls (hx-get), grant included."""
    import html
    import re

    request = urllib.request.Request(base + page, headers={"Cookie": cookie})
    with urllib.request.urlopen(request) as response:
        text = response.read().decode()
    found = re.search(r'id="scoreboard"[^>]*hx-get="([^"]+)"', text, re.S)
    assert found, f"no polled scoreboard on {page}"
    return base + html.unescape(found.group(1))


def etag_of(url: str, cookie: str) -> str:
    request = urllib.request.Request(url, headers={"Cookie": cookie})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200, response.status
        return str(response.headers["ETag"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=5, help="seconds per scenario")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per scenario (fresh connections each); the median counts")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--cache-url", default=os.environ.get("SCHREIBER_CACHE_URL")
                        or "redis://127.0.0.1:6379/1",
                        help='SCHREIBER_CACHE_URL of the server ("": memory per worker)')
    args = parser.parse_args()

    # This process seeds and writes like the server: the same cache.
    os.environ["SCHREIBER_CACHE_URL"] = args.cache_url
    c.setup_django()
    from django.conf import settings

    print(f"cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}"
          f" {args.cache_url or '(memory per worker)'}; polls trust the cache: "
          f"{settings.SCHREIBER_CACHE_SHARED}")
    n = args.connections
    seeded = [c.seed_session(args.deals, "tp") for _ in range(n)]
    c.settle()
    first = seeded[0]
    print(f"seeded {n} sessions of {args.deals} deals; gunicorn {args.workers} gthread workers"
          f" × {args.threads} threads; wrk {n} connections, {args.duration:g} s per scenario")

    def run(name: str, url: str, **kwargs: Any) -> c.Load:
        """The median of ``--repeat`` wrk runs: a run's figure swings with how wrk's few
        connections fall on the workers and with stalls of the shared cores (a p99 of
        hundreds of ms in one run of three), so one run alone misleads."""
        script = kwargs.pop("script", None)
        loads = [c.wrk(name, url, duration=args.duration, connections=n,
                       script=script() if script else None, **kwargs)
                 for _ in range(args.repeat)]
        loads.sort(key=lambda load: load.requests_per_s)
        print(f"  {name}: " + ", ".join(f"{load.requests_per_s:.0f}" for load in loads)
              + " req/s", flush=True)
        return loads[len(loads) // 2]

    with c.gunicorn(args.workers, args.threads, args.cache_url) as base:
        board = polled_url(base, f"/sessions/{first.session.pk}/", first.cookie)
        plain = f"{base}/sessions/{first.session.pk}/board"
        cookie = {"Cookie": first.cookie}
        # warm up every worker and connection
        c.wrk("warm-up", f"{base}/ping", duration=1, connections=n)
        c.wrk("warm-up", board, duration=1, connections=n, headers=cookie)
        etag = etag_of(board, first.cookie)
        from scorepad import services

        token = services.watch_link_create(session=first.session)
        watch = polled_url(base, f"/watch/{token}/", "")
        watch_etag = etag_of(watch, "")

        a = run("(a) /ping (no database)", f"{base}/ping")
        b = run(f"(b) scoreboard fragment, {args.deals} deals", board,
                headers=cookie)
        d = run("(d) 304 poll, If-None-Match", board,
                headers={**cookie, "If-None-Match": etag})
        e = run("(e) 304 poll of a watch link (no login)", watch,
                headers={"If-None-Match": watch_etag})
        f = run("(f) 304 poll by login alone (no grant)", plain,
                headers={**cookie, "If-None-Match": etag})
        def deal_script() -> str:
            """Fresh sessions for each run, so that every run starts from the same
            length and the same legal deals (each connection records in its own)."""
            fresh = [c.seed_session(args.deals, "tp") for _ in range(n)]
            c.settle()
            per = [f"[{one.session.pk}] = {{"
                   + ", ".join(c.lua_string(json.dumps(b)) for b in c.continuation(one, 400))
                   + "}" for one in fresh]
            return DEAL_LUA % {
                "sessions": ", ".join(str(s.session.pk) for s in fresh),
                "tokens": ", ".join(c.lua_string(s.token) for s in fresh),
                "bodies": ", ".join(per),
            }

        cc = run("(c) API deal POST + API scoreboard (pairs)", f"{base}/", script=deal_script)

    print()
    print(c.HEADER)
    print(a.row(None))
    print(b.row(a.requests_per_s))
    print(cc.row(a.requests_per_s, per=2))
    print(d.row(a.requests_per_s))
    print(e.row(a.requests_per_s))
    print(f.row(a.requests_per_s))
    print()
    ratios = {"b": b.requests_per_s, "c": cc.requests_per_s / 2, "d": d.requests_per_s}
    ok = True
    for key, target in TARGETS.items():
        got = 100 * ratios[key] / a.requests_per_s
        met = got >= target
        ok &= met
        print(f"target ({key}) ≥ {target} % of (a): {got:.0f} % {'met' if met else 'MISSED'}")
    errors = a.errors + b.errors + cc.errors + d.errors + e.errors + f.errors
    print(f"errors (non-2xx/3xx or socket): {errors}")
    sys.exit(0 if ok and errors == 0 else 1)


if __name__ == "__main__":
    main()
