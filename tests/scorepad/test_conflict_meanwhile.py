"""A deal the phone kept while another phone took its number: the refusal names the deals
recorded meanwhile, in words and in the asker's language, so that the phone can show them
before its owner records the kept deal as the next one (static/entry.js)."""

from __future__ import annotations

import json

import pytest

from scorepad.models import Deal

from .factories import EVEN, played, record

pytestmark = pytest.mark.django_db

TABLE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}


def refused(response) -> dict:
    return json.loads(response.get("HX-Trigger", "{}"))["schreiber:refused"]


def test_a_taken_number_is_refused_with_the_deals_recorded_since_in_words(phone, table, anna):
    record(table, anna, {"kind": "passed"})
    record(table, anna, played("Bert", EVEN | {"Anna": 1, "Bert": 2}))
    record(table, anna, {"kind": "collapsed"})
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns",
                           "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1", "number": "2",
                           "idempotency_key": "k-2"}, **TABLE)
    answer = refused(response)
    assert answer["kind"] == "conflict" and answer["next"] == 4
    assert [d["number"] for d in answer["meanwhile"]] == [2, 3]
    assert answer["meanwhile"][0]["text"] == "Bert 2 Acorns · Anna 1, Bert 2, Cilli 1, Dominik 1"
    assert answer["meanwhile"][1]["text"] == "collapsed"
    assert Deal.objects.count() == 3


def test_the_deals_recorded_since_are_said_in_the_askers_language(phone, table, anna):
    record(table, anna, {"kind": "collapsed"})
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          {"kind": "passed", "number": "1", "idempotency_key": "k-1"},
                          HTTP_ACCEPT_LANGUAGE="hu", **TABLE)
    answer = refused(response)
    assert answer["meanwhile"] == [{"number": 1, "text": "összedőlt"}]


def test_a_refusal_that_is_no_taken_number_names_no_deals(phone, table):
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "hearts",
                           "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1", "home": ["2"],
                           "number": "1"}, **TABLE)
    answer = refused(response)
    assert answer["kind"] == "illegal" and "meanwhile" not in answer
