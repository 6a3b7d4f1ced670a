"""The OpenAPI schema tells the truth: real answers of every endpoint, for Mulatschak, Mura
and Müller Matz sessions, validated against the schema drf-spectacular generates, with
every declared field required where the schema says so and no undeclared field allowed
(``additionalProperties: false`` wherever the schema lists properties)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonschema
import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from .mura_play import play

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
GAMES = ["mulatschak", "mura", "muller_matz"]
PASSWORD = "kartenspiel-2026"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True),
                                 default=str))


def strict(node: Any, components: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """The OpenAPI 3.0 schema as a JSON Schema: references inlined, ``nullable`` as a null
    alternative, and no property beyond the listed ones."""
    if isinstance(node, list):
        return [strict(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        assert name not in seen, f"recursive schema {name}"
        return strict(components[name], components, (*seen, name))
    chooser = node.get("discriminator") or {}
    if "oneOf" in node and chooser.get("mapping"):
        # the discriminator picks the shape: the one its mapping names for the value
        field = chooser["propertyName"]
        return {"anyOf": [
            {"allOf": [{"properties": {field: {"const": value}}, "required": [field]},
                       strict({"$ref": ref}, components, seen)]}
            for value, ref in chooser["mapping"].items()]}
    out = {k: strict(v, components, seen) for k, v in node.items()
           if k not in ("nullable", "discriminator", "readOnly", "writeOnly", "example")}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def as_published(node: Any, components: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """The OpenAPI 3.0 schema as a JSON Schema as a client reads it: references inlined,
    ``nullable`` as a null alternative, every ``oneOf`` kept as it is (exactly one shape
    must take an answer) and objects open, as published."""
    if isinstance(node, list):
        return [as_published(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        assert name not in seen, f"recursive schema {name}"
        return as_published(components[name], components, (*seen, name))
    out = {k: as_published(v, components, seen) for k, v in node.items()
           if k not in ("nullable", "discriminator", "readOnly", "writeOnly", "example")}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


#: Every (method, path) some client called: all of the schema's must be.
SEEN: set[tuple[str, str]] = set()


class Checked:
    """A client that validates every answer against the schema and counts what it saw."""

    def __init__(self, schema: dict[str, Any], token: str | None = None) -> None:
        self.schema, self.client = schema, Client()
        self.headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
        self.seen = SEEN

    def _operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        bare = path.split("?")[0]
        for template, operations in self.schema["paths"].items():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
            if re.match(pattern, bare) and method in operations:
                return template, operations[method]
        raise AssertionError(f"{method.upper()} {bare} is not in the schema")

    def call(self, method: str, path: str, body: Any = None, status: int = 200,
             **extra: Any) -> Any:
        kwargs = {**self.headers, **extra}
        if body is not None:
            kwargs |= {"data": json.dumps(body), "content_type": "application/json"}
        response = getattr(self.client, method)(path, **kwargs)
        assert response.status_code == status, (method, path, response.content[:500])
        template, operation = self._operation(method, path)
        self.seen.add((method, template))
        documented = operation["responses"].get(str(response.status_code))
        assert documented is not None, f"{method} {template}: {status} is not documented"
        content = documented.get("content")
        if not content:
            assert not response.content, f"{method} {template} {status}: an undeclared body"
            return response
        media = response["Content-Type"].split(";")[0]
        if media != "application/json":
            assert media in content, f"{method} {template}: {media} is not documented"
            return response
        body_schema = strict(content["application/json"]["schema"],
                             self.schema["components"]["schemas"])
        data = response.json()
        errors = sorted(jsonschema.Draft202012Validator(body_schema).iter_errors(data),
                        key=lambda e: list(e.absolute_path))
        assert not errors, (f"{method} {template} {status}: "
                            + "; ".join(f"{list(e.absolute_path)}: {e.message[:300]}"
                                        for e in errors[:5]))
        # A client validating against the published schema (schemathesis does): every
        # oneOf must be taken by exactly one of its shapes.
        published = as_published(content["application/json"]["schema"],
                                 self.schema["components"]["schemas"])
        errors = list(jsonschema.Draft202012Validator(published).iter_errors(data))
        assert not errors, (f"{method} {template} {status} against the published schema: "
                            + "; ".join(e.message[:300] for e in errors[:3]))
        return response


def deals_for(game: str) -> dict[str, Any]:
    """A legal first deal, a second one another way, an illegal one, a malformed one."""
    if game == "mulatschak":
        return {"legal": {"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
                          "tricks": {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}},
                "other": {"kind": "collapsed"},
                "illegal": {"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
                            "tricks": {"Anna": 2, "Bert": 1}},
                "malformed": {"kind": "played", "tricks": {"Anna": "two"}}}
    if game == "mura":
        return {"legal": {"tricks": dict.fromkeys(SEATS, 2), "figures": dict.fromkeys(SEATS, 4)},
                "other": {"trick_cards": play(SEATS, 3, leader="Bert")},
                "other_first": {"trick_cards": play(SEATS, 3, leader="Anna")},
                "illegal": {"tricks": dict.fromkeys(SEATS, 2),
                            "figures": dict.fromkeys(SEATS, 9)},
                "malformed": {"tricks": "all of them"}}
    return {"legal": {"loser": "Bert"},
            "other": {"finish_order": ["Anna", "Cilli", "Dominik", "Bert"]},
            "illegal": {"finish_order": ["Anna", "Anna", "Dominik", "Bert"]},
            "malformed": {"finish_order": "Anna"}}


def account(schema: dict[str, Any], username: str) -> Checked:
    anonymous = Checked(schema)
    anonymous.call("post", "/api/v1/auth/register",
                   {"username": username, "password": PASSWORD}, status=201,
                   HTTP_IDEMPOTENCY_KEY=f"reg-{username}")
    anonymous.call("post", "/api/v1/auth/register",
                   {"username": username, "password": PASSWORD}, status=201,
                   HTTP_IDEMPOTENCY_KEY=f"reg-{username}")  # the first answer again
    anonymous.call("post", "/api/v1/auth/register", {"username": 7}, status=400)
    token = anonymous.call("post", "/api/v1/auth/token",
                           {"username": username, "password": PASSWORD}).json()["token"]
    anonymous.call("post", "/api/v1/auth/token",
                   {"username": username, "password": "wrong"}, status=400)
    return Checked(schema, token)


def play_a_session(api: Checked, member: Checked, other: Checked, game: str) -> None:
    """Every session endpoint, as an owner, a viewer and a stranger would call them."""
    group = api.call("post", "/api/v1/groups/", {"name": f"G {game}"}, status=201).json()
    g = group["id"]
    api.call("get", "/api/v1/groups/")
    api.call("post", f"/api/v1/groups/{g}/players/", {"name": "Erna"}, status=201)
    api.call("post", f"/api/v1/groups/{g}/players/", {"name": "erna"}, status=400)
    # nobody joins without consenting: invited (202), zora accepts; yann declines; an
    # invitation revoked by the owner
    sent = api.call("post", f"/api/v1/groups/{g}/members/",
                    {"username": "zora", "role": "viewer"}, status=202).json()["invitation"]
    api.call("post", f"/api/v1/groups/{g}/members/", {"username": "zora", "role": "editor"},
             status=202)  # renews the pending one
    api.call("get", f"/api/v1/groups/{g}/invitations/")
    member.call("get", "/api/v1/invitations/")
    other.call("post", f"/api/v1/invitations/{sent['id']}/accept", status=404)
    member.call("post", f"/api/v1/invitations/{sent['id']}/accept")
    member.call("post", f"/api/v1/invitations/{sent['id']}/accept", status=404)
    api.call("post", f"/api/v1/groups/{g}/members/", {"username": "zora", "role": "viewer"})
    declined = api.call("post", f"/api/v1/groups/{g}/members/",
                        {"username": "yann", "role": "viewer"}, status=202).json()
    other.call("post", f"/api/v1/invitations/{declined['invitation']['id']}/decline",
               status=204)
    other.call("post", f"/api/v1/invitations/{declined['invitation']['id']}/decline",
               status=404)
    revoked = api.call("post", f"/api/v1/groups/{g}/members/",
                       {"username": "yann", "role": "editor"}, status=202).json()
    revoke = f"/api/v1/groups/{g}/invitations/{revoked['invitation']['id']}"
    api.call("delete", revoke, status=204)
    api.call("delete", revoke, status=404)
    other.call("get", f"/api/v1/groups/{g}/invitations/", status=404)
    api.call("get", f"/api/v1/groups/{g}/members/")
    started = api.call("post", "/api/v1/sessions/", {
        "group": g, "game": game, "seats": SEATS, "dealer": "Dominik",
        "stake": "0.50", "currency": "EUR"}, status=201).json()
    sid = started["id"]
    api.call("post", "/api/v1/sessions/", {"group": g, "game": game, "seats": ["Anna"]},
             status=400)
    players = api.call("get", f"/api/v1/groups/{g}/players/").json()
    anna = next(p for p in players if p["name"] == "Anna")
    api.call("patch", f"/api/v1/groups/{g}/players/{anna['id']}/", {"user": "me"})
    base = f"/api/v1/sessions/{sid}"
    deals = deals_for(game)
    api.call("post", f"{base}/deals/", {**deals["legal"], "number": 1}, status=201)
    api.call("post", f"{base}/deals/", deals["other"], status=201)
    api.call("post", f"{base}/deals/", deals["illegal"], status=422)
    api.call("post", f"{base}/deals/", {**deals["legal"], "number": 1}, status=409)
    api.call("post", f"{base}/deals/", deals["malformed"], status=400)
    api.call("get", f"{base}/deals/")
    api.call("get", f"{base}/deals/1/")
    api.call("get", f"{base}/deals/99/", status=404)
    first = deals.get("other_first", deals["other"])  # Mura: Anna leads deal 1's first trick
    api.call("put", f"{base}/deals/1/", {**first, "version": 1})
    api.call("put", f"{base}/deals/1/", {**deals["legal"], "version": 1}, status=409)
    api.call("put", f"{base}/deals/1/", deals["illegal"], status=422)
    api.call("delete", f"{base}/deals/2/")
    api.call("post", f"{base}/deals/", deals["legal"], status=201)
    board = api.call("get", f"{base}/scoreboard")
    api.call("get", f"{base}/scoreboard", status=304, HTTP_IF_NONE_MATCH=board["ETag"])
    api.call("get", f"{base}/history")
    api.call("get", f"{base}/settlement")
    api.call("get", "/api/v1/sessions/")
    api.call("get", "/api/v1/sessions/?status=maybe", status=400)
    api.call("get", f"{base}/")
    token = api.call("post", f"{base}/watch-link").json()["token"]
    Checked(api.schema).call("get", f"/api/v1/watch/{token}/scoreboard")
    Checked(api.schema).call("get", f"/api/v1/watch/{token}/card.png?theme=dark")
    api.call("get", f"{base}/card.png?lang=hu")
    other.call("get", f"{base}/card.png", status=404)
    api.call("delete", f"{base}/watch-link", status=204)
    Checked(api.schema).call("get", f"/api/v1/watch/{token}/scoreboard", status=404)
    Checked(api.schema).call("get", f"/api/v1/watch/{token}/card.png", status=404)
    api.call("get", f"/api/v1/players/{anna['id']}/stats")
    api.call("get", "/api/v1/me/stats")
    other.call("get", f"{base}/", status=404)
    Checked(api.schema).call("get", f"{base}/", status=401)
    exported = api.call("get", f"{base}/export").json()
    api.call("get", f"{base}/export?format=csv")
    api.call("post", "/api/v1/sessions/import", {"group": g, "data": exported}, status=409)
    api.call("post", "/api/v1/sessions/import", exported, status=201)
    api.call("post", "/api/v1/sessions/import", {"group": g, "data": {"format": "x"}},
             status=400)
    group_file = api.call("get", f"/api/v1/groups/{g}/export").json()
    fresh = api.call("post", "/api/v1/groups/", {"name": f"Copy {game}"}, status=201).json()
    api.call("post", f"/api/v1/groups/{fresh['id']}/import", group_file, status=201)
    api.call("patch", f"{base}/", {"status": "closed"})
    api.call("patch", f"{base}/", {"name": "Kirtag", "date": "2025-11-23", "note": "a\nb"})
    api.call("patch", f"{base}/", {"date": "23.11.2025"}, status=400)
    api.call("get", f"/api/v1/groups/{g}/ratings?game={game}")
    api.call("get", f"/api/v1/groups/{g}/ratings?game={game}&since=2025-01-01")
    api.call("get", f"/api/v1/groups/{g}/ratings?since=soon", status=400)
    other.call("get", f"/api/v1/groups/{g}/ratings", status=404)
    api.call("post", f"{base}/deals/", deals["legal"], status=409)
    api.call("delete", f"/api/v1/groups/{g}/members/", {"username": "zora"}, status=204)


def ask_the_referee(api: Checked) -> None:
    referee = "/api/v1/referee"
    table = {"rules": "salzburg", "players": SEATS, "dealer": "Dominik"}
    api.call("get", "/api/v1/rules")
    api.call("post", f"{referee}/mulatschak/deal", {**table, "deal": deals_for(
        "mulatschak")["legal"]})
    api.call("post", f"{referee}/mulatschak/deal", {**table, "deal": {"kind": "collapsed"}})
    api.call("post", f"{referee}/mulatschak/deal", {**table, "deal": deals_for(
        "mulatschak")["illegal"]}, status=422)
    api.call("post", f"{referee}/mulatschak/deal", {**table, "deal": "x"}, status=400)
    api.call("post", f"{referee}/mulatschak/auction", {**table, "calls": [
        {"player": "Anna", "call": 2}, {"player": "Bert", "call": "pass"},
        {"player": "Cilli", "call": "pass"}, {"player": "Dominik", "call": "pass"}]})
    api.call("post", f"{referee}/mulatschak/auction", {**table, "calls": [
        {"player": "Bert", "call": 2}]}, status=422)
    api.call("post", f"{referee}/mulatschak/trick", {"rules": "salzburg", "trump": "hearts",
             "plays": [{"player": "Anna", "card": "hearts-ober"},
                       {"player": "Bert", "card": "hearts-ace"}]})
    api.call("post", f"{referee}/mulatschak/trick", {"rules": "salzburg", "trump": "hearts",
             "plays": [{"player": "Anna", "card": "hearts-ober"},
                       {"player": "Bert", "card": "bells-ace",
                        "hand": ["bells-ace", "hearts-7"]}]}, status=422)
    mura = deals_for("mura")
    api.call("post", f"{referee}/mura/deal", {"players": SEATS, **mura["legal"]})
    api.call("post", f"{referee}/mura/deal", {"players": SEATS, **mura["other"]})
    api.call("post", f"{referee}/mura/deal", {"players": SEATS, **mura["illegal"]}, status=422)
    api.call("post", f"{referee}/mura/settle", {"stake": "0.50", "currency": "EUR",
             "penalties": {"Anna": {"mura": 3, "zeros": 2}, "Bert": {"mura": 0, "zeros": 0}}})
    api.call("post", f"{referee}/muller-matz/beat", {"trump": "hearts", "life": 1,
             "attack": "spades-9", "defense": "spades-queen"})
    api.call("post", f"{referee}/muller-matz/hand", {"trump": "hearts",
             "hand": ["hearts-2", "spades-9"], "stock": 10, "turned_up": "hearts-queen"})
    api.call("post", f"{referee}/muller-matz/hand", {"trump": "hearts", "hand": ["x"],
             "stock": -1}, status=400)
    pile = {"trump": "hearts", "players": SEATS}
    api.call("post", f"{referee}/muller-matz/pile", {**pile, "plays": [
        {"player": "Anna", "card": "spades-9"}, {"player": "Bert", "pick_up": True}]})
    api.call("post", f"{referee}/muller-matz/pile", {**pile, "plays": [
        {"player": "Anna", "pick_up": True}]}, status=422)


def test_every_answer_of_every_endpoint_is_what_the_schema_says(schema):
    api = account(schema, "anna")
    member = account(schema, "zora")  # a member once invited and accepted, a viewer
    other = account(schema, "yann")  # nobody's member
    for game in GAMES:
        play_a_session(api, member, other, game)
    ask_the_referee(api)
    run_a_tournament(api, member, other)
    keep_a_season(api, other)
    change_the_password(schema)
    offered = {(method, path) for path, operations in schema["paths"].items()
               for method in operations if "/schema/" not in path}
    missing = offered - SEEN
    assert not missing, f"not exercised: {sorted(missing)}"


def keep_a_season(api: Checked, other: Checked) -> None:
    """A season over one closed evening through every season endpoint
    (docs/tournaments.md, "Seasons")."""
    g = api.call("post", "/api/v1/groups/", {"name": "Kartenclub"}, status=201).json()["id"]
    session = api.call("post", "/api/v1/sessions/", {
        "group": g, "game": "mulatschak", "seats": SEATS, "dealer": "Dominik",
        "rules": "geiser"}, status=201).json()
    api.call("post", f"/api/v1/sessions/{session['id']}/deals/", {"kind": "collapsed"},
             status=201)
    api.call("patch", f"/api/v1/sessions/{session['id']}/",
             {"status": "closed", "date": "2026-03-01"})
    seasons = f"/api/v1/groups/{g}/seasons/"
    body = {"name": "Jahreswertung 2026", "game": "mulatschak", "start": "2026-01-01",
            "end": "2026-12-31", "events": "both", "cup_points": [25, 20, 12.5],
            "best_of": 10, "min_events": 1}
    sid = api.call("post", seasons, body, status=201).json()["id"]
    api.call("post", seasons, {**body, "end": "2025-12-31"}, status=400)
    api.call("get", seasons)
    other.call("get", seasons, status=404)
    base = f"/api/v1/seasons/{sid}"
    api.call("get", f"{base}/")
    api.call("patch", f"{base}/", {"best_of": None, "name": "Cup 2026"})
    api.call("patch", f"{base}/", {"min_events": -1}, status=400)
    shown = api.call("get", f"{base}/standings")
    assert len(shown.json()["standings"]) == len(SEATS)
    api.call("get", f"{base}/standings", status=304, HTTP_IF_NONE_MATCH=shown["ETag"])
    api.call("get", f"{base}/standings?category=Damen")
    api.call("get", f"{base}/standings?category=" + "x" * 30, status=400)
    other.call("get", f"{base}/standings", status=404)
    api.call("delete", f"{base}/", status=204)
    api.call("get", f"{base}/", status=404)


def run_a_tournament(api: Checked, member: Checked, other: Checked) -> None:
    """A tournament of two tables through every endpoint, a table's phone included."""
    from scorepad import games

    g = api.call("post", "/api/v1/groups/", {"name": "Preis-Abend"}, status=201).json()["id"]
    game = [n for n in games.for_tournaments() if games.get(n).TOURNAMENT.ends_with_game][0]
    body = {"group": g, "name": "Preis-Abend", "game": game, "rules": "geiser", "rounds": 2,
            "round_ends": "deals", "deals_per_round": 1, "table_size": 4,
            "scoring": "placement", "draw": "swiss", "stake": "0.50", "currency": "EUR"}
    tid = api.call("post", "/api/v1/tournaments/", body, status=201).json()["id"]
    api.call("post", "/api/v1/tournaments/", {**body, "rounds": 0}, status=400)
    api.call("post", "/api/v1/tournaments/", {**body, "scoring": "combined"}, status=400)
    api.call("get", "/api/v1/tournaments/")
    base = f"/api/v1/tournaments/{tid}"
    api.call("patch", f"{base}/", {
        "scoring": "combined", "rank_points": [60, 40, 20.5, 0],
        "tiebreaks": ["score", "best_round", "lot"], "final_tables": 1,
        "confirm_results": True, "date": "2026-11-28", "entry_fee": "5.00",
        "prizes": [{"place": 1, "percent": 50}, {"place": 2, "amount": "10.00"},
                   {"place": 3, "item": "Geschenkkorb"}]})
    for name in ("Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz", "Gerti", "Hans"):
        api.call("post", f"{base}/players/", {"name": name}, status=201)
    api.call("post", f"{base}/players/", {"name": "anna"}, status=400)
    api.call("post", f"{base}/players/", {"name": "Zenzi", "category": "Damen"}, status=201)
    api.call("patch", f"{base}/players/", {"name": "Anna", "paid": True, "category": "Damen"})
    api.call("patch", f"{base}/players/", {"name": "Nobody", "paid": True}, status=400)
    roster = api.call("get", f"/api/v1/groups/{g}/players/").json()
    api.call("patch", f"/api/v1/players/{roster[0]['id']}/", {"category": None})
    api.call("get", f"/api/v1/players/{roster[0]['id']}/")
    other.call("get", f"/api/v1/players/{roster[0]['id']}/", status=404)
    api.call("get", f"{base}/prizes")
    api.call("delete", f"{base}/players/", {"name": "Hans"})
    api.call("post", f"{base}/players/", {"name": "Ida"}, status=201)
    api.call("get", f"{base}/players/")
    other.call("get", f"{base}/", status=404)
    drawn = api.call("post", f"{base}/rounds/", status=201).json()
    api.call("post", f"{base}/rounds/", status=409)
    api.call("post", f"{base}/rounds/1/close", {"force": False}, status=409)
    api.call("post", f"{base}/rounds/9/close", {"force": False}, status=404)
    table = drawn["tables"][0]
    phone = {"HTTP_AUTHORIZATION": f"Table {table['table_code']}"}
    api.call("get", f"/api/v1/sessions/{table['session']}/scoreboard", **phone)
    api.call("post", f"/api/v1/sessions/{table['session']}/deals/", {"kind": "passed"},
             status=201, **phone)
    api.call("post", f"/api/v1/sessions/{table['session']}/deals/", {"kind": "passed"},
             status=422, **phone)
    api.call("get", f"/api/v1/sessions/{table['session']}/confirm", **phone)
    api.call("post", f"/api/v1/sessions/{table['session']}/confirm", {"player": "Nobody"},
             status=400, **phone)
    api.call("post", f"{base}/rounds/1/close", {"force": False}, status=409)
    api.call("post", f"/api/v1/sessions/{table['session']}/confirm",
             {"player": table["seats"][0]}, **phone)
    api.call("post", f"/api/v1/sessions/{drawn['tables'][1]['session']}/confirm",
             {"player": drawn["tables"][1]["seats"][0]}, status=409)
    api.call("get", f"{base}/")
    other.call("get", f"{base}/ranking", status=404)
    api.call("patch", f"{base}/", {"status": "finished"}, status=409)
    api.call("post", f"{base}/rounds/1/close", {"force": True})
    first = api.call("get", f"{base}/ranking")
    api.call("get", f"{base}/ranking", status=304, HTTP_IF_NONE_MATCH=first["ETag"])
    api.call("get", f"{base}/ranking?category=Damen")
    api.call("patch", f"{base}/", {"screen_hides_rounds": 1})
    api.call("patch", f"{base}/", {"status": "finished"})


