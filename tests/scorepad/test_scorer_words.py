"""The violations' words for the phone's scorer (a deal that breaks a rule is refused on the
phone in the server's words) come once with the session page, outside the table that
every save's answer re-renders: the answers do not carry them again."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from scorepad import games
from scorepad.messages import violation_words
from scorepad.models import Deal

from .factories import group_with, session_at, user

pytestmark = pytest.mark.django_db

#: How the page carries the words (session_game.html, json_script).
WORDS = re.compile(r'<script id="scorer-words" type="application/json">(.*?)</script>', re.S)


@pytest.mark.parametrize("language", ["de", "en", "hu"])
def test_the_words_come_with_the_page_and_no_saves_answer_repeats_them(language):
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(anna)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    found = WORDS.findall(page)
    assert len(found) == 1
    with translation.override(language):
        expected = violation_words(games.of(session).WORDING)
    assert json.loads(found[0]) == expected
    # a words' text without its placeholders, as the page's JSON writes it
    bid = max(re.split(r"\{\w+\}", expected["codes"]["bid_out_of_range"]), key=len)
    assert len(bid) > 10 and json.dumps(bid)[1:-1] in found[0]

    answer = client.post(f"/sessions/{session.pk}/deals/new",
                         {"kind": "collapsed", "number": "1", "idempotency_key": "key-1"},
                         HTTP_HX_REQUEST="true", HTTP_HX_TARGET="table")
    assert "schreiber:recorded" in answer["HX-Trigger"]
    assert Deal.objects.filter(session=session).count() == 1
    html = answer.content.decode()
    assert 'id="table"' in html and 'id="provisional"' in html  # the scorer still has its table
    assert "scorer-words" not in html
    assert json.dumps(bid)[1:-1] not in html and bid not in html
    # a save's answer is smaller than the words it no longer repeats
    assert len(html.encode()) < len(page.encode())

