"""A fault run: deals recorded through the API while the server, the database and the
cache fail under them; then proof from the database that nothing was lost or doubled.

    .venv/bin/python bench/faults.py [--tables 20] [--deals 60] [--every 0.8]

Runs on its own PostgreSQL cluster (15/faults, port 5433, database schreiber_faults) and
its own Redis (port 6380), never the machine's main ones, both on loopback; it creates and
starts them when missing (as root) and leaves them stopped at the end:

    pg_createcluster 15 faults -p 5433 -- --auth=trust
    pg_ctlcluster 15 faults start
    createdb -h 127.0.0.1 -p 5433 -U postgres schreiber_faults
    redis-server --port 6380 --bind 127.0.0.1 --save "" --appendonly no --daemonize yes
    ...
    pg_ctlcluster 15 faults stop;  redis-cli -p 6380 shutdown nosave

gunicorn runs with production settings (bench/_common.py) and Redis as the shared cache.
One writer thread per table records ``--deals`` deals through
``POST /api/v1/sessions/{id}/deals/`` with a token and an ``Idempotency-Key`` per deal,
as the phone's outbox does: on a connection error, a timeout or a 5xx it sends the same
request with the same key again until it gets a 201 (first or replayed answer). Half the
tables send ``"number"`` (a 409 if it is no longer the next one); the other half do not,
so for them only the idempotency key stands between a retry and a doubled deal.

Meanwhile, each with a pause between: ``kill -9`` of a gunicorn worker (three times), of
the master (then gunicorn is started again, as systemd would), a PostgreSQL stop and start
(fast shutdown) and one crash-like stop (``-m immediate``: recovery from the WAL), Redis
shut down and started again empty, Redis at its memory limit with ``noeviction`` (every
write refused for a few seconds), and Redis frozen (SIGSTOP) with its data kept. Besides,
the phone loses the first answer of every 15th deal (sends, then drops the connection)
and sends the same request again at once: the retry races the first on the server.

Then the tail: one more deal per table while Redis refuses every write; with the limit
lifted, each scoreboard (the API's, the API watch link's, the watch board without and with
its poll grant) is polled with
the ETag it had before that deal, every 2 s until it shows the deal (at most 75 s).

At the end, from the database: every table has exactly the deals its writer saw
confirmed, numbered 1..N without gaps, each the body sent with its key (none doubled,
none lost), one stored answer per key naming its deal; each session's stored state,
finished games and results equal a fresh replay by the referee (read-only, as
tests/scorepad/factories.py compares them; and ``services.session_replay`` in a
transaction rolled back finds nothing to change); the API's scoreboard answers the
database's version and next number. Exits non-zero if anything was lost, doubled or
mismatched, or a writer gave up.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402

PG_VERSION, PG_CLUSTER, PG_PORT = "15", "faults", 5433
DB_NAME = "schreiber_faults"
DB_URL = f"postgres://postgres@127.0.0.1:{PG_PORT}/{DB_NAME}"
REDIS_PORT = 6380
CACHE_URL = f"redis://127.0.0.1:{REDIS_PORT}/1"
T0 = time.monotonic()


def now() -> float:
    return time.monotonic() - T0


def say(text: str) -> None:
    print(f"[{now():6.1f} s] {text}", flush=True)


def run(*cmd: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=timeout)


# --- our own PostgreSQL and Redis ---------------------------------------------------------


def pg_up() -> None:
    """Create (once) and start the cluster 15/faults on 5433, and the database."""
    listed = run("pg_lsclusters", "--no-header").stdout.split()
    if PG_CLUSTER not in listed:
        run("pg_createcluster", PG_VERSION, PG_CLUSTER, "-p", str(PG_PORT), "--",
            "--auth=trust")
    run("pg_ctlcluster", PG_VERSION, PG_CLUSTER, "start", check=False)
    wait_port(PG_PORT, 30, "PostgreSQL")
    for _ in range(50):  # accepting connections, not only listening
        if run("pg_isready", "-h", "127.0.0.1", "-p", str(PG_PORT), check=False).returncode == 0:
            break
        time.sleep(0.2)
    exists = run("psql", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "postgres", "-tAc",
                 f"SELECT 1 FROM pg_database WHERE datname = '{DB_NAME}'").stdout.strip()
    if exists != "1":
        run("createdb", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "postgres", DB_NAME)


def pg_stop(mode: str = "fast") -> None:
    run("pg_ctlcluster", "-m", mode, PG_VERSION, PG_CLUSTER, "stop", check=False)


def pg_start() -> None:
    run("pg_ctlcluster", PG_VERSION, PG_CLUSTER, "start")


def redis_cli(*args: str) -> str:
    return run("redis-cli", "-h", "127.0.0.1", "-p", str(REDIS_PORT), *args,
               check=False, timeout=10).stdout.strip()


def redis_up() -> None:
    if redis_cli("ping") == "PONG":
        return
    run("redis-server", "--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--daemonize", "yes", "--dir", tempfile.gettempdir(),
        "--logfile", str(Path(tempfile.gettempdir()) / "faults-redis.log"))
    for _ in range(50):
        if redis_cli("ping") == "PONG":
            return
        time.sleep(0.1)
    raise RuntimeError("redis-server on 6380 did not start")


def redis_down() -> None:
    redis_cli("shutdown", "nosave")
    for _ in range(50):
        if redis_cli("ping") != "PONG":
            return
        time.sleep(0.1)


def wait_port(port: int, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{what} is not listening on {port}")


# --- gunicorn, killable ---------------------------------------------------------------------


class Server:
    """gunicorn -c gunicorn.conf.py on one loopback port, started again on the same port
    after its master was killed (as systemd's Restart=always would)."""

    def __init__(self, workers: int = 2, threads: int = 4) -> None:
        self.port = c.free_port()
        self.env = {**os.environ, **c.SERVER_ENV, "DATABASE_URL": DB_URL,
                    "SCHREIBER_CACHE_URL": CACHE_URL,
                    "GUNICORN_BIND": f"127.0.0.1:{self.port}",
                    "GUNICORN_WORKERS": str(workers), "GUNICORN_THREADS": str(threads),
                    "GUNICORN_LOGLEVEL": "warning", "GUNICORN_MAX_REQUESTS": "0"}
        self.log = Path(tempfile.mkstemp(prefix="faults-gunicorn-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
                 "scorepad.wsgi"], cwd=c.ROOT, env=self.env, stdout=out,
                stderr=subprocess.STDOUT)
        wait_port(self.port, 30, "gunicorn")

    def workers(self) -> list[int]:
        assert self.proc is not None
        out = run("ps", "-o", "pid=", "--ppid", str(self.proc.pid), check=False).stdout
        return [int(p) for p in out.split()]

    def kill_worker(self, which: int) -> str:
        pids = self.workers()
        if not pids:
            return "no worker found"
        pid = pids[which % len(pids)]
        os.kill(pid, signal.SIGKILL)
        return f"worker {pid}"

    def kill_master(self, pause: float) -> str:
        assert self.proc is not None
        orphans, master = self.workers(), self.proc.pid
        os.kill(master, signal.SIGKILL)
        self.proc.wait(timeout=10)
        # The workers see their master gone and exit within a second or so; those still
        # there after 10 s are killed (systemd would kill the whole unit's cgroup).
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists()
                                                  for p in orphans):
            time.sleep(0.2)
        for p in orphans:
            if Path(f"/proc/{p}").exists():
                os.kill(p, signal.SIGKILL)
        time.sleep(pause)
        self.start()
        return f"master {master} (workers {orphans}), started again as {self.proc.pid}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


