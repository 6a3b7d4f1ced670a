"""Money as the reader writes it (README.md's money is a ``Decimal`` text like "-3.00"):
``0,50 €`` in German and Hungarian, ``€0.50`` in English, by Babel's CLDR data, with the
project's one minus sign (U+2212). Only for people: files for machines (CSV, JSON, the API)
keep the plain decimal and the ISO code.

CLDR's Hungarian writes the euro as "EUR"; Hungarian readers at a card table write "€"
(as they write "Ft" for the forint, which CLDR already does), so ``SYMBOLS`` gives them
that. A code Babel does not know is written after the number, as it is."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal, get_currency_symbol, parse_pattern
from django.utils.translation import get_language, to_locale

MINUS = "\u2212"
#: Symbols a language's readers expect where CLDR writes the code.
SYMBOLS: dict[str, dict[str, str]] = {"hu": {"EUR": "€"}}


def _locale() -> Locale:
    try:
        return Locale.parse(to_locale(get_language() or "en"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def money(amount: object, currency: str) -> str:
    """``amount`` (a Decimal or its text) in ``currency`` in the active language; without
    a currency, the number alone in that language's way; what is not a number, as it is."""
    if amount is None or amount == "":
        return ""
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        return str(amount)
    if not value.is_finite():
        return str(amount)
    locale = _locale()
    code = (currency or "").upper()
    places = max(0, -int(value.as_tuple().exponent))
    if not code:
        return format_decimal(value, format=f"#,##0.{'0' * places}" if places else "#,##0",
                              locale=locale).replace("-", MINUS)
    # the locale's pattern with the amount's own places: money is kept quantized to its
    # currency's minor unit, and a reader sees exactly that
    pattern = parse_pattern(locale.currency_formats["standard"])
    pattern.frac_prec = (places, places)
    try:
        text = pattern.apply(value, locale, currency=code, currency_digits=False)
    except (ValueError, KeyError):
        return f"{value:f} {code}".replace("-", MINUS)
    symbol = SYMBOLS.get(locale.language, {}).get(code)
    if symbol:
        text = text.replace(get_currency_symbol(code, locale=locale), symbol)
    return text.replace("-", MINUS)


def symbol(currency: str) -> str:
    """The currency's sign as ``money`` writes it (a narrow column's heading, over the
    amounts written without it): "€", "Ft"; a code Babel does not know, as it is."""
    code = (currency or "").upper()
    locale = _locale()
    return SYMBOLS.get(locale.language, {}).get(code) or get_currency_symbol(code, locale=locale)
