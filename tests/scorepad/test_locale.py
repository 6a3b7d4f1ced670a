"""Every message has a German and a Hungarian translation that keeps its placeholders,
and each compiled catalogue is current: the project's (``locale/``, the words all games
share) and each game's own (``<game>/locale/``, the toy's included), and so are the phone's
words generated from them (each game's ``words-<language>.js``: manage.py scorer_data). A
game's words are in its own catalogue (or the project's), never only in another game's."""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.utils.functional import Promise

from scorepad import games
from tests.conftest import ROOT
from tests.gamesetting import with_games

LANGUAGES = ["de", "hu"]
TOY = "tests.toygame"
#: Every catalogue: the project's, and each game's own (its package's locale/).
CATALOGUES = {"project": ROOT / "locale",
              "mulatschak": ROOT / "scorepad" / "games" / "mulatschak" / "locale",
              "mura": ROOT / "scorepad" / "games" / "mura" / "locale",
              "muller_matz": ROOT / "scorepad" / "games" / "muller_matz" / "locale",
              "high_card": ROOT / "tests" / "toygame" / "locale"}


def po_path(language: str, catalogue: str = "project") -> Path:
    return CATALOGUES[catalogue] / language / "LC_MESSAGES" / "django.po"


@dataclass
class Entry:
    context: str | None
    msgid: str
    plural: str | None
    msgstrs: list[str]
    fuzzy: bool


def _unquote(lines: list[str]) -> str:
    text = "".join(re.fullmatch(r'\s*"(.*)"\s*', line).group(1) for line in lines)  # type: ignore[union-attr]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def entries(language: str, catalogue: str = "project") -> list[Entry]:
    """Every entry but the header and obsolete (#~) ones."""
    out = []
    for block in po_path(language, catalogue).read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, list[str]] = {}
        current: list[str] | None = None
        for line in lines:
            if line.startswith("#"):
                continue
            if line.startswith('"'):
                assert current is not None, block
                current.append(line)
                continue
            keyword, _, rest = line.partition(" ")
            current = fields.setdefault(keyword, [])
            current.append(rest)
        if "msgid" not in fields:
            continue
        msgid = _unquote(fields["msgid"])
        if not msgid:
            continue
        strs = [_unquote(v) for k, v in sorted(fields.items()) if k.startswith("msgstr")]
        out.append(Entry(
            context=_unquote(fields["msgctxt"]) if "msgctxt" in fields else None,
            msgid=msgid,
            plural=_unquote(fields["msgid_plural"]) if "msgid_plural" in fields else None,
            msgstrs=strs,
            fuzzy=fuzzy,
        ))
    return out


#: %(name)s / %s / %d, {name}, and the doubled braces that str.format turns into one.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|\{\{|\}\}")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


EVERY = [(language, catalogue) for catalogue in CATALOGUES for language in LANGUAGES]


@pytest.mark.parametrize(("language", "catalogue"), EVERY)
def test_every_message_is_translated(language, catalogue):
    found = entries(language, catalogue)
    assert len(found) > {"project": 300, "high_card": 20}.get(catalogue, 80)
    missing = [e.msgid for e in found if e.fuzzy or not all(e.msgstrs)]
    assert missing == []


@pytest.mark.parametrize(("language", "catalogue"), EVERY)
def test_every_translation_keeps_exactly_the_placeholders_of_its_message(language, catalogue):
    broken = []
    for e in entries(language, catalogue):
        for i, msgstr in enumerate(e.msgstrs):
            source = e.msgid if i == 0 or e.plural is None else e.plural
            if placeholders(source) != placeholders(msgstr):
                broken.append((e.msgid, msgstr))
    assert broken == []


def test_the_placeholder_check_catches_a_lost_or_renamed_placeholder():
    assert placeholders("{player} must follow suit.") != placeholders("{jatekos} színt ad.")
    assert placeholders("Deal %(n)s deleted.") != placeholders("Osztás törölve.")
    assert placeholders('{{"declarer": 1}}') != placeholders('{"declarer": 1}')


#: The steps after editing a catalogue (docs/development.md, "Translations").
AFTER_EDITING = ("run `msgfmt -o django.mo django.po` in {folder}, then "
                 "`DJANGO_DEBUG=1 .venv/bin/python manage.py scorer_data` (the phone's words)")


@pytest.mark.parametrize(("language", "catalogue"), EVERY)
def test_the_compiled_catalogue_is_not_older_than_its_source(language, catalogue):
    mo = po_path(language, catalogue).with_suffix(".mo")
    steps = AFTER_EDITING.format(folder=mo.parent.relative_to(ROOT))
    assert mo.exists(), steps
    compiled = gettext.GNUTranslations(mo.open("rb"))
    for e in entries(language, catalogue):
        if e.plural is None:
            got = (compiled.pgettext(e.context, e.msgid) if e.context is not None
                   else compiled.gettext(e.msgid))
            assert got == e.msgstrs[0], f"{e.msgid}: {steps}"
        else:
            forms = [compiled.npgettext(e.context, e.msgid, e.plural, n) if e.context is not None
                     else compiled.ngettext(e.msgid, e.plural, n) for n in (1, 5)]
            assert forms == e.msgstrs[:2], f"{e.msgid}: {steps}"


