"""The Referee page: every answer, bad input (a clear error naming the field, never a 500),
who may see which page, the session's rules and table preloaded, and /rules/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from scorepad import services
from scorepad.disputes import tools
from scorepad.rulesdoc import listed_anchors, rules_doc, slug

from .factories import EVEN, group_with, member, played, record, session_at, user

pytestmark = pytest.mark.django_db


def said(response: Any) -> str:
    """The answer's words, without tags."""
    html = response.content.decode()
    match = re.search(r'<div id="referee-answer".*?(?=<div class="card-picker|<fieldset|'
                      r'<p class="picker-clear|</form>)', html, flags=re.DOTALL)
    text = match.group(0) if match else ""
    return " ".join(re.sub(r"<[^>]+>", " ", text).replace("&#x27;", "'").split())


def errors(response: Any) -> list[str]:
    html = response.content.decode()
    return [" ".join(re.sub(r"<[^>]+>", " ", e).split())
            for e in re.findall(r'<li data-field="[^"]*">(.*?)</li>', html, flags=re.DOTALL)]


def ask(path: str, data: dict[str, Any], client: Client | None = None, **headers: Any) -> Any:
    response = (client or Client()).post(path, data, **headers)
    assert response.status_code == 200
    return response


# --- Mulatschak: was that a legal play? ---------------------------------------------------


def test_a_card_that_does_not_follow_suit_is_named_with_its_rule_and_link():
    response = ask("/referee/trick/", {"trump": "leaves", "trick": ["bells-ace", "leaves-10"],
                                       "hand": ["bells-10"]})
    text = said(response)
    assert "Not legal: the player had to follow suit." in text
    assert "A player who holds a card of the suit led must play one." in text
    assert 'href="/rules/#following-suit"' in response.content.decode()
    assert "Before it, Bells Ace was the best card." in text


def test_a_void_player_holding_a_trump_must_trump():
    text = said(ask("/referee/trick/", {"trump": "leaves",
                                        "trick": ["bells-ace", "acorns-king"],
                                        "hand": ["leaves-8"]}))
    assert "Not legal: the player had to play a trump." in text


def test_a_player_who_can_beat_the_trick_must_head_it():
    text = said(ask("/referee/trick/", {"trump": "hearts", "trick": ["hearts-king", "hearts-7"],
                                        "hand": ["bells-6"]}))
    assert "the player had to beat the best card" in text
    assert "The Weli counts as a trump here." in text


def test_the_weli_must_follow_a_trump_lead_from_the_seed():
    # Salzburg's example: hearts trump; Dominik holds leaves and the Weli, plays a leaf
    text = said(ask("/referee/trick/", {"trump": "hearts",
                                        "trick": ["hearts-ober", "bells-9", "hearts-ace",
                                                  "leaves-7"],
                                        "hand": ["bells-6", "leaves-8"]}))
    assert "had to follow suit" in text and "The Weli counts as a trump here." in text
    assert "Before it, Hearts Ace was the best card." in text


def test_a_legal_play_names_the_card_that_wins_so_far():
    text = said(ask("/referee/trick/", {"trump": "leaves", "trick": ["bells-ace"],
                                        "hand": ["leaves-10"], "pick": "bells-10"}))
    assert "Legal: Bells 10 may be played." in text
    assert "Bells Ace wins the trick so far." in text


def test_without_her_hand_only_the_cards_are_checked():
    text = said(ask("/referee/trick/", {"trump": "acorns", "trick": ["bells-ace"],
                                        "pick": "acorns-7"}))
    assert "Legal as far as the cards show" in text
    assert "Acorns 7 wins the trick so far." in text


def test_a_tap_goes_to_the_slot_chosen_and_a_second_tap_on_a_hand_card_takes_it_out():
    data = {"trump": "leaves", "trick": ["bells-ace"], "target": "hand"}
    html = ask("/referee/trick/", data | {"pick": "bells-10"}).content.decode()
    assert 'name="hand" value="bells-10"' in html
    html = ask("/referee/trick/", data | {"hand": ["bells-10"], "pick": "bells-10"}
               ).content.decode()
    assert 'name="hand" value="bells-10"' not in html


