"""Running it: polled scoreboards (304s, the render cache, compression), static files with
long cache headers, pruning idempotency keys, and no local state between app servers."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scorepad import rosters, services, sharing
from scorepad.models import IdempotencyKey

from .factories import EVEN, group_with, member, played, record, session_at, user

pytestmark = pytest.mark.django_db


# --- polled scoreboards ----------------------------------------------------------------------


def test_a_compressed_scoreboard_answers_304_to_its_weak_etag(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    board = f"/sessions/{table.pk}/board"
    first = phone.get(board, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip"
    assert first["ETag"].startswith('W/"')
    again = phone.get(board, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_page_is_gzipped_with_breach_padding_and_reads_back_whole(phone, table, anna):
    import gzip
    import re

    def ungranted(body: bytes) -> bytes:  # the poll grant is signed with the second
        return re.sub(rb"\?g=[^\"&]+", b"?g=GRANT", body)

    plain = ungranted(phone.get(f"/sessions/{table.pk}/board").content)
    names = set()
    for _ in range(5):
        packed = phone.get(f"/sessions/{table.pk}/board", HTTP_ACCEPT_ENCODING="gzip")
        assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
        assert int(packed["Content-Length"]) == len(packed.content) < len(plain)
        assert ungranted(gzip.decompress(packed.content)) == plain
        header = packed.content
        assert header[3] & gzip.FNAME  # a random file name pads the length (BREACH)
        names.add(header[10:header.index(b"\x00", 10)])
    assert len(names) > 1


def test_api_answers_stay_uncompressed(table, anna):
    api = Client()
    api.force_login(anna)
    answer = api.get(f"/api/v1/sessions/{table.pk}/", HTTP_ACCEPT_ENCODING="gzip")
    assert answer.status_code == 200 and not answer.has_header("Content-Encoding")


def test_a_cached_scoreboard_is_never_served_after_a_change(phone, table, anna):
    board = f"/sessions/{table.pk}/board"
    before = phone.get(board)
    record(table, anna, played("Bert", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}))
    after = phone.get(board, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert "#1" in after.content.decode() and "#1" not in before.content.decode()


def test_renaming_a_player_changes_the_scoreboard_etag(phone, table, anna):
    board = f"/sessions/{table.pk}/board"
    before = phone.get(board)
    bert = table.group.players.get(name="Bert")
    rosters.player_rename(player=bert, name="Berti")
    after = phone.get(board, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and "Berti" in after.content.decode()


def test_the_polled_scoreboard_keeps_edit_links_for_writers_only(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    viewer = user("vera")
    member(table.group, viewer, "viewer")
    watcher = Client()
    watcher.force_login(viewer)
    board = f"/sessions/{table.pk}/board"
    edit = f"/sessions/{table.pk}/deals/1/edit"
    assert edit in phone.get(board).content.decode()
    viewer_board = watcher.get(board)
    assert edit not in viewer_board.content.decode()
    assert viewer_board["ETag"] != phone.get(board)["ETag"]


def test_a_poll_of_a_stranger_is_404_even_with_a_guessed_etag(table, anna):
    stranger = Client()
    stranger.force_login(user("mallory"))
    etag = f'"s{table.pk}-v{table.version}-html-en-r"'
    answer = stranger.get(f"/sessions/{table.pk}/board", HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 404


def test_a_revoked_watch_link_stops_answering_polls(table):
    token = sharing.watch_link_create(session=table)
    board = f"/watch/{token}/board"
    etag = Client().get(board)["ETag"]
    sharing.watch_link_revoke(session=table)
    assert Client().get(board, HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert Client().get(f"/api/v1/watch/{token}/scoreboard").status_code == 404


def test_a_new_watch_link_polls_its_own_url_not_a_cached_old_one(table):
    old = sharing.watch_link_create(session=table)
    assert f"/watch/{old}/board" in Client().get(f"/watch/{old}/board").content.decode()
    sharing.watch_link_revoke(session=table)
    new = sharing.watch_link_create(session=table)
    board = Client().get(f"/watch/{new}/board").content.decode()
    assert f"/watch/{new}/board" in board and old not in board


# --- static files ------------------------------------------------------------------------------


def test_hashed_static_files_are_compressed_and_cached_for_a_year(tmp_path, settings):
    """As in production: collectstatic's hashed, compressed files served by whitenoise."""
    from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
    from django.test import RequestFactory
    from whitenoise.middleware import WhiteNoiseMiddleware

    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_USE_FINDERS = False
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    hashed = ManifestStaticFilesStorage(location=tmp_path).stored_name("schreiber.css")
    assert hashed != "schreiber.css"
    serve = WhiteNoiseMiddleware(lambda request: None)
    request = RequestFactory().get(f"/static/{hashed}", HTTP_ACCEPT_ENCODING="gzip")
    response = serve(request)
    assert response.status_code == 200
    control = response["Cache-Control"]
    assert "immutable" in control and "public" in control
    assert int(control.split("max-age=")[1].split(",")[0]) >= 31_536_000  # a year or more
    assert response["Content-Encoding"] == "gzip"


