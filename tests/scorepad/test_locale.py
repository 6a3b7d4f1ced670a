"""Every message has a German and a Hungarian translation that keeps its placeholders,
and each compiled catalogue is current."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tests.conftest import ROOT

LANGUAGES = ["de", "hu"]


def po_path(language: str):
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


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


def entries(language: str) -> list[Entry]:
    """Every entry but the header and obsolete (#~) ones."""
    out = []
    for block in po_path(language).read_text(encoding="utf-8").split("\n\n"):
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


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    found = entries(language)
    assert len(found) > 300
    missing = [e.msgid for e in found if e.fuzzy or not all(e.msgstrs)]
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_exactly_the_placeholders_of_its_message(language):
    broken = []
    for e in entries(language):
        for i, msgstr in enumerate(e.msgstrs):
            source = e.msgid if i == 0 or e.plural is None else e.plural
            if placeholders(source) != placeholders(msgstr):
                broken.append((e.msgid, msgstr))
    assert broken == []


def test_the_placeholder_check_catches_a_lost_or_renamed_placeholder():
    assert placeholders("{player} must follow suit.") != placeholders("{jatekos} színt ad.")
    assert placeholders("Deal %(n)s deleted.") != placeholders("Osztás törölve.")
    assert placeholders('{{"declarer": 1}}') != placeholders('{"declarer": 1}')


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_not_older_than_its_source(language):
    from django.utils.translation import gettext, ngettext, npgettext, override, pgettext

    mo = po_path(language).with_suffix(".mo")
    assert mo.exists()
    for e in entries(language):
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
