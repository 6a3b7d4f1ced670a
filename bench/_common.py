"""Shared by the benchmarks: Django against the bench database, seeding long sessions
fast, a gunicorn server with production settings, and wrk.

The database is ``BENCH_DATABASE_URL`` (default: the local PostgreSQL database
``schreiber_bench``); it is migrated on start and only ever gets rows of users named
``bench-*``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/schreiber_bench"
SEATS = ["Anna", "Bert", "Cilli", "Dominik"]

#: Production settings (DEBUG off, persistent connections from settings.py), over plain
#: http on loopback: no TLS redirect, cookies without the Secure flag.
SERVER_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "bench-only-" + "x" * 40,
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_SECURE_COOKIES": "0",
    "DJANGO_LOGIN_THROTTLE": "1",
}


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)


def setup_django(url: str | None = None) -> None:
    """Configure this process like the server (same database, production settings)."""
    os.environ.update(SERVER_ENV)
    os.environ["DATABASE_URL"] = url or database_url()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorepad.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    # Production serves hashed, compressed files from collectstatic's manifest.
    call_command("collectstatic", verbosity=0, interactive=False)


# --- seeding -----------------------------------------------------------------------------


def deal_candidates(i: int) -> list[dict[str, Any]]:
    """Realistic deals by name, the first legal one is taken: a played deal with rotating
    declarer, tricks and trump, sometimes someone staying home; collapses now and then."""
    out: list[dict[str, Any]] = []
    if i % 11 == 5:
        out.append({"kind": "collapsed"})
    for shift in range(4):
        declarer = SEATS[(i + shift) % 4]
        others = [p for p in SEATS if p != declarer]
        trump = ["acorns", "leaves", "bells", "hearts"][i % 4]
        for home in ([others[i % 3]], []) if i % 3 == 0 else ([],):
            playing = [p for p in others if p not in home]
            tricks = {declarer: 3 if i % 2 else 2}
            left = 5 - tricks[declarer]
            for k, p in enumerate(playing):
                tricks[p] = left // len(playing) + (1 if k < left % len(playing) else 0)
            out.append({"kind": "played", "declarer": declarer, "bid": 2, "trump": trump,
                        "tricks": tricks, "stayed_home": home})
    out += [{"kind": "passed"}, {"kind": "collapsed"}]
    return out


def build_deals(session: Any, names: Any, count: int, state: dict[str, Any] | None = None,
                start: int = 0) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]],
                                         dict[str, Any]]:
    """``count`` legal deals after ``state`` (default: the session's start), scored by the
    referee: [(stored data, result)], final state."""
    from scorepad import games, services

    game = games.of(session)
    seats = names.seats
    runner = None
    if state is None:  # from the start: the services' replay runner, fast
        runner = game.replayer(session, seats)
    out = []
    for i in range(start, start + count):
        for candidate in deal_candidates(i):
            data = game.normalize(names.deal_ids(candidate))
            try:
                if runner is not None:
                    result = runner.apply(data)
                else:
                    result, state = game.apply(session, seats, state, data)
            except services.RulesBroken:
                continue
            out.append((data, result))
            break
        else:  # pragma: no cover - "passed" is always legal
            raise RuntimeError(f"no legal deal at {i}")
    return out, runner.state() if runner is not None else state


@dataclass
class Seeded:
    user: Any
    token: str
    session: Any
    cookie: str  # "name=value" of a logged-in Django session


def seed_session(deals: int, label: str = "bench") -> Seeded:
    """A user with an API token and a logged-in browser session, a group, and a session of
    ``deals`` deals: bulk-written rows with the referee's results, exactly what recording
    them one by one would have stored (history events included)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from scorepad import dealwrite, games, rosters, services
    from scorepad.models import Deal, DealEvent, Session

    username = f"bench-{label}-{deals}-{os.getpid()}-{time.monotonic_ns() % 10**9}"
    user = get_user_model().objects.create_user(username=username)  # no password: fast
    group = rosters.group_create(user=user, name=f"Bench {deals}")
    session = services.session_start(group=group, user=user, preset="salzburg",
                                     overrides=None, seats=SEATS, dealer="Dominik")
    names = services.Names.of(session)
    built, state = build_deals(session, names, deals)
    game = games.of(session)
    with transaction.atomic():
        Deal.objects.bulk_create(
            [Deal(session=session, number=n, kind=game.kind(data), data=data, result=result,
                  created_by=user) for n, (data, result) in enumerate(built, start=1)],
            batch_size=1000,
        )
        DealEvent.objects.bulk_create(
            [DealEvent(session=session, deal_number=n, action=DealEvent.Action.CREATE,
                       before=None, after=data, user=user)
             for n, (data, _result) in enumerate(built, start=1)],
            batch_size=1000,
        )
        dealwrite.finished_games(session, (result for _data, result in built))
        Session.objects.filter(pk=session.pk).update(state=state, version=len(built))
    session.refresh_from_db()
    token = Token.objects.create(user=user).key
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return Seeded(user, token, session, cookie)


def settle() -> None:
    """Let PostgreSQL catch up with the seeding before measuring: otherwise autovacuum
    and analyze of the thousands of fresh rows run during the first scenarios, on the
    same cores, and show up as their slowness (p99 of hundreds of ms)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def continuation(seeded: Seeded, count: int) -> list[dict[str, Any]]:
    """The next ``count`` legal deals of a seeded session, by player name (request bodies)."""
    from scorepad import services

    names = services.Names.of(seeded.session)
    built, _ = build_deals(seeded.session, names, count, state=seeded.session.state,
                           start=seeded.session.version)
    return [names.deal_names(data) for data, _result in built]


# --- the server --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[Any], what: str) -> None:
    """Until something listens on ``port`` (``proc`` started it), at most 30 s."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.2)


def collectstatic() -> None:
    """Hashed, compressed static files into staticfiles/, as in production."""
    env = {**os.environ, **SERVER_ENV, "DATABASE_URL": database_url()}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)


