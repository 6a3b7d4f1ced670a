"""Every message has a German translation, and the compiled catalogue is current."""

from __future__ import annotations

import re

from tests.conftest import ROOT

PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def _entries(text: str) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) of every entry but the header."""
    out = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        block = "\n".join(line for line in lines if not line.startswith("#"))
        if "\nmsgstr " not in "\n" + block:
            continue
        head, _, tail = ("\n" + block).partition("\nmsgstr ")
        msgid = "".join(re.findall(r'"(.*)"$', head.partition("msgid ")[2], re.M))
        msgstr = "".join(re.findall(r'"(.*)"$', tail, re.M))
        if msgid:
            out.append((msgid, msgstr, fuzzy))
    return out


def test_every_message_is_translated_into_german():
    entries = _entries(PO.read_text(encoding="utf-8"))
    assert len(entries) > 100
    missing = [msgid for msgid, msgstr, fuzzy in entries if not msgstr or fuzzy]
    assert missing == []


def test_the_compiled_catalogue_is_not_older_than_its_source():
    from django.utils.translation import gettext, override

    with override("de"):
        assert gettext("Save deal") == "Spiel speichern"
    for msgid, msgstr, _ in _entries(PO.read_text(encoding="utf-8")):
        if "%(" in msgid or "{" in msgid or "\\" in msgid:
            continue
        with override("de"):
            assert gettext(msgid.replace('\\"', '"')) == msgstr.replace('\\"', '"'), msgid
