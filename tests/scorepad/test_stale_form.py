"""Two phones, one deal: phone B's form goes stale when phone A records the deal B was
about to record (issue 12, section 4).

Before, B's next tap re-rendered the form as the next deal without a word, and Save
recorded a duplicate of A's deal. Now B's form keeps what B typed and its number, says
plainly that the deal was recorded (and shows it as recorded) and that saving would make
it the next deal, and saves only when B confirms exactly that.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scorepad.models import Deal

from .factories import EVEN, SEATS, played, record, user

pytestmark = pytest.mark.django_db


def deal_form(declarer: int, bid: int, trump: str, tricks: list[int], **extra: str
              ) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": "played", "declarer": SEATS[declarer], "bid": str(bid),
                            "trump": trump}
    for i, n in enumerate(tricks):
        data[f"t_{i}"] = str(n)
    data.update(extra)
    return data


HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "deal-form"}

#: what phone B typed: Bert plays three in leaves
B_TYPED = deal_form(1, 3, "leaves", [1, 3, 0, 1])


@pytest.fixture
def phones(table, anna) -> dict[str, Any]:
    """Deals 1 to 14 are recorded; phones A and B both show the form of deal 15."""
    for _ in range(14):
        record(table, anna, {"kind": "passed"})
    bert = user("bert")
    from scorepad import rosters

    rosters.member_set(group=table.group, user=bert, role="editor")
    a, b = Client(), Client()
    a.force_login(anna)
    b.force_login(bert)
    for phone in (a, b):
        page = phone.get(f"/sessions/{table.pk}/").content.decode()
        assert 'name="number" value="15"' in page
    return {"a": a, "b": b, "session": table}


def a_records_deal_15(phones: dict[str, Any]) -> None:
    session = phones["session"]
    answer = phones["a"].post(f"/sessions/{session.pk}/deals/new",
                              deal_form(0, 2, "acorns", [2, 1, 1, 1], number="15"))
    assert answer.status_code == 302
    assert Deal.objects.filter(session=session).count() == 15


def says_stale(html: str) -> None:
    assert "Deal 15 was recorded on another phone" in html
    assert "Anna 2 Acorns" in html  # deal 15 as A recorded it
    assert "deal 16" in html  # what saving would make of this form
    assert 'name="confirm_number" value="16"' in html


def keeps_what_b_typed(html: str) -> None:
    assert 'name="number" value="15"' in html  # not silently renumbered
    assert 'value="16"' not in html.replace('name="confirm_number" value="16"', "")
    assert 'id="decl-1" name="declarer" value="Bert" checked' in html
    assert 'id="bid-3" name="bid" value="3" checked' in html
    assert 'id="trump-leaves" name="trump" value="leaves" checked' in html
    assert 'name="t_1" min="0" max="5" inputmode="numeric" value="3"' in html


def test_the_freshness_poll_says_the_deal_was_recorded_and_shows_it(phones):
    session = phones["session"]
    assert phones["b"].get(f"/sessions/{session.pk}/fresh?number=15").status_code == 204
    a_records_deal_15(phones)
    answer = phones["b"].get(f"/sessions/{session.pk}/fresh?number=15")
    assert answer.status_code == 200
    says_stale(answer.content.decode())


def test_bs_next_tap_keeps_the_form_stale_instead_of_renumbering_it(phones):
    """The reported failure: the next live check renumbered B's form to 16."""
    session = phones["session"]
    a_records_deal_15(phones)
    answer = phones["b"].post(f"/sessions/{session.pk}/check", {**B_TYPED, "number": "15"},
                              **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    says_stale(html)
    keeps_what_b_typed(html)


def test_save_on_a_stale_form_records_nothing_and_keeps_what_b_typed(phones):
    session = phones["session"]
    a_records_deal_15(phones)
    for headers in ({}, HTMX):  # without JavaScript and with htmx
        answer = phones["b"].post(f"/sessions/{session.pk}/deals/new",
                                  {**B_TYPED, "number": "15"}, **headers)
        assert answer.status_code == 200
        html = answer.content.decode()
        says_stale(html)
        keeps_what_b_typed(html)
        assert Deal.objects.filter(session=session).count() == 15


def test_a_stale_form_saves_as_the_next_deal_only_when_confirmed(phones):
    session = phones["session"]
    a_records_deal_15(phones)
    answer = phones["b"].post(f"/sessions/{session.pk}/deals/new",
                              {**B_TYPED, "number": "15", "confirm_number": "16"})
    assert answer.status_code == 302
    deal = Deal.objects.get(session=session, number=16)
    assert deal.data["bid"] == 3 and deal.data["trump"] == "leaves"
    assert Deal.objects.filter(session=session).count() == 16


def test_a_confirmation_that_went_stale_too_asks_again(phones, anna):
    session = phones["session"]
    a_records_deal_15(phones)
    record(session, anna, played("Anna", EVEN))  # a third phone records deal 16
    answer = phones["b"].post(f"/sessions/{session.pk}/deals/new",
                              {**B_TYPED, "number": "15", "confirm_number": "16"})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'name="confirm_number" value="17"' in html
    assert Deal.objects.filter(session=session).count() == 16


def test_a_fresh_form_saves_as_before(phones):
    session = phones["session"]
    answer = phones["b"].post(f"/sessions/{session.pk}/deals/new", {**B_TYPED, "number": "15"})
    assert answer.status_code == 302
    assert Deal.objects.get(session=session, number=15).data["bid"] == 3


def test_the_stale_notice_speaks_german(phones):
    session = phones["session"]
    a_records_deal_15(phones)
    answer = phones["b"].post(f"/sessions/{session.pk}/check", {**B_TYPED, "number": "15"},
                              HTTP_ACCEPT_LANGUAGE="de", **HTMX)
    html = answer.content.decode()
    assert "Spiel 15 wurde auf einem anderen Handy eingetragen" in html
    assert "Spiel 16" in html


# --- the same for Mura and for a Müller Matz finishing order ------------------------------------


def mura_form(tricks: list[int], figures: list[int], **more: str) -> dict[str, Any]:
    data = {f"t_{i}": str(n) for i, n in enumerate(tricks)}
    data |= {f"f_{i}": str(n) for i, n in enumerate(figures)}
    return data | more


def test_a_stale_mura_form_keeps_its_counts_and_saves_only_when_confirmed(phone, anna):
    from .factories import game_start

    session = game_start(anna, "mura")
    other = Client()
    other.force_login(anna)
    other.post(f"/sessions/{session.pk}/deals/new",
               mura_form([2, 3, 3, 0], [2, 9, 7, 0], number="1"))
    assert Deal.objects.filter(session=session).count() == 1
    typed = mura_form([1, 2, 2, 3], [3, 6, 6, 5], number="1")
    check = phone.post(f"/sessions/{session.pk}/check", typed, **HTMX).content.decode()
    assert 'name="number" value="1"' in check and "Deal 1 was recorded" in check
    assert 'name="t_3" min="0" max="8" inputmode="numeric" value="3"' in check
    saved = phone.post(f"/sessions/{session.pk}/deals/new", typed)
    assert saved.status_code == 200 and 'name="confirm_number" value="2"' in saved.content.decode()
    assert Deal.objects.filter(session=session).count() == 1
    confirmed = phone.post(f"/sessions/{session.pk}/deals/new", typed | {"confirm_number": "2"})
    assert confirmed.status_code == 302
    assert Deal.objects.get(session=session, number=2).data["tricks"]
