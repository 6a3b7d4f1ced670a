"""Games registered for the length of a test, as a deployment registers them: the setting
``SCHREIBER_GAMES``, and INSTALLED_APPS as scorepad/settings.py makes it from that setting
(the apps before the games, then each game). Django's ``override_settings`` installs the
apps for as long as it lasts (``apps.set_installed_apps``) and, when it ends, forgets what
it found in them: their templates, static files and translations."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.test import override_settings


def games_setting(modules: Sequence[str]) -> override_settings:
    """``SCHREIBER_GAMES = modules``, each of them installed as an app."""
    others = [app for app in settings.INSTALLED_APPS if app not in settings.SCHREIBER_GAMES]
    return override_settings(SCHREIBER_GAMES=list(modules),
                             INSTALLED_APPS=[*others, *modules])


def with_games(*modules: str) -> override_settings:
    """The registered games and ``modules`` after them."""
    return games_setting([*settings.SCHREIBER_GAMES, *modules])
