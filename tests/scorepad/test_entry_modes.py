"""The second ways to enter a game in HTML: Mura card by card (a disputed deal) and the
Müller Matz finishing order; plus card names in the beat helper."""

from __future__ import annotations

import re

import pytest

from referee import tally
from scorepad import services
from scorepad.models import Deal, DealEvent

from .factories import game_start
from .mura_play import form, play

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "deal-form"}




def trick_html(html: str, number: int) -> str:
    """The markup of one trick of the card-by-card form."""
    match = re.search(rf'<details[^>]*id="trick-{number}".*?</details>', html, re.S)
    assert match, f"no trick {number}"
    return match.group(0)


def after_select(html: str, name: str) -> str:
    """What follows the select ``name`` up to the next select: its error messages."""
    match = re.search(rf'name="{name}".*?</select>(.*?)(?:<label|</div>)', html, re.S)
    assert match, name
    return match.group(1)


def leader_errors(html: str, index: int) -> str:
    """The messages shown next to the leader of trick ``index + 1`` (radio chips)."""
    match = re.search(rf'id="err-lead-{index}"[^>]*>(.*?)</div>', html, re.S)
    assert match, index
    return match.group(1)


def expected_state(deals: list[dict]) -> tally.MuraState:
    state = tally.mura_start(SEATS, SEATS[0])
    for data in deals:
        _result, state = tally.mura_apply(SEATS, state, data)
    return state


def test_the_mura_page_shows_each_players_tally_beside_the_deal_form(phone, anna):
    session = game_start(anna, "mura")
    phone.post(f"/sessions/{session.pk}/deals/new",
               {"t_0": "2", "t_1": "3", "t_2": "3", "t_3": "0",
                "f_0": "2", "f_1": "9", "f_2": "7", "f_3": "0"})
    html = phone.get(f"/sessions/{session.pk}/").content.decode()
    tally_rows = re.search(r'<table class="tally">.*?</table>', html, re.S).group(0)
    assert re.search(r'Anna.*?<td class="big">2</td>', tally_rows, re.S)
    assert re.search(r'Dominik.*?<td class="big">0</td>\s*<td>1 ', tally_rows, re.S)


# --- Mura card by card -----------------------------------------------------------------------


def test_the_mura_page_offers_card_by_card_entry_with_card_names(phone, anna):
    session = game_start(anna, "mura")
    page = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert "?mode=cards" in page
    html = phone.get(f"/sessions/{session.pk}/?mode=cards").content.decode()
    assert html.count('<details class="trick') == 8
    assert 'name="c_7_3"' in html and 'name="l_0"' in html
    assert ">Hearts Ober</option>" in html and ">Acorns 7</option>" in html
    shown = re.sub(r'<[^>]*>', " ", html)
    assert "hearts-ober" not in shown and "acorns-7" not in shown


def test_a_deal_recorded_card_by_card_is_tallied_by_the_referee(phone, anna):
    session = game_start(anna, "mura", dealer="Dominik")
    cards = play(SEATS, 3)
    response = phone.post(f"/sessions/{session.pk}/deals/new",
                          form(SEATS, cards, number="1"))
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.kind == "cards" and len(deal.data["trick_cards"]) == 8
    session.refresh_from_db()
    board = services.scoreboard(session)
    want = expected_state([{"trick_cards": cards}])
    assert board["mura"] == dict(want.mura) and board["zeros"] == dict(want.zeros)
    assert board["mura"]["Anna"] == 2  # seed 3: Anna takes 2 tricks with 1 figure


