"""Nothing of one user ever reaches another through a cache.

Pages and answers are cached by session, version, language and role class, and reused for
every member who asks (the session page, the polled scoreboard, the API's scoreboard, the
watch link's board, ...). For every page and API answer a member or a watcher can GET,
each pair of people asks in turn (the first one fills the caches), and what the second
was answered must equal what a fresh render, with every cache emptied, answers that
second person: a per-user line added to a cached template would differ here.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from scorepad import services, sharing

from ..strength import PROFILE
from .factories import group_with, member, played, record, session_at, user

pytestmark = pytest.mark.django_db

ROLES = ("owner", "editor", "viewer")
#: Who asks each URL, in turn: under ``ci`` both members of every role; under ``dev`` the
#: first owner (who fills the caches), a second owner (the same role) and the first editor
#: and viewer (the other roles), so every URL is still asked across roles and within one.
ASKERS = ([(role, i) for role in ROLES for i in (0, 1)] if PROFILE == "ci"
          else [("owner", 0), ("owner", 1), ("editor", 0), ("viewer", 0)])

#: what differs from answer to answer by design, whoever asks
PER_ANSWER = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1CSRF"),
    (re.compile(r'("X-CSRFToken": ?")[^"]+', re.IGNORECASE), r"\1CSRF"),
    (re.compile(r'(nonce=")[^"]+'), r"\1NONCE"),
    (re.compile(r'(name="idempotency_key" value=")[^"]+'), r"\1KEY"),
    (re.compile(r'(data-idempotency-key=")[^"]+'), r"\1KEY"),
    (re.compile(r'("exported_at": ?")[^"]+'), r"\1NOW"),
]


def _cleared() -> None:
    from django.core.cache import cache

    from scorepad.cache import answers, grants, versions

    cache.clear()
    answers._bodies.clear()
    versions._local.clear()
    grants._verified.clear()


GRANT = re.compile(r"([?&]g=)([A-Za-z0-9_-]+):[A-Za-z0-9_-]+:[A-Za-z0-9_-]+")


def _grant(match: re.Match[str]) -> str:
    """A poll grant, signed per answer and login: what it grants must be the asker's (a
    member's: session, group, user, role; a watcher's: session, link); the tags of the
    login and of the access generations, and the signature, differ anyway."""
    payload = match.group(2)
    granted = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return match.group(1) + "GRANT" + json.dumps(granted[:5] if granted[0] == "u"
                                                 else granted[:3])


def _normal(body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    for pattern, replacement in PER_ANSWER:
        text = pattern.sub(replacement, text)
    return GRANT.sub(_grant, text)


@pytest.fixture
def people() -> dict[str, Any]:
    """Two members of each role in one group (the first owner made it) and a session of
    each game with deals, its watch link made."""
    owner = user("olga")
    group = group_with(owner, "Stammtisch Ried")
    people = {"owner": [owner, user("otto")], "editor": [user("edith"), user("emil")],
              "viewer": [user("vera"), user("viktor")]}
    member(group, people["owner"][1], "owner")
    for role in ("editor", "viewer"):
        for who in people[role]:
            member(group, who, role)
    table = session_at(group, owner)
    record(table, owner, played("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}))
    record(table, owner, {"kind": "collapsed"})
    others = [services.session_start(group=group, user=owner, preset=game, overrides=None,
                                     seats=["Anna", "Bert", "Cilli", "Dominik"], game=game)
              for game in ("mura", "muller_matz")]
    return {"group": group, "people": people, "sessions": [table, *others],
            "watch": sharing.watch_link_create(session=table)}


def _urls(world: dict[str, Any]) -> list[str]:
    group = world["group"].pk
    urls = ["/", f"/groups/{group}/", f"/groups/{group}/sessions/", f"/groups/{group}/stats/",
            "/me/stats/", "/sessions/", f"/api/v1/groups/{group}/players/",
            f"/api/v1/groups/{group}/members/", "/api/v1/groups/", "/api/v1/me/stats"]
    for session in world["sessions"]:
        s = session.pk
        urls += [f"/sessions/{s}/", f"/sessions/{s}/board", f"/sessions/{s}/sheet",
                 f"/sessions/{s}/history", f"/sessions/{s}/settlement",
                 f"/api/v1/sessions/{s}/", f"/api/v1/sessions/{s}/deals/",
                 f"/api/v1/sessions/{s}/scoreboard", f"/api/v1/sessions/{s}/history",
                 f"/api/v1/sessions/{s}/settlement", f"/api/v1/sessions/{s}/export"]
    return urls


def _ask(who: Any, url: str, language: str) -> Any:
    client = Client()
    client.force_login(who)
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    if url.startswith("/api/"):
        headers["HTTP_AUTHORIZATION"] = f"Token {Token.objects.get_or_create(user=who)[0].key}"
    return client.get(url, **headers)


#: The URLs go in this many shares, each a test of its own: some 300 requests in one test
#: were the suite's longest but one (40 s of one process), a tail no other could share.
SHARES = 4


@pytest.mark.parametrize("share", range(SHARES))
@pytest.mark.parametrize("language", ["de"])
def test_every_answer_to_a_member_equals_a_fresh_render_for_that_member(people, language,
                                                                        share):
    """Every member (ASKERS) asks in turn, each after the others have filled the caches
    (the second owner right after the first, and so on), then each but the first again
    with every cache emptied before."""
    askers = [people["people"][role][i] for role, i in ASKERS]
    differences = []
    urls = _urls(people)
    assert len(urls) > 4 * SHARES
    for url in urls[share::SHARES]:
        _cleared()
        reused = [_ask(who, url, language) for who in askers]
        # the first asker met emptied caches: that answer already is a fresh render
        for who, answer in list(zip(askers, reused, strict=True))[1:]:
            _cleared()
            fresh = _ask(who, url, language)
            assert answer.status_code == fresh.status_code, (url, who.username)
            if _normal(answer.content) != _normal(fresh.content):
                differences.append((url, who.username))
    assert differences == []


def test_a_watcher_is_answered_what_a_fresh_render_answers_after_members(people):
    token = people["watch"]
    urls = [f"/watch/{token}/", f"/watch/{token}/board", f"/api/v1/watch/{token}/scoreboard"]
    session = people["sessions"][0]
    differences = []
    for url in urls:
        _cleared()
        for who in (people["people"]["owner"][0], people["people"]["viewer"][1]):
            _ask(who, f"/sessions/{session.pk}/", "en")
            _ask(who, f"/api/v1/sessions/{session.pk}/scoreboard", "en")
            _ask(who, url, "en")
        reused = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
        _cleared()
        fresh = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert reused.status_code == fresh.status_code == 200, url
        if _normal(reused.content) != _normal(fresh.content):
            differences.append(url)
    assert differences == []


def test_a_table_phone_and_the_members_are_each_answered_their_own_render(people):
    """A tournament table's phone (scorepad/tablephone.py) is its own role class: the
    session page and scoreboard of its table, asked in turn with the group's members
    (either first), equal a fresh render for each of them."""
    from .tournament_play import drawn, tournament

    owner = people["people"]["owner"][0]
    contest = tournament(people["group"], owner, players=4)
    table = drawn(contest, owner).tables.get()
    urls = [f"/sessions/{table.session_id}/", f"/sessions/{table.session_id}/board"]
    members = [people["people"][role][0] for role in ROLES]

    def as_table() -> Any:
        phone = Client()
        assert phone.get(f"/t/{table.code}/").status_code == 302
        return phone

    def ask_table(url: str) -> Any:
        return as_table().get(url, HTTP_ACCEPT_LANGUAGE="de")

    differences = []
    for url in urls:
        for table_first in (True, False):
            _cleared()
            if table_first:
                reused_table = ask_table(url)
            reused = [_ask(who, url, "de") for who in members]
            if not table_first:
                reused_table = ask_table(url)
            for who, answer in zip(members, reused, strict=True):
                _cleared()
                fresh = _ask(who, url, "de")
                assert answer.status_code == fresh.status_code == 200, (url, who.username)
                if _normal(answer.content) != _normal(fresh.content):
                    differences.append((url, who.username, table_first))
            _cleared()
            fresh_table = ask_table(url)
            assert reused_table.status_code == fresh_table.status_code == 200, url
            if _normal(reused_table.content) != _normal(fresh_table.content):
                differences.append((url, "table", table_first))
    assert differences == []
    # and the table's page is not a member's: no group, no watch link
    page = ask_table(urls[0]).content.decode()
    assert "watch-link" not in page and f"/groups/{people['group'].pk}/" not in page
