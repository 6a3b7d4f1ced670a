"""Player statistics on a scripted history whose every figure was worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scorepad import rosters, services, stats
from scorepad.models import Player, Session

from .factories import SEATS, group_with, played, record, user

pytestmark = pytest.mark.django_db


def _names(session: Session) -> services.Names:
    return services.Names.of(session)


def script_mulatschak(group: Any, who: Any) -> Session:
    """Salzburg, start 21, target 0, stake 0.10 EUR; Dominik deals first.

    deal  what                                          A    B    C    D   (after)
    1     Anna 2 acorns, tricks A2 B1 C1 D1, ×1         19   20   20   20
    2     Bert 3 leaves, Cilli home, A1 B3 D1, ×1       18   17   21   19
    3     Cilli 3 HEARTS, A1 B1 C2 D1, ×2: Cilli falls  16   15   41   17   (+10×2)
    4     collapsed                                     16   15   41   17
    5     Dominik 2 bells, Anna home, B0 C2 D3, ×2      18   25   37   11   (collapse)
          (Anna +1×2, Bert no trick +5×2, Cilli −2×2, Dominik −3×2)
    6     Anna MULI acorns, takes all 5, ×1             8    35   47   21   (−10 / +10)
    7     Bert 2 acorns, A1 B2 C1 D1 — first recorded as A1 B1 C2 D1 (fallen), corrected
                                                        7    33   46   20
    8     Anna MULI HEARTS, all 5, ×2 → game over       −13  53   66   40   Anna wins
    9     new game: Bert 2 leaves, A1 B2 C1 D1          20   19   20   20
    Money (game 1): B pays 66×0.10 = 6.60, C 79×0.10 = 7.90, D 53×0.10 = 5.30 to Anna
    (+19.80).
    """
    session = services.session_start(group=group, user=who, preset="salzburg", overrides=None,
                                     seats=SEATS, dealer="Dominik", stake="0.10",
                                     currency="EUR")
    even = {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}
    record(session, who, played("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}))
    record(session, who, played("Bert", {"Anna": 1, "Bert": 3, "Dominik": 1}, bid=3,
                                trump="leaves", stayed_home=["Cilli"]))
    record(session, who, played("Cilli", {"Anna": 1, "Bert": 1, "Cilli": 2, "Dominik": 1},
                                bid=3, trump="hearts"))
    record(session, who, {"kind": "collapsed"})
    record(session, who, played("Dominik", {"Bert": 0, "Cilli": 2, "Dominik": 3},
                                trump="bells", stayed_home=["Anna"]))
    record(session, who, played("Anna", {"Anna": 5, "Bert": 0, "Cilli": 0, "Dominik": 0},
                                bid=5))
    record(session, who, played("Bert", {"Anna": 1, "Bert": 1, "Cilli": 2, "Dominik": 1}))
    record(session, who, played("Anna", {"Anna": 5, "Bert": 0, "Cilli": 0, "Dominik": 0},
                                bid=5, trump="hearts"))
    services.deal_correct(session=session, user=who, number=7,
                          data=_names(session).deal_ids(played("Bert", even)))
    record(session, who, played("Bert", even, trump="leaves"))
    return session


def script_mura(group: Any, who: Any) -> Session:
    """Stake 0.50 EUR.

    deal  tricks/figures A    B    C    D      penalties
    1     2/2 3/9 3/7 0/0                      Anna mura 2 (2 figures < 3), Dominik zero
    2     4/2 2/8 2/8 0/0                      Anna mura 4, Dominik zero
    3     2/4 2/4 2/4 2/4                      nobody
    P: Anna 6, Bert 0, Cilli 0, Dominik 2/9. Pairs (×0.50, half-up per pair): Anna pays
    Bert 3.00, Cilli 3.00, Dominik (6 − 2/9)×0.5 = 2.888… → 2.89; Dominik pays Bert and
    Cilli 0.111… → 0.11 each. Balances: Anna −8.89, Bert +3.11, Cilli +3.11, Dominik +2.67.
    """
    session = services.session_start(group=group, user=who, preset="mura", overrides=None,
                                     seats=SEATS, game="mura", stake="0.50", currency="EUR")
    for tricks, figures in (([2, 3, 3, 0], [2, 9, 7, 0]), ([4, 2, 2, 0], [2, 8, 8, 0]),
                            ([2, 2, 2, 2], [4, 4, 4, 4])):
        record(session, who, {"tricks": dict(zip(SEATS, tricks, strict=True)),
                              "figures": dict(zip(SEATS, figures, strict=True))})
    return session


def script_matz(group: Any, who: Any) -> Session:
    """Anna, Bert, Cilli; stake 0.20 EUR. Games: Bert loses; Anna, Cilli, Bert (Anna out
    first, Bert loses); Anna loses. Losses A1 B2 C0; balance = 0.20 × (3 − 3 × losses):
    Anna 0.00, Bert −0.60, Cilli +0.60."""
    session = services.session_start(group=group, user=who, preset="muller_matz",
                                     overrides=None, seats=SEATS[:3], game="muller_matz",
                                     stake="0.20", currency="EUR")
    record(session, who, {"loser": "Bert"})
    record(session, who, {"finish_order": ["Anna", "Cilli", "Bert"]})
    record(session, who, {"loser": "Anna"})
    return session


@pytest.fixture
def history(anna: Any) -> dict[str, Any]:
    group = group_with(anna)
    sessions = [script_mulatschak(group, anna), script_mura(group, anna),
                script_matz(group, anna)]
    players = {p.name: p for p in group.players.all()}
    for session in sessions:
        session.refresh_from_db()
    return {"group": group, "sessions": sessions, "players": players, "who": anna}


def figures(player: Player) -> dict[str, Any]:
    return stats.player_stats(str(player.pk), stats.player_records(player))


def test_the_scripted_session_ends_where_the_hand_computation_says(history):
    board = services.scoreboard(history["sessions"][0])
    assert board["games"][0]["final_scores"] == {"Anna": -13, "Bert": 53, "Cilli": 66,
                                                 "Dominik": 40}
    assert board["scores"] == {"Anna": 20, "Bert": 19, "Cilli": 20, "Dominik": 20}


def test_anna_s_mulatschak_figures_are_the_hand_computed_ones(history):
    m = figures(history["players"]["Anna"])["mulatschak"]
    assert m["sessions"] == 1
    assert (m["games"], m["wins"], m["win_rate"]) == (1, 1, 1.0)
    assert m["deals_seated"] == 8  # deals 1-3 and 5-9 (4 collapsed)
    assert m["deals_played"] == 7  # home in deal 5
    assert m["stayed_home"] == 1
    assert (m["deals_declared"], m["deals_made"], m["deals_fallen"]) == (3, 3, 0)
    assert (m["muli_tried"], m["muli_made"]) == (2, 2)
    assert m["by_bid"]["2"] == {"declared": 1, "made": 1, "fallen": 0, "rate": 1.0}
    assert m["by_bid"]["muli"] == {"declared": 2, "made": 2, "fallen": 0, "rate": 1.0}
    assert m["by_bid"]["3"]["rate"] is None
    assert m["hearts_deals"] == 2  # deals 3 and 8
    # −2 −1 −2 +2 −10 −1 −20 −1 = −35 over 8 seated deals
    assert m["points"] == -35
    assert m["points_per_deal"] == pytest.approx(-4.38, abs=0.005)
    assert m["biggest_multiplier_survived"] == 2  # the hearts Muli
    assert m["biggest_multiplier_played"] == 2


def test_a_fallen_bid_and_a_stay_home_count_for_cilli(history):
    m = figures(history["players"]["Cilli"])["mulatschak"]
    assert (m["deals_declared"], m["deals_made"], m["deals_fallen"]) == (1, 0, 1)
    assert m["by_bid"]["3"] == {"declared": 1, "made": 0, "fallen": 1, "rate": 0.0}
    assert m["made_rate"] == 0.0
    assert m["stayed_home"] == 1  # deal 2
    assert m["biggest_multiplier_survived"] is None
    assert m["biggest_multiplier_played"] == 2
    # −1 +1 +20 −4 +10 −1 +20 −1 = 44 (game 1 ended at 66 = 21 + 45, then −1)
    assert m["points"] == 44
    assert (m["games"], m["wins"], m["win_rate"]) == (1, 0, 0.0)


def test_the_corrected_deal_counts_as_corrected_for_bert(history):
    m = figures(history["players"]["Bert"])["mulatschak"]
    # deals 2 (bid 3), 7 (bid 2, made after the correction), 9 (bid 2)
    assert (m["deals_declared"], m["deals_made"]) == (3, 3)
    assert m["by_bid"]["2"]["made"] == 2 and m["by_bid"]["3"]["made"] == 1
    assert m["points"] == 30  # −1 −3 −2 +10 +10 −2 +20 −2
    assert m["biggest_multiplier_survived"] == 1


def test_dominik_survived_a_doubled_deal_as_declarer(history):
    m = figures(history["players"]["Dominik"])["mulatschak"]
    assert m["biggest_multiplier_survived"] == 2  # deal 5, doubled by the collapse
    assert m["points"] == 18  # −1 −1 −2 −6 +10 −1 +20 −1


def test_mura_figures_per_deal(history):
    anna = figures(history["players"]["Anna"])
    dominik = figures(history["players"]["Dominik"])
    assert anna["mura_stats"] | {} == {"sessions": 1, "deals": 3, "mura": 6, "zeros": 0,
                                       "mura_per_deal": 2.0, "zeros_per_deal": 0.0}
    assert (dominik["mura"], dominik["zeros"]) == (0, 2)
    assert dominik["mura_stats"]["zeros_per_deal"] == pytest.approx(0.6667)


def test_muller_matz_losses_and_loss_rate(history):
    anna = figures(history["players"]["Anna"])["muller_matz"]
    bert = figures(history["players"]["Bert"])["muller_matz"]
    assert anna == {"sessions": 1, "games": 3, "wins": 1, "mm_losses": 1,
                    "loss_rate": pytest.approx(0.3333)}
    assert (bert["mm_losses"], bert["loss_rate"]) == (2, pytest.approx(0.6667))


def test_the_contract_names_sum_the_game_families(history):
    anna = figures(history["players"]["Anna"])
    assert anna["sessions"] == 3
    assert anna["games"] == 1 + 3  # Mulatschak games finished + Müller Matz games
    assert anna["wins"] == 1 + 1
    assert (anna["mura"], anna["zeros"], anna["mm_losses"]) == (6, 0, 1)
    assert (anna["muli_tried"], anna["muli_made"], anna["stayed_home"]) == (2, 2, 1)


def test_money_adds_up_per_currency_as_decimal_strings(history):
    # Anna: +19.80 (Mulatschak) − 8.89 (Mura) + 0.00 (Müller Matz)
    assert figures(history["players"]["Anna"])["money"] == {"EUR": "10.91"}
    # Cilli: −7.90 + 3.11 + 0.60
    assert figures(history["players"]["Cilli"])["money"] == {"EUR": "-4.19"}
    # Dominik: −5.30 + 2.67 (no Müller Matz seat)
    assert figures(history["players"]["Dominik"])["money"] == {"EUR": "-2.63"}


def test_session_money_from_the_deals_equals_the_settlement(history):
    for session in history["sessions"]:
        record_ = stats.load(Session.objects.filter(pk=session.pk))[0]
        names = services.Names.of(session)
        derived = {names.to_name(p): str(v)
                   for p, v in stats.session_balances(record_).items()}
        assert derived == services.settlement(session)["balances"]


def test_the_group_table_sorts_by_any_column(history):
    records = stats.load(Session.objects.filter(group=history["group"]))
    players = list(history["group"].players.all())
    by_points = stats.group_table(players, records, "points_per_deal")
    assert [r["name"] for r in by_points] == ["Anna", "Dominik", "Bert", "Cilli"]
    by_wins = stats.group_table(players, records, "wins", descending=True)
    assert by_wins[0]["name"] == "Anna"
    assert stats.group_table(players, records, "nonsense")[0]["name"] == "Anna"


def test_the_group_table_shows_the_figures_of_the_games_played_only(history):
    players = list(history["group"].players.all())
    mulatschak_only = stats.load(Session.objects.filter(group=history["group"], game="mulatschak"))
    row = stats.group_table(players, mulatschak_only)[0]
    assert [part["title"] for part in row["parts"]] == ["Mulatschak"]
    assert {cell["key"] for cell in row["cells"]} == {
        "games", "wins", "win_rate", "points_per_deal", "made_rate", "muli_made", "stayed_home"}
    assert row["zeros"] == 0 and row["mm_losses"] == 0   # another game's, still to sort by
    every = stats.load(Session.objects.filter(group=history["group"]))
    row = stats.group_table(players, every)[0]
    assert [part["title"] for part in row["parts"]] == ["Mulatschak", "Mura", "Müller Matz"]


def test_a_players_card_puts_each_games_headline_figures_first(history):
    records = stats.load(Session.objects.filter(group=history["group"]))
    anna = stats.group_table(list(history["group"].players.all()), records)[0]
    mulatschak, mura, matz = anna["parts"]
    assert [c["key"] for c in mulatschak["headline"]] == ["wins", "points_per_deal",
                                                          "made_rate"]
    assert [c["key"] for c in mulatschak["more"]] == ["games", "win_rate", "muli_made",
                                                      "stayed_home"]
    assert [(c["key"], c["value"]) for c in mura["headline"]] == [("mura", 6), ("zeros", 0)]
    assert [(c["key"], c["value"]) for c in matz["headline"]] == [("mm_losses", 1)]
    assert anna["more"] and not mura["more"] and not matz["more"]


def test_no_game_is_played_by_sessions_that_are_none():
    assert stats.played([]) == []


def test_the_api_answers_every_contract_name(history):
    client = Client()
    client.force_login(history["who"])
    anna = history["players"]["Anna"]
    response = client.get(f"/api/v1/players/{anna.pk}/stats")
    assert response.status_code == 200
    body = response.json()
    for name in ("sessions", "games", "wins", "deals_played", "deals_declared", "deals_made",
                 "muli_tried", "muli_made", "stayed_home", "mura", "zeros", "mm_losses"):
        assert isinstance(body[name], int), name
    assert body["player"] == {"id": anna.pk, "name": "Anna", "group": history["group"].pk}
    assert body["money"] == {"EUR": "10.91"}
    assert body["mulatschak"]["by_bid"]["muli"]["made"] == 2


def test_the_api_hides_players_of_other_groups(history):
    client = Client()
    client.force_login(user("stranger"))
    anna = history["players"]["Anna"]
    assert client.get(f"/api/v1/players/{anna.pk}/stats").status_code == 404
    assert client.get("/api/v1/players/999999/stats").status_code == 404


def test_a_player_without_sessions_has_zeros_and_no_rates(anna):
    group = group_with(anna)
    nobody = rosters.player_add(group=group, name="Neu")
    s = figures(nobody)
    assert s["sessions"] == 0 and s["money"] == {}
    assert s["mulatschak"]["win_rate"] is None
    assert s["mulatschak"]["points_per_deal"] is None
    assert s["muller_matz"]["loss_rate"] is None