def test_cards_already_in_the_trick_are_greyed_out_in_the_picker():
    html = ask("/referee/trick/", {"trump": "leaves", "trick": ["bells-ace"]}).content.decode()
    assert re.search(r'value="bells-ace" class="card played"[^>]*disabled', html)
    assert re.search(r'value="bells-king" class="card"[^>]*>', html)


def test_a_murln_table_offers_only_its_33_cards():
    html = ask("/referee/trick/", {"preset": "murln"}).content.decode()
    assert 'value="bells-6"' in html and 'value="acorns-6"' not in html


def test_the_house_rules_picked_change_the_answer():
    data = {"trump": "leaves", "trick": ["bells-ace", "leaves-10"], "hand": ["bells-10"],
            "preset": "salzburg", "rules_for": "salzburg", "r_must_follow_suit": "0"}
    assert "Legal" in said(ask("/referee/trick/", data))


def test_a_preset_picked_anew_resets_the_house_rules():
    data = {"trump": "leaves", "trick": ["bells-ace", "leaves-10"], "hand": ["bells-10"],
            "preset": "geiser", "rules_for": "salzburg", "r_must_follow_suit": "0"}
    assert "had to follow suit" in said(ask("/referee/trick/", data))


def test_a_trick_holds_no_more_cards_than_players():
    response = ask("/referee/trick/", {"trump": "leaves", "preset": "murln",
                                       "trick": ["bells-ace", "bells-king", "bells-ober",
                                                 "bells-unter", "bells-10"],
                                       "pick": "bells-9"})
    assert errors(response) == ["A trick has at most 5 cards."]


# --- Mulatschak: the auction ----------------------------------------------------------------


def test_the_auction_names_the_leader_so_far_and_who_calls_next():
    text = said(ask("/referee/auction/", {"calls": ["0:2", "1:3"]}))
    assert "So far Player 2 leads with 3 tricks." in text and "Player 3 calls next." in text


def test_a_call_out_of_turn_is_named_with_the_reason():
    text = said(ask("/referee/auction/", {"calls": ["0:2", "2:3"]}))
    assert "Call 2: It is not Player 3's turn; Player 2 calls next." in text
    assert "only a Muli may be called out of turn" in text


def test_a_call_into_the_duel_is_out_of_turn_because_of_the_duel():
    text = said(ask("/referee/auction/", {"calls": ["0:2", "1:3", "2:pass", "3:hold", "2:4"]}))
    assert "Call 5: It is not Player 3's turn" in text
    assert "After a hold only the dealer and the player whose bid was held call" in text
    assert "Duel: Player 2 and Player 4 call until one passes." in text


def test_the_seed_auction_ends_with_the_dealer_declaring_four():
    response = ask("/referee/auction/", {"calls": ["0:2", "1:3", "2:pass", "3:hold", "1:4",
                                                   "3:hold"], "caller": "1", "call": "pass"})
    assert "Player 4 declares 4 tricks." in said(response)
    assert 'class="call-buttons"' not in response.content.decode()  # the auction is over


def test_a_caller_tapped_stays_chosen_until_the_call_is_tapped():
    html = ask("/referee/auction/", {"calls": ["0:2"], "caller": "2"}).content.decode()
    assert 'id="caller-2" name="caller" value="2" checked' in html
    html = ask("/referee/auction/", {"calls": ["0:2"], "caller": "2", "call": "3"}
               ).content.decode()
    assert 'id="caller-1" name="caller" value="1" checked' in html  # still Player 2's turn


def test_a_pile_player_tapped_stays_chosen_until_the_play():
    html = ask("/referee/pile/", {"trump": "hearts", "acts": ["0:spades-9"], "actor": "3"}
               ).content.decode()
    assert 'id="actor-3" name="actor" value="3" checked' in html


