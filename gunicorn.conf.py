"""gunicorn settings for Schreiber: `gunicorn -c gunicorn.conf.py scorepad.wsgi`.

Every value can be changed from the environment (GUNICORN_*), so the systemd unit and
the benchmarks use this one file (docs/deploy.md, bench/README.md).

Why these choices (measured, see bench/README.md):
- ``gthread`` workers: the sync worker closes the connection after every answer; phones
  poll the scoreboard every 2 s, and keep-alive saves them a TCP (and behind a proxy, a
  connection) set-up per poll. Threads also let a worker answer a poll while another
  thread waits on PostgreSQL.
- workers = cores (a request is ~1-5 ms of CPU in Python; more processes than cores only
  add context switches), 4 threads each: 8 requests in flight per 2-core box.
- Persistent database connections are set in settings (CONN_MAX_AGE=60): each thread keeps
  one, so PostgreSQL sees workers × threads connections per app server (docs/deploy.md).
"""

from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = _int("GUNICORN_WORKERS", multiprocessing.cpu_count())
threads = _int("GUNICORN_THREADS", 4)
# Keep idle client connections open a little longer than the 2 s poll interval.
keepalive = _int("GUNICORN_KEEPALIVE", 5)
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = 20
# Recycle workers now and then (bounded memory growth), not all at once.
max_requests = _int("GUNICORN_MAX_REQUESTS", 20_000)
max_requests_jitter = max_requests // 10
# The app is loaded once in the master, then forked: faster start, shared memory.
preload_app = True
# Requests larger than this never reach Django (Django's own limit is 256 KB).
limit_request_line = 4094
limit_request_fields = 100
# Only trust X-Forwarded-* from the reverse proxy: the same proxies, from the same
# variable, as the app's client address (scorepad.limits; docs/deploy.md, "10. Accounts
# and access").
forwarded_allow_ips = os.environ.get("SCHREIBER_TRUSTED_PROXIES") or "127.0.0.1,::1"
# Access logs cost ~5 % throughput; the reverse proxy logs requests already.
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
proc_name = "schreiber"
