"""Strict serializer fields: JSON types are checked, never coerced (the API's inputs and
the games' deal shapes, which the services check with them).

DRF's stock fields turn ``"3"`` into 3 and ``5`` into ``"5"``; the contract says wrong
types answer 400, so these refuse them.
"""

from __future__ import annotations

import copy
import threading
import unicodedata
from datetime import UTC
from typing import Any, ClassVar

from django.core.validators import RegexValidator
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict

from referee.auction import normalize_call
from referee.cards import ALL_RANKS, ALL_SUITS, FRENCH52, CardSyntaxError, split_code
from referee.money import CURRENCY_EXPONENTS, MAX_STAKE_DIGITS
from referee.violations import RuleError
from scorepad.messages import input_error_message

MAX_NAME = 40
MAX_PLAYERS = 12
#: Line and paragraph separators (U+2028, U+2029): Python counts them as blanks, but
#: they break the line wherever the name is shown (and end a line in CSV and logs).
BREAKS = frozenset({"Zl", "Zp"})
#: Unicode categories a name must not contain: controls, invisible formatting (zero-width
#: spaces, bidi overrides, soft hyphens), lone surrogates and line breaks other than the
#: plain ones. Blanks (tabs, newlines too) are folded to one space.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"}) | BREAKS


def _hidden(char: str) -> bool:
    category = unicodedata.category(char)
    return category in HIDDEN_CATEGORIES and (category in BREAKS or not char.isspace())


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` a name must not contain, as ``U+XXXX``, or None."""
    for char in text:
        if _hidden(char):
            return f"U+{ord(char):04X}"
    return None


def _ranges(chars: list[int]) -> str:
    """Code points as the ranges of a regular expression class (``\\uXXXX`` escapes)."""
    spans: list[list[int]] = []
    for c in chars:
        if spans and spans[-1][1] == c - 1:
            spans[-1][1] = c
        else:
            spans.append([c, c])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in spans)


#: What a name must not hold (blanks are folded, so not those), and the blanks (Python's,
#: which the server trims; a pattern's ``\\s`` is not quite the same). Both of the Basic
#: Multilingual Plane only: a schema's patterns have no way to name the others (the few
#: invisible ones beyond it are refused by the server alone).
_BMP = range(0xD800)  # below the surrogates; none of the rest is hidden but U+FEFF, U+FFF9-B
_HIDDEN = _ranges([c for c in [*_BMP, *range(0xE000, 0x10000)] if _hidden(chr(c))])
_BLANK = _ranges([c for c in range(0x10000) if chr(c).isspace() and not _hidden(chr(c))])
#: What the schema says of a name: no hidden character, something besides blanks, and
#: no blank at either end (the server would trim it, and two names that differ only
#: there would be one name).
NAME_PATTERN = f"^[^{_BLANK}{_HIDDEN}](?:[^{_HIDDEN}]*[^{_BLANK}{_HIDDEN}])?$"
NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN}

_bound = threading.local()
#: Counts ``forget_fields``: a thread's bound fields of an older count are bound again.
_generation = [0]


def forget_fields() -> None:
    """Every shape binds its fields again (what some make them from has changed)."""
    _generation[0] += 1


class Shape(serializers.Serializer):  # type: ignore[type-arg]
    """The base of every serializer here: its declared fields are copied and bound once
    per class and thread, not once per instance.

    DRF deep-copies a serializer's declared fields for every instance, nested serializers
    and their fields included: ~100 field constructions for a deal POST's answer, a fifth
    of its time (bench/README.md). Here a new instance takes the fields its class bound
    the first time and only becomes their parent (what ``bind`` set besides the parent,
    the name, label and source, is the same for every instance); a nested serializer
    keeps its own fields the same way. Safe because our serializers never change their
    fields per instance and no field keeps state of its own between calls; one copy per
    thread, so concurrent requests never share a field.

    A shape whose ``get_fields`` makes its fields from something that can change (the
    games' registry) has them bound again after ``forget_fields``.

    ``schema_extra``: what the OpenAPI schema says of an input besides its fields' own
    limits (which fields go together), so that no request it allows is refused for its
    shape (``schema_extras``, for a shape whose words are made when asked)."""

    schema_extra: ClassVar[dict[str, Any]] = {}

    def schema_extras(self) -> dict[str, Any]:
        return self.schema_extra

    @cached_property
    def fields(self) -> BindingDict:
        kept = _bound.__dict__
        if kept.get("generation") != _generation[0]:
            kept["fields"], kept["generation"] = {}, _generation[0]
        cache: dict[type, dict[str, Any]] = kept["fields"]
        fields = BindingDict(self)
        known = cache.get(type(self))
        if known is None:
            for key, value in self.get_fields().items():
                fields[key] = value  # binds
            cache[type(self)] = dict(fields.fields)
            return fields
        fields.fields = dict(known)
        for field in known.values():
            field.parent = self
        return fields


class ShapeSchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """A Shape's input schema: its fields, and its ``schema_extra``."""

    target_class = Shape
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        mro = type(self.target).__mro__
        if not any(cls.__dict__.get("__doc__") for cls in mro[:mro.index(Shape)]):
            schema.pop("description", None)  # Shape's own words are not the shape's
        extra = self.target.schema_extras() if direction == "request" else None
        if extra:
            schema.update(copy.deepcopy(extra))
        return schema


#: What DRF's CharField refuses in any text, as a pattern the schema can state: NUL (it
#: refuses lone surrogates too, which a pattern cannot name so that generators follow it).
NO_NUL = RegexValidator(r"^[^\x00]*$")
#: The same for a text that may not be blank: DRF trims blanks first, so a text of blanks
#: alone is refused as blank; the pattern says so (something besides blanks, no NUL).
NOT_BLANK = RegexValidator(f"^[^\\x00]*[^{_BLANK}\\x00][^\\x00]*$")


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    """Text, never a number read as text, and no NUL (DRF refuses it in every CharField;
    the validator here says so in the schema)."""

    def __init__(self, **kwargs: Any) -> None:
        blank_refused = not kwargs.get("allow_blank", False)
        if blank_refused:
            kwargs.setdefault("min_length", 1)  # the schema says what "not blank" refuses
        super().__init__(**kwargs)
        self.validators.append(NOT_BLANK if blank_refused and self.trim_whitespace
                               else NO_NUL)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


@extend_schema_field(NAME_SCHEMA)
class NameField(StrictCharField):
    """A player's or a group's name as typed at the table (the services clean it:
    ``rosters.clean_name``)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_NAME)
        super().__init__(**kwargs)


#: Free text (a session's name or note): anything but hidden characters; blanks are
#: allowed anywhere (the services fold or trim them).
TEXT_PATTERN = f"^[^{_HIDDEN}]*$"
#: What a session's name and note hold at most (after their blanks are folded or trimmed).
MAX_SESSION_NAME = 80
MAX_SESSION_NOTE = 2000
#: A roster player's category (docs/tournaments.md, "Categories").
MAX_CATEGORY = 20
CATEGORY_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_CATEGORY,
                   "pattern": NAME_PATTERN, "nullable": True, "example": "Damen"}


class _ServiceChecked(serializers.Field):  # type: ignore[type-arg]
    """A value the services check and word themselves (coded errors, translated at the
    edge), passed on as it came; its schema says what they take."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field({"type": "string", "maxLength": MAX_SESSION_NAME, "pattern": TEXT_PATTERN})
class SessionNameField(_ServiceChecked):
    """A session's name (``services.clean_session_name``); "" or null: no name."""


@extend_schema_field({"type": "string", "maxLength": MAX_SESSION_NOTE, "pattern": TEXT_PATTERN})
class SessionNoteField(_ServiceChecked):
    """A session's note (``services.clean_session_note``); "" or null: no note."""


@extend_schema_field({"type": "string", "format": "date"})
class SessionDateField(_ServiceChecked):
    """A session's day as ``YYYY-MM-DD`` (``services.clean_session_date``)."""


@extend_schema_field(CATEGORY_SCHEMA)
class CategoryField(_ServiceChecked):
    """A roster player's category (``rosters.clean_category``); null: none."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


class AsStored(Shape):
    """An output of something stored as JSON: the keys it has, never one it lacks (DRF
    would answer a missing nullable field as null)."""

    def to_representation(self, instance: Any) -> Any:
        out = super().to_representation(instance)
        return {k: v for k, v in out.items() if k in instance}


def utc_datetime(**kwargs: Any) -> serializers.DateTimeField:
    """A time in the output as ISO 8601 in UTC (``...Z``), whatever the server's zone."""
    return serializers.DateTimeField(default_timezone=UTC, **kwargs)


class PerPlayerField(serializers.DictField):
    """A map keyed by players' names: at most ``MAX_PLAYERS`` keys, each a name by the
    rules of ``NameField``."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict) and len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(_("names too many players"))
        if isinstance(data, dict):
            for key in data:
                NameField().run_validation(key)
        return dict(super().to_internal_value(data))


class CountsField(PerPlayerField):
    """Per-player small counts (tricks, figures, cards exchanged), keyed by names."""

    def __init__(self, *, minimum: int, **kwargs: Any) -> None:
        super().__init__(child=StrictIntegerField(min_value=minimum, max_value=99), **kwargs)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 5},
            {"type": "string", "enum": ["pass", "hold", "muli"]},
        ]
    }
)
class CallField(serializers.Field):  # type: ignore[type-arg]
    """A call in the bidding: a number of tricks, "pass", "hold" or "muli"."""

    def to_internal_value(self, data: Any) -> int | str:
        if isinstance(data, int) and not isinstance(data, bool) and not -99 <= data <= 99:
            raise serializers.ValidationError(_("must be a number of tricks from 0 to 5"))
        try:
            return normalize_call(data)
        except RuleError as e:
            raise serializers.ValidationError(input_error_message(e)) from e

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field({"type": "array", "items": NAME_SCHEMA, "uniqueItems": True})
class UniqueNamesField(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_PLAYERS)
        super().__init__(child=NameField(), **kwargs)

    def to_internal_value(self, data: Any) -> list[str]:
        names = list(super().to_internal_value(data))
        if len(set(names)) != len(names):
            raise serializers.ValidationError(_("a name is listed twice"))
        return names


#: ``<suit>-<rank>`` of some pack, as the schema asks for it (split_code also takes
#: capitals and blanks around it).
CARD_PATTERN = f"^({'|'.join(sorted(ALL_SUITS))})-({'|'.join(sorted(ALL_RANKS))})$"


@extend_schema_field({"type": "string", "pattern": CARD_PATTERN, "maxLength": 20,
                      "example": "hearts-ober"})
class CardField(StrictCharField):
    """A card code ``<suit>-<rank>``; whether the pack has it is the referee's call."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            suit, rank = split_code(text)
        except CardSyntaxError as e:
            raise serializers.ValidationError(
                input_error_message(RuleError("card", str(e), "not_a_card", text=repr(text)))
            ) from e
        return f"{suit}-{rank}"


def money_schema(*, digits: int = MAX_STAKE_DIGITS, optional: bool = False) -> dict[str, Any]:
    """What ``stake`` and ``currency`` must be together: a stake more than zero, in the
    currency's minor unit at most (``referee.money.parse_stake``); with ``optional``,
    or no stake at all."""
    by_places: dict[int, list[str]] = {}
    for code, places in sorted(CURRENCY_EXPONENTS.items()):
        by_places.setdefault(min(places, 2), []).append(code)
    options: list[dict[str, Any]] = []
    for places, codes in sorted(by_places.items()):
        pattern = f"^0*[1-9][0-9]{{0,{digits - 1}}}"
        if places == 1:
            pattern += "(\\.[0-9])?$|^0+\\.[1-9]$"
        elif places == 2:
            pattern += "(\\.[0-9]{1,2})?$|^0+\\.(0[1-9]|[1-9][0-9]?)$"
        else:
            pattern += "$"
        options.append({
            "properties": {"currency": {"type": "string", "pattern": f"^({'|'.join(codes)})$"},
                           "stake": {"type": "string", "pattern": pattern}},
            "required": ["stake", "currency"]})
    if optional:
        options.append({"not": {"required": ["stake"]}})
    return {"oneOf": options}


#: A username as Django's validator takes it (letters, digits and @.+-_).
USERNAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 150,
                   "pattern": "^[\\w.@+-]+$"}
#: A new password's length, as the password validators count (MinimumLengthValidator).
PASSWORD_MIN = 8
#: Python's digits of the Basic Multilingual Plane (``str.isdigit``, as Django's
#: NumericPasswordValidator asks): a new password holds something besides them, and no
#: NUL. The few digits beyond the plane are refused by the server alone (a pattern has no
#: way to name them), as are a common password and one too like the username.
_DIGITS = _ranges([c for c in range(0x10000) if chr(c).isdigit()])
NOT_ALL_DIGITS = RegexValidator(f"^[^\\x00]*[^{_DIGITS}\\x00][^\\x00]*$",
                                message=_("This password is entirely numeric."))


class NewPasswordField(StrictCharField):
    """A password being set: as long as the validators want, not of digits alone (the
    schema's pattern; the password validators check the rest)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs |= {"min_length": PASSWORD_MIN, "max_length": 128, "trim_whitespace": False}
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators if v is not NO_NUL] + [NOT_ALL_DIGITS]


@extend_schema_field(USERNAME_SCHEMA)
class UsernameField(StrictCharField):
    """An account's username."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 150)
        super().__init__(**kwargs)


@extend_schema_field({"type": "string", "maxLength": 20, "example": "hearts-queen",
                      "pattern": f"^({'|'.join(FRENCH52.suits)})-({'|'.join(FRENCH52.ranks)})$"})
class FrenchCardField(CardField):
    """A card of the French pack: another pack's card is refused with 400 naming the field,
    so the schema names this pack's cards."""


def raise_rule_error(error: RuleError, prefix: str | None = None) -> None:
    """Turn a referee RuleError into a DRF error keyed by the field it names."""
    message = input_error_message(error)
    path = error.field if prefix is None else f"{prefix}.{error.field}"
    detail: Any = [message]
    for part in reversed(path.split(".")):
        detail = {part: detail}
    raise serializers.ValidationError(detail)


def rules_schema(presets: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """A rule set as a preset's name or ``{"preset", "overrides"}``: the schema of the
    field (``presets``: the schema of a preset's name, ``overrides``: of the overrides)."""
    return {
        "oneOf": [
            presets,
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"preset": presets, "overrides": {**overrides, "nullable": True}},
                "required": ["preset"],
            },
        ],
        "description": 'A preset name, or {"preset": ..., "overrides": {parameter: value}}.',
    }


class RuleSetField(serializers.Field):  # type: ignore[type-arg]
    """A rule set as a preset's name or ``{"preset": ..., "overrides": {...}}``: its shape
    (each game's field makes its rules of it, ``scorepad.games``)."""

    default_error_messages = {
        "invalid": _('must be a preset name or {"preset": ..., "overrides": {...}}'),
    }

    def shape(self, data: Any) -> tuple[str, dict[str, Any]]:
        """The preset name and the overrides, checked for shape only."""
        if isinstance(data, str):
            return data, {}
        if not isinstance(data, dict):
            # not self.fail(): the message has braces that str.format would eat
            raise serializers.ValidationError(self.error_messages["invalid"])
        unknown = set(data) - {"preset", "overrides"}
        if unknown:
            raise serializers.ValidationError(
                {name: [_("is not a field of a rule set")] for name in sorted(unknown)}
            )
        preset = data.get("preset")
        overrides = data.get("overrides")
        overrides = {} if overrides is None else overrides
        if not isinstance(preset, str):
            raise serializers.ValidationError({"preset": [_("is required and must be text")]})
        if not isinstance(overrides, dict):
            raise serializers.ValidationError({"overrides": [_("must be an object")]})
        return preset, overrides


@extend_schema_field(rules_schema({"type": "string"}, {"type": "object"}))
class RulesSpecField(RuleSetField):
    """A rule set that hands ``(preset, overrides)`` on unvalidated, for a
    service that validates the rules itself (and names the field); the schema of each
    game's rules is its ``RULES_SCHEMA``."""

    def to_internal_value(self, data: Any) -> Any:
        return self.shape(data)

    def to_representation(self, value: Any) -> Any:
        return value