def test_only_the_dealer_may_hold():
    text = said(ask("/referee/auction/", {"calls": ["0:2", "1:hold"]}))
    assert "Call 2: Only the dealer may hold a bid." in text
    assert "/rules/#holding-and-the-duel" in ask("/referee/auction/", {
        "calls": ["0:2", "1:hold"]}).content.decode()


def test_a_muli_out_of_turn_counts():
    text = said(ask("/referee/auction/", {"calls": ["0:2", "2:muli"]}))
    assert "Player 3's Muli out of turn counts." in text
    assert "Player 3 declares a Muli." in text


def test_a_low_score_may_only_pass():
    text = said(ask("/referee/auction/", {"calls": ["0:2"], "score_0": "4"}))
    assert "Call 1: Player 1 has 4 points (at or below 5) and may only pass." in text


def test_a_five_player_murln_table_with_sit_out_at_names_who_sits_out():
    data = {"preset": "murln", "rules_for": "murln", "r_sit_out_at": "5", "seats": "5",
            "calls": ["4:pass"]}
    text = said(ask("/referee/auction/", data))
    assert "Player 5 deals and sits out; Player 4 calls last." in text
    assert "Call 1: Player 5 deals and sits out, so Player 5 does not bid." in text


def test_the_murln_preset_calls_a_bid_of_five_a_murler():
    text = said(ask("/referee/auction/", {"preset": "murln", "calls": ["0:muli"]}))
    assert "Player 1 declares a Murler." in text


# --- Mura ------------------------------------------------------------------------------


def test_a_mura_card_of_another_suit_does_not_beat_and_a_revoke_is_found():
    text = said(ask("/referee/mura/", {"trick": ["hearts-9", "hearts-10", "bells-7"],
                                       "later": ["hearts-8"], "leader": "0"}))
    assert "Bells 7 does not beat: it is not of the suit led" in text
    assert "Player 2 wins the trick so far with Hearts 10." in text
    assert "Revoke: Player 3 did not follow Hearts but plays Hearts 8 later." in text


def test_a_higher_mura_card_of_the_suit_led_beats():
    text = said(ask("/referee/mura/", {"trick": ["hearts-ace"], "pick": "hearts-10"}))
    assert "Hearts 10 beats the trick so far." in text


def test_no_revoke_when_the_later_cards_hold_no_card_of_the_suit_led():
    text = said(ask("/referee/mura/", {"trick": ["hearts-9", "bells-7"],
                                       "later": ["acorns-8"]}))
    assert "No revoke: The last player has not played Hearts since." in text


def test_the_player_after_the_dealer_leads_the_first_mura_trick():
    text = said(ask("/referee/mura/", {"dealer": "3"}))
    assert "Player 1 sits to the dealer's right and leads the first trick." in text


# --- Müller Matz ------------------------------------------------------------------------


def test_the_beat_question_answers_with_the_reason():
    text = said(ask("/referee/beat/", {"trump": "diamonds", "attack": "clubs-10",
                                       "pick": "diamonds-2", "target": "defense"}))
    assert "Yes: any trump beats a card that is not a trump." in text


def test_three_trumps_may_go_to_sleep_and_the_lowest_trump_may_swap():
    text = said(ask("/referee/hand/", {"trump": "hearts", "stock": "5",
                                       "hand": ["hearts-2", "hearts-7", "hearts-jack",
                                                "spades-9"], "turned_up": "hearts-queen"}))
    assert "May go to sleep with 3 trumps." in text
    assert "May swap Hearts 2 for the turned-up card" in text


def test_two_trumps_may_not_sleep_while_the_stock_lasts_but_may_once_it_is_empty():
    data = {"trump": "hearts", "hand": ["hearts-2", "hearts-7"]}
    assert "May not go to sleep: it takes 3 trumps." in said(ask("/referee/hand/",
                                                                 data | {"stock": "4"}))
    text = said(ask("/referee/hand/", data | {"stock": "1", "stock_step": "-1"}))
    assert "May go to sleep with 2 trumps." in text and "No swap: the stock is used up." in text


