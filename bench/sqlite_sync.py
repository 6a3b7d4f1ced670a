"""What flushing every commit costs on SQLite: ``synchronous=FULL`` (the default since
issue 12) against ``NORMAL`` (before), in WAL mode, per recorded deal.

    .venv/bin/python bench/sqlite_sync.py [--rounds 9] [--deals 60]

A file database next to this script (on the same disk as a real ``db.sqlite3``), production
settings, the API deal POST through Django's test client (in-process: the whole request,
its transaction and its commit). The two settings take turns round by round (the order
alternates), so that the machine's mood falls on both alike; each round gives the mean
milliseconds per deal for each setting, and the medians over the rounds are printed, with
the median of the per-round differences. Also the bare ``INSERT; COMMIT`` of the sqlite3
module for reference (the flush alone).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402

MODES = ("NORMAL", "FULL")


def bare_commits(folder: Path, mode: str, n: int) -> float:
    """Mean milliseconds of one ``INSERT; COMMIT`` through the sqlite3 module."""
    db = sqlite3.connect(folder / f"bare-{mode}.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={mode}")
    db.execute("CREATE TABLE IF NOT EXISTS t (x TEXT)")
    start = time.perf_counter()
    for i in range(n):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (?)", (f"deal {i}",))
        db.execute("COMMIT")
    took = (time.perf_counter() - start) * 1000 / n
    db.close()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--deals", type=int, default=60, help="deals per setting and round")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="sqlite-sync-", dir=Path(__file__).parent))
    try:
        os.environ.update(c.SERVER_ENV)
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorepad.settings")
        sys.path.insert(0, str(c.ROOT))
        import django

        warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic here
        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client
        from rest_framework.authtoken.models import Token

        from scorepad import rosters, services

        call_command("migrate", verbosity=0, interactive=False)
        user = get_user_model().objects.create_user("bench-sync", password="x" * 12)
        token = Token.objects.create(user=user).key
        group = rosters.group_create(user=user, name="bench")
        session = services.session_start(group=group, user=user, preset="salzburg",
                                         overrides=None, seats=c.SEATS)
        api = Client(HTTP_AUTHORIZATION=f"Token {token}")
        path = f"/api/v1/sessions/{session.pk}/deals/"
        body = json.dumps({"kind": "passed"})

        def use(mode: str) -> None:
            connection.close()  # the next request connects with this init_command
            connection.settings_dict["OPTIONS"]["init_command"] = (
                f"PRAGMA journal_mode=WAL; PRAGMA synchronous={mode};")
            with connection.cursor() as cursor:
                value = cursor.execute("PRAGMA synchronous").fetchone()[0]
            assert value == {"NORMAL": 1, "FULL": 2}[mode], value

        def deal_ms(n: int) -> float:
            start = time.perf_counter()
            for _ in range(n):
                answer = api.post(path, body, content_type="application/json")
                assert answer.status_code == 201, answer.content[:200]
            return (time.perf_counter() - start) * 1000 / n

        for mode in MODES:  # warm up both (imports, caches, the file's first pages)
            use(mode)
            deal_ms(10)
        per_round: dict[str, list[float]] = {m: [] for m in MODES}
        for r in range(args.rounds):
            for mode in MODES if r % 2 == 0 else tuple(reversed(MODES)):
                use(mode)
                per_round[mode].append(deal_ms(args.deals))
        bare = {m: statistics.median(bare_commits(folder, m, 200) for _ in range(5))
                for m in MODES}
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"SQLite WAL, API deal POST in-process, {args.rounds} rounds x {args.deals} deals "
          "per setting, alternating order")
    for mode in MODES:
        runs = ", ".join(f"{x:.2f}" for x in per_round[mode])
        print(f"  synchronous={mode:6}  median {statistics.median(per_round[mode]):6.2f} ms "
              f"per deal   (rounds: {runs})")
    diffs = [f - n for f, n in zip(per_round["FULL"], per_round["NORMAL"], strict=True)]
    normal = statistics.median(per_round["NORMAL"])
    print(f"  FULL - NORMAL: median {statistics.median(diffs):+.2f} ms per deal "
          f"({statistics.median(diffs) / normal * 100:+.0f} % of NORMAL); "
          f"per-round differences {min(diffs):+.2f} … {max(diffs):+.2f} ms")
    print(f"  bare INSERT; COMMIT: NORMAL {bare['NORMAL']:.3f} ms, FULL {bare['FULL']:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
