"""A session's frozen rules decide its deals: every Mura parameter a session starts with
(docs/rules.md, "Mura parameters") and every Müller Matz one ("Mueller Matz parameters")
reaches the check of each deal, its scoring and the scoreboard, through the API and the
pages alike."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from referee.muller_matz import MAX_PLAYERS
from scorepad.fields import MAX_PLAYERS as SEATS_MOST
from scorepad.models import Deal, Session

from .factories import group_with, user

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
#: A crowd beyond the referee's default ``players_max`` (10).
CROWD = [*SEATS, "Erika", "Franz", "Gerti", "Hans", "Ida", "Jakob", "Karl", "Lore"]
HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "deal-form"}


@pytest.fixture
def owner() -> Any:
    return user("owner")


@pytest.fixture
def api(owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def start(api: Client, owner: Any, game: str, seats: list[str],
          overrides: dict[str, Any] | None = None) -> Any:
    group = group_with(owner, name=f"G{Session.objects.count()}-{game}")
    body: dict[str, Any] = {"group": group.pk, "game": game, "seats": seats}
    if overrides is not None:
        body["rules"] = {"preset": game, "overrides": overrides}
    return post(api, "/api/v1/sessions/", body)


def started(api: Client, owner: Any, game: str, seats: list[str],
            overrides: dict[str, Any] | None = None) -> str:
    answer = start(api, owner, game, seats, overrides)
    assert answer.status_code == 201, answer.json()
    return f"/api/v1/sessions/{answer.json()['id']}"


def counts(seats: list[str], tricks: list[int], figures: list[int]) -> dict[str, Any]:
    return {"tricks": dict(zip(seats, tricks, strict=True)),
            "figures": dict(zip(seats, figures, strict=True))}


def codes(answer: Any) -> list[str]:
    return [v["code"] for v in answer.json()["violations"]]


# --- Mura ----------------------------------------------------------------------------------

#: Anna takes two tricks with four figures: safe with three needed, mura with five.
FOUR_FIGURES = counts(SEATS, [2, 3, 3, 0], [4, 9, 7, 0])


@pytest.mark.parametrize(("needed", "mura"), [(None, [0, 0, 0]), (3, [0, 0, 0]),
                                             (4, [0, 0, 0]), (5, [2, 0, 0]),
                                             (8, [2, 0, 3]), (10, [2, 3, 3])])
def test_a_mura_session_scores_with_its_figures_needed(api, owner, needed, mura):
    """Anna 2 tricks and 4 figures, Bert 3 and 9, Cilli 3 and 7, Dominik none."""
    base = started(api, owner, "mura", SEATS,
                   None if needed is None else {"figures_needed": needed})
    answer = post(api, f"{base}/deals/", FOUR_FIGURES)
    assert answer.status_code == 201, answer.json()
    board = api.get(f"{base}/scoreboard").json()
    assert board["mura"] == dict(zip(SEATS, [*mura, 0], strict=True))
    assert board["zeros"] == dict(zip(SEATS, [0, 0, 0, 1], strict=True))


#: Anna takes one trick with five figures (a winning ace, a king, an unter).
FIVE_IN_A_TRICK = counts(SEATS, [1, 3, 4, 0], [5, 6, 5, 0])


def test_a_mura_session_checks_figures_with_its_max_figures_per_trick(api, owner):
    usual = started(api, owner, "mura", SEATS)
    assert post(api, f"{usual}/deals/", FIVE_IN_A_TRICK).status_code == 201
    strict = started(api, owner, "mura", SEATS, {"max_figures_per_trick": 4})
    refused = post(api, f"{strict}/deals/", FIVE_IN_A_TRICK)
    assert refused.status_code == 422
    assert codes(refused) == ["figures_too_many"]
    assert refused.json()["violations"][0]["params"]["max"] == 4
    assert Deal.objects.filter(session__pk=strict.rsplit("/", 1)[1]).count() == 0
    # a higher limit lets more through: seven figures in a trick, against six
    seven = counts(SEATS, [1, 3, 4, 0], [7, 5, 4, 0])
    assert codes(post(api, f"{usual}/deals/", seven)) == ["figures_too_many"]
    loose = started(api, owner, "mura", SEATS, {"max_figures_per_trick": 7})
    assert post(api, f"{loose}/deals/", seven).status_code == 201


def test_a_mura_session_of_two_plays_sixteen_tricks(api, owner):
    two = ["Anna", "Bert"]
    base = started(api, owner, "mura", two, {"players": 2})
    answer = post(api, f"{base}/deals/", counts(two, [10, 6], [12, 6]))
    assert answer.status_code == 201, answer.json()
    assert answer.json()["scoreboard"]["deals"] == 1
    eight = post(api, f"{base}/deals/", counts(two, [4, 4], [10, 8]))
    assert eight.status_code == 422
    assert codes(eight) == ["tricks_sum"]
    assert eight.json()["violations"][0]["params"]["expected"] == 16
    # at two, each trick holds two cards: 16 tricks are 32 cards, every figure among them
    few = post(api, f"{base}/deals/", counts(two, [16, 0], [2, 0]))
    assert "figures_too_few" in codes(few)


def test_a_mura_session_of_eight_plays_four_tricks(api, owner):
    eight = [*SEATS, "Erika", "Franz", "Gerti", "Hans"]
    base = started(api, owner, "mura", eight, {"players": 8})
    deal = counts(eight, [1, 1, 1, 1, 0, 0, 0, 0], [4, 4, 4, 4, 0, 0, 0, 0])
    answer = post(api, f"{base}/deals/", deal)
    assert answer.status_code == 201, answer.json()
    board = answer.json()["scoreboard"]
    assert board["zeros"] == dict.fromkeys(eight[:4], 0) | dict.fromkeys(eight[4:], 1)
    refused = post(api, f"{base}/deals/", counts(eight, [2, 2, 2, 2, 0, 0, 0, 0],
                                                 [4, 4, 4, 4, 0, 0, 0, 0]))
    assert "tricks_sum" in codes(refused)


def test_a_mura_session_of_two_takes_sixteen_tricks_in_its_form(api, owner):
    """The deal form counts the session's tricks: the last player's tricks are the rest of
    sixteen, and the card-by-card form has sixteen tricks."""
    two = ["Anna", "Bert"]
    base = started(api, owner, "mura", two, {"players": 2})
    page = base.replace("/api/v1", "")
    html = api.get(f"{page}/?mode=cards").content.decode()
    assert 'name="c_15_0"' in html and 'name="c_16_0"' not in html
    assert "card by card, {n} of 16 tricks" in html
    counts_page = api.get(f"{page}/").content.decode()
    assert 'data-sum="16"' in counts_page and 'name="t_0" min="0" max="16"' in counts_page
    assert "Enter a whole number from 0 to 16." in counts_page
    german = api.get(f"{page}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Bitte eine ganze Zahl von 0 bis 16 eingeben." in german
    hungarian = api.get(f"{page}/?mode=cards", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "lapról lapra: {n} / 16 ütés" in hungarian
    api.post(f"{page}/deals/new", {"t_0": "10", "f_0": "12", "f_1": "6"})
    assert api.get(f"{base}/scoreboard").json()["deals"] == 1
    live = api.post(f"{page}/check", {"t_0": "3", "f_0": "1", "t_1": "13", "f_1": "15"},
                    **HX).content.decode()
    assert "tricks_sum" not in live and "add up" not in live


def test_a_mura_session_of_eight_takes_four_tricks_in_its_form(api, owner):
    eight = [*SEATS, "Erika", "Franz", "Gerti", "Hans"]
    base = started(api, owner, "mura", eight, {"players": 8})
    page = base.replace("/api/v1", "")
    html = api.get(f"{page}/?mode=cards").content.decode()
    assert 'name="c_3_7"' in html and 'name="c_4_0"' not in html
    data = ({f"t_{i}": "1" for i in range(3)} | {f"t_{i}": "0" for i in range(4, 8)}
            | {f"f_{i}": "4" for i in range(4)})
    api.post(f"{page}/deals/new", data)  # Dominik's trick is the rest of four
    board = api.get(f"{base}/scoreboard").json()
    assert board["deals"] == 1 and board["zeros"]["Dominik"] == 0
    assert board["zeros"]["Erika"] == 1


def test_a_mura_session_of_four_keeps_eight_tricks_in_its_form(api, owner):
    page = started(api, owner, "mura", SEATS).replace("/api/v1", "")
    html = api.get(f"{page}/").content.decode()
    assert 'data-sum="8"' in html and "Enter a whole number from 0 to 8." in html
    assert "card by card, {n} of 8 tricks" in api.get(f"{page}/?mode=cards").content.decode()


def test_the_mura_form_checks_with_the_sessions_figures_needed(api, owner):
    base = started(api, owner, "mura", SEATS, {"figures_needed": 5})
    page = base.replace("/api/v1", "")
    data = {f"{k}_{i}": str(n) for k, values in (("t", [2, 3, 3, 0]), ("f", [4, 9, 7, 0]))
            for i, n in enumerate(values)}
    api.post(f"{page}/deals/new", data)
    assert api.get(f"{base}/scoreboard").json()["mura"]["Anna"] == 2


# --- Müller Matz ---------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [CROWD[:11], CROWD])
def test_a_muller_matz_session_plays_every_seat_its_rules_allow(api, owner, seats):
    base = started(api, owner, "muller_matz", seats, {"players_max": 12})
    first = post(api, f"{base}/deals/", {"loser": "Lore" if "Lore" in seats else "Karl"})
    assert first.status_code == 201, first.json()
    order = post(api, f"{base}/deals/", {"finish_order": seats})
    assert order.status_code == 201, order.json()
    board = api.get(f"{base}/scoreboard")
    assert board.status_code == 200
    assert board.json()["packs"] == 2
    assert board.json()["games_played"] == 2
    assert sum(board.json()["losses"].values()) == 2
    assert api.get(f"{base}/settlement").status_code == 200
    missing = post(api, f"{base}/deals/", {"finish_order": seats[:-1]})
    assert codes(missing) == ["player_missing"]


def test_a_muller_matz_session_of_the_most_seats_plays(api, owner):
    """The most any rules allow (players_max up to MAX_PLAYERS) with as many seats as a
    session holds (SEATS_MOST); one more seat is refused naming the seats."""
    assert len(CROWD) == SEATS_MOST
    base = started(api, owner, "muller_matz", CROWD, {"players_max": MAX_PLAYERS})
    assert post(api, f"{base}/deals/", {"loser": "Lore"}).status_code == 201
    board = api.get(f"{base}/scoreboard").json()
    assert board["losses"]["Lore"] == 1 and board["packs"] == 2
    more = start(api, owner, "muller_matz", [*CROWD, "Mia"], {"players_max": MAX_PLAYERS})
    assert more.status_code == 400 and list(more.json()["errors"]) == ["seats"]


def test_a_muller_matz_session_keeps_its_fewest_seats_and_its_packs(api, owner):
    base = started(api, owner, "muller_matz", CROWD[:11],
                   {"players_min": 11, "players_max": 12, "two_packs_from": 12})
    assert post(api, f"{base}/deals/", {"loser": "Anna"}).status_code == 201
    assert api.get(f"{base}/scoreboard").json()["packs"] == 1  # two only from twelve on


def test_a_muller_matz_session_beyond_its_rules_is_refused_at_the_start(api, owner):
    too_many = start(api, owner, "muller_matz", CROWD[:11])  # the default rules: at most 10
    assert too_many.status_code == 400
    assert "seats" in too_many.json()["errors"]
    beyond = start(api, owner, "muller_matz", CROWD, {"players_max": MAX_PLAYERS + 1})
    assert beyond.status_code == 400
    assert "rules.overrides.players_max" in beyond.json()["errors"]
    assert not Session.objects.exists()


def test_the_pages_of_a_crowded_muller_matz_session_play(api, owner):
    base = started(api, owner, "muller_matz", CROWD, {"players_max": 12})
    page = base.replace("/api/v1", "")
    assert api.get(f"{page}/").status_code == 200
    html = api.get(f"{page}/?mode=order").content.decode()
    assert "12 players: 2 packs" in html and 'name="o_11"' in html
    data = {f"o_{k}": p for k, p in enumerate(CROWD)} | {"mode": "order"}
    preview = api.post(f"{page}/check", data, **HX)
    assert preview.status_code == 200
    assert "Anna won; Lore is the Müller Matz." in preview.content.decode()
    assert api.post(f"{page}/deals/new", data).status_code in (200, 302, 303)
    assert api.post(f"{page}/deals/new", {"loser": "Karl"}).status_code in (200, 302, 303)
    board = api.get(f"{base}/scoreboard").json()
    assert board["games_played"] == 2
    assert board["losses"]["Lore"] == 1 and board["losses"]["Karl"] == 1
    for where in ("sheet", "settlement", "history"):
        assert api.get(f"{page}/{where}/").status_code in (200, 404), where
