"""The installable app: its manifest, its service worker and the page shown offline.

The service worker is served from the site's root (``/sw.js``) so that its scope covers
every page; it caches the app shell and static files, keeps a copy of the pages visited
for offline use, and sends the deals recorded offline (static/outbox.js). Its list of
files names the static URLs of this deployment (hashed by collectstatic in production).

What the phone keeps belongs to one account: every page names it (``data-account`` on
<body>, ``phone_owner``), the outbox keeps each deal with its owner and sends only the
logged-in account's, and the service worker keeps page copies per account and drops the
others' as soon as a page comes for another account or for nobody.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django_htmx.jinja import htmx_script

from .accounts import phone_owner

#: Our own static files the app needs offline (htmx is added from its script tag).
SHELL = ("schreiber.css", "schreiber.js", "outbox.js", "entry.js", "saving.js", "kept.js",
         "cardpicker.js", "referee.js",
         "favicon.svg", "icons/icon-192.png", "icons/icon-512.png",
         "scorer.js", "provisional.js", "offline.js")
#: Each game's scripts of the phone's scorer (its app's static files, games/<game>/...);
#: with them its violation words in every language (scorerdata.words_file): a phone offline
#: since its first visit refuses an illegal deal in the server's words, in any language.
GAME_SHELL = ("rules-data.js", "scorer.js", "phone.js")


def shell_urls() -> list[str]:
    from .games.scorerdata import languages, static_name, with_scorer, words_file

    urls = [static(name) for name in SHELL]
    names = GAME_SHELL + tuple(words_file(code) for code in languages())
    urls += [static(static_name(game, name)) for game in with_scorer() for name in names]
    urls += re.findall(r'src="([^"]+)"', str(htmx_script()))
    return urls


def owner_context(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``phone_owner``, the account the page is rendered for, as the
    phone's storage names it (empty for nobody); lazy, so that a fragment that does not
    show it (a polled scoreboard) does not load the user."""
    return {"phone_owner": lazy(lambda: phone_owner(user=getattr(request, "user", None)),
                                str)()}


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = shell_urls()
    offline = reverse("offline")
    version = hashlib.sha256(json.dumps([shell, offline]).encode()).hexdigest()[:12]
    response = render(request, "sw.js", {
        "shell": json.dumps(shell), "offline": json.dumps(offline), "version": version,
        "home": json.dumps(reverse("scorepad:home")),
        "outbox": json.dumps(static("outbox.js")),
    }, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    return JsonResponse({
        "name": "Schreiber",
        "short_name": "Schreiber",
        "description": _("The scorekeeper for your card table"),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("scorepad:home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#ffffff",
        "theme_color": "#0b5cad",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }, content_type="application/manifest+json")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it has no copy of while offline, and for
    the start page offline (it lists the sessions held: static/offline.js). Kept when the
    worker installs, and again when the language changes, so it names no account
    (``phone_owner``): it is shown to whoever is logged in then."""
    return render(request, "scorepad/offline.html", {
        "phone_owner": None, "datetime_format": get_format("SHORT_DATETIME_FORMAT")})