# --- the writers ------------------------------------------------------------------------------


@dataclass
class Table:
    index: int
    session_id: int
    user_id: int
    token: str
    with_number: bool
    bodies: list[dict[str, Any]]
    keys: list[str]
    watch_token: str
    confirmed: list[int] = field(default_factory=list)  # deal numbers, in order
    replayed: int = 0
    gave_up: str = ""
    waits: list[float] = field(default_factory=list)  # seconds from first send to 201


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.answers: Counter[str] = Counter()  # status or error kind
        self.retries = 0
        self.odd: list[str] = []  # answers that say something went wrong for good

    def count(self, what: str, retry: bool = False, odd: str = "") -> None:
        with self.lock:
            self.answers[what] += 1
            self.retries += retry
            if odd:
                self.odd.append(f"[{now():.1f} s] {odd}"[:300])


class Outbox:
    """One table's phone: one keep-alive connection, each deal sent until confirmed."""

    def __init__(self, table: Table, port: int, stats: Stats) -> None:
        self.table, self.port, self.stats = table, port, stats
        self.conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def send(self, n: int, deadline: float, drop_first: bool = False) -> bool:
        """Deal ``n`` (1-based) until a 201 (or a 409) says it is there; False when the
        writer gives up (out of time, or a 4xx that no retry can mend). ``drop_first``:
        the phone loses its first answer (the request is sent, the connection closed
        before the answer is read), then sends the same request again at once."""
        table, stats = self.table, self.stats
        body = table.bodies[n - 1]
        payload = json.dumps({**body, "number": n} if table.with_number else body)
        headers = {"Authorization": f"Token {table.token}",
                   "Content-Type": "application/json", "Idempotency-Key": table.keys[n - 1]}
        path = f"/api/v1/sessions/{table.session_id}/deals/"
        wait, began = 0.2, time.monotonic()
        while True:
            if time.monotonic() > deadline:
                table.gave_up = f"deal {n}: out of time"
                return False
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port,
                                                           timeout=10)
                self.conn.request("POST", path, body=payload, headers=headers)
                if drop_first:
                    drop_first = False
                    self.close()
                    stats.count("answer dropped by the client", retry=True)
                    continue
                response = self.conn.getresponse()
                status, content = response.status, response.read()
                was_replayed = response.getheader("Idempotent-Replayed") == "true"
            except (OSError, http.client.HTTPException) as e:
                stats.count(type(e).__name__, retry=True)
                self.close()
                time.sleep(wait)
                wait = min(wait * 2, 2.0)
                continue
            if status == 201:
                number = json.loads(content)["deal"]["number"]
                stats.count("201 replayed" if was_replayed else "201")
                table.replayed += was_replayed
                if number != n:
                    stats.count("201 with another number",
                                odd=f"table {table.index} deal {n}: 201 as number {number}")
                table.confirmed.append(number)
                table.waits.append(time.monotonic() - began)
                return True
            text = content[:200].decode(errors="replace")
            if status == 409:
                # With "number": deal n is there already, yet not under this key (the key
                # and the deal are written in one transaction): say so, and go on (the
                # final check tells whether it is this body).
                stats.count("409", odd=f"table {table.index} deal {n}: 409 {text}")
                table.confirmed.append(n)
                return True
            if status >= 500:
                stats.count(str(status), retry=True,
                            odd="" if status in (502, 503, 504) else
                            f"table {table.index} deal {n}: {status} {text}")
                time.sleep(wait)
                wait = min(wait * 2, 2.0)
                continue
            stats.count(str(status), odd=f"table {table.index} deal {n}: {status} {text}")
            table.gave_up = f"deal {n}: {status} {text}"
            return False


