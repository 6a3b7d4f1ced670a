"""What a use case refuses: domain errors with stable codes and parameters.

Services raise them, never HTTP status codes; the edges (the API, the pages, the
importer) decide what a refusal looks like, and ``scorepad.messages`` words them in the
user's language. Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.violations import RuleError, Violation


class ServiceError(Exception):
    """A use case refused: nothing was changed."""


@dataclass(frozen=True)
class FieldProblem:
    """One thing wrong with the input: where (a dotted path such as ``tricks.Anna`` or
    ``seats.2``; "" for the whole input), a code, and its parameters.

    ``message`` is English for coded problems (``messages.input_error_message`` words them);
    ``worded`` problems come from a validator that already speaks the user's language
    (DRF's field checks) and are shown as they are.
    """

    field: str
    code: str
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    worded: bool = False

    def under(self, prefix: str) -> FieldProblem:
        path = f"{prefix}.{self.field}" if prefix and self.field else (prefix or self.field)
        return FieldProblem(path, self.code, self.message, self.params, self.worded)


class InputError(ServiceError):
    """Malformed or impossible input, naming each field: one error however many fields
    are wrong. ``field``, ``message``, ``code`` and ``params`` are the first problem's."""

    def __init__(self, field: str, message: str, code: str = "invalid", **params: Any) -> None:
        self._set((FieldProblem(field, code, message, dict(params)),))

    def _set(self, problems: Sequence[FieldProblem]) -> None:
        assert problems, "an InputError names at least one problem"
        self.problems = tuple(problems)
        first = self.problems[0]
        self.field, self.message, self.code = first.field, first.message, first.code
        self.params = dict(first.params)
        Exception.__init__(self, "; ".join(f"{p.field}: {p.message}" for p in self.problems))

    @classmethod
    def of(cls, problems: Iterable[FieldProblem]) -> InputError:
        error = cls.__new__(cls)
        error._set(tuple(problems))
        return error

    @classmethod
    def from_rule_error(cls, error: RuleError, prefix: str = "") -> InputError:
        problem = FieldProblem(error.field, error.code, error.message, dict(error.params))
        return cls.of([problem.under(prefix)])

    @classmethod
    def from_details(cls, details: Any, prefix: str = "") -> InputError:
        """A validator's nested errors (``{"tricks": {"Anna": ["..."]}}``, DRF's shape:
        lists of messages that carry a ``code``) as one error with a problem per place."""
        return cls.of(p.under(prefix) for p in flatten(details))

    def under(self, prefix: str) -> InputError:
        """The same problems, their paths inside ``prefix`` (e.g. ``rules``)."""
        return InputError.of(p.under(prefix) for p in self.problems)


def flatten(details: Any, prefix: str = "") -> list[FieldProblem]:
    """``{"deal": {"tricks": {"Anna": ["..."]}}}`` → a problem at ``deal.tricks.Anna``;
    ``non_field_errors`` belong to the place that holds them; list items are numbered."""
    out: list[FieldProblem] = []
    if isinstance(details, Mapping):
        for key, value in details.items():
            name = "" if key == "non_field_errors" else str(key)
            path = f"{prefix}.{name}" if prefix and name else (prefix or name)
            out += flatten(value, path)
    elif isinstance(details, list | tuple):
        if all(not isinstance(item, Mapping | list | tuple) for item in details):
            out += [FieldProblem(prefix, str(getattr(item, "code", "invalid")), str(item),
                                 worded=True) for item in details]
        else:
            for i, item in enumerate(details):
                if item:
                    out += flatten(item, f"{prefix}.{i}" if prefix else str(i))
    else:
        out.append(FieldProblem(prefix, str(getattr(details, "code", "invalid")), str(details),
                                worded=True))
    return out


class RulesBroken(ServiceError):
    """The deal breaks a rule; ``number`` is the deal where it does."""

    def __init__(self, violations: Sequence[Violation], number: int | None = None) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = tuple(violations)
        self.number = number


class Conflict(ServiceError):
    """Somebody else changed the session first."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


class Busy(ServiceError):
    """Another write held what this one must lock for longer than a write waits
    (``SCHREIBER_LOCK_SECONDS``): nothing was changed, and trying again soon may succeed."""


class NotFound(ServiceError):
    """The use case's object is not there (a deal number nobody recorded)."""


class InviteGone(ServiceError):
    """The invitation is used up, expired or revoked, or was made before this user was
    removed from the group (or demoted): a new one is needed."""


class KeyReused(ServiceError):
    """The Idempotency-Key was already used for a different request."""