def test_the_phones_words_say_what_the_compiled_catalogues_say():
    """A deal the phone refuses is refused in the server's words: each game's generated
    words file in each language (scorerdata.render_words) is what its catalogues say now."""
    from scorepad.games import scorerdata

    stale = [str(file.relative_to(ROOT)) for game in scorerdata.with_scorer()
             for file, text in scorerdata.generated(game) if file.name.startswith("words-")
             if not file.is_file() or file.read_text(encoding="utf-8") != text]
    assert stale == [], ("out of date: run `DJANGO_DEBUG=1 .venv/bin/python manage.py "
                         "scorer_data`")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_speak_the_projects_catalogue_and_the_games(language):
    """Django's translations merge the project's catalogue and each installed game's: the
    pages get each message as its catalogue says (a message in two games' catalogues has
    the same words in both)."""
    from django.utils.translation import gettext, ngettext, npgettext, override, pgettext

    for e in [e for catalogue in ("project", "mulatschak", "mura", "muller_matz")
              for e in entries(language, catalogue)]:
        if e.plural is None:
            with override(language):
                got = (pgettext(e.context, e.msgid) if e.context is not None
                       else gettext(e.msgid))
            assert got == e.msgstrs[0], e.msgid
        else:
            with override(language):
                got_one = (npgettext(e.context, e.msgid, e.plural, 1) if e.context is not None
                           else ngettext(e.msgid, e.plural, 1))
                got_many = (npgettext(e.context, e.msgid, e.plural, 5) if e.context is not None
                            else ngettext(e.msgid, e.plural, 5))
            assert [got_one, got_many] == e.msgstrs[:2], e.msgid


def test_german_and_hungarian_say_save_deal_their_own_way():
    from django.utils.translation import gettext, override

    with override("de"):
        assert gettext("Save deal") == "Spiel speichern"
    with override("hu"):
        assert gettext("Save deal") == "Osztás mentése"


def _keys(language: str, catalogue: str) -> set[tuple[str | None, str]]:
    return {(e.context, e.msgid) for e in entries(language, catalogue)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_games_words_are_in_its_catalogue_and_not_in_the_projects(language):
    """A game's words moved into its own catalogue (the project keeps the words it uses
    itself): no message is in both."""
    project = _keys(language, "project")
    for catalogue in CATALOGUES:
        if catalogue != "project":
            assert sorted(_keys(language, catalogue) & project, key=str) == [], catalogue


def _said(value: Any) -> list[tuple[str | None, str]]:
    """The messages (context, text) of what a game says, lazily translated, as its
    catalogue keys them; nested in dicts, lists and tuples, and its Wording."""
    if isinstance(value, Promise):
        args, kw = getattr(value, "_args", ()), getattr(value, "_kw", {})
        if "singular" in kw:
            return [(kw.get("context"), kw["singular"])]
        return [(args[0], args[1])] if len(args) == 2 else [(None, args[0])]
    if isinstance(value, dict):
        return [m for v in value.values() for m in _said(v)]
    if isinstance(value, list | tuple):
        return [m for v in value for m in _said(v)]
    if hasattr(value, "codes"):  # a Wording
        return _said([value.codes, value.variants, value.by_value, value.plurals,
                      value.values])
    return []


def words_of(game: games.Game) -> list[tuple[str | None, str]]:
    """Everything a game says of itself through its ``Words``: its violation sentences,
    its rules' help, its name on the home page, its unit of the stake, its notes."""
    return _said([game.WORDING, game.RULE_HELP, game.ABOUT, game.STAKE_UNIT, game.STATS_NOTE,
                  game.CHART_TITLES])


def untranslated(game: games.Game, language: str) -> list[str]:
    """The words of ``game`` that neither its own catalogue nor the project's holds."""
    here = _keys(language, "project") | _keys(language, game.NAME)
    return [f"{game.NAME} ({language}): {text}" for context, text in words_of(game)
            if (context, text) not in here]


def test_every_game_says_its_words_in_german_and_hungarian_from_its_own_catalogue():
    with with_games(TOY):
        said = {game.NAME: words_of(game) for game in games.registered()}
        assert len(said["mulatschak"]) > 100 and len(said["high_card"]) >= 4
        assert ("keeps the score of", "High Card") in said["high_card"]
        assert [line for game in games.registered() for language in LANGUAGES
                for line in untranslated(game, language)] == []


def test_a_word_missing_from_a_games_catalogue_is_named(monkeypatch):
    from django.utils.translation import gettext_lazy

    mura = games.get("mura")
    monkeypatch.setattr(mura, "RULE_HELP", {**mura.RULE_HELP,
                                           "spin": gettext_lazy("turns the table round")})
    assert untranslated(mura, "hu") == ["mura (hu): turns the table round"]