#: Deals whose first answer the phone loses (n % DROP_EVERY == DROP_AT): the retry races
#: the first request, still running or committed, on the server.
DROP_EVERY, DROP_AT = 15, 7


def writer(table: Table, port: int, deals: int, every: float, deadline: float,
           stats: Stats) -> None:
    outbox = Outbox(table, port, stats)
    next_at = time.monotonic() + every * table.index / 20
    for n in range(1, deals + 1):
        time.sleep(max(0.0, next_at - time.monotonic()))
        next_at = time.monotonic() + every
        if not outbox.send(n, deadline, drop_first=n % DROP_EVERY == DROP_AT):
            break
    outbox.close()


# --- the faults ------------------------------------------------------------------------------


@dataclass
class Fault:
    at: float  # seconds after the writers started
    name: str
    act: Callable[[], str]
    started: float = 0.0
    ended: float = 0.0
    note: str = ""


def faults_for(server: Server, pause: float) -> list[Fault]:
    def pg_restart() -> str:
        pg_stop("fast")
        time.sleep(pause)
        pg_start()
        return f"stopped (fast shutdown) for {pause:g} s"

    def pg_crash() -> str:
        pg_stop("immediate")
        time.sleep(pause)
        pg_start()
        return f"stopped (immediate: no checkpoint, recovery from the WAL) for {pause:g} s"

    def redis_restart() -> str:
        redis_down()
        time.sleep(pause)
        redis_up()
        return f"shut down for {pause:g} s, started again empty"

    def redis_full() -> str:
        redis_cli("config", "set", "maxmemory-policy", "noeviction")
        redis_cli("config", "set", "maxmemory", "1")
        refused = redis_cli("set", "faults-probe", "x")
        time.sleep(pause)
        redis_cli("config", "set", "maxmemory", "0")
        return f"maxmemory 1 byte, noeviction, {pause:g} s (a SET answered: {refused!r})"

    def redis_frozen() -> str:
        info = redis_cli("info", "server")
        pid = int(next(line.split(":")[1] for line in info.splitlines()
                       if line.startswith("process_id:")))
        os.kill(pid, signal.SIGSTOP)  # our redis-server on 6380, by its id
        try:
            time.sleep(pause)
        finally:
            os.kill(pid, signal.SIGCONT)
        return f"redis-server {pid} stopped (SIGSTOP) for {pause:g} s, then continued"

    return [
        Fault(3, "kill -9 a gunicorn worker", lambda: server.kill_worker(0)),
        Fault(7, "PostgreSQL stop + start", pg_restart),
        Fault(14, "Redis shutdown + start", redis_restart),
        Fault(20, "kill -9 a gunicorn worker", lambda: server.kill_worker(1)),
        Fault(24, "kill -9 the gunicorn master, start again", lambda: server.kill_master(1)),
        Fault(31, "Redis at its memory limit (noeviction)", redis_full),
        Fault(37, "PostgreSQL crash (stop -m immediate) + start", pg_crash),
        Fault(44, "kill -9 a gunicorn worker", lambda: server.kill_worker(0)),
        Fault(50, "Redis frozen (SIGSTOP, its data kept)", redis_frozen),
    ]


