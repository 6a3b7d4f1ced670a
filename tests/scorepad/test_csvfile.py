"""The one CSV writer (scorepad/csvfile.py): a text cell a spreadsheet would run is
escaped, numbers stay numbers, and nothing else in the product writes CSV. Each CSV the
product writes, with names a spreadsheet would run, is read back in test_import_export.py
(a session, every game) and test_tournament_paper.py (a tournament's ranking)."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest

from scorepad import csvfile
from tests.conftest import ROOT


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("text", ['=HYPERLINK("http://x","y")', "+1", "-1", "@SUM(1)",
                                  "\tcmd", "\rcmd", "=1+2", "-"])
def test_a_text_cell_a_spreadsheet_would_run_comes_back_behind_an_apostrophe(text):
    assert read(csvfile.write([[text, "Anna"]])) == [["'" + text, "Anna"]]


@pytest.mark.parametrize("number", [0, -3, 17, Decimal("-1.33"), Decimal("3.00"), -0.5])
def test_numbers_stay_numbers_also_below_zero(number):
    assert read(csvfile.write([[number]])) == [[str(number)]]


def test_other_text_none_and_truth_values_are_written_as_they_are():
    assert read(csvfile.write([["Anna", "Zoë's 2", None, True, " =not first"]])) == [
        ["Anna", "Zoë's 2", "", "True", " =not first"]]


def test_a_figure_kept_as_text_is_text():
    assert read(csvfile.write([["-1.33"]])) == [["'-1.33"]]


def test_the_file_ends_its_lines_in_crlf_and_may_begin_with_a_byte_order_mark():
    text = csvfile.write([["a", 1], ["b", 2]], byte_order_mark=True)
    assert text == "\ufeffa,1\r\nb,2\r\n"


def test_nothing_else_in_the_product_writes_csv():
    writers = [path.relative_to(ROOT).as_posix() for path in (ROOT / "scorepad").rglob("*.py")
               if re.search(r"\bcsv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))]
    assert writers == ["scorepad/csvfile.py"]
