"""Issue 15, the table in the hand: the save that answers the page's script in one answer,
blank counts, corrections reachable everywhere, and the page details that read right in
every language (plurals, one minus sign, dates, the QR code, the start form, the app)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from scorepad import rosters, services, sharing
from scorepad.models import Deal, Session

from .factories import EVEN, SEATS, game_start, played, record, user

pytestmark = pytest.mark.django_db

TABLE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}
CHECK = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "deal-form"}


def deal_form(declarer: int, bid: int, trump: str, tricks: list[int | None], **extra):
    data = {"kind": "played", "declarer": SEATS[declarer], "bid": str(bid), "trump": trump}
    for i, n in enumerate(tricks):
        data[f"t_{i}"] = "" if n is None else str(n)
    return data | extra


def events(response) -> dict:
    return json.loads(response.get("HX-Trigger", "{}"))


def by_name(session: Session, tricks: dict[str, int]) -> dict[str, int]:
    names = services.Names.of(session)
    return {names.to_name(pid): n for pid, n in tricks.items()}


# --- the save answers the page in one answer ---------------------------------------------


def test_a_save_sent_by_the_page_answers_with_new_scores_and_a_fresh_form_at_once(phone, table):
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          deal_form(0, 2, "acorns", [2, 1, 1, 1], number="1"), **TABLE)
    html = response.content.decode()
    assert response.status_code == 200  # no redirect and no second request
    assert events(response) == {"schreiber:recorded": {"number": 1}}
    assert html.lstrip().startswith('<div id="table"') and "<html" not in html
    assert 'id="scoreboard"' in html and 'id="deal-form"' in html
    assert 'name="number" value="2"' in html  # the fresh form records the next deal
    assert "Deal 1 recorded." in html and "/deals/1/delete" in html
    assert re.search(r'<span class="score">19</span>', html)
    assert re.search(r'id="recent"[^>]*hx-swap-oob="true"', html)  # the last deals, below


def test_a_plain_form_post_still_redirects(phone, table):
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          deal_form(0, 2, "acorns", [2, 1, 1, 1], number="1"))
    assert response.status_code == 302 and Deal.objects.count() == 1


def test_a_refused_save_says_why_in_its_event_and_records_nothing(phone, table):
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          deal_form(0, 2, "hearts", [2, 1, 1, 1], home=["2"], number="1"),
                          **TABLE)
    refused = events(response)["schreiber:refused"]
    assert refused["kind"] == "illegal" and refused["next"] == 1
    assert "Hearts are trump — nobody may stay home, so Cilli must play." in refused["reasons"]
    assert Deal.objects.count() == 0


def test_a_deal_another_phone_recorded_first_is_refused_as_a_conflict_with_the_next_number(
        phone, table, anna):
    record(table, anna, played("Bert", EVEN | {"Anna": 1, "Bert": 2}))
    response = phone.post(f"/sessions/{table.pk}/deals/new",
                          {"kind": "collapsed", "number": "1", "idempotency_key": "k-1"}, **TABLE)
    refused = events(response)["schreiber:refused"]
    assert refused["kind"] == "conflict" and refused["next"] == 2
    assert "recorded on another phone" in refused["reasons"][0]
    assert Deal.objects.count() == 1


def test_a_repeated_save_with_the_same_key_records_a_mura_deal_once(phone, anna):
    session = game_start(anna, "mura")
    data = {f"t_{i}": str(n) for i, n in enumerate([2, 3, 3, 0])}
    data |= {f"f_{i}": str(n) for i, n in enumerate([2, 9, 7, 0])}
    data |= {"number": "1", "idempotency_key": "the-outbox-sent-it-twice"}
    first = phone.post(f"/sessions/{session.pk}/deals/new", data, **TABLE)
    again = phone.post(f"/sessions/{session.pk}/deals/new", data, **TABLE)
    assert events(first) == events(again) == {"schreiber:recorded": {"number": 1}}
    assert Deal.objects.count() == 1


def test_a_muller_matz_loser_tapped_by_the_page_is_recorded_with_the_event(phone, anna):
    session = game_start(anna, "muller_matz")
    response = phone.post(f"/sessions/{session.pk}/deals/new",
                          {"loser": "Cilli", "number": "1", "idempotency_key": "x"}, **TABLE)
    assert events(response) == {"schreiber:recorded": {"number": 1}}
    assert 'id="table"' in response.content.decode()


# --- blank counts: one rule for both games ----------------------------------------------


def test_the_last_players_tricks_are_the_remainder(phone, table):
    phone.post(f"/sessions/{table.pk}/deals/new",
               deal_form(0, 2, "acorns", [2, 1, 1, None], number="1"))
    assert by_name(table, Deal.objects.get().data["tricks"]) == EVEN


def test_blanks_once_the_tricks_add_up_are_no_tricks(phone, table):
    phone.post(f"/sessions/{table.pk}/deals/new",
               deal_form(0, 3, "acorns", [3, 2, None, None], number="1"))
    assert by_name(table, Deal.objects.get().data["tricks"]) == {
        "Anna": 3, "Bert": 2, "Cilli": 0, "Dominik": 0}


def test_two_blanks_that_could_be_anything_are_named_when_saved_and_hinted_while_typing(
        phone, table):
    form = deal_form(0, 2, "acorns", [2, 1, None, None], number="1")
    html = phone.post(f"/sessions/{table.pk}/check", form, **CHECK).content.decode()
    assert "Tricks still to enter: Cilli, Dominik." in html
    assert "How many tricks did Cilli take?" not in html
    html = phone.post(f"/sessions/{table.pk}/deals/new", form).content.decode()
    assert "How many tricks did Cilli take?" in html and "How many tricks did Dominik take?" in html
    assert Deal.objects.count() == 0


def test_the_stepper_starts_from_the_filled_in_remainder(phone, table):
    html = phone.post(f"/sessions/{table.pk}/check",
                      deal_form(0, 2, "acorns", [2, 1, 0, None], step="3:-1")).content.decode()
    assert 'name="t_3" min="0" max="5" inputmode="numeric" value="1"' in html


def test_mura_fills_the_last_players_tricks_and_no_figures_without_a_trick(phone, anna):
    session = game_start(anna, "mura")
    data = {"t_0": "2", "t_1": "3", "t_2": "3", "t_3": "", "f_0": "2", "f_1": "9", "f_2": "7",
            "f_3": "", "number": "1"}
    phone.post(f"/sessions/{session.pk}/deals/new", data)
    deal = Deal.objects.get()
    assert by_name(session, deal.data["tricks"])["Dominik"] == 0
    assert by_name(session, deal.data["figures"])["Dominik"] == 0


# --- each message once, in its place --------------------------------------------------------


def test_the_muli_exchange_error_is_shown_once(phone, table):
    form = deal_form(1, 5, "acorns", [0, 5, 0, 0], x_2="2")
    html = phone.post(f"/sessions/{table.pk}/check", form, **CHECK).content.decode()
    assert html.count("Nobody exchanges in a Muli, so Cilli cannot either.") == 1


def test_a_score_of_one_point_is_singular():
    from referee.violations import Violation
    from scorepad.games.mulatschak import WORDING
    from scorepad.messages import violation_message

    one = Violation.of("stay_home_forbidden_low_score", "Anna", score=1, threshold=3)
    three = Violation.of("stay_home_forbidden_low_score", "Anna", score=3, threshold=3)
    assert violation_message(one, WORDING) == "Anna has 1 point (at or below 3) and must play."
    assert violation_message(three, WORDING) == (
        "Anna has 3 points (at or below 3) and must play.")


# --- corrections reachable for every deal; numbers as numbers ---------------------------------


def test_every_deal_can_be_corrected_from_the_sheet_the_history_and_the_last_deals(phone, table,
                                                                                   anna):
    for _ in range(10):
        record(table, anna, {"kind": "passed"})
    for path in ("sheet", "history", ""):
        html = phone.get(f"/sessions/{table.pk}/{path}").content.decode()
        for n in (1, 10) if path != "" else (3, 10):
            assert f"/sessions/{table.pk}/deals/{n}/edit" in html, (path, n)
    board = phone.get(f"/sessions/{table.pk}/").content.decode()
    assert "reversed" not in board and ">#10<" in board


def test_a_viewer_gets_no_correction_links(table):
    viewer = user("vera")
    rosters.member_set(group=table.group, user=viewer, role="viewer")
    record(table, table.group.memberships.get(role="owner").user, {"kind": "passed"})
    client = Client()
    client.force_login(viewer)
    for path in ("sheet", "history"):
        assert "/deals/1/edit" not in client.get(f"/sessions/{table.pk}/{path}").content.decode()


def test_a_deleted_deal_has_no_correction_link_in_the_history(phone, table, anna):
    record(table, anna, {"kind": "passed"})
    record(table, anna, {"kind": "passed"})
    services.deal_delete(session=table, user=anna, number=2)
    html = phone.get(f"/sessions/{table.pk}/history").content.decode()
    assert "/deals/1/edit" in html and "/deals/2/edit" not in html


def test_a_correction_that_moves_the_end_of_a_game_says_so(phone, anna):
    from .factories import group_with
    from .test_stats import script_mulatschak

    session = script_mulatschak(group_with(anna), anna)  # game 1 ends with deal 8: Anna
    response = phone.post(f"/sessions/{session.pk}/deals/8/edit",
                          deal_form(1, 2, "acorns", [1, 2, 1, 1], version="1"), follow=True)
    html = response.content.decode()
    assert "Deal 8 corrected." in html
    assert "Game 1 no longer ends (it ended with deal 8, won by Anna)." in html


def test_a_plain_correction_says_only_that_it_was_corrected(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    html = phone.post(f"/sessions/{table.pk}/deals/1/edit",
                      deal_form(1, 2, "acorns", [1, 2, 1, 1], version="1"),
                      follow=True).content.decode()
    assert "Deal 1 corrected." in html and "Game 1" not in html


# --- one tap to play again -------------------------------------------------------------------


def test_a_finished_session_offers_the_same_players_in_one_tap(phone, anna):
    from .factories import group_with

    group = group_with(anna)
    session = services.session_start(group=group, user=anna, preset="murln",
                                     overrides={"stay_home_penalty": 3}, seats=SEATS,
                                     dealer="Dominik", stake="0.50", currency="EUR")
    record(session, anna, played("Anna", EVEN))
    services.session_set_status(session=session, status="closed")
    html = phone.get(f"/sessions/{session.pk}/").content.decode()
    form = re.search(r'<section class="again".*?</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    response = phone.post("/sessions/new/", fields)
    assert response.status_code == 302
    again = Session.objects.exclude(pk=session.pk).get()
    assert (again.group, again.preset, again.rules["stay_home_penalty"]) == (group, "murln", 3)
    assert [s.player.name for s in again.seats.order_by("position")] == SEATS
    assert again.first_dealer.name == "Anna"  # who would have dealt next
    assert str(again.stake.normalize()) == "0.5" and again.currency == "EUR"


# --- reads right in every language -------------------------------------------------------------


def test_one_minus_sign_everywhere(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    for path in ("", "sheet"):
        html = phone.get(f"/sessions/{table.pk}/{path}").content.decode()
        text = re.sub(r"<(script|style)[^>]*>.*?</\1>|<[^>]+>", " ", html, flags=re.S)
        assert "\u22122" in text, path
        assert not re.search(r"(?<![\w-])-\d", text), path


def test_dates_follow_the_language(phone, table, anna):
    record(table, anna, {"kind": "passed"})
    english = phone.get(f"/sessions/{table.pk}/history").content.decode()
    german = phone.get(f"/sessions/{table.pk}/history", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    hungarian = phone.get(f"/sessions/{table.pk}/history",
                          HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert re.search(r"\d\d/\d\d/\d{4} \d\d:\d\d<", english)
    assert "a.m." not in english and "p.m." not in english
    assert re.search(r"\d\d\.\d\d\.\d{4} \d\d:\d\d<", german)
    assert re.search(r"\d{4}\. ?\d\d\. ?\d\d\.,? \d\d:\d\d<", hungarian)


def test_chart_axes_write_dates_the_languages_way(phone, table, anna):
    from django.utils import translation

    from scorepad import stats

    record(table, anna, played("Anna", EVEN))
    records = stats.load(Session.objects.filter(pk=table.pk))
    for language, pattern in (("en", r"^\d\d/\d\d$"), ("de", r"^\d\d\.\d\d\.$"),
                              ("hu", r"^\d\d\. \d\d\.$")):
        with translation.override(language):
            labels, _series = stats.cumulative_wins(list(table.group.players.all()), records)
        assert labels and re.match(pattern, labels[0]), (language, labels)


def test_the_chart_writes_its_coordinates_with_dots_in_every_language(phone, table, anna):
    for _ in range(3):
        record(table, anna, played("Anna", EVEN))
    for language in ("de", "hu"):
        html = phone.get(f"/sessions/{table.pk}/sheet",
                         HTTP_ACCEPT_LANGUAGE=language).content.decode()
        svg = re.search(r"<svg .*?</svg>", html, re.S).group(0)
        assert not re.search(r'(x|y|x1|x2|y1|y2)="-?\d+,\d', svg), language


def test_the_watch_link_qr_code_scales_whole(phone, table):
    sharing.watch_link_create(session=table)
    html = phone.get(f"/sessions/{table.pk}/").content.decode()
    svg = re.search(r'<div class="qr"[^>]*>(<svg[^>]*>)', html).group(1)
    assert re.search(r'viewBox="0 0 (\d+) \1"', svg)
    assert not re.search(r'\swidth="', svg) and not re.search(r'\sheight="', svg)


def test_the_start_form_offers_on_off_house_rules_as_toggles(phone):
    html = phone.get("/sessions/new/").content.decode()
    for value in ("", "true", "false"):
        assert f'name="rule_knock_doubles" value="{value}"' in html
    assert re.search(r'<select id="id_rule_all_pass" name="rule_all_pass">', html)
    response = phone.post("/sessions/new/", {
        "new_group": "Stammtisch", "game": "mulatschak", "preset": "salzburg",
        "seat_0": "Anna", "seat_1": "Bert", "seat_2": "Cilli", "dealer": "0",
        "rule_knock_doubles": "false", "rule_hearts_double": ""})
    assert response.status_code == 302
    session = Session.objects.get()
    assert session.rules["knock_doubles"] is False and session.rules["hearts_double"] is True


def test_a_bad_house_rule_is_shown_next_to_its_field_without_the_path(phone):
    html = phone.post("/sessions/new/", {
        "new_group": "G", "game": "mulatschak", "preset": "salzburg", "seat_0": "Anna",
        "seat_1": "Bert", "rule_stay_home_penalty": "lots"}).content.decode()
    rule = re.search(r'<div class="rule" data-field>\s*<div class="rule-head">\s*<label '
                     r'for="id_rule_stay_home_penalty">.*?</div>\s*</div>', html, re.S)
    assert rule and "must be a whole number" in rule.group(0)
    assert "rules.overrides.stay_home_penalty:" not in html


def test_the_start_form_hides_mulatschak_rules_and_extra_seats_for_mura_without_a_script(phone):
    from pathlib import Path

    from scorepad import games

    place = {game.NAME: i for i, game in enumerate(games.registered(), 1)}
    html = phone.get("/sessions/new/").content.decode()
    # Mulatschak's presets and house rules are its place's; Mura seats four: seats 5 and 6
    # are beyond it
    assert f'<details class="house-rules game-{place["mulatschak"]}"' in html
    assert re.search(rf'<li class="seat-5[^"]* beyond-{place["mura"]}[ "]', html)
    assert not re.search(r'<li class="seat-4[^"]* beyond-', html)
    css = (Path(__file__).resolve().parents[2] / "static" / "schreiber.css").read_text("utf-8")
    for n in place.values():
        assert (f"form:not(:has(.games .chip-row > :nth-child({n}) input:checked)) "
                f".game-{n}") in css
        assert f"form:has(.games .chip-row > :nth-child({n}) input:checked) .beyond-{n}" in css


# --- the installable app ---------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root_and_lists_the_app_shell():
    response = Client().get("/sw.js")
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert "Content-Security-Policy" in response
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    assert "/static/entry.js" in shell and "/static/outbox.js" in shell
    assert any("htmx" in url for url in shell)
    assert 'importScripts("/static/outbox.js")' in body


def test_the_manifest_names_the_app_and_its_icons():
    response = Client().get("/manifest.webmanifest")
    manifest = response.json()
    assert response["Content-Type"] == "application/manifest+json"
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
