"""docs/games.md, "Adding a game", done: a fourth game that lives only under ``tests/``
(``tests/toygame``: one package, a Django app with its templates and its own words) is
added through the registry's one setting, ``SCHREIBER_GAMES`` (which installs it as an
app: ``tests/gamesetting.py``), and walked through everything a user touches: starting a
session (the form and the API), recording, correcting and deleting deals, the session
page and its live check, the scoreboard and its 304, the watch link, the deal sheet, the
history, the past sessions, the statistics pages and API, the settlement, CSV and JSON
export and import, and the API with its OpenAPI schema, generated with the game
registered and validated (each answer against it as well). Nothing outside the toy's
package names it; when the setting is restored, the registry is the three games again."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import jsonschema
import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.test import Client
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from scorepad import games
from scorepad.models import Deal, Session
from tests.gamesetting import games_setting, with_games
from tests.scorepad.factories import phone_of, user
from tests.scorepad.test_schema_truth import Checked, account, strict

pytestmark = pytest.mark.django_db

TOY = "tests.toygame"  # the setting's one new line
NAME = "high_card"
SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


@pytest.fixture
def toy() -> Any:
    """The toy registered after the three games, the way a deployment adds one; the
    registry (and all that was made from it) as before afterwards."""
    before = games.names()
    with with_games(TOY):
        yield games.get(NAME)
    assert games.names() == before


def schema_now() -> dict[str, Any]:
    generated = SchemaGenerator().get_schema(request=None, public=True)
    schema: dict[str, Any] = json.loads(json.dumps(generated, default=str))
    validate_schema(schema)  # what manage.py spectacular --validate checks
    return schema



def text(response: Any) -> str:
    return str(response.content.decode())


# --- registered by the setting alone ---------------------------------------------------------


def test_the_setting_registers_the_game_and_restoring_it_forgets_it():
    board = "scorepad/_board_high_card.html"  # one of the toy's own templates
    assert NAME not in games.names()
    with pytest.raises(TemplateDoesNotExist):
        get_template(board)
    with with_games(TOY):
        assert games.names()[-1] == NAME and games.get(NAME).TITLE == "High Card"
        assert get_template(board)
        assert (NAME, "High Card") in Session._meta.get_field("game").choices
        components = schema_now()["components"]["schemas"]
        assert "HighCardScoreboardOut" in str(components["Scoreboard"])
        assert "high_card" in components["PlayerStatsOut"]["properties"]
    assert NAME not in games.names()
    with pytest.raises(TemplateDoesNotExist):
        get_template(board)
    components = schema_now()["components"]["schemas"]
    assert "HighCard" not in json.dumps(components)
    assert "high_card" not in components["PlayerStatsOut"]["properties"]


def test_its_referee_api_is_routed_while_it_is_registered():
    """The toy's own ``api`` module (its part of the referee API): routed, in the rules
    and in the schema while the setting names the toy; 404 again once it is restored."""
    url = "/api/v1/referee/high_card/deal"
    body = {"players": SEATS, "winners": ["Anna"]}
    assert Client().post(url, body, content_type="application/json").status_code == 404
    with with_games(TOY):
        schema = schema_now()
        assert "/api/v1/referee/high_card/deal" in schema["paths"]
        checked = Checked(schema)
        assert checked.call("post", url, body).json() == {"legal": True}
        refused = checked.call("post", url, {"players": SEATS, "winners": SEATS}, status=422)
        assert [v["code"] for v in refused.json()["violations"]] == ["nobody_lost"]
        checked.call("post", url, {"players": SEATS}, status=400)
        rules = Client().get("/api/v1/rules").json()
        assert NAME in json.dumps(rules)
    assert Client().post(url, body, content_type="application/json").status_code == 404
    assert "/api/v1/referee/high_card/deal" not in schema_now()["paths"]


def test_the_toy_provides_every_part_of_the_game_protocol(toy):
    from tests.scorepad import test_layers

    assert toy in games.registered()
    assert test_layers.protocol_gaps(toy) == []


def test_nothing_outside_the_toy_names_it():
    from tests.scorepad.test_layers import _searched_files

    for path in _searched_files():
        assert not re.search(r"high.?card", path.read_text(encoding="utf-8"), re.I), path


# --- the pages --------------------------------------------------------------------------------


def start_by_the_form(client: Client, **more: str) -> Session:
    page = client.get("/sessions/new/")
    assert page.status_code == 200 and 'value="high_card"' in text(page)
    assert "High Card: two to six players" in text(page)  # its start_parts note
    form = {"new_group": "Kartenrunde", "game": NAME, "stake": "0.10", "currency": "EUR",
            **{f"seat_{i}": name for i, name in enumerate(SEATS)}, "dealer": "3", **more}
    answer = client.post("/sessions/new/", form)
    assert answer.status_code == 302, text(answer)[:2000]
    session = Session.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))
    assert session.game == NAME and session.preset == NAME and session.rules == {}
    return session


def test_the_pages_of_a_toy_session(toy):
    owner = user("owner")
    client = phone_of(owner)
    session = start_by_the_form(client)
    base = f"/sessions/{session.pk}"

    page = client.get(f"{base}/")
    assert page.status_code == 200
    body = text(page)
    assert "High Card · 0 deals" in body and "who turned up the highest card?" in body

    # the live check: the form as filled in, checked by the game's rules
    checked = client.post(f"{base}/check", {"number": "1", "winner": ["Anna", "Anna"]},
                          HTTP_HX_REQUEST="true", HTTP_HX_TARGET="deal-form")
    assert checked.status_code == 200 and "Anna is ticked twice." in text(checked)
    checked = client.post(f"{base}/check", {"number": "1", "winner": ["Anna"]},
                          HTTP_HX_REQUEST="true", HTTP_HX_TARGET="deal-form")
    assert "A point each: Anna" in text(checked) and 'class="error"' not in text(checked)

    # record three deals (one a tie), refuse a broken one
    for number, winners in ((1, ["Anna"]), (2, ["Bert", "Cilli"]), (3, ["Dominik"])):
        saved = client.post(f"{base}/deals/new", {"number": str(number), "winner": winners,
                                                   "idempotency_key": f"k{number}"})
        assert saved.status_code == 302, text(saved)[:1000]
    refused = client.post(f"{base}/deals/new", {"number": "4", "winner": SEATS})
    assert "Somebody lost: not everybody can have turned up the highest card." in text(refused)
    assert list(session.deals.order_by("number").values_list("kind", flat=True)) == [
        "deal", "tie", "deal"]

    # correct deal 1, delete deal 3
    edit = client.get(f"{base}/deals/1/edit")
    assert edit.status_code == 200 and "Correct deal 1" in text(edit)
    assert re.search(r'value="Anna"\s+checked', text(edit))
    corrected = client.post(f"{base}/deals/1/edit", {"correcting": "1", "version": "1",
                                                     "winner": ["Dominik"]})
    assert corrected.status_code == 302, text(corrected)[:1000]
    assert "Highest card: Dominik" in text(client.get(f"{base}/deals/3/delete"))
    assert client.post(f"{base}/deals/3/delete").status_code == 302
    session.refresh_from_db()
    points = {p.player.name: session.state["points"][str(p.player_id)]
              for p in session.seats.select_related("player")}
    assert points == {"Anna": 0, "Bert": 1, "Cilli": 1, "Dominik": 1}

    # the scoreboard polled: the board, then 304 while nothing changed
    board = client.get(f"{base}/board")
    assert board.status_code == 200 and "High Card · 2 deals" in text(board)
    assert "Bert + Cilli turned up the highest card" in text(board)
    again = client.get(f"{base}/board", HTTP_IF_NONE_MATCH=board["ETag"])
    assert again.status_code == 304

    # the session page once more (cached per version), with the recent deals
    body = text(client.get(f"{base}/"))
    assert "High Card · 2 deals" in body and "Bert + Cilli" in body

    # the watch link: read-only, no login
    assert client.post(f"{base}/watch-link").status_code == 302
    session.refresh_from_db()
    watcher = Client()
    watched = watcher.get(f"/watch/{session.watch_token}/")
    assert watched.status_code == 200 and "High Card · 2 deals" in text(watched)
    assert watcher.get(f"/watch/{session.watch_token}/board").status_code == 200

    # looking back: the sheet, the history, past sessions, the settlement
    sheet = text(client.get(f"{base}/sheet"))
    assert "★" in sheet and "High Card points over the deals" in sheet
    history = text(client.get(f"{base}/history"))
    assert "Highest card: Dominik" in history and "Highest card: Anna" in history
    past = text(client.get(f"/groups/{session.group_id}/sessions/"))
    assert "Points: Anna 0, Bert 1, Cilli 1, Dominik 1" in past
    past = text(client.get(f"/groups/{session.group_id}/sessions/?game={NAME}"))
    assert "Points: Anna 0" in past
    settlement = text(client.get(f"{base}/settlement"))
    assert "every other player pays each High Card point the stake" in settlement

    # the statistics: the group's table, a player's page, one's own
    table = text(client.get(f"/groups/{session.group_id}/stats/"))
    assert "High Card points" in table
    anna = session.seats.get(position=0).player
    assert client.post(f"/players/{anna.pk}/link", {"user": "me"}).status_code == 302
    assert "<h2>High Card</h2>" in text(client.get(f"/players/{anna.pk}/"))
    mine = text(client.get("/me/stats/"))
    assert "<h2>High Card</h2>" in mine and "High Card point rate" in mine

    # export (JSON and CSV) and the import page: the same session again
    exported = client.get(f"/api/v1/sessions/{session.pk}/export")
    assert exported.status_code == 200 and exported.json()["session"]["game"] == NAME
    csv = client.get(f"/api/v1/sessions/{session.pk}/export?format=csv")
    assert "Bert + Cilli" in text(csv)
    other = client.post("/api/v1/groups/", json.dumps({"name": "Copy"}),
                        content_type="application/json").json()
    upload = io.BytesIO(exported.content)
    upload.name = "high-card.json"
    imported = client.post(f"/groups/{other['id']}/import", {"file": upload})
    assert imported.status_code == 302, text(imported)[:2000]
    copy = Session.objects.get(group_id=other["id"])
    assert copy.game == NAME and copy.state == {
        "points": {str(s.player_id): points[s.player.name]
                   for s in copy.seats.select_related("player")}, "deals": 2}

    # closed: the same table again in one tap, the same game
    assert client.post(f"{base}/status", {"status": "closed"}).status_code == 302
    again_form = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">',
                            text(client.get(f"{base}/")))
    assert ("game", NAME) in again_form
    restarted = client.post("/sessions/new/", dict(again_form))
    assert restarted.status_code == 302
    assert Session.objects.filter(group=session.group, game=NAME).count() == 2


def test_the_toy_speaks_german_and_hungarian_from_its_own_catalogue():
    """Its words and their translations are its own (``tests/toygame/locale/``): served
    while the setting names it, by Django's translations of its app, and by nothing
    before or after."""
    lost = "Somebody lost: not everybody can have turned up the highest card."
    german = "Jemand hat verloren: Nicht alle können die höchste Karte gehabt haben."
    hungarian = "Valaki vesztett: nem fordíthatta fel mindenki a legmagasabb lapot."
    with translation.override("de"):
        assert translation.gettext(lost) == lost
    with with_games(TOY):
        owner = user("erzsi")
        client = phone_of(owner)
        g = client.post("/api/v1/groups/", json.dumps({"name": "Asztal"}),
                        content_type="application/json").json()["id"]
        sid = client.post("/api/v1/sessions/", json.dumps(
            {"group": g, "game": NAME, "seats": SEATS}),
            content_type="application/json").json()["id"]
        for language, sentence in (("de", german), ("hu", hungarian), ("en", lost)):
            refused = client.post(f"/api/v1/sessions/{sid}/deals/", json.dumps(
                {"winners": SEATS}), content_type="application/json",
                HTTP_ACCEPT_LANGUAGE=language)
            assert refused.status_code == 422
            assert [v["message"] for v in refused.json()["violations"]] == [sentence]
        board = text(client.get(f"/sessions/{sid}/", HTTP_ACCEPT_LANGUAGE="hu"))
        assert "High Card · 0 osztás" in board and "ki fordította fel a legmagasabb lapot?" in board
        home = text(Client(HTTP_ACCEPT_LANGUAGE="de").get("/"))
        assert "bei Müller Matz und bei High Card mit" in home  # its name, in its own words
        start = text(client.get("/sessions/new/", HTTP_ACCEPT_LANGUAGE="hu"))
        assert "vesztett partinként vagy High Card-pontonként" in start  # the stake's label
    with translation.override("de"):
        assert translation.gettext(lost) == lost


def test_the_toy_alone_starts_by_the_form_and_the_api():
    """No other game registered: nothing the start form or the API does by default is
    another game's (its presets, its rules)."""
    with games_setting([TOY]):
        assert games.default() == NAME
        owner = user("solo")
        client = phone_of(owner)
        page = text(client.get("/sessions/new/"))
        assert 'value="high_card"' in page and 'name="preset"' not in page
        session = start_by_the_form(client, game="")  # no game picked: the first
        answer = client.post("/api/v1/sessions/", json.dumps(
            {"group": session.group_id, "seats": ["Anna", "Bert"]}),
            content_type="application/json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["game"] == NAME and answer.json()["preset"] == NAME
        refused = client.post("/api/v1/sessions/", json.dumps(
            {"group": session.group_id, "seats": ["Anna", "Bert"], "rules": "salzburg"}),
            content_type="application/json")
        assert refused.status_code == 400 and "rules.preset" in refused.json()["errors"]


# --- the API, against the schema made with the toy registered -------------------------------


def test_the_api_of_a_toy_session_answers_what_its_schema_says(toy):
    schema = schema_now()
    api = account(schema, "anna")
    stranger = account(schema, "yann")
    g = api.call("post", "/api/v1/groups/", {"name": "Kartenrunde"}, status=201).json()["id"]
    started = api.call("post", "/api/v1/sessions/", {
        "group": g, "game": NAME, "seats": SEATS, "dealer": "Dominik",
        "stake": "0.50", "currency": "EUR"}, status=201).json()
    assert started["game"] == NAME and started["scoreboard"]["deals"] == 0
    api.call("post", "/api/v1/sessions/", {"group": g, "game": NAME, "seats": ["Anna"]},
             status=400)
    api.call("post", "/api/v1/sessions/", {"group": g, "game": NAME, "seats": SEATS,
                                           "rules": {"preset": NAME,
                                                     "overrides": {"x": 1}}}, status=400)
    base = f"/api/v1/sessions/{started['id']}"
    api.call("post", f"{base}/deals/", {"winners": ["Anna"], "number": 1}, status=201)
    api.call("post", f"{base}/deals/", {"winners": ["Bert", "Cilli"]}, status=201)
    broken = api.call("post", f"{base}/deals/", {"winners": ["Anna", "Zoe"]}, status=422)
    assert [v["code"] for v in broken.json()["violations"]] == ["unknown_player"]
    api.call("post", f"{base}/deals/", {"winners": ["Anna"], "number": 1}, status=409)
    api.call("post", f"{base}/deals/", {"winners": "Anna"}, status=400)
    api.call("get", f"{base}/deals/")
    assert api.call("get", f"{base}/deals/2/").json()["kind"] == "tie"
    # its own key of players (PLAYER_KEYS), named as typed, not as stored
    assert api.call("get", f"{base}/deals/2/").json()["result"]["high_card_points"] == {
        "Anna": 1, "Bert": 1, "Cilli": 1, "Dominik": 0}
    api.call("put", f"{base}/deals/1/", {"winners": ["Dominik"], "version": 1})
    api.call("put", f"{base}/deals/1/", {"winners": ["Anna"], "version": 1}, status=409)
    api.call("put", f"{base}/deals/1/", {"winners": SEATS}, status=422)
    api.call("delete", f"{base}/deals/2/")
    api.call("post", f"{base}/deals/", {"winners": ["Anna"]}, status=201)
    board = api.call("get", f"{base}/scoreboard")
    assert board.json()["points"] == {"Anna": 1, "Bert": 0, "Cilli": 0, "Dominik": 1}
    # each point: the stake from each of the three others
    assert board.json()["balances"] == {"Anna": "1.00", "Bert": "-1.00", "Cilli": "-1.00",
                                        "Dominik": "1.00"}
    api.call("get", f"{base}/scoreboard", status=304, HTTP_IF_NONE_MATCH=board["ETag"])
    history = api.call("get", f"{base}/history").json()
    assert sorted(e["action"] for e in history) == sorted(
        ["create", "create", "update", "delete", "create"])
    assert len(api.call("get", f"{base}/settlement").json()["transfers"]) == 2
    token = api.call("post", f"{base}/watch-link").json()["token"]
    Checked(schema).call("get", f"/api/v1/watch/{token}/scoreboard")
    api.call("delete", f"{base}/watch-link", status=204)
    Checked(schema).call("get", f"/api/v1/watch/{token}/scoreboard", status=404)
    players = api.call("get", f"/api/v1/groups/{g}/players/").json()
    anna = next(p for p in players if p["name"] == "Anna")
    api.call("patch", f"/api/v1/groups/{g}/players/{anna['id']}/", {"user": "me"})
    figures = api.call("get", f"/api/v1/players/{anna['id']}/stats").json()
    assert figures["high_card"] == {"sessions": 1, "deals": 2, "hc_points": 1,
                                    "point_rate": 0.5}
    assert figures["games"] == 2 and figures["wins"] == 1  # its part of the top level
    assert api.call("get", "/api/v1/me/stats").json()["high_card"]["hc_points"] == 1
    stranger.call("get", f"{base}/", status=404)
    exported = api.call("get", f"{base}/export").json()
    assert "Anna" in text(api.call("get", f"{base}/export?format=csv"))
    api.call("post", "/api/v1/sessions/import", {"group": g, "data": exported}, status=409)
    copy = api.call("post", "/api/v1/sessions/import", exported, status=201).json()
    assert copy["game"] == NAME and copy["scoreboard"]["points"] == board.json()["points"]
    group_file = api.call("get", f"/api/v1/groups/{g}/export").json()
    fresh = api.call("post", "/api/v1/groups/", {"name": "Copy"}, status=201).json()
    api.call("post", f"/api/v1/groups/{fresh['id']}/import", group_file, status=201)
    api.call("patch", f"{base}/", {"status": "closed"})
    api.call("get", "/api/v1/sessions/")
    assert Deal.objects.filter(session__game=NAME).count() >= 3


def test_the_toy_scoreboard_is_exactly_one_shape_of_the_schema(toy):
    schema = schema_now()
    api = account(schema, "bert")
    g = api.call("post", "/api/v1/groups/", {"name": "G"}, status=201).json()["id"]
    sid = api.call("post", "/api/v1/sessions/", {"group": g, "game": NAME, "seats": SEATS},
                   status=201).json()["id"]
    board = api.call("get", f"/api/v1/sessions/{sid}/scoreboard").json()
    shapes = schema["components"]["schemas"]["Scoreboard"]["oneOf"]
    fits = [s for s in shapes if not list(jsonschema.Draft202012Validator(
        strict(s, schema["components"]["schemas"])).iter_errors(board))]
    assert fits == [{"$ref": "#/components/schemas/HighCardScoreboardOut"}]