def test_production_settings_keep_no_state_in_the_app_server():
    """Sessions and login throttling live in the database (sessions read through the
    cache when every process shares it); the cache holds rendered scoreboards under keys
    that name their version (a stale entry cannot be served)."""
    engine = ("scorepad.cache.login_sessions"  # Django's cached_db, see there
              if django_settings.SCHREIBER_CACHE_SHARED
              else "django.contrib.sessions.backends.db")
    assert engine == django_settings.SESSION_ENGINE
    assert django_settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"
    backend = django_settings.CACHES["default"]["BACKEND"]
    assert backend.endswith(("LocMemCache", "RedisCache", "PyMemcacheCache"))


# --- pruning idempotency keys ----------------------------------------------------------------


def test_prune_idempotency_keys_removes_only_old_keys(anna):
    old = IdempotencyKey.objects.create(user=anna, key="old", fingerprint="f", status=201)
    IdempotencyKey.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(hours=25))
    IdempotencyKey.objects.create(user=anna, key="new", fingerprint="f", status=201)
    out = StringIO()
    call_command("prune_idempotency_keys", stdout=out)
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]
    assert "removed 1" in out.getvalue()


def test_prune_idempotency_keys_takes_the_age_in_hours(anna):
    key = IdempotencyKey.objects.create(user=anna, key="k", fingerprint="f", status=201)
    IdempotencyKey.objects.filter(pk=key.pk).update(
        created_at=timezone.now() - timedelta(hours=3))
    call_command("prune_idempotency_keys", "--hours", "4", stdout=StringIO())
    assert IdempotencyKey.objects.count() == 1
    call_command("prune_idempotency_keys", "--hours", "2", stdout=StringIO())
    assert IdempotencyKey.objects.count() == 0


def test_a_long_session_is_corrected_by_replaying_it_once(anna):
    """A correction replays from the first deal on the referee's own state: the result
    equals recording the corrected deals from scratch."""
    session = session_at(group_with(anna), anna)
    for _ in range(6):
        record(session, anna, {"kind": "passed"})
    names = services.Names.of(session)
    services.deal_correct(session=session, user=anna, number=2,
                          data=names.deal_ids(played("Cilli", EVEN | {"Anna": 1,
                                                                      "Cilli": 2})))
    fresh = session_at(group_with(anna, "Other"), anna)
    for number in range(1, 7):
        deal = ({"kind": "passed"} if number != 2 else
                played("Cilli", EVEN | {"Anna": 1, "Cilli": 2}))
        record(fresh, anna, deal)
    session.refresh_from_db()
    fresh.refresh_from_db()
    assert list(session.state["scores"].values()) == list(fresh.state["scores"].values())
    assert session.state["games"] == fresh.state["games"]
