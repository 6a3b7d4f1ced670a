"""A tournament's formats through the API (docs/tournaments.md, "Tournament formats"):
combined points, tie-breaks and the draw by lot, the final, confirmed results, entry fees
and the prize list, categories, and the fields that change only while registering. The
figures are this test's own: a Geiser table finishes after two sweeps (the sweeper's round
score 15 − (−5) = 20, everybody else's 15 − 35 = −20)."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

import pytest
from django.utils import timezone

from scorepad import accounts
from scorepad.models import Entrant, Player, Tournament
from scorepad.tournaments import services as tour
from scorepad.tournaments import tables as table_rules

from .factories import member, user
from .test_tournaments_api import ENDS_WITH_GAME, Api, _finish, _table_api, sweep_by
from .tournament_play import NAMES

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(anna):
    return Api(f"Token {accounts.token_of(user=anna)}")


def _body(group, **kw):
    return {"group": group.pk, "name": "Preis-Abend", "game": ENDS_WITH_GAME,
            "rules": "geiser", "rounds": 1, "round_ends": "game", "table_size": 4,
            "scoring": "placement", "draw": "random", **kw}


def _made(director, group, players=8, **kw):
    made = director.call("post", "/api/v1/tournaments/", _body(group, **kw))
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for name in NAMES[:players]:
        assert director.call("post", f"/api/v1/tournaments/{tid}/players/",
                             {"name": name}).status_code == 201
    return tid


def _round(director, tid):
    drawn = director.call("post", f"/api/v1/tournaments/{tid}/rounds/")
    assert drawn.status_code == 201, drawn.content
    return drawn.json()


def _play(director, tid, winners=None):
    """Draw the next round; at each table its first seat (or ``winners[table]``) sweeps
    twice; close it. The tables as drawn."""
    drawn = _round(director, tid)
    for table in drawn["tables"]:
        winner = (winners or {}).get(table["table"], table["seats"][0])
        _finish(director, table["session"], winner, table["seats"])
    closed = director.call("post", f"/api/v1/tournaments/{tid}/rounds/{drawn['number']}/close")
    assert closed.status_code == 200, closed.content
    return drawn


def _ranking(director, tid, query=""):
    answer = director.call("get", f"/api/v1/tournaments/{tid}/ranking{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()["ranking"]


# --- combined points, choices that stay while registering --------------------------------


def test_combined_scoring_needs_rank_points_naming_them(director, group):
    refused = director.call("post", "/api/v1/tournaments/", _body(group, scoring="combined"))
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["rank_points"]


def test_combined_points_are_the_score_plus_the_places_rank_points(director, group):
    tid = _made(director, group, players=4, scoring="combined", rank_points=[60, 40, 20, 0])
    table = _play(director, tid)["tables"][0]
    lines = {line["name"]: line for line in _ranking(director, tid)}
    winner = table["seats"][0]
    assert lines[winner]["points"] == "80.00" and lines[winner]["score"] == "20.00"
    # the other three share places 2 to 4: (40 + 20 + 0) / 3 = 20 rank points, −20 score
    assert {lines[n]["points"] for n in table["seats"][1:]} == {"0.00"}
    assert director.call("get", f"/api/v1/tournaments/{tid}/").json()["rank_points"] == [
        60, 40, 20, 0]


def test_the_formats_have_their_defaults_and_are_shown(director, group):
    tid = _made(director, group, players=0)
    made = director.call("get", f"/api/v1/tournaments/{tid}/").json()
    assert (made["tiebreaks"], made["final_tables"], made["confirm_results"],
            made["entry_fee"], made["prizes"], made["rank_points"]) == (
        ["score", "wins"], 0, False, None, [], [])
    assert made["date"] == timezone.localdate().isoformat()
    dated = _made(director, group, players=0, date="2026-12-05", entry_fee="5",
                  currency="EUR", prizes=[{"place": 2, "item": "Geschenkkorb"},
                                          {"place": 1, "percent": 60.5}])
    shown = director.call("get", f"/api/v1/tournaments/{dated}/").json()
    assert shown["date"] == "2026-12-05" and shown["entry_fee"] == "5.00"
    assert shown["currency"] == "EUR"
    assert shown["prizes"] == [{"place": 1, "percent": 60.5},
                               {"place": 2, "item": "Geschenkkorb"}]


def test_the_formats_change_by_patch_only_while_registering(director, group):
    tid = _made(director, group, players=4)
    path = f"/api/v1/tournaments/{tid}/"
    changed = director.call("patch", path, {"tiebreaks": ["best_round", "lot"],
                                            "final_tables": 1, "confirm_results": True})
    assert changed.status_code == 200, changed.content
    assert (changed.json()["tiebreaks"], changed.json()["final_tables"]) == (
        ["best_round", "lot"], 1)
    _round(director, tid)
    late = director.call("patch", path, {"tiebreaks": ["score"]})
    assert late.status_code == 409 and late.json()["reason"] == "formats_fixed"
    assert Tournament.objects.get(pk=tid).tiebreaks == ["best_round", "lot"]
    # other changes go on as before
    assert director.call("patch", path, {"name": "Preis-Abend 2"}).status_code == 200


@pytest.mark.parametrize(("change", "field"), [
    ({"tiebreaks": ["coin"]}, "tiebreaks.0"),
    ({"tiebreaks": ["lot", "lot"]}, "tiebreaks"),
    ({"rank_points": []}, "rank_points"),
    ({"rank_points": [1] * 13}, "rank_points"),
    ({"rank_points": [10, -1]}, "rank_points.1"),
    ({"scoring": "combined"}, "rank_points"),
    ({"final_tables": -1}, "final_tables"),
    ({"confirm_results": "yes"}, "confirm_results"),
    ({"date": "28.11.2026"}, "date"),
    ({"entry_fee": "-5"}, "entry_fee"),
    ({"entry_fee": "5.001"}, "entry_fee"),
    ({"currency": "XYZ"}, "currency"),
    ({"prizes": [{"place": 1, "percent": 60}, {"place": 1, "amount": "5"}]},
     "prizes.1.place"),
    ({"prizes": [{"place": 1, "percent": 60}, {"place": 2, "percent": 41}]}, "prizes"),
    ({"prizes": [{"place": 0, "item": "Korb"}]}, "prizes.0.place"),
    ({"prizes": [{"place": 1, "item": "x" * 81}]}, "prizes.0.item"),
    ({"prizes": [{"place": 1, "percent": 10, "item": "Korb"}]}, "prizes.0"),
])
def test_a_wrong_format_is_a_400_naming_its_field_and_changes_nothing(director, group,
                                                                       change, field):
    tid = _made(director, group, players=0)
    before = Tournament.objects.get(pk=tid)
    refused = director.call("patch", f"/api/v1/tournaments/{tid}/", change)
    assert refused.status_code == 400, refused.content
    assert field in refused.json()["errors"], refused.json()
    after = Tournament.objects.get(pk=tid)
    assert (after.version, after.tiebreaks, after.prizes) == (before.version, before.tiebreaks,
                                                              before.prizes)


# --- the draw by lot ------------------------------------------------------------------------


def test_lots_are_drawn_once_with_round_one_stored_and_shown(director, group):
    tid = _made(director, group, players=8, rounds=2, tiebreaks=["score", "lot"])
    path = f"/api/v1/tournaments/{tid}/players/"
    assert {p["lot"] for p in director.call("get", path).json()} == {None}
    _round(director, tid)
    lots = {p["name"]: p["lot"] for p in director.call("get", path).json()}
    assert sorted(lots.values()) == list(range(1, 9))
    assert {p["name"]: p["lot"] for p in director.call("get", path).json()} == lots
    # a latecomer draws a lot among them; everybody else keeps their order
    late = director.call("post", path, {"name": "Zenzi"})
    assert late.status_code == 201 and 1 <= late.json()["lot"] <= 9
    after = {p["name"]: p["lot"] for p in director.call("get", path).json()}
    assert sorted(after.values()) == list(range(1, 10))
    assert sorted(lots, key=lots.get) == sorted(lots, key=after.get)
    assert all("lot" in line for line in _ranking(director, tid))


def test_without_a_lot_tiebreak_final_or_prize_no_lot_is_drawn(director, group):
    tid = _made(director, group, players=4)
    _round(director, tid)
    assert set(Entrant.objects.filter(tournament_id=tid).values_list("lot", flat=True)) == {
        None}
    assert "lot" not in director.call("get", f"/api/v1/tournaments/{tid}/players/").json()[0]


def test_with_lot_in_the_tiebreaks_nobody_shares_a_place(director, group):
    tid = _made(director, group, players=8, tiebreaks=["score", "wins", "lot"])
    _play(director, tid)
    lines = _ranking(director, tid)
    assert [line["place"] for line in lines] == list(range(1, 9))
    losers = [line for line in lines if line["points"] == "1.00"]
    assert [line["lot"] for line in losers] == sorted(line["lot"] for line in losers)


# --- the final ------------------------------------------------------------------------------


def test_the_final_is_drawn_after_the_last_round_from_the_top_of_the_ranking(director, group):
    tid = _made(director, group, players=8, final_tables=1)
    first = _round(director, tid)
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/").status_code == 409
    for table in first["tables"]:
        _finish(director, table["session"], table["seats"][0], table["seats"])
    director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close")
    lots = {p["name"]: p["lot"] for p in
            director.call("get", f"/api/v1/tournaments/{tid}/players/").json()}
    final = _round(director, tid)
    assert final["number"] == 2 and final["final"] is True and len(final["tables"]) == 1
    # the two sweepers (3 points), then the tie of six at 1 point cut by lot
    winners = {t["seats"][0] for t in first["tables"]}
    others = sorted((n for n in lots if n not in winners), key=lots.get)
    assert set(final["tables"][0]["seats"]) == winners | set(others[:2])
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/").status_code == 409
    # before the final is closed the ranking is the qualifying one
    assert {line["final_table"] for line in _ranking(director, tid)} == {None}
    table = final["tables"][0]
    champion = others[1]
    _finish(director, table["session"], champion, table["seats"])
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/2/close").status_code \
        == 200
    lines = _ranking(director, tid)
    assert [(line["name"], line["place"], line["final_table"], line["final_place"])
            for line in lines][:1] == [(champion, 1, 1, 1)]
    # the other finalists share place 2 (all −20 there), ordered by their qualifying
    # ranking (the sweepers first), then by lot; the others after, sharing place 5
    rest = [line["name"] for line in lines[1:4]]
    assert rest[:2] == sorted(winners, key=lots.get) and rest[2] == others[0]
    assert [line["place"] for line in lines] == [1, 2, 2, 2, 5, 5, 5, 5]
    assert [line["final_place"] for line in lines][4:] == [None] * 4
    # the final's points are not added
    top = lines[0]
    assert top["points"] == "1.00" and [r["round"] for r in top["rounds"]] == [1]


def test_a_final_needs_a_table_full_of_players(director, group):
    tid = _made(director, group, players=4, final_tables=2)
    _play(director, tid)
    director.call("delete", f"/api/v1/tournaments/{tid}/players/", {"name": NAMES[0]})
    refused = director.call("post", f"/api/v1/tournaments/{tid}/rounds/")
    assert refused.status_code == 409 and refused.json()["reason"] == "final_too_few"


def test_two_final_tables_seat_the_best_four_at_table_one(director, group):
    tid = _made(director, group, players=12, final_tables=2, tiebreaks=["score", "lot"])
    _play(director, tid)
    order = [line["name"] for line in _ranking(director, tid)]
    final = _round(director, tid)
    assert [set(t["seats"]) for t in final["tables"]] == [set(order[:4]), set(order[4:8])]


# --- confirmed results ----------------------------------------------------------------------


def test_a_seated_player_confirms_a_finished_table_and_a_correction_clears_it(director, group):
    tid = _made(director, group, players=8, confirm_results=True)
    drawn = _round(director, tid)
    one, two = drawn["tables"]
    phone = _table_api(one["table_code"])
    path = f"/api/v1/sessions/{one['session']}/confirm"
    # a name not seated there is named first, finished or not
    stranger = phone.call("post", path, {"player": two["seats"][0]})
    assert stranger.status_code == 400 and list(stranger.json()["errors"]) == ["player"]
    early = phone.call("post", path, {"player": one["seats"][1]})
    assert early.status_code == 409
    assert phone.call("get", path).json() == {"confirmed_by": None, "at": None}
    _finish(phone, one["session"], one["seats"][0], one["seats"])
    done = phone.call("post", path, {"player": one["seats"][1].upper()})
    assert done.status_code == 200 and done.json()["confirmed_by"] == one["seats"][1]
    assert done.json()["at"].endswith("Z")
    assert phone.call("get", path).json() == done.json()
    tables = director.call("get", f"/api/v1/tournaments/{tid}/").json()["rounds"][0]["tables"]
    assert [t["confirmed_by"] for t in tables] == [one["seats"][1], None]
    # a correction of its deals clears it
    fixed = phone.call("put", f"/api/v1/sessions/{one['session']}/deals/2/",
                       sweep_by(one["seats"], one["seats"][0]))
    assert fixed.status_code == 200, fixed.content
    assert phone.call("get", path).json() == {"confirmed_by": None, "at": None}
    # the other table: the director confirms for a seated player
    _finish(director, two["session"], two["seats"][2], two["seats"])
    assert director.call("post", f"/api/v1/sessions/{two['session']}/confirm",
                         {"player": two["seats"][3]}).status_code == 200
    refused = director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close")
    assert refused.status_code == 409
    assert (refused.json()["tables"], refused.json()["unconfirmed"]) == ([], [1])
    assert phone.call("post", path, {"player": one["seats"][0]}).status_code == 200
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close").status_code \
        == 200


def test_a_close_names_unfinished_and_unconfirmed_tables_apart(director, group):
    tid = _made(director, group, players=8, confirm_results=True)
    one, _two = _round(director, tid)["tables"]
    _finish(director, one["session"], one["seats"][0], one["seats"])
    refused = director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close")
    assert refused.status_code == 409
    body = refused.json()
    assert (body["reason"], body["tables"], body["unconfirmed"]) == (
        "tables_unfinished", [2], [1])
    forced = director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close",
                           {"force": True})
    assert forced.status_code == 200


def test_the_paper_slip_counts_as_confirmed(director, group, anna):
    tid = _made(director, group, players=4, confirm_results=True)
    table = _round(director, tid)["tables"][0]
    t = Tournament.objects.get(pk=tid)
    session = t.round_set.get().tables.get().session
    column = table_rules.play_of(session).slip[0]
    seated = [str(s.player_id) for s in session.seats.all()]
    tour.table_result_enter(tournament=t, round_number=1, table_number=1, user=anna,
                            figures={column.key: dict.fromkeys(seated, 0)})
    got = director.call("get", f"/api/v1/sessions/{table['session']}/confirm").json()
    assert got["confirmed_by"] == "anna" and got["at"]
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close").status_code \
        == 200


def test_a_viewer_cannot_confirm_and_another_session_has_no_confirmation(director, group):
    tid = _made(director, group, players=4)
    table = _round(director, tid)["tables"][0]
    bert = user("bert")
    member(group, bert, "viewer")
    viewer = Api(f"Token {accounts.token_of(user=bert)}")
    path = f"/api/v1/sessions/{table['session']}/confirm"
    assert viewer.call("get", path).status_code == 200
    assert viewer.call("post", path, {"player": table["seats"][0]}).status_code == 403
    session = director.call("post", "/api/v1/sessions/", {
        "group": group.pk, "game": ENDS_WITH_GAME, "seats": NAMES[:4]}).json()
    assert director.call("get", f"/api/v1/sessions/{session['id']}/confirm").status_code \
        == 404
    assert director.call("post", f"/api/v1/sessions/{session['id']}/confirm",
                         {"player": NAMES[0]}).status_code == 404


# --- fees and prizes ------------------------------------------------------------------------


PRIZES = [{"place": 1, "percent": 50}, {"place": 2, "percent": 33.3},
          {"place": 3, "amount": "10.00"}, {"place": 4, "item": "Geschenkkorb"}]


def _cents_down(value):
    return value.quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def test_the_pot_the_prizes_and_who_wins_them(director, group):
    tid = _made(director, group, players=8, entry_fee="5.00", currency="EUR", prizes=PRIZES)
    for name in NAMES[:7]:
        paid = director.call("patch", f"/api/v1/tournaments/{tid}/players/",
                             {"name": name, "paid": True})
        assert paid.status_code == 200 and paid.json()["paid"] is True
    prizes = director.call("get", f"/api/v1/tournaments/{tid}/prizes").json()
    pot = Decimal("5.00") * 7
    first, second = _cents_down(pot * Decimal("0.5")), _cents_down(pot * Decimal("0.333"))
    assert (prizes["entry_fee"], prizes["currency"], prizes["paid_players"], prizes["pot"]) \
        == ("5.00", "EUR", 7, "35.00")
    assert [(p["place"], p.get("amount"), p.get("item"), p["name"]) for p in
            prizes["prizes"]] == [(1, str(first), None, None), (2, str(second), None, None),
                                  (3, "10.00", None, None), (4, None, "Geschenkkorb", None)]
    assert prizes["pot_remainder"] == str(pot - first - second - Decimal("10.00"))
    _play(director, tid)
    # names stay null until the tournament is finished
    assert {p["name"] for p in director.call(
        "get", f"/api/v1/tournaments/{tid}/prizes").json()["prizes"]} == {None}
    director.call("patch", f"/api/v1/tournaments/{tid}/", {"status": "finished"})
    lines = _ranking(director, tid)
    strict = sorted(lines, key=lambda line: (line["place"], line["lot"]))
    done = director.call("get", f"/api/v1/tournaments/{tid}/prizes").json()["prizes"]
    assert [p["name"] for p in done] == [line["name"] for line in strict[:4]]
    # each ranking entry carries what its position wins, without a name
    by_name = {line["name"]: line["prize"] for line in lines}
    assert by_name[strict[0]["name"]] == {"place": 1, "amount": str(first), "percent": "50"}
    assert by_name[strict[3]["name"]] == {"place": 4, "item": "Geschenkkorb"}
    assert [by_name[line["name"]] for line in strict[4:]] == [None] * 4


def test_fixed_amounts_beyond_the_pot_leave_a_negative_remainder(director, group):
    tid = _made(director, group, players=2, entry_fee="2.50", currency="EUR",
                prizes=[{"place": 1, "amount": "10.00"}, {"place": 5, "amount": "99.00"}])
    director.call("patch", f"/api/v1/tournaments/{tid}/players/",
                  {"name": NAMES[0], "paid": True})
    prizes = director.call("get", f"/api/v1/tournaments/{tid}/prizes").json()
    # place 5 has no player: nothing of it is paid out
    assert (prizes["pot"], prizes["pot_remainder"]) == ("2.50", "-7.50")


def test_paying_moves_the_rankings_etag(director, group):
    tid = _made(director, group, players=4, entry_fee="5.00", currency="EUR",
                prizes=[{"place": 1, "percent": 100}])
    path = f"/api/v1/tournaments/{tid}/ranking"
    first = director.call("get", path)
    director.call("patch", f"/api/v1/tournaments/{tid}/players/",
                  {"name": NAMES[0], "paid": True})
    again = director.call("get", path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert again.json()["ranking"][0]["prize"]["amount"] == "5.00"


def test_a_correction_moves_the_ranking_and_the_prizes_at_once(director, group):
    tid = _made(director, group, players=4, prizes=[{"place": 1, "item": "Korb"}])
    table = _play(director, tid)["tables"][0]
    director.call("patch", f"/api/v1/tournaments/{tid}/", {"status": "finished"})
    before = director.call("get", f"/api/v1/tournaments/{tid}/prizes").json()
    assert before["prizes"][0]["name"] == table["seats"][0]
    # the second sweep becomes the third seat's: 15, 15, 35, 35 → two share place 1
    fixed = director.call("put", f"/api/v1/sessions/{table['session']}/deals/2/",
                          sweep_by(table["seats"], table["seats"][2]))
    assert fixed.status_code == 200, fixed.content
    lines = _ranking(director, tid)
    tops = {line["name"] for line in lines if line["place"] == 1}
    assert tops == {table["seats"][0], table["seats"][2]}
    after = director.call("get", f"/api/v1/tournaments/{tid}/prizes").json()
    winner = min((line for line in lines if line["place"] == 1), key=lambda x: x["lot"])
    assert after["prizes"][0]["name"] == winner["name"]


# --- categories -----------------------------------------------------------------------------


def test_a_roster_player_carries_a_category(director, group):
    player = Player.objects.create(group=group, name="Resi")
    path = f"/api/v1/players/{player.pk}/"
    set_ = director.call("patch", path, {"category": " Damen "})
    assert set_.status_code == 200 and set_.json()["category"] == "Damen"
    roster = director.call("get", f"/api/v1/groups/{group.pk}/players/").json()
    assert [p["category"] for p in roster] == ["Damen"]
    assert director.call("patch", path, {"category": None}).json()["category"] is None
    too_long = director.call("patch", path, {"category": "x" * 21})
    assert too_long.status_code == 400 and list(too_long.json()["errors"]) == ["category"]
    stranger = Api(f"Token {accounts.token_of(user=user('zora'))}")
    assert stranger.call("patch", path, {"category": "Jugend"}).status_code == 404
    bert = user("bert")
    member(group, bert, "viewer")
    viewer = Api(f"Token {accounts.token_of(user=bert)}")
    assert viewer.call("patch", path, {"category": "Jugend"}).status_code == 403


def test_a_categorys_ranking_has_its_players_with_their_places_in_it(director, group):
    tid = _made(director, group, players=0, tiebreaks=["score"])
    path = f"/api/v1/tournaments/{tid}/players/"
    for index, name in enumerate(NAMES[:8]):
        body = {"name": name, **({"category": "Damen"} if index % 2 else {})}
        assert director.call("post", path, body).status_code == 201
    changed = director.call("patch", path, {"name": NAMES[0], "category": "damen"})
    assert changed.status_code == 200 and changed.json()["category"] == "damen"
    _play(director, tid)
    everybody = _ranking(director, tid)
    ladies = {NAMES[i] for i in (0, 1, 3, 5, 7)}
    only = _ranking(director, tid, "?category=DAMEN")
    assert [line["name"] for line in only] == [line["name"] for line in everybody
                                               if line["name"] in ladies]
    for line in only:
        overall = next(o for o in everybody if o["name"] == line["name"])
        assert line["place"] == 1 + sum(1 for o in everybody if o["name"] in ladies
                                        and o["place"] < overall["place"])
    assert _ranking(director, tid, "?category=Jugend") == []
    refused = director.call("get", f"/api/v1/tournaments/{tid}/ranking?category=" + "x" * 21)
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["category"]


def test_a_category_change_moves_the_rankings_etag(director, group):
    tid = _made(director, group, players=4)
    path = f"/api/v1/tournaments/{tid}/ranking?category=Damen"
    first = director.call("get", path)
    whole = director.call("get", f"/api/v1/tournaments/{tid}/ranking")
    assert first["ETag"] != whole["ETag"]
    player = Player.objects.get(group=group, name=NAMES[2])
    director.call("patch", f"/api/v1/players/{player.pk}/", {"category": "Damen"})
    again = director.call("get", path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and [line["name"] for line in again.json()["ranking"]] \
        == [NAMES[2]]
