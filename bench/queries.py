"""Database queries per page and endpoint, for a short and a long session, beside the
budget that tests/scorepad/test_query_counts.py asserts (on this database: PostgreSQL
writes a deal in fewer statements). As in the tests, the process trusts its memory cache
like a shared one (SCHREIBER_ONE_PROCESS): the budgets are those of a deployment with
the shared cache.

    .venv/bin/python bench/queries.py [--deals 100]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _common as c  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    args = parser.parse_args()
    import os

    os.environ["SCHREIBER_ONE_PROCESS"] = "1"
    c.setup_django()
    from django.core.cache import cache
    from django.db import connection

    from tests.scorepad.query_budget import CALLS, measure, setup

    sizes = (3, args.deals)
    rows = []
    for call in CALLS:
        counts = []
        for n in sizes:
            cache.clear()
            client, api, ids = setup(n)
            queries, status = measure(client, api, call, ids)
            assert status == call.status, (call.name, status)
            counts.append(queries)
        rows.append((call, counts))
    print(f"{'page / endpoint':<32}{'method':>7}" + "".join(f"{f'{n} deals':>11}" for n in sizes)
          + f"{'budget':>8}")
    ok = True
    for call, counts in rows:
        budget = call.expected(connection.vendor)
        flag = "" if all(q == budget for q in counts) else "  OVER"
        ok &= not flag
        print(f"{call.name:<32}{call.method.upper():>7}" + "".join(f"{q:>11}" for q in counts)
              + f"{budget:>8}{flag}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