def test_nothing_to_swap_when_the_lowest_trump_is_turned_up():
    text = said(ask("/referee/hand/", {"trump": "hearts", "stock": "3", "hand": ["hearts-9"],
                                       "turned_up": "hearts-2"}))
    assert "Nothing to swap: the turned-up card is Hearts 2 itself." in text


def test_a_pile_card_that_does_not_serve_is_named():
    text = said(ask("/referee/pile/", {"trump": "hearts", "seats": "3",
                                       "acts": ["0:spades-9", "1:spades-4"]}))
    assert "Play 2: Player 2 cannot serve Spades 9 with Spades 4" in text
    assert "Player 2 is next." in text


def test_a_complete_pile_names_its_winner():
    response = ask("/referee/pile/", {"trump": "hearts", "seats": "3",
                                      "acts": ["0:spades-9", "1:spades-queen"],
                                      "pick": "hearts-3"})
    assert "The pile is complete: Player 3 wins it with Hearts 3." in said(response)


def test_a_pick_up_is_a_play_of_the_pile():
    text = said(ask("/referee/pile/", {"trump": "hearts", "seats": "3",
                                       "acts": ["0:spades-9"], "pick_up": "1"}))
    assert "Every play so far is legal." in text and "Player 3 is next." in text


# --- bad input: an error naming the field, never a 500 ------------------------------------------


@pytest.mark.parametrize(("path", "data", "field"), [
    ("/referee/trick/", {"trick": ["hearts-11"]}, "trick"),
    ("/referee/trick/", {"trick": ["bells-ace", "bells-ace"]}, "trick"),
    ("/referee/trick/", {"hand": ["clubs-2"], "trump": "acorns"}, "hand"),
    ("/referee/trick/", {"pick": "<script>"}, "pick"),
    ("/referee/trick/", {"preset": "vienna"}, "preset"),
    ("/referee/trick/", {"preset": "salzburg", "rules_for": "salzburg",
                         "r_must_trump": "1", "r_must_head_trick": "yes"}, None),
    ("/referee/auction/", {"calls": ["9:2"]}, "calls"),
    ("/referee/auction/", {"calls": ["0:seven"]}, "calls"),
    ("/referee/auction/", {"call": "7"}, "call"),
    ("/referee/auction/", {"caller": "42", "call": "2"}, "caller"),
    ("/referee/auction/", {"dealer": "x"}, "dealer"),
    ("/referee/auction/", {"score_1": "1e400"}, "score_1"),
    ("/referee/auction/", {"seats": "9"}, "seats"),
    ("/referee/auction/", {"preset": "salzburg", "rules_for": "salzburg",
                           "r_min_bid": "9"}, "r_min_bid"),
    ("/referee/auction/", {"calls": [f"0:{n % 4 + 1}" for n in range(70)]}, "calls"),
    ("/referee/mura/", {"leader": "4"}, "leader"),
    ("/referee/mura/", {"trick": ["bells-6"]}, "trick"),
    ("/referee/beat/", {"attack": "acorns-ober", "trump": "hearts"}, "attack"),
    ("/referee/hand/", {"stock": "-3", "trump": "hearts"}, "stock"),
    ("/referee/hand/", {"preset": "x", "rules_for": "muller_matz", "r_sleep_trumps": "0"},
     "r_sleep_trumps"),
    ("/referee/pile/", {"acts": ["0:spades-99"], "trump": "hearts"}, "acts"),
    ("/referee/pile/", {"actor": "x", "pick_up": "1", "trump": "hearts"}, "actor"),
])
def test_bad_input_is_named_and_answered_with_the_page(path, data, field):
    response = ask(path, data)
    html = response.content.decode()
    if field is None:  # an on/off that is neither: the preset's value stands
        assert 'role="alert"' not in html
        return
    assert f'data-field="{field}"' in html, errors(response)


def test_a_bad_card_is_named_by_its_field_in_german():
    response = ask("/referee/trick/", {"trick": ["hearts-11"]}, HTTP_ACCEPT_LANGUAGE="de")
    assert errors(response) == ["Der Stich, der Reihe nach: hearts-11 ist keine Karte."]


