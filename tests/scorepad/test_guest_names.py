"""A guest's evening stores no interface words: its group has no name, shown in the
reader's language; signing up names it by the account; the data migration
``0016_guest_names`` puts the rows of before right."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from scorepad.models import Group

from .test_guests import FIRST_DEAL, PASSWORD, playing

pytestmark = pytest.mark.django_db

SAID = {"en": "Played without an account", "de": "Ohne Konto gespielt",
        "hu": "Fiók nélkül játszva"}


def test_a_guests_group_is_stored_without_a_name_and_shown_in_each_readers_language():
    phone, session = playing()
    phone.post(f"/sessions/{session.pk}/deals/new", FIRST_DEAL)
    assert Group.objects.get(pk=session.group_id).name == ""
    for language, words in SAID.items():
        for path in ("", "card", "history", "sheet", "settlement"):
            page = phone.get(f"/sessions/{session.pk}/{path}", HTTP_ACCEPT_LANGUAGE=language)
            assert page.status_code == 200, path
            assert words in page.content.decode(), (language, path)
            others = [w for lang, w in SAID.items() if lang != language]
            assert not any(w in page.content.decode() for w in others), (language, path)


def test_the_card_of_a_guests_evening_is_headed_in_the_language_it_is_drawn_in():
    from scorepad import card

    _phone, session = playing()
    from django.utils import translation

    for language, words in SAID.items():
        with translation.override(language):
            assert card.content(session).group == words


def test_signing_up_names_the_guests_group_by_the_account():
    phone, session = playing()
    answer = phone.post("/signup/", {"username": "resi", "password1": PASSWORD,
                                     "password2": PASSWORD})
    assert answer.status_code == 302
    assert Group.objects.get(pk=session.group_id).name == "resi"
    page = phone.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "resi" in page and SAID["de"] not in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_the_interface_words_out_of_the_stored_names():
    try:
        executor = MigrationExecutor(connection)
        before = [("scorepad", "0015_season")]
        after = [("scorepad", "0016_guest_names")]
        executor.migrate(before)
        old = executor.loader.project_state(before).apps
        User = old.get_model("auth", "User")
        Group_, Guest, Membership = (old.get_model("scorepad", n)
                                     for n in ("Group", "Guest", "Membership"))
        guest_user = User.objects.create(username="guest 0a1b2c", password="!")
        playing_now = Group_.objects.create(name="Ohne Konto gespielt")
        Membership.objects.create(group=playing_now, user=guest_user, role="owner")
        Guest.objects.create(user=guest_user, group=playing_now, token="t" * 43)
        resi = User.objects.create(username="resi", password="!")
        claimed = Group_.objects.create(name="Fiók nélkül játszva")
        Membership.objects.create(group=claimed, user=resi, role="owner")
        club = Group_.objects.create(name="Stammtisch Mondsee")
        Membership.objects.create(group=club, user=resi, role="owner")

        executor = MigrationExecutor(connection)
        executor.migrate(after)
        names = dict(Group.objects.values_list("pk", "name"))
        assert names[playing_now.pk] == ""
        assert names[claimed.pk] == "resi"
        assert names[club.pk] == "Stammtisch Mondsee"
        executor = MigrationExecutor(connection)
        executor.migrate(before)  # backwards: nothing to undo
    finally:
        # every migration again, those after 0016 too: the next tests of this process use
        # this database (left at 0016, later migrations' tables were missing to them)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert Client().get("/healthz").status_code == 200
