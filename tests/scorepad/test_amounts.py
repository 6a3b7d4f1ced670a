"""Money in the reader's language (scorepad/amounts.py): German and Hungarian write
"0,50 €", English "€0.50", every page and the card alike; files for machines keep the
plain decimal and the code."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from scorepad import amounts

NBSP = "\xa0"


@pytest.mark.parametrize(("language", "small", "owed", "large"), [
    ("de", f"0,50{NBSP}€", f"−3,00{NBSP}€", f"1.234,50{NBSP}€"),
    ("en", "€0.50", "−€3.00", "€1,234.50"),
    ("hu", f"0,50{NBSP}€", f"−3,00{NBSP}€", f"1{NBSP}234,50{NBSP}€"),
])
def test_euros_are_written_as_each_language_writes_them(language, small, owed, large):
    with translation.override(language):
        assert amounts.money("0.50", "EUR") == small
        assert amounts.money(Decimal("-3.00"), "EUR") == owed
        assert amounts.money("1234.50", "EUR") == large


def test_hungarian_keeps_the_forint_as_ft_and_a_code_without_a_symbol_as_the_code():
    with translation.override("hu"):
        assert amounts.money("150.00", "HUF") == f"150,00{NBSP}Ft"
        assert amounts.money("2.00", "USD") == f"2,00{NBSP}USD"


def test_an_amount_keeps_its_own_places_its_currencys_minor_unit():
    with translation.override("en"):
        assert amounts.money("1.005", "KWD").endswith("1.005")
        assert amounts.money("12", "JPY") == "¥12"
        assert amounts.money("150.50", "HUF").endswith("150.50")


def test_without_a_currency_the_number_alone_is_written_the_languages_way():
    with translation.override("de"):
        assert amounts.money("-1.50", "") == "−1,50"


@pytest.mark.parametrize("value", [None, "", "abc", "NaN", "Infinity"])
def test_what_is_not_an_amount_is_written_as_it_is(value):
    with translation.override("de"):
        assert amounts.money(value, "EUR") == ("" if value is None else value)


@pytest.mark.parametrize(("language", "euro", "forint"), [("de", "€", "HUF"), ("en", "€", "HUF"),
                                                          ("hu", "€", "Ft")])
def test_a_columns_heading_writes_the_currencys_sign_as_the_amounts_do(language, euro,
                                                                        forint):
    with translation.override(language):
        assert amounts.symbol("EUR") == euro and amounts.symbol("HUF") == forint
        assert amounts.symbol("XYZ") == "XYZ"