@contextmanager
def gunicorn(workers: int = 2, threads: int = 4, cache_url: str | None = None,
             port: int | None = None, pids: list[int] | None = None) -> Iterator[str]:
    """gunicorn with gunicorn.conf.py on a loopback port (``port``, or a free one); yields
    the base URL. ``cache_url``: SCHREIBER_CACHE_URL for the server ("" or None: memory per
    worker). ``pids``: gets the master's process id (to read its workers' CPU time)."""
    port = port or free_port()
    env = {**os.environ, **SERVER_ENV, "DATABASE_URL": database_url(),
           "SCHREIBER_CACHE_URL": cache_url or "",
           "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(workers),
           "GUNICORN_THREADS": str(threads), "GUNICORN_LOGLEVEL": "warning",
           # workers are never recycled during a run (NOTES: max_requests would restart
           # them every few seconds at these rates)
           "GUNICORN_MAX_REQUESTS": "0"}
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - kept for reading after the run
        prefix="bench-gunicorn-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
         "scorepad.wsgi"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    if pids is not None:
        pids.append(proc.pid)
    try:
        wait_for_port(port, proc, f"gunicorn (see {log.name})")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        errors = Path(log.name).read_text(errors="replace")
        if "Traceback" in errors:
            print(f"!! the server logged errors, see {log.name}", file=sys.stderr)


def _processes() -> list[tuple[int, int, str, float]]:
    """Every process now: (pid, parent pid, command, CPU seconds user + system), from
    /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        command = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()  # from the state on: stat(5)
        out.append((int(entry.name), int(fields[1]), command,
                    (int(fields[11]) + int(fields[12])) / tick))
    return out


def cpu_seconds(pids: set[int]) -> float:
    """CPU seconds used so far by the processes ``pids`` and their children (gunicorn's
    master and its workers)."""
    return sum(s for pid, parent, _c, s in _processes() if pid in pids or parent in pids)


def cpu_of_command(name: str) -> float:
    """CPU seconds used so far by every process whose command is ``name`` (PostgreSQL's
    backends: ``postgres``), whoever runs them."""
    return sum(s for _p, _pp, command, s in _processes() if command == name)


# --- wrk ---------------------------------------------------------------------------------


@dataclass
class Load:
    name: str
    requests_per_s: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int  # socket errors + non-2xx/3xx answers

    def row(self, base: float | None, per: int = 1) -> str:
        rate = self.requests_per_s / per
        ratio = f"{100 * rate / base:5.0f} %" if base else "    —  "
        return (f"{self.name:<42} {rate:9.0f} {self.p50_ms:8.2f} {self.p99_ms:8.2f} "
                f"{ratio}  {self.errors:>4}")


HEADER = f"{'':<42} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'vs (a)':>7}  {'err':>4}"


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text.strip())
    if not m:
        return float("nan")
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def wrk(name: str, url: str, *, duration: float, connections: int = 4,
        headers: dict[str, str] | None = None, script: str | None = None) -> Load:
    """Drive ``url`` with wrk (one thread per connection, keep-alive) and parse its report."""
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    cmd = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{max(1, round(duration))}s",
           "--latency", "--timeout", "10s"]
    for k, v in (headers or {}).items():
        cmd += ["-H", f"{k}: {v}"]
    with tempfile.TemporaryDirectory() as tmp:
        if script:
            lua = Path(tmp) / "script.lua"
            lua.write_text(script)
            cmd += ["-s", str(lua)]
        ran = subprocess.run(cmd + [url], capture_output=True, text=True, check=True)
        out = ran.stdout
        if ran.stderr.strip():  # what a script reports (e.g. the first error answers)
            print(ran.stderr.strip(), file=sys.stderr)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    errors = 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return Load(name, rps, p50, p99, total, errors)


def lua_string(value: str) -> str:
    return json.dumps(value)  # a JSON string literal is a valid Lua string literal here
