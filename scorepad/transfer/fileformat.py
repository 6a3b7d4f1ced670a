"""The file itself: its format and limits, the problems an import reports (each with its
place in the file), the readers that check the file's envelope and fields, and where an
import's sessions go (``_Context``)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from .. import services
from ..messages import input_error_message
from ..models import Group, Session

FORMAT = "schreiber"
VERSION = 1
KINDS = ("session", "group", "backup")

#: A file larger than this is refused before it is read (the API and the upload form).
MAX_BYTES: int = getattr(settings, "SCHREIBER_IMPORT_MAX_BYTES", 5 * 1024 * 1024)
MAX_SESSIONS = 10_000
MAX_DEALS = 5_000
MAX_EVENTS = 20_000
MAX_ROSTER = 1_000
MAX_MEMBERS = 1_000
MAX_USERS = 100_000


# --- problems ------------------------------------------------------------------------------

INVALID, RULES, CONFLICT = "invalid", "rules", "conflict"


@dataclass(frozen=True)
class Problem:
    path: str
    code: str
    message: str
    category: str = INVALID

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class ImportRejected(services.ServiceError):
    """The file was refused; nothing was changed. ``category``: ``invalid`` for a
    malformed file, ``rules`` when only the referee objected, ``conflict`` when it was
    imported already (or the group is not empty)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems[:5]))
        self.problems = tuple(problems)

    @property
    def category(self) -> str:
        categories = {p.category for p in self.problems}
        if INVALID in categories:
            return INVALID
        return RULES if RULES in categories else CONFLICT


@dataclass
class _Problems:
    items: list[Problem] = field(default_factory=list)

    def add(self, path: str, code: str, message: str, category: str = INVALID) -> None:
        self.items.append(Problem(path, code, message, category))

    def input_error(self, path: str, error: services.InputError) -> None:
        for problem in error.problems:
            where = "/".join([path, *problem.field.split(".")]) if problem.field else path
            self.add(where, problem.code, input_error_message(problem))

    def __bool__(self) -> bool:
        return bool(self.items)


@dataclass
class _Context:
    """Where the sessions go and how the history's users are found."""

    group: Group
    #: A session already in the group (same uid) comes in as a copy with a new uid
    #: instead of being refused (the API's bare "take it back").
    copy: bool = False
    #: The sessions made, in order.
    made: list[Session] = field(default_factory=list)
    #: Restoring a backup: history users are the restored accounts (found by username);
    #: an import instead keeps the username as text and marks every event imported.
    users: Mapping[str, Any] | None = None


def _join(path: str, *parts: object) -> str:
    return "/".join([path, *(str(p) for p in parts)]) if path else "/".join(map(str, parts))


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def _envelope(kind: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "kind": kind,
            "exported_at": _when(timezone.now())}


# --- import: reading the file -------------------------------------------------------------------


def read_file(raw: bytes, *, limit: int | None = None) -> Any:
    """The JSON in an uploaded file or request body; ImportRejected if longer than
    ``limit`` (default ``MAX_BYTES``; ``0``: no limit) or not JSON."""
    limit = MAX_BYTES if limit is None else limit
    if limit and len(raw) > limit:
        raise too_large()
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ImportRejected([Problem("", "not_json", _("The file is not JSON."))]) from None


def too_large() -> ImportRejected:
    """The refusal of a file over ``MAX_BYTES``."""
    megabytes = f"{round(MAX_BYTES / (1024 * 1024), 1):g}"
    return ImportRejected([Problem("", "too_large", _("The file is larger than %(mb)s MB.")
                                   % {"mb": megabytes})])


def _check_envelope(data: Any, kinds: Sequence[str], problems: _Problems) -> str | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        problems.add("format", "not_schreiber", _("This is not a Schreiber export file."))
        return None
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problems.add("version", "invalid", _("must be a whole number"))
        return None
    if version > VERSION:
        problems.add("version", "too_new",
                     _("This file was written by a newer Schreiber (format version "
                       "%(version)s); this one reads up to version %(known)s.")
                     % {"version": version, "known": VERSION})
        return None
    kind = data.get("kind")
    if kind not in kinds:
        problems.add("kind", "wrong_kind",
                     _("must be one of: %(kinds)s") % {"kinds": ", ".join(kinds)})
        return None
    before = len(problems.items)
    _scan_texts(data, "", problems)
    return None if len(problems.items) > before else str(kind)


def _text_fault(value: str) -> tuple[str, str] | None:
    """(code, message) if the text holds a NUL or a lone surrogate: refused exactly as the
    API's text fields refuse them (neither can be stored: PostgreSQL rejects NUL, and no
    database takes half a surrogate pair)."""
    for check in (ProhibitNullCharactersValidator(), ProhibitSurrogateCharactersValidator()):
        try:
            check(value)
        except (DjangoValidationError, DRFValidationError) as e:
            return str(check.code), " ".join(_messages(e))
    return None


def _messages(error: Exception) -> list[str]:
    if isinstance(error, DjangoValidationError):
        return [str(m) for m in error.messages]
    detail = getattr(error, "detail", [])
    return [str(m) for m in (detail if isinstance(detail, list) else [detail])]


def _scan_texts(value: Any, path: str, problems: _Problems) -> None:
    """Every text of the file, keys too, is one a database can store (with its path)."""
    if isinstance(value, str):
        fault = _text_fault(value)
        if fault is not None:
            problems.add(path, *fault)
    elif isinstance(value, dict):
        for key, item in value.items():
            where = _join(path, key) if isinstance(key, str) and not _text_fault(key) \
                else _join(path, "?")
            if isinstance(key, str):
                _scan_texts(key, where, problems)
            _scan_texts(item, where, problems)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _scan_texts(item, _join(path, i), problems)


def _must_dict(value: Any, path: str, problems: _Problems) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems.add(path, "not_object", _("must be an object"))
        return None
    return value


def _must_list(value: Any, path: str, problems: _Problems, most: int) -> list[Any] | None:
    if not isinstance(value, list):
        problems.add(path, "not_list", _("must be a list"))
        return None
    if len(value) > most:
        problems.add(path, "too_many", _("has more than %(max)s entries") % {"max": most})
        return None
    return value


def _text(value: Any, path: str, problems: _Problems, *, null: bool = False,
          most: int = 200) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or len(value) > most:
        problems.add(path, "not_text",
                     _("must be a text of at most %(max)s characters") % {"max": most})
        return None
    fault = _text_fault(value)
    if fault is not None:
        problems.add(path, *fault)
        return None
    return value


def _int(value: Any, path: str, problems: _Problems, least: int = 1) -> int | None:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= 10**9:
        problems.add(path, "not_number",
                     _("must be a whole number of at least %(min)s") % {"min": least})
        return None
    return value


def _time(value: Any, path: str, problems: _Problems, *, null: bool = False
          ) -> datetime | None:
    if value is None and null:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well-formed but impossible, such as the 31st of February
        parsed = None
    if parsed is None or not 1900 <= parsed.year <= 9000:
        problems.add(path, "not_datetime", _("must be a date and time (ISO 8601)"))
        return None
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)


def _uid(value: Any, path: str, problems: _Problems) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        problems.add(path, "not_uuid", _("must be a UUID"))
        return uuid.uuid4()


def sniff_kind(data: Any) -> str | None:
    """``session`` or ``group`` for a file the upload form takes, else None."""
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if kind in ("session", "group") else None


