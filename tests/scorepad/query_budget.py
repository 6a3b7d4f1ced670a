"""The database queries each page and endpoint may make: asserted by
tests/scorepad/test_query_counts.py, printed by bench/queries.py.

A budget is the exact count for a logged-in owner of a Mulatschak session (HTML pages by
session cookie, the API by token), on the first request after the login: the login
session comes from the cache (``cached_db``), the account is read once and then cached
too (scorepad.cache.logins), so a page asks one query for its login the first time and none
after. It must not depend on the number of deals. Where
PostgreSQL needs fewer statements (a deal's rows written in one, scorepad.dealwrite),
``budget_pg`` is its count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


@dataclass(frozen=True)
class Call:
    name: str
    method: str
    path: str  # formatted with sid, last, token, group, player
    budget: int
    body: Any = None
    api: bool = False
    etag: bool = False  # send If-None-Match with the current ETag (expect 304)
    warm: bool = False  # ask once before (the answer is cached)
    status: int = 200
    budget_pg: int | None = None  # the count on PostgreSQL, where it differs

    def expected(self, vendor: str) -> int:
        """The budget on this database (``connection.vendor``)."""
        if vendor == "postgresql" and self.budget_pg is not None:
            return self.budget_pg
        return self.budget


CALLS = [
    # pages
    Call("dashboard", "get", "/", 4),  # its pending invitations: one more
    Call("groups", "get", "/groups/", 2),
    Call("group", "get", "/groups/{group}/", 8),  # the role read once, invitations for owners
    Call("group statistics", "get", "/groups/{group}/stats/", 12),  # cards and table: one read
    Call("session list", "get", "/sessions/", 2),
    Call("start a session", "get", "/sessions/new/", 7),
    # a miss: the account, the session row with the role, its state with the last number
    # (one statement: of one moment, scorepad/loaded.py) and the last deals
    Call("session page", "get", "/sessions/{sid}/", 4),
    # rendered once per version and seen before: the login, the role, the version and
    # the page from the cache (views.common.reused_page)
    Call("session page, cached", "get", "/sessions/{sid}/", 0, warm=True),
    Call("scoreboard fragment", "get", "/sessions/{sid}/board", 5),
    Call("scoreboard fragment 304", "get", "/sessions/{sid}/board", 1, etag=True, status=304),
    # polled with the grant of the page (scorepad/cache/grants.py): no login, no query
    Call("scoreboard poll, cached", "get", "/sessions/{sid}/board?g={grant}", 0, warm=True),
    Call("scoreboard poll 304", "get", "/sessions/{sid}/board?g={grant}", 0, etag=True,
         status=304),
    Call("deal form check", "post", "/sessions/{sid}/check", 4,
         body={"kind": "played", "declarer": "0", "bid": "2", "trump": "acorns"}),
    Call("deal form freshness poll", "get", "/sessions/{sid}/fresh?number={next}", 3,
         status=204),
    Call("edit a deal", "get", "/sessions/{sid}/deals/{last}/edit", 4),
    Call("delete a deal (confirm)", "get", "/sessions/{sid}/deals/{last}/delete", 3),
    Call("history page", "get", "/sessions/{sid}/history", 4),  # its closings: one more
    Call("settlement page", "get", "/sessions/{sid}/settlement", 2),
    Call("watch page", "get", "/watch/{token}/", 4),
    Call("watch board", "get", "/watch/{token}/board", 4),
    Call("watch board 304", "get", "/watch/{token}/board", 1, etag=True, status=304),
    Call("watch poll, cached", "get", "/watch/{token}/board?g={wgrant}", 0, warm=True),
    Call("watch poll 304", "get", "/watch/{token}/board?g={wgrant}", 0, etag=True,
         status=304),
    # API
    Call("API rules", "get", "/api/v1/rules", 0, api=True),
    Call("API groups", "get", "/api/v1/groups/", 1, api=True),
    Call("API players", "get", "/api/v1/groups/{group}/players/", 3, api=True),
    Call("API members", "get", "/api/v1/groups/{group}/members/", 3, api=True),
    Call("API sessions", "get", "/api/v1/sessions/", 3, api=True),
    Call("API session", "get", "/api/v1/sessions/{sid}/", 2, api=True),
    Call("API deals (all)", "get", "/api/v1/sessions/{sid}/deals/", 2, api=True),
    Call("API deal", "get", "/api/v1/sessions/{sid}/deals/{last}/", 2, api=True),
    Call("API scoreboard", "get", "/api/v1/sessions/{sid}/scoreboard", 3, api=True),
    Call("API scoreboard 304", "get", "/api/v1/sessions/{sid}/scoreboard", 0, api=True,
         etag=True, status=304),
    # asked before: the role and version from the cache, the answer rendered once
    Call("API scoreboard, cached", "get", "/api/v1/sessions/{sid}/scoreboard", 0, api=True,
         warm=True),
    Call("API scoreboard, another page of games", "get",
         "/api/v1/sessions/{sid}/scoreboard?games_page=2", 0, api=True, warm=True),
    Call("API history", "get", "/api/v1/sessions/{sid}/history", 2, api=True),
    Call("API settlement", "get", "/api/v1/sessions/{sid}/settlement", 1, api=True),
    Call("API watch scoreboard", "get", "/api/v1/watch/{token}/scoreboard", 3, api=True),
    # the locking read, then the deal, its history row and the new state: one statement
    # on PostgreSQL, three on SQLite (scorepad.dealwrite); with the transaction's two
    Call("API deal POST", "post", "/api/v1/sessions/{sid}/deals/", 6, api=True,
         body={"kind": "passed"}, status=201, budget_pg=4),
    Call("API deal PUT (replays)", "put", "/api/v1/sessions/{sid}/deals/{last}/", 14,
         api=True, body={"kind": "played", "declarer": "Dominik", "bid": 2, "trump": "leaves",
                        "tricks": {"Anna": 1, "Bert": 1, "Cilli": 1, "Dominik": 2}}),
    Call("API deal DELETE (replays)", "delete", "/api/v1/sessions/{sid}/deals/{last}/", 12,
         api=True),
    Call("API start a session", "post", "/api/v1/sessions/", 10, api=True,
         body={"group": "{group}", "seats": SEATS}, status=201),
    # the status and its history row in one transaction (two savepoint statements here)
    Call("API close a session", "patch", "/api/v1/sessions/{sid}/", 7, api=True,
         body={"status": "closed"}),
    Call("API new group", "post", "/api/v1/groups/", 4, api=True, body={"name": "G2"},
         status=201),
    Call("API add a player", "post", "/api/v1/groups/{group}/players/", 6, api=True,
         body={"name": "Zora"}, status=201),
    Call("API watch link", "post", "/api/v1/sessions/{sid}/watch-link", 4, api=True),
    # its access generation raised in the database too (grants.bump): one statement
    Call("API revoke the watch link", "delete", "/api/v1/sessions/{sid}/watch-link", 6,
         api=True, status=204),
    Call("API referee deal", "post", "/api/v1/referee/mulatschak/deal", 0, api=True,
         body={"rules": "salzburg", "players": SEATS, "dealer": "Dominik",
               "deal": {"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
                        "tricks": {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}}}),
    Call("record a deal (form)", "post", "/sessions/{sid}/deals/new", 8,
         body={"kind": "passed"}, status=302, budget_pg=6),
    Call("delete a deal (form)", "post", "/sessions/{sid}/deals/{last}/delete", 11,
         status=302),
    Call("close the session (form)", "post", "/sessions/{sid}/status", 7,
         body={"status": "closed"}, status=302),
    Call("make a watch link (form)", "post", "/sessions/{sid}/watch-link", 5, status=302),
    Call("add a player (form)", "post", "/groups/{group}/", 7, body={"name": "Zora"},
         status=302),
]


def measure(client: Any, api: Any, call: Call, ids: dict[str, Any]) -> tuple[int, int]:
    """(queries, status) of one call; ``client`` is logged in, ``api`` sends the token."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    who = api if call.api else client
    path = call.path.format(**ids)
    extra: dict[str, Any] = {}
    if call.warm:
        getattr(who, call.method)(path)
    if call.etag:
        extra["HTTP_IF_NONE_MATCH"] = getattr(who, call.method)(path)["ETag"]
    if call.body is not None:
        body = {k: (v.format(**ids) if isinstance(v, str) and "{" in v else v)
                for k, v in call.body.items()}
        if "group" in body:
            body["group"] = int(body["group"])
        call = Call(**{**call.__dict__, "body": body})
        if call.api:
            extra |= {"data": json.dumps(call.body), "content_type": "application/json"}
        else:
            extra["data"] = call.body
    elif call.method in ("post", "delete"):
        extra["data"] = {} if not call.api else None
        extra = {k: v for k, v in extra.items() if v is not None}
    with CaptureQueriesContext(connection) as ctx:
        response = getattr(who, call.method)(path, **extra)
    return len(ctx.captured_queries), response.status_code