def change_the_password(schema: dict[str, Any]) -> None:
    api = account(schema, "xaver")
    api.call("post", "/api/v1/auth/password", {"old_password": "wrong", "new_password": "x"},
             status=400)
    api.call("post", "/api/v1/auth/password", {"old_password": PASSWORD,
                                               "new_password": "1"}, status=400)
    token = api.call("post", "/api/v1/auth/password", {
        "old_password": PASSWORD, "new_password": "another-kartenspiel-2027"}).json()["token"]
    fresh = Checked(schema, token)
    fresh.call("post", "/api/v1/auth/token/revoke", status=204)
    fresh.call("get", "/api/v1/groups/", status=401)


@pytest.mark.parametrize("game", GAMES)
def test_each_games_scoreboard_matches_exactly_one_shape_of_the_schema(schema, game):
    """The scoreboard's oneOf is not ambiguous: each game's board is one of its shapes."""
    api = account(schema, f"u{game[:4]}")
    g = api.call("post", "/api/v1/groups/", {"name": "G"}, status=201).json()["id"]
    sid = api.call("post", "/api/v1/sessions/", {"group": g, "game": game, "seats": SEATS},
                   status=201).json()["id"]
    board = api.call("get", f"/api/v1/sessions/{sid}/scoreboard").json()
    shapes = schema["components"]["schemas"]["Scoreboard"]["oneOf"]
    fits = [s for s in shapes if not list(jsonschema.Draft202012Validator(
        strict(copy.deepcopy(s), schema["components"]["schemas"])).iter_errors(board))]
    assert len(fits) == 1, (game, board)