# --- languages -----------------------------------------------------------------------------


def test_the_broken_duty_is_named_in_german_and_hungarian():
    data = {"trump": "leaves", "trick": ["bells-ace", "leaves-10"], "hand": ["bells-10"]}
    german = said(ask("/referee/trick/", data, HTTP_ACCEPT_LANGUAGE="de"))
    assert "Nicht erlaubt: hätte Farbe bedienen müssen." in german
    assert "Schelle Sau" in german
    hungarian = said(ask("/referee/trick/", data, HTTP_ACCEPT_LANGUAGE="hu"))
    assert "Nem szabályos: színt kellett volna adnia." in hungarian
    assert "Tök Ász" in hungarian


def test_the_auction_answers_in_hungarian():
    text = said(ask("/referee/auction/", {"calls": ["0:2", "1:3"]}, HTTP_ACCEPT_LANGUAGE="hu"))
    assert "Eddig 2. játékos vezet 3 ütéssel." in text


# --- htmx: the form alone --------------------------------------------------------------------


def test_an_htmx_tap_gets_back_just_the_form_with_its_answer():
    response = ask("/referee/beat/", {"trump": "hearts", "attack": "spades-9",
                                      "pick": "spades-queen", "target": "defense"},
                   HTTP_HX_REQUEST="true", HTTP_HX_TARGET="referee-form")
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="referee-form"') and "<html" not in html
    assert "Yes: a higher card of the same suit beats it." in html


def test_the_pages_carry_no_inline_script_or_style():
    for path in ["/referee/", "/rules/", *(f"/referee/{name}/" for name in tools())]:
        html = Client().get(path).content.decode()
        assert "<script>" not in html and "<style" not in html and " style=" not in html, path
        assert re.findall(r"<script(?![^>]*\bsrc=)", html) == [], path


# --- who sees which page ----------------------------------------------------------------------


@pytest.fixture
def table(anna: Any) -> Any:
    session = session_at(group_with(anna), anna)
    record(session, anna, played("Anna", EVEN))
    return session


def test_the_stand_alone_pages_need_no_login():
    for path in ["/referee/", *(f"/referee/{name}/" for name in tools())]:
        assert Client().get(path).status_code == 200, path


def test_a_session_referee_page_is_for_members_only(table, anna):
    stranger = Client()
    stranger.force_login(user("stranger"))
    viewer = user("viewer")
    member(table.group, viewer, "viewer")
    seen = Client()
    seen.force_login(viewer)
    for path in [f"/sessions/{table.pk}/referee/", f"/sessions/{table.pk}/referee/trick/"]:
        assert stranger.get(path).status_code == 404
        assert stranger.post(path, {"trump": "hearts"}).status_code in (404, 405)
        assert Client().get(path).status_code == 302
        assert seen.get(path).status_code == 200


def test_a_question_of_another_game_is_not_found_in_a_session(table, phone):
    assert phone.get(f"/sessions/{table.pk}/referee/beat/").status_code == 404


def test_every_session_page_has_the_referee_one_tap_away(table, phone):
    link = f'href="/sessions/{table.pk}/referee/"'
    for path in ["", "history", "settlement", "sheet", "deals/1/edit", "deals/1/delete"]:
        html = phone.get(f"/sessions/{table.pk}/{path}").content.decode()
        assert link in html, path


def test_the_home_page_links_the_referee_and_the_rules(phone):
    for client in (Client(), phone):
        html = client.get("/").content.decode()
        assert 'href="/referee/"' in html and 'href="/rules/"' in html


# --- the session's table, preloaded -------------------------------------------------------------


