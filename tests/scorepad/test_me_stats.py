"""\"This is me\": linking roster players to accounts, and one person's statistics across
their groups (issue 7)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorepad import rosters, stats
from scorepad.models import Membership, Player

from .factories import SEATS, group_with, member, phone_of, played, record, session_at, user
from .test_stats import script_matz, script_mulatschak, script_mura

pytestmark = pytest.mark.django_db

CONTRACT = ("sessions", "games", "wins", "deals_played", "deals_declared", "deals_made",
            "muli_tried", "muli_made", "stayed_home", "mura", "zeros", "mm_losses")



def patch(client: Client, player: Player, body: Any) -> Any:
    return client.patch(f"/api/v1/groups/{player.group_id}/players/{player.pk}/",
                        json.dumps(body), content_type="application/json")


def link_page(client: Client, player: Player, value: str) -> Any:
    return client.post(reverse("scorepad:player_link", args=[player.pk]), {"user": value})


@pytest.fixture
def bert() -> Any:
    return user("bert")


@pytest.fixture
def two_groups(anna: Any, bert: Any) -> dict[str, Any]:
    """Anna's group Mondsee: the scripted Mulatschak and Mura sessions (test_stats). Bert's
    group Attersee, Anna a viewer there: the scripted Müller Matz session and one Mulatschak
    deal in which Anna bids 2 and falls. Anna is "Anna" in both, linked in both."""
    mondsee = group_with(anna)
    script_mulatschak(mondsee, anna)
    script_mura(mondsee, anna)
    attersee = group_with(bert, name="Attersee")
    member(attersee, anna, "viewer")
    script_matz(attersee, bert)
    evening = session_at(attersee, bert)
    record(evening, bert, played("Anna", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}))
    players = [mondsee.players.get(name="Anna"), attersee.players.get(name="Anna")]
    for player in players:
        rosters.player_link(player=player, user=anna)
    return {"groups": [mondsee, attersee], "players": players}


# --- linking ---------------------------------------------------------------------------------


def test_a_viewer_says_this_is_me_on_the_player_page_and_undoes_it(anna, bert):
    group = group_with(bert)
    member(group, anna, "viewer")
    player = rosters.player_add(group=group, name="Anna")
    client = phone_of(anna)
    page = client.get(reverse("scorepad:player", args=[player.pk])).content.decode()
    assert "This is me" in page and 'name="user"' in page
    response = link_page(client, player, "me")
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.user == anna
    page = client.get(reverse("scorepad:player", args=[player.pk])).content.decode()
    assert "This is you." in page and reverse("scorepad:my_stats") in page
    assert link_page(client, player, "").status_code == 302
    player.refresh_from_db()
    assert player.user is None


def test_a_viewer_may_not_link_somebody_else_nor_take_over_a_linked_player(anna, bert):
    group = group_with(bert)
    member(group, anna, "viewer")
    bert_player = rosters.player_add(group=group, name="Bert")
    free = rosters.player_add(group=group, name="Cilli")
    rosters.player_link(player=bert_player, user=bert)
    client = phone_of(anna)
    assert link_page(client, bert_player, "me").status_code == 403
    assert link_page(client, bert_player, "").status_code == 403
    assert link_page(client, free, str(bert.pk)).status_code == 403
    assert patch(client, bert_player, {"user": None}).status_code == 403
    assert patch(client, free, {"user": "bert"}).status_code == 403
    bert_player.refresh_from_db()
    free.refresh_from_db()
    assert (bert_player.user, free.user) == (bert, None)


def test_an_editor_links_any_player_to_any_member_and_only_to_members(anna, bert):
    group = group_with(anna)
    member(group, bert, "editor")
    cilli = user("cilli")
    member(group, cilli, "viewer")
    stranger = user("stranger")
    player = rosters.player_add(group=group, name="Cilli")
    client = phone_of(bert)
    assert link_page(client, player, str(cilli.pk)).status_code == 302
    player.refresh_from_db()
    assert player.user == cilli
    page = client.post(reverse("scorepad:player_link", args=[player.pk]),
                       {"user": str(stranger.pk)})
    assert page.status_code == 200 and "is not a member of this group" in page.content.decode()
    assert patch(client, player, {"user": "stranger"}).json()["errors"] == {
        "user": ["is not a member of this group"]}
    assert patch(client, player, {"user": "nobody-here"}).status_code == 400
    player.refresh_from_db()
    assert player.user == cilli


def test_the_api_links_me_unlinks_and_shows_the_link_in_the_roster(anna):
    group = group_with(anna)
    player = rosters.player_add(group=group, name="Anna")
    client = phone_of(anna)
    response = patch(client, player, {"user": "me"})
    assert response.status_code == 200
    assert response.json() == {"id": player.pk, "name": "Anna", "user": "anna",
                               "category": None}
    roster = client.get(f"/api/v1/groups/{group.pk}/players/").json()
    assert roster == [{"id": player.pk, "name": "Anna", "user": "anna", "category": None}]
    assert patch(client, player, {"user": None}).json()["user"] is None
    player.refresh_from_db()
    assert player.user is None


def test_a_patch_must_say_what_to_change_and_a_viewer_still_may_not_rename(anna, bert):
    group = group_with(bert)
    member(group, anna, "viewer")
    player = rosters.player_add(group=group, name="Anna")
    client = phone_of(anna)
    assert patch(client, player, {}).status_code == 400
    assert patch(client, player, {"user": 5}).json()["errors"].keys() == {"user"}
    assert patch(client, player, {"name": "Anni", "user": "me"}).status_code == 403
    player.refresh_from_db()
    assert (player.name, player.user) == ("Anna", None)


def test_a_second_player_for_the_same_account_is_a_clear_error_not_a_500(anna):
    group = group_with(anna)
    first = rosters.player_add(group=group, name="Anna")
    second = rosters.player_add(group=group, name="Anni")
    client = phone_of(anna)
    assert patch(client, first, {"user": "me"}).status_code == 200
    response = patch(client, second, {"user": "me"})
    assert response.status_code == 400
    assert response.json()["errors"] == {"user": ["anna is already Anna in this group"]}
    page = link_page(client, second, "me")
    assert page.status_code == 200
    assert "anna is already Anna in this group" in page.content.decode()
    second.refresh_from_db()
    assert second.user is None


def test_the_database_refuses_a_second_player_for_the_same_account(anna):
    group = group_with(anna)
    Player.objects.create(group=group, name="Anna", user=anna)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(group=group, name="Anni", user=anna)
    # unlinked players are not limited, and another group is another group
    Player.objects.create(group=group, name="Bert")
    Player.objects.create(group=group, name="Cilli")
    Player.objects.create(group=group_with(anna, name="Other"), name="Anna", user=anna)


def test_strangers_get_404_for_linking_and_deleted_accounts_unlink(anna, bert):
    group = group_with(anna)
    player = rosters.player_add(group=group, name="Bert")
    stranger = phone_of(user("stranger"))
    assert link_page(stranger, player, "me").status_code == 404
    assert patch(stranger, player, {"user": "me"}).status_code == 404
    assert link_page(phone_of(anna), Player(pk=999999, group=group), "me").status_code == 404
    member(group, bert, "viewer")
    rosters.player_link(player=player, user=bert)
    bert.delete()
    player.refresh_from_db()
    assert player.user is None


def test_leaving_a_group_unlinks_the_player_there(two_groups, anna, bert):
    attersee = two_groups["groups"][1]
    rosters.member_remove(group=attersee, user=anna)
    assert not attersee.players.exclude(user=None).exists()
    assert two_groups["players"][0].user_id == anna.pk


# --- figures across groups ---------------------------------------------------------------


def test_across_groups_the_counts_are_the_sums_of_the_groups(two_groups, anna):
    s = stats.person_stats(list(stats.linked_players(anna)))
    assert [g["group"]["name"] for g in s["groups"]] == ["Attersee", "Stammtisch Mondsee"]
    for name in CONTRACT:
        assert s[name] == sum(g[name] for g in s["groups"]), name
    for family in ("mulatschak", "mura_stats", "muller_matz"):
        for name, value in s[family].items():
            if isinstance(value, int) and not name.startswith("biggest"):
                assert value == sum(g[family][name] for g in s["groups"]), (family, name)
    each = [stats.player_stats(str(p.pk), stats.player_records(p))
            for p in two_groups["players"]]
    assert sorted((g["player"]["id"], g["sessions"]) for g in s["groups"]) == sorted(
        (p.pk, e["sessions"]) for p, e in zip(two_groups["players"], each, strict=True))


def test_across_groups_hand_checked(two_groups, anna):
    s = stats.person_stats(list(stats.linked_players(anna)))
    # Mondsee: Mulatschak + Mura; Attersee: Müller Matz + one Mulatschak deal
    assert s["sessions"] == 4
    m = s["mulatschak"]
    # Mondsee 3 bids made of 3, Attersee 1 of 1 fallen: 3/4, not the mean of 1.0 and 0.0
    assert (m["deals_declared"], m["deals_made"], m["made_rate"]) == (4, 3, 0.75)
    assert m["by_bid"]["2"] == {"declared": 2, "made": 1, "fallen": 1, "rate": 0.5}
    # −35 over 8 seated deals, then +10 (a fallen bid, ×1) over 1 deal: −25 / 9
    assert m["points"] == -25 and m["points_per_deal"] == pytest.approx(-2.78)
    assert m["biggest_multiplier_survived"] == 2
    # +10.91 EUR in Mondsee (test_stats), 0.00 EUR in Attersee (Müller Matz)
    assert s["money"] == {"EUR": "10.91"}
    assert [g["money"] for g in s["groups"]] == [{"EUR": "0.00"}, {"EUR": "10.91"}]
    assert (s["mm_losses"], s["muller_matz"]["loss_rate"]) == (1, pytest.approx(0.3333))
    total = sum((Decimal(g["money"]["EUR"]) for g in s["groups"]), Decimal(0))
    assert Decimal(s["money"]["EUR"]) == total


def test_groups_one_is_no_longer_a_member_of_do_not_count(two_groups, anna):
    Membership.objects.filter(group=two_groups["groups"][1], user=anna).delete()
    s = stats.person_stats(list(stats.linked_players(anna)))
    assert [g["group"]["name"] for g in s["groups"]] == ["Stammtisch Mondsee"]
    assert s["sessions"] == 2


def test_the_me_stats_api_answers_the_contract_names_and_the_groups(two_groups, anna):
    body = phone_of(anna).get("/api/v1/me/stats").json()
    for name in CONTRACT:
        assert isinstance(body[name], int), name
    assert body["sessions"] == 4 and body["money"] == {"EUR": "10.91"}
    row = body["groups"][1]
    assert row["group"] == {"id": two_groups["groups"][0].pk, "name": "Stammtisch Mondsee"}
    assert row["player"] == {"id": two_groups["players"][0].pk, "name": "Anna"}
    assert set(CONTRACT) <= set(row)


def test_nobody_linked_gets_zeros_and_no_groups(anna):
    body = phone_of(anna).get("/api/v1/me/stats").json()
    assert body["groups"] == [] and body["sessions"] == 0 and body["money"] == {}
    page = phone_of(anna).get(reverse("scorepad:my_stats"))
    assert "No player is linked to you yet" in page.content.decode()
    assert Client().get("/api/v1/me/stats").status_code == 401


def test_the_schema_documents_me_stats_with_the_contract_names(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    ref = schema["paths"]["/api/v1/me/stats"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(CONTRACT) | {"groups", "money", "mulatschak"} <= set(component["properties"])
    player_stats = schema["components"]["schemas"]["PlayerStatsOut"]["properties"]
    assert "across_groups" in player_stats
    patch_body = schema["paths"]["/api/v1/groups/{group_id}/players/{player_id}/"]["patch"]
    assert "requestBody" in patch_body


def test_a_player_s_stats_carry_across_groups_only_for_the_linked_account(two_groups, anna,
                                                                          bert):
    mondsee_anna = two_groups["players"][0]
    mine = phone_of(anna).get(f"/api/v1/players/{mondsee_anna.pk}/stats").json()
    assert mine["sessions"] == 2
    assert mine["across_groups"]["sessions"] == 4
    assert len(mine["across_groups"]["groups"]) == 2
    attersee_anna = two_groups["players"][1]
    theirs = phone_of(bert).get(f"/api/v1/players/{attersee_anna.pk}/stats").json()
    assert "across_groups" not in theirs  # Bert is not in Mondsee: he learns nothing of it


def test_the_my_statistics_page_shows_the_groups_and_the_totals(two_groups, anna):
    client = phone_of(anna)
    page = client.get(reverse("scorepad:my_stats")).content.decode()
    assert "Attersee" in page and "Stammtisch Mondsee" in page
    assert "€10.91" in page and "€0.00" in page
    assert "3 / 4" in page  # bids made across groups
    home = client.get(reverse("scorepad:home")).content.decode()
    assert reverse("scorepad:my_stats") in home


def _count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_cross_group_figures_cost_the_same_queries_for_few_and_many_groups(anna, bert):
    def add_group(i: int) -> Player:
        group = group_with(bert, name=f"Runde {i}")
        member(group, anna, "viewer")
        for _ in range(i % 3 + 1):
            session = session_at(group, bert)
            record(session, bert, played("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1,
                                                  "Dominik": 1}))
        player = group.players.get(name="Anna")
        rosters.player_link(player=player, user=anna)
        return player

    first = add_group(0)
    add_group(1)
    client = phone_of(anna)
    urls = ["/api/v1/me/stats", reverse("scorepad:my_stats"),
            f"/api/v1/players/{first.pk}/stats", reverse("scorepad:player", args=[first.pk])]
    client.get(urls[1])  # the account is read once, then cached (scorepad.cache.logins)
    counts = [_count(client, url) for url in urls]
    for i in range(2, 7):
        add_group(i)
    assert [_count(client, url) for url in urls] == counts
    assert client.get("/api/v1/me/stats").json()["sessions"] == sum(
        i % 3 + 1 for i in range(7))


def test_every_seat_name_can_be_linked_across_many_groups(anna):
    # one account, one player in each of several groups, never two in one
    for i in range(3):
        group = group_with(anna, name=f"G{i}")
        session_at(group, anna)
        rosters.player_link(player=group.players.get(name=SEATS[i]), user=anna)
    assert [p.name for p in stats.linked_players(anna)] == SEATS[:3]


# --- files -------------------------------------------------------------------------------------


def test_group_files_leave_the_links_out_and_backups_keep_them(two_groups, anna):
    from scorepad.transfer import backups, exporting

    mondsee = two_groups["groups"][0]
    assert "links" not in exporting.group_export(mondsee)["group"]
    data = backups.backup_export()
    assert [g["links"] for g in data["groups"]] == [[{"player": "Anna", "username": "anna"}],
                                                    [{"player": "Anna", "username": "anna"}]]
    backups.backup_restore(data=data, merge=True)  # every group again, accounts kept
    assert Player.objects.filter(user=anna).count() == 4
    copies = stats.linked_players(anna)
    assert stats.person_stats(list(copies))["sessions"] == 8


def test_a_backup_link_to_a_non_member_or_an_unknown_player_restores_nothing(two_groups):
    from scorepad.transfer import backups, fileformat

    data = backups.backup_export()
    data["groups"][0]["links"] = [{"player": "Anna", "username": "bert"},
                                  {"player": "Zenzi", "username": "anna"}]
    players_before = Player.objects.count()
    with pytest.raises(fileformat.ImportRejected) as caught:
        backups.backup_restore(data=data, merge=True)
    assert {p.path for p in caught.value.problems} == {"groups/0/links/0/username",
                                                       "groups/0/links/1/player"}
    assert Player.objects.count() == players_before