def inject(faults: list[Fault], start: float, writers_done: threading.Event) -> None:
    for fault in faults:
        writers_done.wait(max(0.0, start + fault.at - time.monotonic()))
        if writers_done.is_set():
            fault.note = "skipped: the writers had finished"
            continue
        fault.started = time.monotonic() - start
        try:
            fault.note = fault.act()
        except Exception as e:  # noqa: BLE001 - reported, and the run fails
            fault.note = f"FAILED: {e!r}"
        fault.ended = time.monotonic() - start
        say(f"fault: {fault.name}: {fault.note}")


# --- setting up, checking --------------------------------------------------------------------


def make_tables(count: int, deals: int, label: str) -> list[Table]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scorepad import rosters, services, sharing

    tables = []
    for i in range(count):
        user = get_user_model().objects.create_user(username=f"bench-faults-{label}-{i}")
        group = rosters.group_create(user=user, name=f"Faults {i}")
        session = services.session_start(group=group, user=user, preset="salzburg",
                                         overrides=None, seats=c.SEATS, dealer="Dominik")
        names = services.Names.of(session)
        # one more for the tail (the last deal while the cache refuses writes)
        built, _state = c.build_deals(session, names, deals + 1, start=i * 7)
        tables.append(Table(
            index=i, session_id=session.pk, user_id=user.pk,
            token=Token.objects.create(user=user).key, with_number=i % 2 == 0,
            bodies=[names.deal_names(data) for data, _result in built],
            keys=[f"faults-{label}-{i}-{n}" for n in range(1, deals + 2)],
            watch_token=sharing.watch_link_create(session=session)))
    return tables