def setup(deals: int) -> tuple[Any, Any, dict[str, Any]]:
    """An owner with a Mulatschak session of ``deals`` passed deals and a watch link; a
    logged-in browser client and an API client."""
    import secrets

    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from scorepad import rosters, services, sharing
    from scorepad.cache import grants

    owner = get_user_model().objects.create_user(
        username=f"bench-q-{deals}-{secrets.token_hex(4)}", password="pw-12345678")
    group = rosters.group_create(user=owner, name="Stammtisch")
    session = services.session_start(group=group, user=owner, preset="salzburg",
                                     overrides=None, seats=SEATS, dealer="Dominik")
    names = services.Names.of(session)
    for i in range(deals):
        declarer = SEATS[i % 4]
        deal = ({"kind": "played", "declarer": declarer, "bid": 2, "trump": "acorns",
                 "tricks": {p: 2 if p == declarer else 1 for p in SEATS}}
                if i < 4 else {"kind": "passed"})
        services.deal_record(session=session, user=owner, data=names.deal_ids(deal))
    token = sharing.watch_link_create(session=session)
    client = Client()
    client.force_login(owner, backend="django.contrib.auth.backends.ModelBackend")
    api = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    api.get("/api/v1/groups/")  # a phone's token is in the cache after its first request
    ids = {"sid": session.pk, "last": deals, "next": deals + 1, "token": token,
           "group": group.pk, "player": group.players.first().pk,
           "grant": grants.user_grant(session.pk, group.pk, owner.pk, "owner"),
           "wgrant": grants.watch_grant(session.pk, token)}
    return client, api, ids
