"""Moved to ``scorepad.fields`` (the strict fields serve the games' input serializers)."""

from scorepad.fields import *  # noqa: F403
from scorepad.fields import raise_rule_error  # noqa: F401
