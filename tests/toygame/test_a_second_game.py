"""docs/games.md, "Adding a game", once more, outside the repository: a second toy game,
Low Card, written by this test into a folder of its own (a package, its app, one template,
one static file and its catalogues in German and Hungarian), registered by the setting
beside the first toy. It plays High Card's rules (it imports them) with its own name and
its own words; no file of the project changes, and once the setting is restored nothing of
it is left."""

from __future__ import annotations

import json
import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.test import Client
from django.utils import translation

from scorepad import games
from tests.conftest import ROOT
from tests.gamesetting import with_games
from tests.scorepad.factories import user
from tests.words import missing_help, missing_words

pytestmark = pytest.mark.django_db

MODULE = "low_card_game"
STATIC = "games/low_card/phone.js"  # where a game's static files are (docs/games.md)
SEATS = ["Anna", "Bert", "Cilli"]

PACKAGE = '''"""Low Card: High Card's rules under another name, with its own words (written by
tests/toygame/test_a_second_game.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy, pgettext_lazy

from scorepad.games.base import GameRules
from scorepad.messages import Wording
from tests.toygame import *  # noqa: F403  (every other name of the Game protocol)

NAME = "low_card"
TITLE = "Low Card"
STATS_KEY = "low_card"
BOARD_TEMPLATE = "scorepad/_board_low_card.html"
WORDING = Wording(codes={
    "winner_listed_twice": gettext_lazy("{player} turned up two cards."),
    "nobody_lost": gettext_lazy("Not everybody can have the lowest card."),
})
RULE_HELP: dict[str, Any] = {}
ABOUT = pgettext_lazy("keeps the score of", "Low Card")
STAKE_UNIT = pgettext_lazy("stake per", "Low Card point")


def rules(preset: str | None, overrides: Any) -> GameRules:
    if preset not in (None, NAME) or overrides:
        raise ValueError("Low Card has one set of rules")
    return GameRules(NAME, {}, 2, 6)


def rules_title(preset: str) -> str:
    return TITLE
'''
APPS = '''from django.apps import AppConfig


class LowCardConfig(AppConfig):
    name = "low_card_game"
'''
BOARD = ('{% load i18n %}{% if part != "recent" %}<h1 class="board-title">'
         '{% blocktranslate count deals=board.deals %}Low Card after {{ deals }} deal'
         '{% plural %}Low Card after {{ deals }} deals{% endblocktranslate %}</h1>{% endif %}\n')
#: Its catalogues: (context, message) → (German, Hungarian); a plural: both forms.
WORDS: dict[tuple[str, str], tuple[Any, Any]] = {
    ("", "Not everybody can have the lowest card."):
        ("Nicht alle können die niedrigste Karte haben.",
         "Nem lehet mindenkinél a legalacsonyabb lap."),
    ("", "{player} turned up two cards."):
        ("{player} hat zwei Karten aufgedeckt.", "{player} két lapot fordított fel."),
    ("keeps the score of", "Low Card"): ("bei Low Card", "Low Cardban"),
    ("stake per", "Low Card point"): ("Low-Card-Punkt", "Low Card-pontonként"),
    ("", "Low Card after %(deals)s deal\x00Low Card after %(deals)s deals"):
        (("Low Card nach %(deals)s Spiel", "Low Card nach %(deals)s Spielen"),
         ("Low Card %(deals)s osztás után", "Low Card %(deals)s osztás után")),
}


def compiled(messages: dict[str, str]) -> bytes:
    """A GNU gettext catalogue (.mo) of ``messages`` (key → text; a key with a context is
    ``context\\x04message``, a plural's key and text hold their forms split by NUL)."""
    header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
    pairs = sorted({"": header, **messages}.items())
    keys = [k.encode() for k, _v in pairs]
    values = [v.encode() for _k, v in pairs]
    start = 7 * 4 + 16 * len(pairs)
    offsets, data = [], b""
    for text in keys + values:
        offsets.append((len(text), start + len(data)))
        data += text + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, len(pairs), 28, 28 + 8 * len(pairs), 0, 0)
    table = b"".join(struct.pack("<2I", *o) for o in offsets)
    return head + table + data


