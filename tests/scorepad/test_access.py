"""Every URL of the project, as anonymous, non-member, viewer, editor and owner, and as a
phone without an account (a guest) and a tournament table's phone.

The expected answers live in ACCESS below. A URL that is not classified there fails the
test: adding a page or an endpoint means deciding who may use it.

The guest asks about its own group (its sessions, a player, a tournament it made before
tournaments needed an account): what a guest may see of its group is decided here (its
sessions yes; the group's administration, tournaments and statistics no: the page that
offers signing up, 403; the API knows no guest, 401). The table's phone asks about its
own table's session (with its code: the cookie on pages, ``Authorization: Table`` in the
API) and the world's group and tournament, which it is nothing to.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorepad import rosters, sharing

from . import page_scripts
from .factories import EVEN, group_with, played, record, session_at, user

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "stranger", "viewer", "editor", "owner", "guest", "table")


def row(anonymous: int, stranger: int, viewer: int, editor: int, owner: int, guest: int,
        table: int) -> dict[str, int]:
    return dict(zip(PERSONAS, (anonymous, stranger, viewer, editor, owner, guest, table),
                    strict=True))


# HTML: anonymous → login page. A guest asks about its own group; a page that needs an
# account (scorepad.guests.account_required) answers it 403 with the page that offers
# signing up. A table's phone is its table on the session's pages of play alone
# (scorepad/tablephone.py), anywhere else nobody (→ login page).
EVERYONE_200 = row(200, 200, 200, 200, 200, 200, 200)
PLAY_PAGE = row(302, 404, 200, 200, 200, 200, 200)  # a session's pages of play
SESSION_PAGE = row(302, 404, 200, 200, 200, 200, 302)  # a session's other pages
GROUP_PAGE = row(302, 404, 200, 200, 200, 403, 302)  # the group's, beyond its sessions
PAGE_WRITERS = row(302, 404, 403, 302, 302, 302, 302)
PAGE_WRITERS_200 = row(302, 404, 403, 200, 200, 200, 302)
PLAY_WRITERS_200 = row(302, 404, 403, 200, 200, 200, 200)
GROUP_WRITERS = row(302, 404, 403, 302, 302, 403, 302)
GROUP_WRITERS_200 = row(302, 404, 403, 200, 200, 403, 302)
PAGE_LOGGED_IN = row(302, 200, 200, 200, 200, 200, 302)
PAGE_ACCOUNTS = row(302, 200, 200, 200, 200, 403, 302)
# The API knows no guest (401); a table's code opens its own session's reads and deals
# (scorepad.api.auth.TABLE_MAY), anything else with it is 401.
API_MEMBERS = row(401, 404, 200, 200, 200, 401, 401)
API_TABLE_READS = row(401, 404, 200, 200, 200, 401, 200)
API_LOGGED_IN = row(401, 200, 200, 200, 200, 401, 401)

#: url name → [(method, body, expected status per persona)]
ACCESS: dict[str, list[tuple[str, Any, dict[str, int]]]] = {
    "healthz": [("get", None, EVERYONE_200)],
    "ping": [("get", None, EVERYONE_200)],
    "service_worker": [("get", None, EVERYONE_200)],
    "manifest": [("get", None, EVERYONE_200)],
    "offline": [("get", None, EVERYONE_200)],
    "login": [("get", None, row(200, 302, 302, 302, 302, 200, 200))],
    "logout": [("post", None, row(302, 302, 302, 302, 302, 302, 302))],
    "set_language": [("post", {"language": "de"}, row(302, 302, 302, 302, 302, 302, 302))],
    "scorepad:home": [("get", None, EVERYONE_200)],
    "scorepad:signup": [("get", None, EVERYONE_200)],
    "scorepad:groups": [("get", None, PAGE_ACCOUNTS)],
    "scorepad:group": [("get", None, GROUP_PAGE),
                       ("post", {"name": "{persona}-p"}, GROUP_WRITERS)],
    "scorepad:session_list": [("get", None, PAGE_LOGGED_IN)],
    "scorepad:session_new": [("get", None, PAGE_LOGGED_IN)],
    # "Just play": the start without an account; somebody logged in starts as usual
    "scorepad:play": [("get", None, row(200, 302, 302, 302, 302, 302, 200))],
    "scorepad:session": [("get", None, PLAY_PAGE)],
    "scorepad:board": [("get", None, PLAY_PAGE)],
    "scorepad:deal_check": [("post", {"kind": "played"}, PLAY_WRITERS_200)],
    "scorepad:deal_form_fresh": [("get", None, row(302, 404, 204, 204, 204, 204, 204))],
    "scorepad:deal_create": [("post", {"kind": "passed"}, PAGE_WRITERS)],
    "scorepad:deal_edit": [("get", None, PLAY_WRITERS_200)],
    "scorepad:deal_delete": [("get", None, PLAY_WRITERS_200)],
    "scorepad:session_status": [("post", {"status": "open"}, PAGE_WRITERS)],
    "scorepad:session_about": [("get", None, PAGE_WRITERS_200),
                               ("post", {"name": "{persona}", "date": "2025-11-23"},
                                PAGE_WRITERS)],
    "scorepad:session_card": [("get", None, SESSION_PAGE)],
    # the session page's picture and files: for whoever sees the page (the API's are the
    # accounts' alone)
    "scorepad:card_picture": [("get", None, PLAY_PAGE)],
    "scorepad:session_file": [("get", None, PLAY_PAGE)],
    "scorepad:session_history": [("get", None, SESSION_PAGE)],
    "scorepad:settlement": [("get", None, SESSION_PAGE)],
    "scorepad:group_sessions": [("get", None, SESSION_PAGE)],
    "scorepad:group_stats": [("get", None, GROUP_PAGE)],
    "scorepad:player": [("get", None, GROUP_PAGE)],
    # viewers may say "this is me" of a player nobody is linked to (editors relink it)
    "scorepad:player_link": [("post", {"user": "me"}, row(302, 404, 302, 302, 302, 403, 302))],
    "scorepad:my_stats": [("get", None, PAGE_ACCOUNTS)],
    "scorepad:sheet": [("get", None, SESSION_PAGE)],
    # moved to the referee
    "scorepad:beat": [("get", None, row(302, 404, 302, 302, 302, 302, 302))],
    # the Referee page: a session's for its members (a question of another game: 404),
    # the stand-alone one for anyone
    "scorepad:session_referee": [("get", None, SESSION_PAGE)],
    **{f"scorepad:session_referee_{tool}": [("get", None, SESSION_PAGE),
                                            ("post", {"trump": "hearts"}, SESSION_PAGE)]
       for tool in ("trick", "auction")},
    **{f"scorepad:session_referee_{tool}": [("get", None,
                                             row(302, 404, 404, 404, 404, 404, 302))]
       for tool in ("mura", "beat", "hand", "pile")},
    "scorepad:referee": [("get", None, EVERYONE_200)],
    **{f"scorepad:referee_{tool}": [("get", None, EVERYONE_200),
                                    ("post", {"trump": "hearts", "pick": "hearts-ace"},
                                     EVERYONE_200)]
       for tool in ("trick", "auction", "mura", "beat", "hand", "pile")},
    "scorepad:rules_doc": [("get", None, EVERYONE_200)],
    "scorepad:watch_link": [("post", None, PAGE_WRITERS)],
    "scorepad:watch": [("get", None, EVERYONE_200)],
    "scorepad:watch_board": [("get", None, EVERYONE_200)],
    "scorepad:invite_new": [("post", {"role": "viewer"},
                             row(302, 404, 403, 403, 302, 403, 302))],
    "scorepad:join": [("get", None, PAGE_ACCOUNTS)],
    # owners invite accounts (test_invitations.py); a pending invitation of "invitee"
    "scorepad:member_add": [("post", {"username": "invitee", "role": "viewer"},
                             row(302, 404, 403, 403, 302, 403, 302))],
    "scorepad:invitation_revoke": [("post", None, row(302, 404, 403, 403, 302, 403, 302))],
    # only the invited account ("invitee", none of these) answers its invitation
    "scorepad:invitation_accept": [("post", None, row(302, 404, 404, 404, 404, 403, 302))],
    "scorepad:invitation_decline": [("post", None, row(302, 404, 404, 404, 404, 403, 302))],
    "account": [("get", None, PAGE_ACCOUNTS)],
    "logout_everywhere": [("post", None, row(302, 302, 302, 302, 302, 403, 302))],
    "password_change": [("get", None, PAGE_ACCOUNTS)],
    "password_change_done": [("get", None, PAGE_ACCOUNTS)],
    # no mail server here
    "password_reset": [("get", None, row(404, 404, 404, 404, 404, 404, 404))],
    "password_reset_done": [("get", None, EVERYONE_200)],
    "password_reset_confirm": [("get", None, EVERYONE_200)],  # "this link does not work"
    "password_reset_complete": [("get", None, EVERYONE_200)],
    "scorepad:group_import": [("post", None, GROUP_WRITERS_200)],
    "api:schema": [("get", None, row(200, 200, 200, 200, 200, 200, 401))],
    "api:docs": [("get", None, row(200, 200, 200, 200, 200, 200, 401))],
    "api:rules": [("get", None, EVERYONE_200)],
    "api:mulatschak_deal": [("post", "deal", EVERYONE_200)],
    "api:mulatschak_auction": [("post", "auction", EVERYONE_200)],
    "api:mulatschak_trick": [("post", "trick", EVERYONE_200)],
    "api:mura_deal": [("post", "mura", EVERYONE_200)],
    "api:mura_settle": [("post", "settle", EVERYONE_200)],
    "api:muller_matz_beat": [("post", "beat", EVERYONE_200)],
    "api:muller_matz_hand": [("post", "hand", EVERYONE_200)],
    "api:muller_matz_pile": [("post", "pile", EVERYONE_200)],
    "api:register": [("post", {"username": "new-{persona}", "password": "kartenspiel-2026"},
                      row(201, 201, 201, 201, 201, 201, 201))],
    "api:token": [("post", {"username": "owner", "password": "s3cret-pass!"}, EVERYONE_200)],
    "api:token_revoke": [("post", None, row(401, 204, 204, 204, 204, 401, 401))],
    "api:password": [("post", {"old_password": "s3cret-pass!",
                               "new_password": "kartenspiel-2026"}, API_LOGGED_IN)],
    "api:groups": [("get", None, API_LOGGED_IN),
                   ("post", {"name": "G"}, row(401, 201, 201, 201, 201, 401, 401))],
    "api:players": [("get", None, API_MEMBERS),
                    ("post", {"name": "{persona}-api"},
                     row(401, 404, 403, 201, 201, 401, 401))],
    "api:player_detail": [("patch", {"name": "Anni"},
                           row(401, 404, 403, 200, 200, 401, 401)),
                          ("patch", {"user": "me"}, API_MEMBERS)],
    "api:members": [("get", None, API_MEMBERS),
                    ("post", {"username": "invitee", "role": "viewer"},
                     row(401, 404, 403, 403, 202, 401, 401))],
    "api:group_invitations": [("get", None, row(401, 404, 403, 403, 200, 401, 401))],
    "api:group_invitation": [("delete", None, row(401, 404, 403, 403, 204, 401, 401))],
    "api:invitations": [("get", None, API_LOGGED_IN)],
    "api:invitation_accept": [("post", None, row(401, 404, 404, 404, 404, 401, 401))],
    "api:invitation_decline": [("post", None, row(401, 404, 404, 404, 404, 401, 401))],
    "api:sessions": [("get", None, API_LOGGED_IN),
                     ("post", "session", row(401, 404, 403, 201, 201, 401, 401))],
    "api:session_detail": [("get", None, API_TABLE_READS),
                           ("patch", {"status": "open"},
                            row(401, 404, 403, 200, 200, 401, 401))],
    "api:deals": [("get", None, API_TABLE_READS),
                  ("post", {"kind": "passed"}, row(401, 404, 403, 201, 201, 401, 201))],
    "api:deal_detail": [("get", None, API_TABLE_READS),
                        ("put", played("Anna", EVEN),
                         row(401, 404, 403, 200, 200, 401, 200))],
    "api:scoreboard": [("get", None, API_TABLE_READS)],
    "api:history": [("get", None, API_TABLE_READS)],
    "api:settlement": [("get", None, API_TABLE_READS)],
    "api:player_stats": [("get", None, API_MEMBERS)],
    # a roster player by its id; its category is the writers' (docs/tournaments.md)
    "api:roster_player": [("get", None, API_MEMBERS),
                          ("patch", {"category": "Damen"},
                           row(401, 404, 403, 200, 200, 401, 401))],
    "api:my_stats": [("get", None, API_LOGGED_IN)],
    "api:watch_link": [("post", None, row(401, 404, 403, 200, 200, 401, 401))],
    "api:watch_scoreboard": [("get", None, EVERYONE_200)],
    "api:group_ratings": [("get", None, API_MEMBERS)],
    "api:watch_card": [("get", None, EVERYONE_200)],
    "api:session_card": [("get", None, API_MEMBERS)],
    "api:session_export": [("get", None, API_MEMBERS)],
    "api:group_export": [("get", None, API_MEMBERS)],
    # a fresh copy of the session's file per persona (a repeat would be a duplicate)
    "api:session_import": [("post", "import", row(401, 404, 403, 201, 201, 401, 401))],
    # the group has a session already: writers get past the access check to the 409
    "api:group_import": [("post", "group_file", row(401, 404, 403, 409, 409, 401, 401))],
    # tournaments: the world's has round 1 open, its tables unfinished (writers get past
    # the access check to the 409); the screen is public
    "api:tournaments": [("get", None, API_LOGGED_IN),
                        ("post", "tournament", row(401, 404, 403, 201, 201, 401, 401))],
    "api:tournament_detail": [("get", None, API_MEMBERS),
                              ("patch", {"screen_hides_rounds": 0},
                               row(401, 404, 403, 200, 200, 401, 401))],
    "api:tournament_players": [("get", None, API_MEMBERS),
                               ("post", {"name": "{persona}-t"},
                                row(401, 404, 403, 201, 201, 401, 401))],
    "api:tournament_rounds": [("post", None, row(401, 404, 403, 409, 409, 401, 401))],
    "api:tournament_round_close": [("post", {"force": False},
                                    row(401, 404, 403, 409, 409, 401, 401))],
    "api:tournament_ranking": [("get", None, API_MEMBERS)],
    # seasons (docs/tournaments.md, "Seasons"): writers make and change them, members
    # read them (deleting is tested in test_seasons_api.py: the first writer's DELETE
    # would leave nothing for the next persona)
    "api:group_seasons": [("get", None, API_MEMBERS),
                          ("post", "season", row(401, 404, 403, 201, 201, 401, 401))],
    "api:season_detail": [("get", None, API_MEMBERS),
                          ("patch", {"name": "{persona}-s"},
                           row(401, 404, 403, 200, 200, 401, 401))],
    "api:season_standings": [("get", None, API_MEMBERS)],
    "api:tournament_prizes": [("get", None, API_MEMBERS)],
    # a table's result confirmed: the world's and the guest's sessions are no tournament's
    # table (404 once past the access check); the table's own is not finished yet (409,
    # on the page a message and back to the table)
    "api:session_confirm": [("get", None, row(401, 404, 404, 404, 404, 401, 200)),
                            ("post", {"player": "Anna"},
                             row(401, 404, 403, 404, 404, 401, 409))],
    "scorepad:table_confirm": [("post", {"player": "Anna"},
                                row(302, 404, 403, 404, 404, 404, 302))],
    "scorepad:tournament_screen": [("get", None, EVERYONE_200)],
    "scorepad:tournament_list": [("get", None, GROUP_PAGE),
                                 ("post", {"name": ""}, GROUP_WRITERS_200)],
    "scorepad:tournament": [("get", None, GROUP_PAGE),
                            ("post", {"action": "register", "name": "{persona}-door"},
                             GROUP_WRITERS)],
    "scorepad:tournament_tables": [("get", None, GROUP_PAGE)],
    "scorepad:seating_plan": [("get", None, GROUP_WRITERS_200)],
    "scorepad:tournament_screen_board": [("get", None, EVERYONE_200)],
    "scorepad:tournament_screen_live": [("get", None, EVERYONE_200)],
    # a tournament on paper: the ranking's files and print page for members, the slips
    # for its directors (a slip without figures comes back with its error: 200)
    "scorepad:tournament_ranking_file": [("get", None, GROUP_PAGE)],
    "scorepad:tournament_ranking_print": [("get", None, GROUP_PAGE)],
    "scorepad:score_slips": [("get", None, GROUP_WRITERS_200)],
    "scorepad:slip_entry": [("get", None, GROUP_WRITERS_200),
                            ("post", {}, GROUP_WRITERS_200)],
    # a group's seasons: members read the list, the page and its CSV; its writers make,
    # change and delete (a refused form comes back: 200)
    "scorepad:season_list": [("get", None, GROUP_PAGE),
                             ("post", {"name": ""}, GROUP_WRITERS_200)],
    "scorepad:season": [("get", None, GROUP_PAGE)],
    "scorepad:season_edit": [("get", None, GROUP_WRITERS_200),
                             ("post", {"name": ""}, GROUP_WRITERS_200)],
    "scorepad:season_csv": [("get", None, GROUP_PAGE)],
    # a table's phone without an account: the code's address, its form, leaving
    "scorepad:table_phone": [("get", None, row(302, 302, 302, 302, 302, 302, 302))],
    "scorepad:table_enter": [("get", None, EVERYONE_200)],
    "scorepad:table_leave": [("post", None, row(302, 302, 302, 302, 302, 302, 302))],
}
#: Django's admin: only staff get in; everybody here is redirected to its login page.
ADMIN = row(302, 302, 302, 302, 302, 302, 302)

BODIES = {
    "deal": {"rules": "salzburg", "players": ["A", "B"], "dealer": "B",
             "deal": {"kind": "played", "declarer": "A", "bid": 2, "trump": "acorns",
                      "tricks": {"A": 3, "B": 2}}},
    "auction": {"rules": "salzburg", "players": ["A", "B"], "dealer": "B",
                "calls": [{"player": "A", "call": 2}, {"player": "B", "call": "pass"}]},
    "trick": {"rules": "salzburg", "trump": "acorns",
              "plays": [{"player": "A", "card": "leaves-ace"}]},
    "mura": {"players": ["A", "B", "C", "D"], "tricks": {"A": 2, "B": 2, "C": 2, "D": 2},
             "figures": {"A": 4, "B": 4, "C": 4, "D": 4}},
    "settle": {"stake": "0.10", "currency": "EUR",
               "penalties": {"A": {"mura": 1, "zeros": 0}, "B": {"mura": 0, "zeros": 0}}},
    "beat": {"trump": "hearts", "life": 1, "attack": "spades-9", "defense": "spades-10"},
    "hand": {"trump": "hearts", "hand": ["hearts-2"], "stock": 4},
    "pile": {"trump": "hearts", "players": ["A", "B"], "plays": [{"player": "A",
                                                                 "card": "spades-9"}]},
}


def all_url_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: Any, namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = p.namespace or namespace
                if ns == "admin":
                    continue
                walk(p.url_patterns, ns)
            elif isinstance(p, URLPattern) and p.name:
                names.add(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns, None)
    return names


def test_every_url_is_classified():
    assert all_url_names() - set(ACCESS) == set(), "classify these URLs in ACCESS"
    assert set(ACCESS) - all_url_names() == set(), "ACCESS names URLs that do not exist"


@pytest.fixture
def world() -> dict[str, Any]:
    owner = user("owner")
    group = group_with(owner)
    people = {"owner": owner, "stranger": user("stranger"), "viewer": user("viewer"),
              "editor": user("editor")}
    invitee = user("invitee")
    for role in ("viewer", "editor"):
        rosters.member_set(group=group, user=people[role], role=role)
    invitation = sharing.member_add(group=group, user=invitee, role="viewer", by=owner)
    session = session_at(group, owner)
    record(session, owner, played("Anna", EVEN))
    token = sharing.watch_link_create(session=session)
    invite = sharing.invite_create(group=group, user=owner, role="viewer")
    anna = group.players.get(name="Anna")
    from .tournament_play import drawn, tournament

    contest = tournament(group, owner, players=4)
    table = drawn(contest, owner).tables.get(number=1)
    record(table.session, owner, {"kind": "passed"})
    # a phone without an account, its session with a deal, and a tournament it made
    # before tournaments needed an account
    from scorepad import guests

    guest = guests.guest_create()
    guest_session = session_at(guest.group, guest.user)
    record(guest_session, guest.user, played("Anna", EVEN))
    people["guest"] = guest.user
    from .season_play import season

    return {"people": people, "group": group, "session": session, "token": token,
            "season": season(group, owner),
            "invite": invite, "player": anna, "invitation": invitation,
            "tournament": contest, "code": table.code,
            "own": {"guest": {"group": guest.group, "session": guest_session,
                              "player": guest.group.players.get(name="Anna"),
                              "tournament": tournament(guest.group, guest.user, players=4)},
                    "table": {"session": table.session}}}


def url_of(name: str, w: dict[str, Any], persona: str = "owner") -> str:
    """``name``'s URL about the world's objects (a guest's and a table's own, for them)."""
    w = w | w["own"].get(persona, {})
    kwargs: dict[str, Any] = {}
    pattern = next(p for p in _patterns() if p[0] == name)[1]
    for key, value in (("group_id", w["group"].pk), ("session_id", w["session"].pk),
                       ("number", 1), ("player_id", w["player"].pk),
                       ("invitation_id", w["invitation"].pk),
                       ("tournament_id", w["tournament"].pk), ("table", 1),
                       ("season_id", w["season"].pk)):
        if f"<int:{key}>" in pattern:
            kwargs[key] = value
    if "<str:fmt>" in pattern:
        kwargs["fmt"] = "csv"
    if "<token:token>" in pattern:
        kwargs["token"] = (w["invite"].token if name == "scorepad:join"
                           else w["tournament"].screen_token if "tournament" in name
                           else w["token"])
    if "<token:code>" in pattern:  # table 1's code of the open round
        kwargs["code"] = w["code"]
    if "<uidb64>/<token>" in pattern:  # a reset link that does not work
        kwargs |= {"uidb64": "MQ", "token": "set-password"}
    return reverse(name, kwargs=kwargs)


def _patterns() -> list[tuple[str, str]]:
    out = []

    def walk(patterns: Any, namespace: str | None, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = p.namespace or namespace
                if ns != "admin":
                    walk(p.url_patterns, ns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and p.name:
                out.append((f"{namespace}:{p.name}" if namespace else p.name,
                            prefix + str(p.pattern)))

    walk(get_resolver().url_patterns, None, "")
    return out


def client_for(persona: str, w: dict[str, Any], api: bool = False) -> Client:
    """A phone of ``persona``: logged in, or a table's (its code in the cookie of the
    table's pages; in the API as ``Authorization: Table <code>``)."""
    if persona == "table":
        if api:
            return Client(HTTP_AUTHORIZATION=f"Table {w['code']}")
        client = Client()
        assert client.get(f"/t/{w['code']}/").status_code == 302
        return client
    client = Client()
    if persona != "anonymous":
        client.force_login(w["people"][persona])
    return client


