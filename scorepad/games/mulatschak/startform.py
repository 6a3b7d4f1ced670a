"""What Mulatschak adds to the form that starts a session: every house rule with its
meaning, each preset's default, and its input."""

from __future__ import annotations

import json
from typing import Any

from referee.rules import (
    ALL_PASS_MODES,
    INT_BOUNDS,
    MULATSCHAK_PACKS,
    MULI_FAIL_MODES,
    PARAMETER_NAMES,
    PRESETS,
    SALZBURG,
)

from .words import CHOICE_WORDS, RULE_HELP

#: House rules that are one of a few words: offered as a choice, not typed.
RULE_CHOICES = {"pack": MULATSCHAK_PACKS, "muli_fail_mode": MULI_FAIL_MODES,
                "all_pass": ALL_PASS_MODES}


def _rule_kind(name: str) -> str:
    """How the start form asks for a house rule: on/off, a choice, a number, or text
    (the JSON-ish values of the few structured rules)."""
    value = SALZBURG.as_params()[name]
    if isinstance(value, bool):
        return "bool"
    if name in RULE_CHOICES:
        return "choice"
    if isinstance(value, int) or value is None:
        return "int"
    return "text"


def _shown(name: str, value: object) -> object:
    """A preset's value as the form shows it: a choice by its words, never its code."""
    return CHOICE_WORDS.get(name, {}).get(value, value) if isinstance(value, str) else value


def rules_table(form: Any) -> list[dict[str, Any]]:
    """Every parameter with its meaning, each preset's default, and its input; a choice's
    values in words (their codes are the API's)."""
    defaults = {p.name: p.as_params() for p in PRESETS.values()}
    return [
        {
            "name": name,
            "help": RULE_HELP[name],
            "defaults": [(PRESETS[preset].title, _shown(name, params[name]))
                         for preset, params in defaults.items()],
            "field": form[f"rule_{name}"],
            "kind": _rule_kind(name),
            "choices": [(code, _shown(name, code)) for code in RULE_CHOICES.get(name, ())],
            # a number's stepper: its range, and where it starts from under each preset
            "bounds": INT_BOUNDS.get(name),
            "starts": json.dumps({preset: params[name] for preset, params in defaults.items()
                                  if isinstance(params[name], int)}),
        }
        for name in PARAMETER_NAMES
    ]