def write_game(folder: Path) -> Path:
    package = folder / MODULE
    (package / "templates" / "scorepad").mkdir(parents=True)
    (package / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    (package / "apps.py").write_text(APPS, encoding="utf-8")
    (package / "templates" / "scorepad" / "_board_low_card.html").write_text(BOARD)
    (package / "static" / "games" / "low_card").mkdir(parents=True)
    (package / "static" / STATIC).write_text("// Low Card's script for the phone\n")
    for index, language in enumerate(("de", "hu")):
        messages = {}
        for (context, message), texts in WORDS.items():
            key = f"{context}\x04{message}" if context else message
            text = texts[index]
            messages[key] = "\0".join(text) if isinstance(text, tuple) else text
        catalogue = package / "locale" / language / "LC_MESSAGES"
        catalogue.mkdir(parents=True)
        (catalogue / "django.mo").write_bytes(compiled(messages))
    return package


@contextmanager
def registered(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Low Card written into ``folder`` and registered after the toy, for the block."""
    write_game(folder)
    monkeypatch.syspath_prepend(str(folder))
    try:
        with with_games("tests.toygame", MODULE):
            yield games.get("low_card")
    finally:
        sys.modules.pop(f"{MODULE}.apps", None)
        sys.modules.pop(MODULE, None)


def deal(client: Client, sid: int, winners: list[str], language: str) -> Any:
    return client.post(f"/api/v1/sessions/{sid}/deals/", json.dumps({"winners": winners}),
                       content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


def test_a_second_toy_game_from_outside_the_repository_speaks_its_own_words(tmp_path,
                                                                           monkeypatch):
    with registered(tmp_path, monkeypatch) as low_card:
        assert games.names()[-2:] == ["high_card", "low_card"]
        assert not Path(str(low_card.__file__)).is_relative_to(ROOT)  # no project file
        assert missing_words() == [] and missing_help() == []

        client = Client()
        client.force_login(user("lotti"))
        g = client.post("/api/v1/groups/", json.dumps({"name": "Tisch"}),
                        content_type="application/json").json()["id"]
        sid = client.post("/api/v1/sessions/", json.dumps(
            {"group": g, "game": "low_card", "seats": SEATS}),
            content_type="application/json").json()["id"]
        for language, sentence in (("en", "Not everybody can have the lowest card."),
                                   ("de", "Nicht alle können die niedrigste Karte haben."),
                                   ("hu", "Nem lehet mindenkinél a legalacsonyabb lap.")):
            refused = deal(client, sid, SEATS, language)
            assert refused.status_code == 422
            assert [v["message"] for v in refused.json()["violations"]] == [sentence]
        twice = deal(client, sid, ["Anna", "Anna"], "hu")
        assert [v["message"] for v in twice.json()["violations"]] == [
            "Anna két lapot fordított fel."]
        assert deal(client, sid, ["Bert"], "de").status_code == 201

        page = client.get(f"/sessions/{sid}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert "Low Card nach 1 Spiel" in page  # its own template, in its own German
        assert Path(str(finders.find(STATIC))).is_relative_to(Path(str(low_card.__file__)).parent)
        home = Client(HTTP_ACCEPT_LANGUAGE="hu").get("/").content.decode()
        assert "High Cardban és Low Cardban" in home  # each toy names itself
        start = client.get("/sessions/new/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert "High-Card-Punkt oder Low-Card-Punkt" in start  # the stake's label

    # the setting restored: nothing of it is left
    assert "low_card" not in games.names()
    with pytest.raises(TemplateDoesNotExist):
        get_template("scorepad/_board_low_card.html")
    assert finders.find(STATIC) is None
    with translation.override("de"):
        assert translation.gettext("Not everybody can have the lowest card.") == (
            "Not everybody can have the lowest card.")