def body_for(name: str, body: Any, persona: str, w: dict[str, Any]) -> Any:
    w = w | w["own"].get(persona, {})
    if body == "import":
        from scorepad.transfer import exporting

        data = exporting.session_export(w["session"])
        data["session"]["uid"] = str(uuid.uuid4())
        return {"group": w["group"].pk, "data": data}
    if body == "group_file":
        from scorepad.transfer import exporting

        return exporting.group_export(w["group"])
    if body == "tournament":
        return {"group": w["group"].pk, "name": "T", "game": w["tournament"].game,
                "rounds": 1, "round_ends": "deals", "deals_per_round": 2, "table_size": 4,
                "scoring": "score", "draw": "random"}
    if body == "season":
        return {"name": f"{persona}'s year", "game": w["session"].game,
                "start": "2026-01-01", "end": "2026-12-31", "events": "both"}
    if body == "session":
        return {"group": w["group"].pk, "seats": ["Anna", "Bert"], "rules": "salzburg"}
    if isinstance(body, str):
        return BODIES[body]
    if isinstance(body, dict):
        return {k: v.replace("{persona}", persona) if isinstance(v, str) else v
                for k, v in body.items()}
    return body


@pytest.mark.parametrize("name", sorted(ACCESS))
def test_each_url_answers_each_persona_as_classified(name, world):
    for method, body, expected in ACCESS[name]:
        for persona in PERSONAS:
            url = url_of(name, world, persona)
            client = client_for(persona, world, api=name.startswith("api:"))
            data = body_for(name, body, persona, world)
            if name.startswith("api:") and data is not None:
                response = getattr(client, method)(url, json.dumps(data),
                                                   content_type="application/json")
            elif method == "get":
                response = client.get(url)
            else:
                response = getattr(client, method)(url, data or {})
            assert response.status_code == expected[persona], (
                f"{method.upper()} {url} as {persona}")
            if method == "get" and response.status_code == 200 \
                    and response["Content-Type"].startswith("text/html") \
                    and b"<html" in response.content:
                # each page (not a fragment htmx swaps in) this persona gets loads the
                # scripts it uses and no others
                assert page_scripts.problems(response.content.decode()) == [], (url, persona)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_admin_lets_in_nobody_but_staff(persona, world):
    response = client_for(persona, world).get("/admin/")
    assert response.status_code == ADMIN[persona]


@pytest.mark.parametrize("path", ["/watch/{bad}/", "/watch/{bad}/board",
                                  "/api/v1/watch/{bad}/scoreboard", "/join/{bad}/"])
def test_unknown_tokens_are_404(path, world):
    client = client_for("owner", world)
    assert client.get(path.format(bad="x" * 43)).status_code == 404

