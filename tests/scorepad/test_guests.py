"""Playing without an account: "Just play", the guest's cookie, what a guest may not do,
signing up keeps the sessions (all or nothing), the limit per address, the clean-up."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import timezone

from scorepad import guests, services
from scorepad.models import (
    Deal,
    DealEvent,
    Group,
    Guest,
    Membership,
    Registration,
    Session,
)

from .factories import SEATS, user

pytestmark = pytest.mark.django_db

PASSWORD = "kartenspiel-2026"
START = {"preset": "salzburg", "seat_0": "Anna", "seat_1": "Bert", "seat_2": "Cilli",
         "seat_3": "Dominik"}
FIRST_DEAL = {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns",
              "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1", "number": "1"}


def just_play(phone: Client, address: str = "203.0.113.20", **extra: Any) -> Any:
    return phone.post("/play/", {**START, **extra}, REMOTE_ADDR=address)


def playing(address: str = "203.0.113.20") -> tuple[Client, Session]:
    """A fresh phone that started a session without an account."""
    phone = Client()
    response = just_play(phone, address)
    assert response.status_code == 302, response.content.decode()[:2000]
    session = Session.objects.latest("pk")
    assert response["Location"] == f"/sessions/{session.pk}/"
    return phone, session


def test_the_start_page_offers_to_just_play():
    page = Client().get("/").content.decode()
    assert 'href="/play/"' in page and "Just play" in page


def test_the_start_form_without_an_account_asks_no_group():
    page = Client().get("/play/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Einfach spielen" in page
    assert 'name="new_group"' not in page and 'name="seat_0"' in page


def test_just_play_starts_a_session_of_a_new_guest_and_records_its_first_deal():
    phone, session = playing()
    guest = Guest.objects.get()
    assert session.group == guest.group and session.created_by == guest.user
    assert not guest.user.has_usable_password() and guests.is_guest(guest.user)
    cookie = phone.cookies[guests.COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) >= 360 * 24 * 3600
    response = phone.post(f"/sessions/{session.pk}/deals/new", FIRST_DEAL, follow=True)
    assert "Deal 1 recorded." in response.content.decode()
    assert Deal.objects.get().created_by == guest.user
    # the history, the watch link and the sheet are the guest's as anybody's
    assert phone.get(f"/sessions/{session.pk}/history").status_code == 200
    assert phone.get(f"/sessions/{session.pk}/sheet").status_code == 200
    phone.post(f"/sessions/{session.pk}/watch-link")
    session.refresh_from_db()
    assert session.watch_token and Client().get(f"/watch/{session.watch_token}/").status_code == 200


def test_the_cookie_logs_the_guest_in_again_after_the_login_ends():
    phone, session = playing()
    phone.cookies.pop("sessionid")
    assert phone.get(f"/sessions/{session.pk}/").status_code == 200


def test_a_guest_may_start_another_session_in_its_own_group_only():
    phone, first = playing()
    page = phone.get("/sessions/new/").content.decode()
    assert 'name="new_group"' not in page
    response = phone.post("/sessions/new/", {**START, "new_group": "Mine now"},
                          REMOTE_ADDR="203.0.113.20")
    assert response.status_code == 302
    assert Session.objects.latest("pk").group == first.group
    assert Group.objects.count() == 1


def test_a_forged_cookie_sees_nothing():
    _phone, session = playing()
    forger = Client()
    token = Guest.objects.get().token
    forger.cookies[guests.COOKIE] = token  # the token without the signature
    assert forger.get(f"/sessions/{session.pk}/").status_code == 302  # to the login
    forger.cookies[guests.COOKIE] = token + ":forged:signature"
    assert forger.get(f"/sessions/{session.pk}/").status_code == 302
    assert "_auth_user_id" not in forger.session


def test_another_guests_cookie_sees_only_that_guests_sessions():
    anna_phone, annas = playing()
    bert_phone, berts = playing()
    assert anna_phone.get(f"/sessions/{berts.pk}/").status_code == 404
    assert bert_phone.get(f"/sessions/{annas.pk}/").status_code == 404
    assert bert_phone.post(f"/sessions/{annas.pk}/deals/new", FIRST_DEAL).status_code == 404
    assert not Deal.objects.exists()


def test_a_cookie_signed_for_something_else_is_refused():
    from django.core import signing

    _phone, session = playing()
    other = Client()
    token = Guest.objects.get().token
    other.cookies[guests.COOKIE] = signing.get_cookie_signer(salt=guests.COOKIE + "x"
                                                             ).sign(token)
    assert other.get(f"/sessions/{session.pk}/").status_code == 302


@pytest.mark.parametrize("path", ["/groups/", "/accounts/", "/accounts/password/"])
def test_what_needs_an_account_tells_a_guest_to_sign_up(path):
    phone, _session = playing()
    response = phone.get(path, HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 403
    assert 'href="/signup/"' in response.content.decode()


def test_a_guest_cannot_manage_its_group_invite_or_import():
    phone, session = playing()
    group = session.group
    for path, data in [(f"/groups/{group.pk}/", {"name": "Sepp"}),
                       (f"/groups/{group.pk}/invites", {"role": "editor"}),
                       (f"/groups/{group.pk}/members", {"username": "bert"}),
                       ("/groups/", {"name": "Neu"})]:
        assert phone.post(path, data).status_code == 403, path
    assert not group.players.filter(name="Sepp").exists()
    assert not group.invites.exists() and Group.objects.count() == 1


def test_the_api_does_not_know_a_guest():
    phone, _session = playing()
    assert phone.get("/api/v1/groups/").status_code in (401, 403)


def test_the_dashboard_of_a_guest_offers_signing_up_and_no_groups():
    phone, session = playing()
    page = phone.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="guest"' in page and f"/sessions/{session.pk}/" in page
    assert f'href="/groups/{session.group_id}/"' not in page


# --- tournaments need an account --------------------------------------------------------------

TOURNAMENT = {"name": "Preis-Mulatschak", "game": "mulatschak", "preset": "geiser",
              "rounds": "50", "round_ends": "game", "table_size": "4",
              "scoring": "placement", "draw": "random"}


@pytest.mark.parametrize("language", ["en", "de", "hu"])
def test_a_guest_gets_the_page_that_offers_sign_up_instead_of_tournaments(language):
    phone, session = playing()
    response = phone.get(f"/groups/{session.group_id}/tournaments/",
                         HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 403
    page = response.content.decode()
    assert 'href="/signup/"' in page
    words = {"en": "tournaments", "de": "Turniere", "hu": "versenyekhez"}[language]
    assert words in page


def test_a_guest_makes_no_tournament_and_through_none_any_session():
    from scorepad.models import Tournament

    phone, session = playing()
    response = phone.post(f"/groups/{session.group_id}/tournaments/", TOURNAMENT)
    assert response.status_code == 403
    assert not Tournament.objects.exists() and Session.objects.count() == 1


def test_a_guests_tournament_from_before_is_closed_to_it_and_draws_nothing():
    """A tournament a guest made before tournaments needed an account: none of its pages
    open to the guest, and no round is drawn (every round would be sessions)."""
    from .tournament_play import tournament

    phone, session = playing()
    guest = Guest.objects.get()
    contest = tournament(session.group, guest.user, players=8)
    base = f"/tournaments/{contest.pk}/"
    for path in (base, base + "tables", base + "ranking.csv", base + "ranking/print"):
        assert phone.get(path).status_code == 403, path
    assert phone.post(base, {"action": "draw"}).status_code == 403
    assert phone.post(base, {"action": "register", "name": "Xaver"}).status_code == 403
    assert not contest.round_set.exists() and Session.objects.count() == 1
    assert phone.get(f"/screen/{contest.screen_token}/").status_code == 200  # public


def test_the_api_knows_no_guest_for_tournaments():
    phone, session = playing()
    assert phone.get("/api/v1/tournaments/").status_code == 401
    made = phone.post("/api/v1/tournaments/", {**TOURNAMENT, "group": session.group_id,
                                               "rounds": 2, "table_size": 4},
                      content_type="application/json")
    assert made.status_code in (401, 403)
    from scorepad.models import Tournament

    assert not Tournament.objects.exists()


def test_even_a_guest_the_api_knew_would_be_refused_what_needs_an_account():
    """AccountRequired, the API's side of account_required: should a guest ever be
    somebody to the API (it is nobody to it now), groups and tournaments stay closed."""
    from django.utils import translation
    from rest_framework.test import APIRequestFactory, force_authenticate

    from scorepad.api import group_views, tournament_views

    _phone, session = playing()
    guest = Guest.objects.get().user
    factory = APIRequestFactory()
    for view, path in ((tournament_views.tournaments, "/api/v1/tournaments/"),
                       (group_views.groups, "/api/v1/groups/")):
        request = factory.get(path)
        force_authenticate(request, user=guest)
        with translation.override("de"):
            answer = view(request)
        assert answer.status_code == 403, path
        assert answer.data["detail"] == "Dafür brauchst du ein Konto.", path  # in its words


def test_a_guests_past_sessions_offer_nothing_that_needs_an_account():
    phone, session = playing()
    response = phone.get(f"/groups/{session.group_id}/sessions/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"/sessions/{session.pk}/" in page
    assert f'href="/groups/{session.group_id}/"' not in page
    assert f"/groups/{session.group_id}/stats/" not in page


def test_same_players_new_session_counts_against_the_guest_limit(settings):
    settings.SCHREIBER_GUEST_SESSIONS_PER_HOUR = 2
    phone, first = playing("203.0.113.40")
    phone.post(f"/sessions/{first.pk}/status", {"status": "closed"})
    page = phone.get(f"/sessions/{first.pk}/").content.decode()
    form = page[page.index('<section class="again"'):]
    again = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                            form[:form.index("</form>")]))
    del again["csrfmiddlewaretoken"]
    assert again["seat_0"] == "Anna"
    assert phone.post("/sessions/new/", again, REMOTE_ADDR="203.0.113.40").status_code == 302
    refused = phone.post("/sessions/new/", again, REMOTE_ADDR="203.0.113.40")
    assert refused.status_code == 429
    assert Session.objects.count() == 2


# --- signing up keeps the sessions ---------------------------------------------------------


def test_signing_up_keeps_every_guest_session_in_a_group_of_the_new_account():
    phone, first = playing()
    phone.post(f"/sessions/{first.pk}/deals/new", FIRST_DEAL)
    phone.post("/sessions/new/", START, REMOTE_ADDR="203.0.113.20")
    guest_user = Guest.objects.get().user
    response = phone.post("/signup/", {"username": "resi", "password1": PASSWORD,
                                        "password2": PASSWORD}, REMOTE_ADDR="203.0.113.20")
    assert response.status_code == 302 and response["Location"] == "/"
    resi = get_user_model().objects.get(username="resi")
    assert not Guest.objects.exists()
    assert not get_user_model().objects.filter(pk=guest_user.pk).exists()
    assert Membership.objects.get(group=first.group).user == resi
    assert set(Session.objects.values_list("created_by", flat=True)) == {resi.pk}
    assert Deal.objects.get().created_by == resi and DealEvent.objects.get().user == resi
    assert guests.COOKIE in response.cookies and response.cookies[guests.COOKIE]["max-age"] == 0
    home = phone.get("/")
    page = home.content.decode()
    assert f"/sessions/{first.pk}/" in page and 'id="guest"' not in page
    assert "data-account-was=" in page  # the phone's kept deals follow (static/outbox.js)
    assert phone.get(f"/sessions/{first.pk}/").status_code == 200
    assert phone.get(f"/groups/{first.group_id}/").status_code == 200


def test_a_failure_midway_through_the_claim_leaves_nothing_half_moved(monkeypatch):
    phone, session = playing()
    phone.post(f"/sessions/{session.pk}/deals/new", FIRST_DEAL)
    guest = Guest.objects.get()
    real_update = DealEvent.objects.none().__class__.update

    def broken(self: Any, **kwargs: Any) -> Any:
        if self.model is DealEvent:
            raise RuntimeError("the database went away")
        return real_update(self, **kwargs)

    monkeypatch.setattr(DealEvent.objects.none().__class__, "update", broken)
    factory_request = phone.get("/").wsgi_request
    with pytest.raises(RuntimeError):
        guests.account_register_claiming(username="resi", password=PASSWORD,
                                         request=factory_request, guest=guest)
    monkeypatch.undo()
    assert not get_user_model().objects.filter(username="resi").exists()
    guest.refresh_from_db()
    assert Membership.objects.get(group=session.group).user == guest.user
    assert Session.objects.get().created_by == guest.user
    assert Deal.objects.get().created_by == guest.user
    assert DealEvent.objects.get().user == guest.user
    assert phone.get(f"/sessions/{session.pk}/").status_code == 200


def test_signing_up_with_a_taken_name_keeps_the_guest():
    user("resi")
    phone, _session = playing()
    response = phone.post("/signup/", {"username": "resi", "password1": PASSWORD,
                                        "password2": PASSWORD})
    assert response.status_code == 200
    assert Guest.objects.count() == 1


# --- limits and clean-up -------------------------------------------------------------------


def test_sessions_without_an_account_are_limited_per_address_and_hour(settings):
    settings.SCHREIBER_GUEST_SESSIONS_PER_HOUR = 2
    phone, _first = playing("203.0.113.30")
    assert phone.post("/sessions/new/", START, REMOTE_ADDR="203.0.113.30").status_code == 302
    refused = phone.post("/sessions/new/", START, REMOTE_ADDR="203.0.113.30",
                         HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "ohne Konto" in refused.content.decode()
    assert just_play(Client(), "203.0.113.30").status_code == 429
    assert Session.objects.count() == 2 and Guest.objects.count() == 1
    assert just_play(Client(), "198.51.100.30").status_code == 302  # another address


def test_a_refused_start_makes_no_guest():
    response = Client().post("/play/", {"seat_0": "Anna"}, REMOTE_ADDR="203.0.113.31")
    assert response.status_code == 200
    assert not Guest.objects.exists() and not Group.objects.exists()


def a_request(address: str = "203.0.113.32") -> Any:
    return RequestFactory().post("/play/", REMOTE_ADDR=address)


def test_a_guest_start_refused_by_the_service_leaves_no_guest_no_count_and_no_session():
    with pytest.raises(services.InputError) as caught:
        guests.guest_session_start(request=a_request(), guest=None, game="mulatschak",
                                   seats=SEATS, dealer="Nobody")
    assert caught.value.field == "dealer"
    assert not Guest.objects.exists() and not Group.objects.exists()
    assert not Registration.objects.exists() and not Session.objects.exists()


def test_a_guest_start_makes_the_guest_once_and_counts_every_session():
    guest, first = guests.guest_session_start(request=a_request(), guest=None,
                                              game="mulatschak", seats=SEATS)
    same, second = guests.guest_session_start(request=a_request(), guest=guest,
                                              game="mulatschak", seats=SEATS, dealer="Anna")
    assert same == guest and Guest.objects.get() == guest
    assert first.group == second.group == guest.group
    assert first.created_by == second.created_by == guest.user
    assert Registration.objects.filter(kind=Registration.Kind.GUEST,
                                       address="203.0.113.32").count() == 2


def test_guests_unused_for_the_configured_days_are_removed(settings):
    settings.SCHREIBER_GUEST_DAYS = 30
    _old_phone, old = playing()
    _new_phone, new = playing()
    long_ago = timezone.now() - timedelta(days=31)
    stale = Guest.objects.get(group=old.group)
    Guest.objects.filter(pk=stale.pk).update(created_at=long_ago)
    get_user_model().objects.filter(pk=stale.user_id).update(last_login=long_ago)
    Session.objects.filter(pk=old.pk).update(created_at=long_ago)
    # an account's old session stays whatever its age
    anna = user("anna")
    from .factories import group_with, session_at

    annas = session_at(group_with(anna), anna)
    Session.objects.filter(pk=annas.pk).update(created_at=long_ago)
    out = StringIO()
    call_command("prune_guests", stdout=out)
    assert "removed 1 guests unused for 30 days" in out.getvalue()
    assert set(Session.objects.values_list("pk", flat=True)) == {new.pk, annas.pk}
    assert not get_user_model().objects.filter(pk=stale.user_id).exists()
    assert Guest.objects.count() == 1


def test_a_guest_still_recording_is_kept(settings):
    phone, session = playing()
    long_ago = timezone.now() - timedelta(days=200)
    guest = Guest.objects.get()
    Guest.objects.filter(pk=guest.pk).update(created_at=long_ago)
    get_user_model().objects.filter(pk=guest.user_id).update(last_login=long_ago)
    Session.objects.filter(pk=session.pk).update(created_at=long_ago)
    phone.post(f"/sessions/{session.pk}/deals/new", FIRST_DEAL)  # today
    assert guests.guests_prune(days=90) == 0
    assert Session.objects.filter(pk=session.pk).exists()


def test_seats_are_the_ones_typed():
    _phone, session = playing()
    assert [s.player.name for s in session.seats.all()] == SEATS


def test_over_https_the_cookie_is_a_secure_host_only_one():
    phone = Client()
    response = phone.post("/play/", START, REMOTE_ADDR="203.0.113.40", secure=True)
    assert response.status_code == 302
    cookie = response.cookies["__Host-" + guests.COOKIE]
    assert cookie["secure"] and cookie["httponly"] and cookie["path"] == "/"
    session = Session.objects.get()
    phone.cookies.pop("sessionid")
    assert phone.get(f"/sessions/{session.pk}/", secure=True).status_code == 200


def test_a_guest_corrects_a_deal_and_its_history_says_so():
    phone, session = playing()
    phone.post(f"/sessions/{session.pk}/deals/new", FIRST_DEAL)
    corrected = {**FIRST_DEAL, "declarer": "Bert", "t_0": "1", "t_1": "2", "version": "1"}
    corrected.pop("number")
    assert phone.post(f"/sessions/{session.pk}/deals/1/edit", corrected).status_code == 302
    assert DealEvent.objects.filter(action="update").count() == 1
    history = phone.get(f"/sessions/{session.pk}/history").content.decode()
    assert "corrected" in history


def test_a_guest_plays_for_money_and_sees_the_settlement():
    phone = Client()
    response = just_play(phone, game="mura", dealer="3", stake="0.20", currency="EUR")
    assert response.status_code == 302, response.content.decode()[:2000]
    session = Session.objects.get()
    tricks = {f"t_{i}": str(n) for i, n in enumerate([2, 3, 3, 0])}
    figures = {f"f_{i}": str(n) for i, n in enumerate([2, 9, 7, 0])}
    phone.post(f"/sessions/{session.pk}/deals/new", tricks | figures | {"number": "1"})
    assert Deal.objects.count() == 1
    money = phone.get(f"/sessions/{session.pk}/settlement").content.decode()
    assert "Anna</strong> → " in money and "€" in money


def test_a_guest_sees_nothing_of_an_accounts_group(table):
    phone, _session = playing()
    assert phone.get(f"/sessions/{table.pk}/").status_code == 404
    assert phone.get(f"/groups/{table.group_id}/sessions/").status_code == 404
    assert phone.get(f"/sessions/{table.pk}/history").status_code == 404
    assert phone.get("/groups/999999/").status_code == 403  # the same for any group


def test_a_guest_claimed_a_moment_earlier_is_not_claimed_twice():
    phone, session = playing()
    guest = Guest.objects.get()
    request = phone.get("/").wsgi_request
    first, group = guests.account_register_claiming(username="resi", password=PASSWORD,
                                                    request=request, guest=guest)
    second, none = guests.account_register_claiming(username="sepp", password=PASSWORD,
                                                    request=request, guest=guest)
    assert group == session.group and none is None
    assert Membership.objects.get(group=session.group).user == first
    assert not second.memberships.exists()


def test_the_guest_settings_come_from_the_environment():
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SCHREIBER_"))}
    env |= {"DJANGO_DEBUG": "1", "SCHREIBER_GUEST_DAYS": "30",
            "SCHREIBER_GUEST_SESSIONS_PER_HOUR": "5"}
    code = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'scorepad.settings'); from django.conf import settings as s; "
            "print(s.SCHREIBER_GUEST_DAYS, s.SCHREIBER_GUEST_SESSIONS_PER_HOUR)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "30 5", result.stderr


def test_prune_guests_refuses_fewer_than_one_day():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("prune_guests", "--days", "0")