def replay_mismatches(session: Any) -> list[str]:
    """What differs between the stored scores and a fresh replay by the referee (the
    comparison of tests/scorepad/factories.py, read-only); then services.session_replay
    inside a transaction that is rolled back."""
    from django.db import transaction

    from referee.deal import deal_from_dict
    from referee.rules import mulatschak_rules
    from referee.session import replay
    from scorepad import services
    from scorepad.games.mulatschak.play import game_json, outcome_to_json, state_to_json

    out = []
    session.refresh_from_db()
    rows = list(session.deals.order_by("number"))
    fresh = replay(mulatschak_rules(session.preset, session.rules),
                   services.Names.of(session).seats, str(session.first_dealer_id),
                   [deal_from_dict(r.data) for r in rows])
    if fresh.illegal is not None:
        out.append(f"a stored deal is illegal now: {fresh.illegal}")
    if session.state != state_to_json(fresh.state):
        out.append("stored state differs from the replay")
    if list(session.finished_games.order_by("number").values_list("summary", flat=True)) != [
            game_json(g) for g in fresh.state.games]:
        out.append("finished games differ from the replay")
    for row, outcome in zip(rows, fresh.outcomes, strict=False):
        if row.result != outcome_to_json(outcome):
            out.append(f"deal {row.number}: stored result differs from the replay")
    with transaction.atomic():
        if services.session_replay(session=session):
            out.append("services.session_replay would change something")
        transaction.set_rollback(True)
    return out


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, bytes]:
    """One GET on a fresh connection: status, ETag, body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("ETag") or "", response.read()
    finally:
        conn.close()


def tail(tables: list[Table], port: int, deals: int, stats: Stats) -> list[str]:
    """The last deal of every table while Redis refuses every write (its memory limit,
    noeviction), so the new version cannot be cached; then, with the limit lifted,
    every scoreboard polled with the ETag it had before that deal must show it (a 304
    would be a stale scoreboard: the cache still naming the version before)."""
    granted: dict[int, str] = {}  # the board's URL with its poll grant, from the page
    for t in tables:
        _status, _etag, page = get(port, f"/watch/{t.watch_token}/", {})
        found = re.search(r'hx-get="([^"]*/board\?[^"]*)"', page.decode())
        granted[t.index] = html.unescape(found.group(1)) if found else ""

    def paths(t: Table) -> dict[str, tuple[str, dict[str, str]]]:
        out = {"API scoreboard": (f"/api/v1/sessions/{t.session_id}/scoreboard",
                                  {"Authorization": f"Token {t.token}"}),
               "API watch scoreboard": (f"/api/v1/watch/{t.watch_token}/scoreboard", {}),
               "watch board": (f"/watch/{t.watch_token}/board", {"HX-Request": "true"})}
        if granted[t.index]:
            out["watch board with its grant"] = (granted[t.index], {"HX-Request": "true"})
        return out

    before = {}
    for t in tables:
        for name, (path, headers) in paths(t).items():
            status, etag, _ = get(port, path, headers)
            before[t.index, name] = etag
            if status != 200 or not etag:
                return [f"table {t.index}: {name} answered {status} (ETag {etag!r}) before"]
    redis_cli("config", "set", "maxmemory-policy", "noeviction")
    redis_cli("config", "set", "maxmemory", "1")
    try:
        for t in tables:
            if not t.gave_up:
                Outbox(t, port, stats).send(deals + 1, time.monotonic() + 30)
    finally:
        redis_cli("config", "set", "maxmemory", "0")
    lifted = time.monotonic()
    time.sleep(2.5)  # longer than each process's 1 s memory of Redis reads

    def stale_now(t: Table, name: str) -> str:
        path, headers = paths(t)[name]
        status, _etag, body = get(port, path, {**headers,
                                               "If-None-Match": before[t.index, name]})
        if status != 200:
            return f"{status} to the ETag of before the last deal"
        if name.startswith("API") and json.loads(body).get("next_number") != deals + 2:
            return f"200, next_number {json.loads(body).get('next_number')} (not {deals + 2})"
        return ""

    stale: dict[tuple[int, str], str] = {}
    for t in tables:
        for name in paths(t):
            if found := stale_now(t, name):
                stale[t.index, name] = found
    first = dict(stale)
    # How long do they stay stale? Polled every 2 s, for at most 75 s (a cached version
    # expires VERSION_SECONDS = 60 s after it was last written).
    cleared: dict[tuple[int, str], float] = {}
    while stale and time.monotonic() < lifted + 75:
        time.sleep(2)
        for t in tables:
            for name in paths(t):
                if (t.index, name) in stale and not stale_now(t, name):
                    del stale[t.index, name]
                    cleared[t.index, name] = time.monotonic() - lifted
    report = []
    for (index, name), what in first.items():
        until = (f"fresh {cleared[index, name]:.0f} s after the limit was lifted"
                 if (index, name) in cleared else "still stale after 75 s")
        report.append(f"table {index}: {name} answered {what}; {until}")
    return report


@dataclass
class Verdict:
    lost: int = 0
    doubled: int = 0
    gaps: int = 0
    wrong_body: int = 0
    key_problems: int = 0
    replay: int = 0
    board: int = 0
    details: list[str] = field(default_factory=list)


def check(tables: list[Table], port: int) -> Verdict:
    from django.db import connection

    from scorepad import games, services
    from scorepad.models import IdempotencyKey, Session

    connection.close()  # the database was restarted under this process too
    v = Verdict()
    for t in tables:
        session = Session.objects.get(pk=t.session_id)
        names = services.Names.of(session)
        game = games.of(session)
        rows = list(session.deals.order_by("number"))
        numbers = [r.number for r in rows]
        confirmed = len(t.confirmed)
        if t.confirmed != list(range(1, confirmed + 1)):
            v.details.append(f"table {t.index}: confirmed numbers {t.confirmed}")
        if numbers != list(range(1, len(numbers) + 1)):
            v.gaps += 1
            v.details.append(f"table {t.index}: numbers {numbers}")
        if len(rows) < confirmed:
            v.lost += confirmed - len(rows)
            v.details.append(f"table {t.index}: {confirmed} confirmed, {len(rows)} stored")
        if len(rows) > confirmed:
            v.doubled += len(rows) - confirmed
            v.details.append(f"table {t.index}: {confirmed} confirmed, {len(rows)} stored")
        for n, row in enumerate(rows, start=1):
            if n > len(t.bodies):
                break
            if row.data != game.normalize(names.deal_ids(t.bodies[n - 1])):
                v.wrong_body += 1
                v.details.append(f"table {t.index}: deal {row.number} is not body {n}")
        stored = {k.key: k for k in IdempotencyKey.objects.filter(user_id=t.user_id)}
        for n, key in enumerate(t.keys[:confirmed], start=1):
            record = stored.get(key)
            if record is None or record.status != 201 or (
                    (record.response or {}).get("deal", {}).get("number") != n):
                v.key_problems += 1
                v.details.append(f"table {t.index}: key of deal {n}: " + (
                    "missing" if record is None else f"{record.status}"))
        if len(stored) != confirmed:
            v.key_problems += 1
            v.details.append(f"table {t.index}: {len(stored)} stored answers, "
                             f"{confirmed} confirmed deals")
        for problem in replay_mismatches(session):
            v.replay += 1
            v.details.append(f"table {t.index}: {problem}")
        # The API's scoreboard (the shared cache was wiped and refused writes meanwhile):
        # the database's version and next number.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/api/v1/sessions/{t.session_id}/scoreboard",
                     headers={"Authorization": f"Token {t.token}"})
        response = conn.getresponse()
        body = json.loads(response.read())
        conn.close()
        session.refresh_from_db()
        want = {"version": session.version, "next_number": len(rows) + 1}
        got = {k: body.get(k) for k in want}
        if response.status != 200 or got != want:
            v.board += 1
            v.details.append(f"table {t.index}: API scoreboard {response.status} {got}, "
                             f"database {want}")
    return v


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--deals", type=int, default=60, help="deals per table")
    parser.add_argument("--every", type=float, default=0.8,
                        help="seconds between a table's deals (after each is confirmed)")
    parser.add_argument("--pause", type=float, default=3.0,
                        help="seconds the database or the cache stays down")
    parser.add_argument("--limit", type=float, default=300, help="seconds for the writers")
    args = parser.parse_args()

    say(f"PostgreSQL {PG_VERSION}/{PG_CLUSTER} on {PG_PORT}, Redis on {REDIS_PORT}")
    pg_up()
    redis_up()
    server = Server()
    try:
        os.environ["SCHREIBER_CACHE_URL"] = CACHE_URL
        c.setup_django(DB_URL)
        label = f"{os.getpid()}-{int(time.time())}"
        tables = make_tables(args.tables, args.deals, label)
        say(f"{len(tables)} tables ({sum(t.with_number for t in tables)} sending "
            f"\"number\"), {args.deals} deals each, one every {args.every:g} s")
        server.start()
        say(f"gunicorn on 127.0.0.1:{server.port}, log {server.log}")

        stats = Stats()
        start = time.monotonic()
        deadline = start + args.limit
        threads = [threading.Thread(target=writer, args=(t, server.port, args.deals,
                                                          args.every, deadline, stats))
                   for t in tables]
        for th in threads:
            th.start()
        done = threading.Event()
        faults = faults_for(server, args.pause)
        injector = threading.Thread(target=inject, args=(faults, start, done))
        injector.start()
        for th in threads:
            th.join(timeout=max(1.0, deadline + 15 - time.monotonic()))
        writing = time.monotonic() - start
        say(f"writers done in {writing:.1f} s")
        done.set()
        injector.join(timeout=60)
        # Everything up again for the check (a fault may have been mid-way).
        redis_cli("config", "set", "maxmemory", "0")
        say("the last deal of every table while Redis refuses writes")
        stale = tail(tables, server.port, args.deals, stats)
        verdict = check(tables, server.port)
    finally:
        server.stop()
        redis_down()
        pg_stop("fast")
        say("gunicorn, Redis 6380 and PostgreSQL 15/faults stopped")

    log = server.log.read_text(errors="replace")
    written = sum(len(t.confirmed) for t in tables)
    print()
    print(f"deals written: {written} of {args.tables * (args.deals + 1)} "
          f"({args.tables} tables x {args.deals} under the faults + 1 with the cache full; "
          f"the faults in {writing:.1f} s); "
          f"answers replayed for a retried key: {sum(t.replayed for t in tables)}")
    print("faults injected:")
    for f in faults:
        when = f"{f.started:5.1f}-{f.ended:5.1f} s" if f.started else "   not run  "
        print(f"  {when}  {f.name}: {f.note}")
    waits = sorted(w for t in tables for w in t.waits)
    if waits:
        print(f"seconds from a deal's first send to its 201: median "
              f"{waits[len(waits) // 2]:.3f}, p99 {waits[int(0.99 * len(waits))]:.2f}, "
              f"max {waits[-1]:.2f}")
    print(f"retries: {stats.retries}")
    print("answers and errors seen by the writers: "
          + ", ".join(f"{k} {v}" for k, v in sorted(stats.answers.items())))
    print(f"server log: {log.count('Traceback')} tracebacks, "
          f"{log.count('WORKER TIMEOUT')} worker timeouts ({server.log})")
    for line in stats.odd[:20]:
        print("  odd answer:", line)
    for t in tables:
        if t.gave_up:
            print(f"  table {t.index} gave up: {t.gave_up}")
    gave_up = sum(bool(t.gave_up) for t in tables)
    skipped = sum(1 for f in faults if not f.started or f.note.startswith("FAILED"))
    print(f"lost: {verdict.lost}   doubled: {verdict.doubled}   gaps in numbering: "
          f"{verdict.gaps}   deals not what was sent: {verdict.wrong_body}   "
          f"key/answer mismatches: {verdict.key_problems}")
    print(f"replay mismatches: {verdict.replay}   API scoreboard mismatches: "
          f"{verdict.board}   writers gave up: {gave_up}   faults not run: {skipped}")
    for line in verdict.details[:30]:
        print("  !", line)
    print(f"stale scoreboards after a deal the cache could not take: {len(stale)} "
          f"(of {4 * len(tables)} polled), still stale after 75 s: "
          f"{sum('still stale' in line for line in stale)}")
    for line in stale[:6]:
        print("  !", line)
    bad = (any("still stale" in line for line in stale) or verdict.lost or verdict.doubled
           or verdict.gaps or verdict.wrong_body or verdict.key_problems
           or verdict.replay or verdict.board or gave_up or skipped)
    print("RESULT:", "FAILED" if bad else "nothing lost, nothing doubled, scores replay")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
