"""The format choices of a tournament as typed or sent (docs/tournaments.md, "Tournament
formats"), checked and made what the tournament keeps: each ``clean_*`` returns the stored
value or raises InputError naming the field and the rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from referee.money import CURRENCY_EXPONENTS

from .. import rosters
from ..errors import InputError
from .ranking import TIEBREAKS

#: ``rank_points``: 1 to this many places, each from 0 to ``RANK_POINTS_MOST``.
RANK_PLACES = 12
RANK_POINTS_MOST = 1_000_000
#: The most final tables.
FINAL_TABLES_MOST = 50
#: The prize list: places from 1 to this, an item's text at most ``ITEM_MAX`` characters.
PRIZE_PLACE_MOST = 1000
ITEM_MAX = 80
#: Digits before the point of a fee or a prize's amount.
MONEY_DIGITS = 10
MONEY_PATTERN = f"^[0-9]{{1,{MONEY_DIGITS}}}(\\.[0-9]{{1,2}})?$"
_MONEY = re.compile(MONEY_PATTERN)


def exact_number(value: object) -> Decimal | None:
    """A JSON number or a decimal string (a comma for the point too) as an exact Decimal;
    None if it is neither. Rank points, prizes' percents and seasons' cup points."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", ".")
        if not re.fullmatch(r"[0-9]{1,12}(\.[0-9]{1,12})?", text):
            return None
    else:
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def clean_rank_points(value: object) -> list[str]:
    """1–12 numbers ≥ 0, kept exactly as decimal text."""
    return clean_points(value, "rank_points", RANK_PLACES, RANK_POINTS_MOST)


def clean_points(value: object, field: str, places: int, most: int) -> list[str]:
    """Points by place (a tournament's rank points, a season's cup points): a list of 1 to
    ``places`` numbers from 0 to ``most``, kept exactly as decimal text; refused as
    ``<field>_list`` or at the item's own field."""
    if not isinstance(value, list) or not 1 <= len(value) <= places:
        raise InputError(field, f"must be a list of 1 to {places} numbers",
                         f"{field}_list", most=places)
    out = []
    for index, item in enumerate(value):
        number = exact_number(item)
        if number is None or not 0 <= number <= most:
            raise InputError(f"{field}.{index}", f"must be a number from 0 to {most}",
                             "not_number_between", min=0, max=most)
        out.append(_text(number))
    return out


def _text(number: Decimal) -> str:
    """A Decimal as plain text without needless zeros ("60", "12.5")."""
    text = f"{number:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def rank_points_exact(stored: list[str]) -> tuple[Fraction, ...]:
    return tuple(Fraction(Decimal(p)) for p in stored)


def rank_points_out(stored: list[str]) -> list[int | float]:
    """The API's numbers: whole ones as integers."""
    out: list[int | float] = []
    for text in stored:
        number = Decimal(text)
        out.append(int(number) if number == number.to_integral_value() else float(number))
    return out


def clean_tiebreaks(value: object) -> list[str]:
    """An ordered list of distinct tie-breaks."""
    known = ", ".join(TIEBREAKS)
    if not isinstance(value, list) or len(value) > len(TIEBREAKS):
        raise InputError("tiebreaks", f"must be a list of {known}, each at most once",
                         "tiebreaks_list", choices=known)
    for index, item in enumerate(value):
        if item not in TIEBREAKS:
            raise InputError(f"tiebreaks.{index}", f"must be one of {known}", "not_choice",
                             choices=known)
    if len(set(value)) != len(value):
        raise InputError("tiebreaks", f"must be a list of {known}, each at most once",
                         "tiebreaks_list", choices=known)
    return [str(item) for item in value]


def clean_final_tables(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) \
            or not 0 <= value <= FINAL_TABLES_MOST:
        raise InputError("final_tables", f"must be a whole number from 0 to "
                         f"{FINAL_TABLES_MOST}", "not_between", min=0, max=FINAL_TABLES_MOST)
    return value


def clean_flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(field, "must be true or false", "not_bool")
    return value


def clean_money(value: object, field: str) -> Decimal:
    """A sum as a decimal string ≥ 0 with at most two places ("5.00")."""
    if not isinstance(value, str) or not _MONEY.fullmatch(value.strip()):
        raise InputError(field, "must be a plain decimal like '5.00'", "not_money",
                         digits=MONEY_DIGITS)
    return Decimal(value.strip())


def clean_fee(value: object) -> Decimal | None:
    """The entry fee (None or "": none)."""
    if value is None or value == "":
        return None
    return clean_money(value, "entry_fee")


def clean_currency(value: object) -> str:
    """An ISO 4217 code ("" or None: none)."""
    if value is None or value == "":
        return ""
    code = value.strip().upper() if isinstance(value, str) else ""
    if code not in CURRENCY_EXPONENTS:
        raise InputError("currency", f"{value} is not a known ISO 4217 currency code",
                         "unknown_currency", currency=str(value))
    return code


def clean_prizes(value: object) -> list[dict[str, Any]]:
    """The prize list: objects ``{"place", and one of "percent", "amount", "item"}``,
    each place (1–1000) at most once, the percents adding up to at most 100. Kept in
    the order of their places."""
    if not isinstance(value, list) or len(value) > PRIZE_PLACE_MOST:
        raise InputError("prizes", "must be a list of prizes", "not_list")
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for index, item in enumerate(value):
        out.append(_prize(item, f"prizes.{index}"))
        if out[-1]["place"] in seen:
            raise InputError(f"prizes.{index}.place", f"place {out[-1]['place']} has a "
                             f"prize already", "prize_place_twice", place=out[-1]["place"])
        seen.add(out[-1]["place"])
    total = sum((Decimal(p["percent"]) for p in out if "percent" in p), Decimal(0))
    if total > 100:
        raise InputError("prizes", f"the percents add up to {_text(total)}, more than 100",
                         "percents_over_100", total=_text(total))
    return sorted(out, key=lambda p: p["place"])


def _prize(item: object, field: str) -> dict[str, Any]:
    if not isinstance(item, Mapping):
        raise InputError(field, "must be an object", "not_object")
    kinds = [k for k in ("percent", "amount", "item") if k in item]
    if len(kinds) != 1 or set(item) - {"place", *kinds}:
        raise InputError(field, 'must have a "place" and one of "percent", "amount" and '
                         '"item"', "prize_kind")
    place = item.get("place")
    if not isinstance(place, int) or isinstance(place, bool) \
            or not 1 <= place <= PRIZE_PLACE_MOST:
        raise InputError(f"{field}.place", f"must be a whole number from 1 to "
                         f"{PRIZE_PLACE_MOST}", "not_between", min=1, max=PRIZE_PLACE_MOST)
    kind = kinds[0]
    given = item[kind]
    if kind == "percent":
        number = exact_number(given)
        if number is None or not 0 < number <= 100:
            raise InputError(f"{field}.percent", "must be a number more than 0 and at most "
                             "100", "not_percent")
        return {"place": place, "percent": _text(number)}
    if kind == "amount":
        return {"place": place, "amount": f"{clean_money(given, f'{field}.amount'):f}"}
    return {"place": place, "item": rosters.clean_text(given, f"{field}.item", ITEM_MAX)}
