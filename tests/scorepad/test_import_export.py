"""Export, import and backup (docs/export.md, "Export, import and backups").

The central promise: export → import into an empty group → export again gives the same
file (apart from ids and the export time), and the scoreboards, deals and history are
equal. Every import is replayed through the referee, and a bad file changes nothing.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.mura import first_leader
from scorepad import rosters, services
from scorepad.models import Deal, DealEvent, Group, Membership, Player, Session
from scorepad.transfer import backups, exporting, fileformat, importing

from ..strength import examples
from .factories import (
    EVEN,
    SEATS,
    apply_actions,
    deal_from_seed,
    group_with,
    member,
    phone_of,
    played,
    record,
    session_at,
    user,
)

pytestmark = pytest.mark.django_db

#: Legal Mura deals as (tricks, figures) over Anna, Bert, Cilli, Dominik.
MURA_DEALS = [([2, 3, 3, 0], [2, 9, 7, 0]), ([4, 2, 2, 0], [2, 8, 8, 0]),
              ([2, 2, 2, 2], [4, 4, 4, 4]), ([1, 3, 4, 0], [1, 8, 9, 0])]


def mura(i: int) -> dict[str, Any]:
    tricks, figures = MURA_DEALS[i % len(MURA_DEALS)]
    return {"tricks": dict(zip(SEATS, tricks, strict=True)),
            "figures": dict(zip(SEATS, figures, strict=True))}


def card_by_card(leader: str = "Anna") -> dict[str, Any]:
    """Eight tricks where each player plays one suit: the leader (who must sit after the
    dealer, docs/rules.md, "First lead") takes them all."""
    ranks = ["10", "9", "ace", "king", "ober", "unter", "8", "7"]
    suits = {"Anna": "hearts", "Bert": "bells", "Cilli": "leaves", "Dominik": "acorns"}
    return {"trick_cards": [{"leader": leader, "cards": {p: f"{suits[p]}-{r}" for p in SEATS}}
                            for r in ranks]}


def opening(session: Session) -> str:
    """Who leads the first trick of the session's next Mura deal: the player after the
    dealer."""
    session.refresh_from_db()
    names = services.Names.of(session)
    return names.to_name(first_leader(names.seats, session.state["dealer"]))


def correct(session: Session, who: Any, number: int, data: dict[str, Any]) -> None:
    names = services.Names.of(session)
    services.deal_correct(session=session, user=who, number=number, data=names.deal_ids(data))


def mulatschak_evening(group: Group, who: Any, preset: str, **kw: Any) -> Session:
    """Two games (a low start score), a correction, a deletion, then closed."""
    session = session_at(group, who, preset=preset, overrides={
        "start_score": 4, "no_bid_at_or_below": None, "must_play_at_or_below": None,
        "no_exchange_at_or_below": None}, **kw)
    record(session, who, played("Anna", EVEN))
    record(session, who, {"kind": "collapsed"})
    record(session, who, played("Bert", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}))
    correct(session, who, 2, {"kind": "passed"})
    record(session, who, played("Cilli", {"Anna": 1, "Bert": 1, "Cilli": 2, "Dominik": 1}))
    services.deal_delete(session=session, user=who, number=3)
    for _ in range(3):
        record(session, who, played("Anna", EVEN))
    session.refresh_from_db()
    return session


def without_ids(data: Any) -> Any:
    """An export with what may differ between two databases taken out."""
    data = json.loads(json.dumps(data))
    data.pop("exported_at", None)
    if data.get("kind") == "session":
        data.pop("group", None)  # the id of the group it came from
    sessions = ([data["session"]] if data.get("kind") == "session"
                else data.get("group", {}).get("sessions", []))
    for s in sessions:
        for e in s["history"]:
            e.pop("imported")
    return data


def export(session: Session) -> dict[str, Any]:
    session.refresh_from_db()
    return exporting.session_export(session)


def round_trip(session: Session, into: Group) -> Session:
    data = json.loads(json.dumps(export(session)))  # through text, as a file would go
    return importing.session_import(group=into, data=data)


# --- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["salzburg", "geiser", "murln"])
def test_a_mulatschak_session_with_corrections_and_deletions_round_trips(anna, preset):
    source = mulatschak_evening(group_with(anna), anna, preset)
    services.session_set_status(session=source, status="closed")
    assert source.state["games"], "the evening finished at least one game"
    copy = round_trip(source, group_with(anna, name="Copy"))
    assert without_ids(export(copy)) == without_ids(export(source))
    assert services.scoreboard(copy) | {"version": 0} == services.scoreboard(source) | {
        "version": 0}
    assert copy.status == "closed" and copy.closed_at == Session.objects.get(
        pk=source.pk).closed_at


def test_imported_history_keeps_who_and_when_and_is_marked_imported(anna):
    source = mulatschak_evening(group_with(anna), anna, "salzburg")
    copy = round_trip(source, group_with(anna, name="Copy"))
    before = list(DealEvent.objects.filter(session=source).values_list(
        "deal_number", "action", "at"))
    after = list(DealEvent.objects.filter(session=copy).values_list(
        "deal_number", "action", "at"))
    assert after == before
    events = DealEvent.objects.filter(session=copy)
    assert {e.who for e in events} == {"anna"} and all(e.imported for e in events)
    assert all(e.user is None for e in events)
    assert {a for _, a, _ in after} == {"create", "update", "delete"}


def test_deal_numbers_keep_their_gaps_and_versions(anna):
    source = mulatschak_evening(group_with(anna), anna, "salzburg")
    copy = round_trip(source, group_with(anna, name="Copy"))
    rows = list(copy.deals.values_list("number", "version"))
    assert rows == list(source.deals.values_list("number", "version"))
    assert 3 not in [number for number, _ in rows]
    assert dict(copy.deals.values_list("number", "version"))[2] == 2


def test_a_mura_session_with_cards_and_a_stake_round_trips(anna):
    group = group_with(anna)
    session = services.session_start(group=group, user=anna, preset="mura", overrides=None,
                                     seats=SEATS, game="mura", stake="0.50", currency="EUR")
    for i in range(3):
        record(session, anna, mura(i))
    record(session, anna, card_by_card(opening(session)))
    correct(session, anna, 1, mura(3))
    record(session, anna, mura(1))
    services.deal_delete(session=session, user=anna, number=5)  # an earlier one would
    # move the dealer of the card-by-card deal, whose first lead would then be wrong
    copy = round_trip(session, group_with(anna, name="Copy"))
    assert without_ids(export(copy)) == without_ids(export(session))
    assert services.settlement(copy) == services.settlement(session)
    assert copy.deals.get(number=4).kind == "cards"


def test_a_muller_matz_session_round_trips(anna):
    session = services.session_start(group=group_with(anna), user=anna, preset="muller_matz",
                                     overrides=None, seats=SEATS[:3], game="muller_matz",
                                     stake="1", currency="EUR")
    record(session, anna, {"loser": "Bert"})
    record(session, anna, {"finish_order": ["Anna", "Cilli", "Bert"]})
    record(session, anna, {"loser": "Anna"})
    correct(session, anna, 3, {"loser": "Cilli"})
    copy = round_trip(session, group_with(anna, name="Copy"))
    assert without_ids(export(copy)) == without_ids(export(session))
    assert services.settlement(copy)["balances"] == services.settlement(session)["balances"]


def test_a_whole_group_round_trips_into_an_empty_group(anna):
    bert = user("bert")
    group = group_with(anna)
    member(group, bert, "editor")
    rosters.player_add(group=group, name="Zenzi")  # on the roster, never seated
    mulatschak_evening(group, anna, "salzburg")
    mulatschak_evening(group, bert, "geiser", dealer="Anna")
    services.session_start(group=group, user=anna, preset="mura", overrides=None,
                           seats=SEATS, game="mura")
    empty = group_with(anna, name="Empty")
    data = json.loads(json.dumps(exporting.group_export(group)))
    sessions = importing.group_import(group=empty, data=data)
    assert len(sessions) == 3
    again = without_ids(exporting.group_export(empty))
    first = without_ids(exporting.group_export(group))
    # the copy keeps its own name and members: a file grants nobody access
    assert again["group"].pop("members") == [{"username": "anna", "role": "owner"}]
    first["group"].pop("members")
    assert again["group"].pop("name") == "Empty"
    first["group"].pop("name")
    assert again == first


# --- a property: any legal history round-trips ---------------------------------------------

ACTIONS = st.lists(
    st.tuples(st.sampled_from(["record", "record", "record", "correct", "delete"]),
              st.integers(0, 10_000), st.integers(0, 10_000)),
    min_size=1, max_size=10,
)


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ACTIONS)
def test_any_legal_session_round_trips_to_the_same_file(anna, actions):
    session = session_at(group_with(anna, name="prop"), anna)
    apply_actions(session, anna, actions, lambda seed: deal_from_seed(seed, SEATS),
                  refusals_ok=True)
    copy = round_trip(session, group_with(anna, name="copy"))
    assert without_ids(export(copy)) == without_ids(export(session))


@pytest.mark.parametrize("game", ["mura", "muller_matz"])
@settings(max_examples=examples(10), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_any_mura_or_muller_matz_session_round_trips_to_the_same_file(anna, game, actions):
    session = services.session_start(group=group_with(anna, name="prop"), user=anna,
                                     preset=game, overrides=None, seats=SEATS, game=game,
                                     stake="0.10", currency="EUR")
    apply_actions(session, anna, actions,
                  lambda seed: {"loser": SEATS[seed % 4]} if game == "muller_matz"
                  else card_by_card(SEATS[seed % 4]) if seed % 5 == 0 else mura(seed),
                  refusals_ok=True)  # a first lead by the wrong player is refused
    copy = round_trip(session, group_with(anna, name="copy"))
    assert without_ids(export(copy)) == without_ids(export(session))
    assert services.settlement(copy) == services.settlement(session)


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(data, dict):
        return [path] + [p for k, v in data.items() for p in _leaves(v, (*path, k))]
    if isinstance(data, list):
        return [path] + [p for i, v in enumerate(data) for p in _leaves(v, (*path, i))]
    return [path]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=5,
)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.data())
def test_any_damaged_file_is_imported_whole_or_refused_cleanly(anna, data):
    source = Session.objects.filter(group__name="fuzz").first()
    if source is None:
        source = mulatschak_evening(group_with(anna, name="fuzz"), anna, "salzburg")
    file = json.loads(json.dumps(export(source)))
    place = data.draw(st.sampled_from(_leaves(file)[1:]))
    *parents, last = place
    holder = file
    for key in parents:
        holder = holder[key]
    holder[last] = data.draw(JSON_VALUES)
    with transaction.atomic():  # each example leaves nothing behind
        target = group_with(anna, name="target")
        try:
            importing.session_import(group=target, data=file)
        except fileformat.ImportRejected as e:
            assert e.problems and not target.sessions.exists()
        transaction.set_rollback(True)


# --- refusals --------------------------------------------------------------------------------


def test_importing_the_same_file_twice_is_refused_as_a_conflict(anna):
    source = mulatschak_evening(group_with(anna), anna, "salzburg")
    target = group_with(anna, name="Copy")
    data = export(source)
    importing.session_import(group=target, data=data)
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=target, data=data)
    assert e.value.category == "conflict"  # the API answers 409
    assert [p.path for p in e.value.problems] == ["session/uid"]
    assert target.sessions.count() == 1


def test_an_illegal_deal_is_rejected_with_its_place_and_nothing_is_written(anna):
    source = mulatschak_evening(group_with(anna), anna, "salzburg")
    target = group_with(anna, name="Copy")
    data = export(source)
    data["session"]["deals"][2]["data"]["tricks"]["Anna"] = 4  # six tricks in a deal of five
    data["session"]["deals"][3]["data"]["bid"] = "three"
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=target, data=data)
    paths = {p.path for p in e.value.problems}
    assert "session/deals/3/data/bid" in paths
    assert any(p.startswith("session/deals/2/data") for p in paths)
    assert e.value.category == "invalid"  # 400
    assert not target.sessions.exists() and not target.players.exists()
    assert Session.objects.count() == 1


def test_only_referee_objections_answer_422_naming_the_deal(anna):
    source = mulatschak_evening(group_with(anna), anna, "salzburg")
    data = export(source)
    data["session"]["deals"][0]["data"]["tricks"]["Anna"] = 4
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=group_with(anna, name="Copy"), data=data)
    assert e.value.category == "rules"  # 422
    first = e.value.problems[0]
    assert first.path == "session/deals/0/data" and "deal 1" in first.message


def test_every_field_is_checked_and_every_problem_reported(anna):
    data = export(mulatschak_evening(group_with(anna), anna, "salzburg"))
    s = data["session"]
    s["game"] = "skat"
    s["seats"][2] = 7
    s["status"] = "maybe"
    s["created_at"] = "yesterday"
    s["closed_at"] = "2026-02-31T20:00:00+00:00"
    s["deals"][0]["created_at"] = "0001-01-01T00:00:00-14:00"
    s["history"][0]["action"] = "burn"
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=group_with(anna, name="Copy"), data=data)
    paths = {p.path for p in e.value.problems}
    assert {"session/game", "session/seats/2", "session/status",
            "session/created_at", "session/closed_at"} <= paths


@pytest.mark.parametrize(("change", "code"), [
    ({"format": "excel"}, "not_schreiber"),
    ({"version": 99}, "too_new"),
    ({"version": "1"}, "invalid"),
    ({"kind": "group"}, "wrong_kind"),
])
def test_the_envelope_names_format_version_and_kind(anna, change, code):
    data = export(session_at(group_with(anna), anna)) | change
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=group_with(anna, name="Copy"), data=data)
    assert [p.code for p in e.value.problems] == [code]


def test_a_group_file_only_goes_into_a_group_without_sessions(anna):
    group = group_with(anna)
    session_at(group, anna)
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.group_import(group=group, data=exporting.group_export(group))
    assert e.value.category == "conflict"  # the API answers 409


def test_roster_names_match_whatever_their_case(anna):
    target = group_with(anna, name="Copy")
    rosters.player_add(group=target, name="anna")
    importing.session_import(group=target, data=export(session_at(group_with(anna), anna)))
    assert sorted(target.players.values_list("name", flat=True), key=str.lower) == [
        "anna", "Bert", "Cilli", "Dominik"]


def test_absurd_counts_are_refused(anna):
    data = export(session_at(group_with(anna), anna))
    data["session"]["deals"] = [{}] * (fileformat.MAX_DEALS + 1)
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=group_with(anna, name="Copy"), data=data)
    assert [(p.path, p.code) for p in e.value.problems] == [("session/deals", "too_many")]


# --- CSV -----------------------------------------------------------------------------------


def test_the_csv_has_a_row_per_deal_with_points_and_running_scores(anna):
    session = session_at(group_with(anna), anna)
    record(session, anna, played("Anna", EVEN))
    record(session, anna, {"kind": "passed"})
    rows = list(csv.reader(io.StringIO(exporting.session_csv(session))))
    assert rows[0][:5] == ["deal", "game", "dealer", "Anna", "Anna score"]
    assert rows[1][:5] == ["1", "1", "Dominik", "-2", "19"]
    assert len(rows) == 3


#: Names a spreadsheet would run as a formula, one a seat (none a number, so that a
#: figure and a name cannot be taken for each other when read back).
FORMULAS = ['=HYPERLINK("http://x","y")', "+Anna", "-Bert", "@SUM(1)"]


def _deal_of(game: str, step: int) -> dict[str, Any]:
    """A deal of ``game`` at a table of FORMULAS (the first ones of it for Müller Matz)."""
    if game == "mura":
        tricks, figures = MURA_DEALS[step % len(MURA_DEALS)]
        return {"tricks": dict(zip(FORMULAS, tricks, strict=True)),
                "figures": dict(zip(FORMULAS, figures, strict=True))}
    if game == "muller_matz":
        return {"loser": FORMULAS[step % 3]}
    return played(FORMULAS[step % 4], {n: 2 if i == step % 4 else 1
                                       for i, n in enumerate(FORMULAS)})


@pytest.mark.parametrize("game", ["mulatschak", "mura", "muller_matz"])
def test_each_games_csv_escapes_names_a_spreadsheet_would_run_and_keeps_numbers(anna, game):
    seats = FORMULAS[:3] if game == "muller_matz" else FORMULAS
    preset = "salzburg" if game == "mulatschak" else game
    session = services.session_start(group=group_with(anna), user=anna, preset=preset,
                                      overrides=None, seats=seats, dealer=seats[-1],
                                      game=game)
    for step in range(3):
        record(session, anna, _deal_of(game, step))
    rows = list(csv.reader(io.StringIO(exporting.session_csv(session))))
    runs = [c for row in rows for c in row if c.startswith(("=", "+", "-", "@"))
            and not re.fullmatch(r"-?[0-9]+", c)]
    assert runs == []  # only a number may begin so: a name comes behind an apostrophe
    assert all(any(c.startswith("'" + name) for c in rows[0]) for name in seats)
    assert any(c == "'" + seats[0] for row in rows[1:] for c in row)  # a dealer or loser
    figures = [c for row in rows[1:] for c in row if re.fullmatch(r"'?-?[0-9]+", c)]
    assert figures and not [c for c in figures if c.startswith("'")]
    if game == "mulatschak":
        assert any(c.startswith("-") for c in figures)  # a loss, a number still


def test_mura_and_muller_matz_csvs_have_their_own_columns(anna):
    group = group_with(anna)
    m = services.session_start(group=group, user=anna, preset="mura", overrides=None,
                               seats=SEATS, game="mura")
    record(m, anna, mura(0))
    rows = list(csv.reader(io.StringIO(exporting.session_csv(m))))
    assert rows[0][2:6] == ["Anna tricks", "Anna figures", "Anna mura", "Anna zeros"]
    mm = services.session_start(group=group, user=anna, preset="muller_matz", overrides=None,
                                seats=SEATS[:3], game="muller_matz")
    record(mm, anna, {"loser": "Bert"})
    rows = list(csv.reader(io.StringIO(exporting.session_csv(mm))))
    assert rows[1] == ["1", "Bert", "", "0", "1", "0"]


# --- the API ----------------------------------------------------------------------------------



def test_the_api_exports_json_and_csv_as_downloads(anna, table):
    client = phone_of(anna)
    response = client.get(f"/api/v1/sessions/{table.pk}/export")
    assert response.status_code == 200
    assert response.json()["format"] == "schreiber" and response.json()["version"] == 1
    assert "attachment" in response["Content-Disposition"]
    response = client.get(f"/api/v1/sessions/{table.pk}/export?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].endswith('.csv"')


def test_the_api_imports_a_session_into_a_group(anna, table):
    client = phone_of(anna)
    record(table, anna, played("Anna", EVEN))
    data = client.get(f"/api/v1/sessions/{table.pk}/export").json()
    target = group_with(anna, name="Copy")
    response = client.post("/api/v1/sessions/import", {"group": target.pk, "data": data},
                           content_type="application/json")
    assert response.status_code == 201, response.json()
    table.refresh_from_db()
    assert response.json()["scoreboard"]["scores"] == services.scoreboard(table)["scores"]
    again = client.post("/api/v1/sessions/import", {"group": target.pk, "data": data},
                        content_type="application/json")
    assert again.status_code == 409
    assert again.json()["problems"][0]["path"] == "session/uid"


def test_the_export_posted_back_as_it_is_comes_back_as_a_session(anna, table):
    """docs/export.md, "Downloads and uploads": POST /sessions/import takes an export back. The
    file alone, without a wrapper, goes into the group it came from (a copy, since that
    group holds it still), or into ?group=."""
    client = phone_of(anna)
    record(table, anna, played("Anna", EVEN))
    record(table, anna, {"kind": "collapsed"})
    data = client.get(f"/api/v1/sessions/{table.pk}/export").json()
    assert data["group"] == table.group_id
    back = client.post("/api/v1/sessions/import", data, content_type="application/json")
    assert back.status_code == 201, back.json()
    copy = Session.objects.get(pk=back.json()["id"])
    assert copy.group_id == table.group_id and copy.pk != table.pk and copy.uid != table.uid
    table.refresh_from_db()
    assert back.json()["scoreboard"] == {**services.scoreboard(table),
                                         "version": copy.version}
    assert without_ids(exporting.session_export(copy))["session"] | {"uid": None} == \
        without_ids(data)["session"] | {"uid": None}
    target = group_with(anna, name="Elsewhere")
    there = client.post(f"/api/v1/sessions/import?group={target.pk}", data,
                        content_type="application/json")
    assert there.status_code == 201 and target.sessions.get().uid == table.uid
    stranger_group = group_with(user("stranger"), name="Not mine")
    assert client.post(f"/api/v1/sessions/import?group={stranger_group.pk}", data,
                       content_type="application/json").status_code == 404
    assert client.post("/api/v1/sessions/import?group=x", data,
                       content_type="application/json").status_code == 400


def test_an_import_retried_with_its_idempotency_key_gets_the_first_answer(anna, table):
    client = phone_of(anna)
    target = group_with(anna, name="Copy")
    body = {"group": target.pk, "data": exporting.session_export(table)}
    answers = [client.post("/api/v1/sessions/import", body, content_type="application/json",
                           HTTP_IDEMPOTENCY_KEY="import-1") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[1]["Idempotent-Replayed"] == "true"
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert target.sessions.count() == 1


def test_a_viewer_cannot_import_and_a_stranger_sees_no_group(anna, table):
    viewer, stranger = user("viewer"), user("stranger")
    member(table.group, viewer, "viewer")
    data = exporting.session_export(table)
    body = {"group": table.group_id, "data": data}
    assert phone_of(viewer).post("/api/v1/sessions/import", body,
                                  content_type="application/json").status_code == 403
    assert phone_of(stranger).post("/api/v1/sessions/import", body,
                                    content_type="application/json").status_code == 404


def test_the_api_refuses_a_file_over_the_size_limit_with_400(anna, table, monkeypatch):
    monkeypatch.setattr(fileformat, "MAX_BYTES", 1000)
    body = {"group": table.group_id, "data": exporting.session_export(table),
            "padding": "x" * 2000}
    response = phone_of(anna).post("/api/v1/sessions/import", body,
                                    content_type="application/json")
    assert response.status_code == 400
    assert response.json()["problems"][0]["code"] == "too_large"


def test_the_api_takes_files_beyond_djangos_usual_body_limit(anna, table, settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < 400_000
    data = exporting.session_export(table)
    data["note"] = "x" * 400_000  # fields a reader does not know are ignored
    response = phone_of(anna).post("/api/v1/sessions/import",
                                    {"group": group_with(anna, name="Copy").pk, "data": data},
                                    content_type="application/json")
    assert response.status_code == 201, response.content[:300]


def test_the_upload_form_refuses_a_file_over_the_limit(anna, monkeypatch):
    monkeypatch.setattr(fileformat, "MAX_BYTES", 100)
    group = group_with(anna)
    upload = io.BytesIO(b" " * 200)
    upload.name = "big.json"
    response = phone_of(anna).post(f"/groups/{group.pk}/import", {"file": upload})
    assert response.status_code == 200
    assert "larger than" in response.content.decode()


def test_the_api_answers_400_for_garbage(anna, table):
    client = phone_of(anna)
    for body in ("not json", "[]", '{"group": "x"}'):
        response = client.post("/api/v1/sessions/import", body,
                               content_type="application/json")
        assert response.status_code == 400, body


def test_the_api_imports_a_group_file(anna):
    group = group_with(anna)
    mulatschak_evening(group, anna, "murln")
    client = phone_of(anna)
    data = client.get(f"/api/v1/groups/{group.pk}/export").json()
    empty = group_with(anna, name="Empty")
    response = client.post(f"/api/v1/groups/{empty.pk}/import", data,
                           content_type="application/json")
    assert response.status_code == 201, response.json()
    assert len(response.json()["sessions"]) == 1


# --- HTML --------------------------------------------------------------------------------------


def test_the_session_page_links_both_downloads(anna, table):
    """At the page's own addresses, which answer whoever sees the page (a guest and a
    table's phone too; the API's answer only an account)."""
    phone = phone_of(anna)
    page = phone.get(f"/sessions/{table.pk}/").content.decode()
    for fmt, kind in (("json", "application/json"), ("csv", "text/csv")):
        assert f'href="/sessions/{table.pk}/file.{fmt}"' in page
        answer = phone.get(f"/sessions/{table.pk}/file.{fmt}")
        assert answer.status_code == 200 and answer["Content-Type"].startswith(kind)


def test_the_group_page_imports_an_uploaded_file_and_lists_problems(anna):
    source = mulatschak_evening(group_with(anna), anna, "salzburg")
    target = group_with(anna, name="Copy")
    client = phone_of(anna)
    page = client.get(f"/groups/{target.pk}/").content.decode()
    assert f"/api/v1/groups/{target.pk}/export" in page and 'type="file"' in page
    data = export(source)
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "evening.json"
    response = client.post(f"/groups/{target.pk}/import", {"file": upload})
    assert response.status_code == 302
    assert target.sessions.count() == 1
    data["session"]["uid"] = "4b9f2a52-5c1e-4a0e-9c43-0b1f7c3f0e11"
    data["session"]["deals"][0]["data"]["tricks"]["Anna"] = 4
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "evening.json"
    response = client.post(f"/groups/{target.pk}/import", {"file": upload})
    assert response.status_code == 200
    assert "session/deals/0/data" in response.content.decode()
    assert target.sessions.count() == 1


def test_the_history_page_marks_imported_changes_and_names_who_made_them(anna):
    copy = round_trip(mulatschak_evening(group_with(anna), anna, "geiser"),
                      group_with(anna, name="Copy"))
    page = phone_of(anna).get(f"/sessions/{copy.pk}/history").content.decode()
    assert page.count('<span class="tag">imported</span>') == copy.events.count()
    assert "anna" in page
    api = phone_of(anna).get(f"/api/v1/sessions/{copy.pk}/history").json()
    assert {(e["user"], e["imported"]) for e in api} == {("anna", True)}


# --- backups ---------------------------------------------------------------------------------


def _everything() -> dict[str, Any]:
    out = {}
    for session in Session.objects.select_related("group"):
        names = services.Names.of(session)  # ids differ after a restore: compare names
        out[(session.group.name, str(session.uid))] = (
            services.scoreboard(session) | {"version": 0},
            [(d.number, d.version, d.kind, names.deal_names(d.result))
             for d in session.deals.all()],
            [(e.deal_number, e.action, e.who, e.at) for e in session.events.all()],
            exporting.session_json(session),
        )
    return out


@pytest.mark.django_db(transaction=True)  # flush truncates: no test transaction
def test_backup_then_flush_then_restore_reproduces_every_group(anna, tmp_path):
    bert = user("bert")
    group = group_with(anna)
    member(group, bert, "viewer")
    mulatschak_evening(group, anna, "salzburg")
    m = services.session_start(group=group_with(bert, name="Mura"), user=bert, preset="mura",
                               overrides=None, seats=SEATS, game="mura", stake="0.2",
                               currency="EUR")
    record(m, bert, card_by_card(opening(m)))
    before = _everything()
    hashes = dict(Membership.objects.values_list("user__username", "user__password"))
    path = tmp_path / "backup.json"
    call_command("backup", output=str(path))
    call_command("flush", interactive=False)
    assert not Group.objects.exists()
    call_command("restore", str(path))
    assert _everything() == before
    assert dict(Membership.objects.values_list("user__username", "user__password")) == hashes
    assert set(Membership.objects.values_list("group__name", "user__username", "role")) == {
        ("Stammtisch Mondsee", "anna", "owner"), ("Stammtisch Mondsee", "bert", "viewer"),
        ("Mura", "bert", "owner")}
    restored = DealEvent.objects.exclude(user=None)
    assert restored.exists() and not restored.filter(imported=True).exists()


def test_restore_refuses_a_database_that_is_not_empty_unless_merging(anna, tmp_path):
    mulatschak_evening(group_with(anna), anna, "salzburg")
    path = tmp_path / "backup.json"
    call_command("backup", output=str(path))
    with pytest.raises(CommandError, match="already has"):
        call_command("restore", str(path))
    assert Group.objects.count() == 1
    call_command("restore", str(path), merge=True)
    assert Group.objects.count() == 2
    assert Player.objects.count() == 8 and Deal.objects.count() == 2 * 6


@pytest.mark.django_db(transaction=True)  # flush truncates: no test transaction
def test_a_broken_backup_restores_nothing(anna, tmp_path):
    mulatschak_evening(group_with(anna), anna, "salzburg")
    data = backups.backup_export()
    data["groups"][0]["sessions"][0]["deals"][2]["data"]["declarer"] = "Zenzi"
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(data))
    call_command("flush", interactive=False)
    with pytest.raises(CommandError, match="groups/0/sessions/0/deals/2/data"):
        call_command("restore", str(path))
    assert not Group.objects.exists() and not Deal.objects.exists()