def test_the_session_auction_knows_the_seats_the_next_dealer_and_the_scores(anna, phone):
    session = session_at(group_with(anna), anna)
    # Bert ends at 4 points: at Salzburg (no bid at or below 5) he may only pass
    record(session, anna, played("Bert", {"Anna": 0, "Bert": 5, "Cilli": 0, "Dominik": 0},
                                 bid=5, trump="hearts"))
    session.refresh_from_db()
    board = services.scoreboard(session)
    dealer = ["Anna", "Bert", "Cilli", "Dominik"].index(board["next_dealer"])
    assert board["scores"]["Bert"] <= 5
    response = phone.post(f"/sessions/{session.pk}/referee/auction/",
                          {"caller": "1", "call": "2"})
    html = response.content.decode()
    assert f'id="dealer-{dealer}" name="dealer" value="{dealer}" checked' in html
    assert "Call 1: Bert has" in said(response) and "may only pass" in said(response)


def test_the_session_trick_offers_the_trump_the_link_carries(table, phone):
    html = phone.get(f"/sessions/{table.pk}/referee/trick/?trump=hearts").content.decode()
    assert 'id="trump-hearts" name="trump" value="hearts" checked' in html
    index = phone.get(f"/sessions/{table.pk}/referee/?trump=hearts").content.decode()
    assert f'href="/sessions/{table.pk}/referee/trick/?trump=hearts"' in index


def test_the_session_trick_uses_the_sessions_frozen_rules(anna, phone):
    session = session_at(group_with(anna), anna, overrides={"must_head_trick": False})
    data = {"trump": "hearts", "trick": ["hearts-king", "hearts-7"], "hand": ["bells-6"]}
    assert "Legal" in said(phone.post(f"/sessions/{session.pk}/referee/trick/", data))
    assert "head the trick" in said(Client().post("/referee/trick/", data))


def test_a_mura_session_preloads_its_dealer_for_the_first_lead(anna, phone):
    session = services.session_start(group=group_with(anna), user=anna, preset="mura",
                                     overrides=None, seats=["Anna", "Bert", "Cilli", "Dominik"],
                                     game="mura", dealer="Bert")
    text = said(phone.get(f"/sessions/{session.pk}/referee/mura/"))
    assert "Cilli sits to the dealer's right and leads the first trick." in text


def test_the_old_beat_page_moved_to_the_referee(anna, phone):
    session = services.session_start(group=group_with(anna), user=anna,
                                     preset="muller_matz", overrides=None,
                                     seats=["Anna", "Bert", "Cilli"], game="muller_matz")
    response = phone.get(f"/sessions/{session.pk}/beat", {"trump": "hearts"})
    assert response.status_code == 302
    assert response["Location"] == f"/sessions/{session.pk}/referee/beat/?trump=hearts"


# --- the rules document ----------------------------------------------------------------------


def test_every_anchor_docs_rules_md_lists_is_a_heading_of_the_rendered_page():
    listed = listed_anchors()
    assert len(listed) > 50
    assert set(listed) <= set(rules_doc().anchors)


def test_every_rule_link_of_the_referee_page_goes_to_a_heading():
    from scorepad.games.mulatschak.words import RULE_SENTENCES as MULATSCHAK
    from scorepad.games.muller_matz.words import RULE_SENTENCES as MULLER_MATZ
    from scorepad.games.mura.words import RULE_SENTENCES as MURA

    anchors = set(rules_doc().anchors)
    sentences = {**MULATSCHAK, **MURA, **MULLER_MATZ}
    assert {anchor for _sentence, anchor in sentences.values()} <= anchors


@pytest.mark.parametrize(("heading", "anchor"), [
    ("Mueller Matz codes", "mueller-matz-codes"), ("Errors 400 and 422", "errors-400-and-422"),
    ("The rules, as Schreiber applies them", "the-rules-as-schreiber-applies-them"),
    ("Muli and Murler", "muli-and-murler")])
def test_headings_get_githubs_anchors(heading, anchor):
    assert slug(heading) == anchor


def test_the_rules_page_serves_the_document_with_its_anchors_and_no_raw_html():
    response = Client().get("/rules/")
    html = response.content.decode()
    assert '<h3 id="following-suit">Following suit</h3>' in html
    assert "<!--" not in html and "&lt;!--" not in html
    assert '<div class="scroller" tabindex="0"><table>' in html
    assert "default-src 'self'" in response["Content-Security-Policy"]