def test_the_live_check_previews_each_trick_and_each_players_counts(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    html = phone.post(f"/sessions/{session.pk}/check", form(SEATS, cards), **HX).content.decode()
    assert "<html" not in html and "Save deal" in html
    result = tally.mura_check(SEATS, {"trick_cards": cards})
    first = result.tricks[0]
    plural = "" if first.figures == 1 else "s"
    assert f"{first.winner} takes it, {first.figures} figure{plural}<" in trick_html(html, 1)
    for name, r in result.results.items():
        assert re.search(rf"<th scope=\"row\"><span class=\"pname\">{name}</span></th>"
                         rf"<td>{r.tricks}</td><td>{r.figures}</td>",
                         html), name
    assert 'aria-disabled="true"' not in html.split("Save deal")[0].rsplit("<button", 1)[1]


def test_the_leader_of_a_trick_defaults_to_the_winner_of_the_one_before(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    data = form(SEATS, cards[:1])
    html = phone.post(f"/sessions/{session.pk}/check", data, **HX).content.decode()
    winner = SEATS.index(cards[1]["leader"])
    assert re.search(rf'name="l_1" value="{winner}"[^>]*checked', trick_html(html, 2))
    assert "1 of 8 tricks entered." in html
    assert "Trick 2 needs" not in html


def test_a_card_played_twice_is_named_next_to_that_card(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    second = cards[1]
    player = list(second["cards"])[1]
    second["cards"][player] = cards[0]["cards"][cards[0]["leader"]]
    html = phone.post(f"/sessions/{session.pk}/check", form(SEATS, cards), **HX).content.decode()
    errors = after_select(trick_html(html, 2), f"c_1_{SEATS.index(player)}")
    assert "was already played in trick 1." in errors
    assert Deal.objects.count() == 0


def test_a_revoke_is_named_next_to_the_card_that_did_not_follow(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    # find a trick where a follower followed suit and a later trick where they did not
    result = tally.mura_check(SEATS, {"trick_cards": cards})
    for t, outcome in enumerate(result.tricks):
        led = outcome.plays[0][1].suit
        for name, card in outcome.plays[1:]:
            later = [(u, c) for u in range(t + 1, 8)
                     for p, c in result.tricks[u].plays if p == name and c.suit != led]
            if card.suit == led and later:
                u, other = later[0]
                cards[t]["cards"][name], cards[u]["cards"][name] = other.code, card.code
                break
        else:
            continue
        break
    else:
        pytest.fail("no swap found")
    html = phone.post(f"/sessions/{session.pk}/check", form(SEATS, cards), **HX).content.decode()
    assert "a revoke." in html
    revoker_trick = next(v.params["trick"] for v in tally.mura_check(
        SEATS, {"trick_cards": cards}).violations if v.code == "must_follow_suit")
    assert "a revoke." in trick_html(html, revoker_trick)


def test_a_wrong_leader_is_named_next_to_the_leader(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    wrong = next(p for p in SEATS if p != cards[4]["leader"])
    data = form(SEATS, cards) | {"l_4": str(SEATS.index(wrong))}
    html = phone.post(f"/sessions/{session.pk}/check", data, **HX).content.decode()
    errors = leader_errors(trick_html(html, 5), 4)
    assert f"{cards[4]['leader']} won the trick before, so {cards[4]['leader']} leads trick 5." \
        in errors


def test_a_card_of_another_pack_or_no_card_at_all_is_named_next_to_it(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    data = form(SEATS, cards) | {"c_2_1": "hearts-6"}
    html = phone.post(f"/sessions/{session.pk}/check", data, **HX).content.decode()
    assert "Hearts 6 is not a card of this pack." in after_select(trick_html(html, 3), "c_2_1")
    data = form(SEATS, cards) | {"c_2_1": "rubbish"}
    response = phone.post(f"/sessions/{session.pk}/deals/new", data)
    assert response.status_code == 200
    assert "is not a card code" in after_select(trick_html(response.content.decode(), 3),
                                                "c_2_1")
    assert Deal.objects.count() == 0


def test_saving_an_unfinished_deal_names_every_gap_and_saves_nothing(phone, anna):
    session = game_start(anna, "mura")
    version = session.version
    cards = play(SEATS, 3)
    data = form(SEATS, cards[:3]) | {"number": "1"}
    del data["l_0"], data["c_2_3"]
    response = phone.post(f"/sessions/{session.pk}/deals/new", data)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html  # works without JavaScript
    assert "Who led trick 1?" in leader_errors(trick_html(html, 1), 0)
    assert "Trick 3 needs 4 cards, one from each player; it has 3." in trick_html(html, 3)
    assert "3 of 8 tricks entered." in html
    session.refresh_from_db()
    assert Deal.objects.count() == 0 and session.version == version


def test_saving_an_empty_card_by_card_form_says_no_trick_was_entered(phone, anna):
    session = game_start(anna, "mura")
    html = phone.post(f"/sessions/{session.pk}/deals/new", {"mode": "cards"}).content.decode()
    assert "0 of 8 tricks entered." in html
    assert Deal.objects.count() == 0


def test_a_blank_leader_after_a_decided_trick_is_its_winner_when_saved(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    data = form(SEATS, cards)
    for t in range(1, 8):
        del data[f"l_{t}"]
    assert phone.post(f"/sessions/{session.pk}/deals/new", data).status_code == 302
    stored = services.Names.of(session).deal_names(Deal.objects.get().data)
    assert [t["leader"] for t in stored["trick_cards"]] == [t["leader"] for t in cards]


def test_a_card_by_card_deal_reopens_card_by_card_and_can_be_corrected(phone, anna):
    session = game_start(anna, "mura")
    phone.post(f"/sessions/{session.pk}/deals/new", form(SEATS, play(SEATS, 3)))
    html = phone.get(f"/sessions/{session.pk}/deals/1/edit").content.decode()
    first = play(SEATS, 3)[0]
    code = first["cards"]["Bert"]
    assert f'<option value="{code}" selected>' in trick_html(html, 1)
    assert 'name="correcting" value="1"' in html
    fixed = play(SEATS, 4)
    response = phone.post(f"/sessions/{session.pk}/deals/1/edit", form(SEATS, fixed))
    assert response.status_code == 302
    session.refresh_from_db()
    assert services.scoreboard(session)["mura"] == dict(
        expected_state([{"trick_cards": fixed}]).mura)


def test_a_broken_correction_is_shown_next_to_the_card_and_changes_nothing(phone, anna):
    session = game_start(anna, "mura")
    phone.post(f"/sessions/{session.pk}/deals/new", form(SEATS, play(SEATS, 3)))
    before = Deal.objects.get().data
    broken = play(SEATS, 4)
    broken[6]["cards"]["Cilli"] = broken[0]["cards"]["Cilli"]
    response = phone.post(f"/sessions/{session.pk}/deals/1/edit", form(SEATS, broken))
    html = response.content.decode()
    assert response.status_code == 200
    assert "was already played in trick 1." in after_select(trick_html(html, 7), "c_6_2")
    assert f'action="/sessions/{session.pk}/deals/1/edit"' in html
    assert Deal.objects.get().data == before


def test_the_live_check_of_a_correction_keeps_correcting_that_deal(phone, anna):
    session = game_start(anna, "mura")
    phone.post(f"/sessions/{session.pk}/deals/new", form(SEATS, play(SEATS, 3)))
    html = phone.post(f"/sessions/{session.pk}/check",
                      form(SEATS, play(SEATS, 4), correcting="1"), **HX).content.decode()
    assert f'action="/sessions/{session.pk}/deals/1/edit"' in html
    assert "Save correction" in html


def test_a_deal_by_counts_can_be_corrected_card_by_card(phone, anna):
    session = game_start(anna, "mura")
    phone.post(f"/sessions/{session.pk}/deals/new",
               {"t_0": "2", "t_1": "3", "t_2": "3", "t_3": "0",
                "f_0": "2", "f_1": "9", "f_2": "7", "f_3": "0"})
    html = phone.get(f"/sessions/{session.pk}/deals/1/edit?mode=cards").content.decode()
    assert html.count('<details class="trick') == 8
    phone.post(f"/sessions/{session.pk}/deals/1/edit", form(SEATS, play(SEATS, 5)))
    assert Deal.objects.get().kind == "cards"
    html = phone.get(f"/sessions/{session.pk}/deals/1/edit?mode=counts").content.decode()
    assert 'name="t_0"' in html


def test_the_history_shows_a_card_by_card_deal_with_its_counts_and_tricks(phone, anna):
    session = game_start(anna, "mura")
    cards = play(SEATS, 3)
    phone.post(f"/sessions/{session.pk}/deals/new", form(SEATS, cards))
    html = phone.get(f"/sessions/{session.pk}/history").content.decode()
    result = tally.mura_check(SEATS, {"trick_cards": cards})
    anna_ = result.results["Anna"]
    assert f"card by card: Anna {anna_.tricks}/{anna_.figures}" in html
    assert "Bert: " in html and "hearts-" not in re.sub(r"<[^>]*>", " ", html)
    assert DealEvent.objects.count() == 1


# --- Müller Matz finishing order ------------------------------------------------------------


def test_a_finishing_order_is_recorded_and_the_last_one_loses(phone, anna):
    session = game_start(anna, "muller_matz")
    html = phone.get(f"/sessions/{session.pk}/?mode=order").content.decode()
    assert "4 players: 1 pack" in html and 'name="o_3"' in html
    order = ["Bert", "Dominik", "Anna", "Cilli"]
    data = {f"o_{k}": p for k, p in enumerate(order)} | {"mode": "order", "number": "1"}
    preview = phone.post(f"/sessions/{session.pk}/check", data, **HX).content.decode()
    assert "Bert won; Cilli is the Müller Matz." in preview
    assert phone.post(f"/sessions/{session.pk}/deals/new", data).status_code == 302
    deal = Deal.objects.get()
    assert deal.kind == "order"
    names = services.Names.of(session)
    assert names.deal_names(deal.data)["finish_order"] == order
    session.refresh_from_db()
    assert services.scoreboard(session)["losses"] == {"Anna": 0, "Bert": 0, "Cilli": 1,
                                                      "Dominik": 0}


def test_five_players_need_two_packs(phone, anna):
    session = game_start(anna, "muller_matz", seats=[*SEATS, "Erika"])
    html = phone.get(f"/sessions/{session.pk}/?mode=order").content.decode()
    assert "5 players: 2 packs" in html


def test_a_player_listed_twice_is_named_at_the_second_place(phone, anna):
    session = game_start(anna, "muller_matz")
    data = {"o_0": "Bert", "o_1": "Anna", "o_2": "Bert", "o_3": "Cilli", "mode": "order"}
    html = phone.post(f"/sessions/{session.pk}/deals/new", data).content.decode()
    assert "Bert is listed twice" in after_select(html, "o_2")
    assert "listed twice" not in after_select(html, "o_0")
    assert Deal.objects.count() == 0


def test_blank_places_are_named_on_save_but_not_while_entering(phone, anna):
    session = game_start(anna, "muller_matz")
    data = {"o_0": "Bert", "mode": "order"}
    live = phone.post(f"/sessions/{session.pk}/check", data, **HX).content.decode()
    assert "Who finished in this place?" not in live
    html = phone.post(f"/sessions/{session.pk}/deals/new", data).content.decode()
    for k in (1, 2, 3):
        assert "Who finished in this place?" in after_select(html, f"o_{k}")
    assert "Who finished" not in after_select(html, "o_0")
    assert Deal.objects.count() == 0


def test_a_game_recorded_by_order_is_corrected_by_order(phone, anna):
    session = game_start(anna, "muller_matz")
    data = {"o_0": "Bert", "o_1": "Dominik", "o_2": "Anna", "o_3": "Cilli", "mode": "order"}
    phone.post(f"/sessions/{session.pk}/deals/new", data)
    html = phone.get(f"/sessions/{session.pk}/deals/1/edit").content.decode()
    assert '<option value="Dominik" selected>' in after_select(html, "o_1") or re.search(
        r'name="o_1".*?<option value="Dominik" selected>', html, re.S)
    bad = data | {"o_3": "Anna"}
    html = phone.post(f"/sessions/{session.pk}/deals/1/edit", bad).content.decode()
    assert "Anna is listed twice" in after_select(html, "o_3")
    assert Deal.objects.get().result["loser"] == str(session.seats.get(position=2).player_id)
    phone.post(f"/sessions/{session.pk}/deals/1/edit", data | {"o_2": "Cilli", "o_3": "Anna"})
    session.refresh_from_db()
    assert services.scoreboard(session)["losses"]["Anna"] == 1


# --- the beat helper -------------------------------------------------------------------------


def test_the_beat_helper_names_cards_in_words(phone, anna):
    session = game_start(anna, "muller_matz")
    html = phone.get(f"/sessions/{session.pk}/beat", follow=True).content.decode()
    assert 'aria-label="Hearts Queen"' in html and ">♠ Spades</label>" in html
    assert "♥ queen" not in html and "<option" not in html  # a card picker, no dropdown