# --- the schema states what validation checks, where OpenAPI can ---------------------------------


def _request_schema(schema: dict[str, Any], name: str, *path: str) -> Any:
    components = schema["components"]["schemas"]
    node = components[name]
    for key in path:
        node = node[key]
    return jsonschema.Draft202012Validator(as_published(node, components))


@pytest.mark.parametrize(("component", "field"), [("RegisterInRequest", "password"),
                                                  ("PasswordInRequest", "new_password")])
def test_the_schema_refuses_a_new_password_of_digits_alone_as_the_server_does(
        schema, component, field):
    allowed = _request_schema(schema, component, "properties", field)
    for digits in ("12345678", "١٢٣٤٥٦٧٨", "²³¹12345"):
        assert not allowed.is_valid(digits), digits
    for fine in ("1234567x", "kartenspiel-2026", "12345678 "):
        assert allowed.is_valid(fine), fine
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    for digits in ("12345678", "١٢٣٤٥٦٧٨", "²³¹12345"):
        with pytest.raises(ValidationError):
            validate_password(digits)


def test_an_all_digit_password_is_refused_naming_the_field_in_the_users_language():
    answer = Client().post("/api/v1/auth/register",
                           json.dumps({"username": "zahl", "password": "20262026"}),
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["password"]
    assert "numerisch" in json.dumps(answer.json(), ensure_ascii=False)


def _exchanges() -> list[dict[str, Any]]:
    """An exchange of every form with every combination of the record's fields (and a
    value of the wrong kind for each)."""
    from itertools import combinations

    from referee.exchange import Form

    values = {"cards": 2, "face_up": 1, "face_up_kept": 0, "refused": True}
    wrong = {"cards": True, "face_up": -1, "face_up_kept": "1", "refused": 1}
    out = []
    for form in [*Form, "swap"]:
        for n in range(len(values) + 1):
            for names in combinations(values, n):
                out.append({"form": str(form), **{k: values[k] for k in names}})
                out += [{"form": str(form), **{k: values[k] for k in names}, bad: wrong[bad]}
                        for bad in names]
    return out + [{}, {"cards": 2}]


def test_the_schema_of_an_exchange_takes_exactly_what_the_referee_takes(schema):
    from referee.exchange import exchange_from_dict
    from referee.violations import RuleError

    allowed = _request_schema(schema, "MulatschakDealPostRequest", "properties", "exchanges",
                              "additionalProperties")
    differ = []
    for exchange in _exchanges():
        try:
            exchange_from_dict(exchange, maximum=99)
            taken = True
        except RuleError:
            taken = False
        if allowed.is_valid(exchange) != taken:
            differ.append((exchange, "taken" if taken else "refused"))
    assert differ == []
