"""Numbers as people read them: one minus sign (U+2212) everywhere, a plus on gains."""

from __future__ import annotations

from typing import Any

from django import template

from .. import amounts

register = template.Library()

MINUS = "\u2212"


@register.filter
def minus(value: Any) -> str:
    """``-4`` → "−4", ``"-1.50"`` → "−1.50"; anything else as it is."""
    if value is None:
        return ""
    text = str(value)
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def signed(value: Any) -> str:
    """A change: ``4`` → "+4", ``-4`` → "−4", ``0`` → "0"."""
    if value is None or value == "":
        return ""
    text = minus(value)
    try:
        positive = float(str(value)) > 0
    except ValueError:
        return text
    return f"+{text}" if positive else text


@register.filter
def is_negative(value: Any) -> bool:
    return str(value).startswith("-")


@register.filter
def money(amount: Any, currency: str = "") -> str:
    """An amount in the reader's language: ``"0.50"|money:"EUR"`` → "0,50 €" in German,
    "€0.50" in English (scorepad/amounts.py, the one place money is written for people)."""
    return amounts.money(amount, currency or "")


@register.filter
def currency_sign(currency: str) -> str:
    """The currency's sign in the reader's language (``money``'s): "€", "Ft"."""
    return amounts.symbol(currency or "")
