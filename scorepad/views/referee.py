"""The Referee page on the phone: one tap from every session page, with the session's
rules (and its dealer, scores and players) preloaded, and a stand-alone version with a
rules picker for tables that only want the referee (no login, like the stateless API).
Also the rules document itself, docs/rules.md, served at ``/rules/``.

The questions live in each game's package (``scorepad.games.<game>.disputes``, gathered
by ``scorepad.disputes``); these views only find the table, hand the form to the question
and render its answer (the whole page, or for htmx just the form with its answer).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_safe

from .. import disputes, games, services
from ..access import READ, session_for
from ..disputes import FormError, Table, Tool
from ..loaded import Loaded
from ..rulesdoc import rules_doc
from .common import htmx_target


def _tool(name: str, game: str | None = None) -> Tool:
    tool = disputes.tools().get(name)
    if tool is None or (game is not None and tool.game != game):
        raise Http404
    return tool


def _data(request: HttpRequest) -> Any:
    return request.POST if request.method == "POST" else request.GET


def _answer(request: HttpRequest, tool: Tool, table: Table, errors: list[FormError],
            context: dict[str, Any]) -> HttpResponse:
    data = _data(request)
    answer = tool.answer(table, data)
    answer["errors"] = errors + answer["errors"]
    context |= answer | {"tool": tool, "title": tool.title(), "blurb": tool.blurb(),
                         "table": table, "action": request.path}
    template = "scorepad/referee_tool.html"
    if htmx_target(request) == "referee-form":
        template = "scorepad/referee_tool.html#tool"
    return render(request, template, context)


def _links(game: str, session: Any = None, query: str = "") -> list[dict[str, str]]:
    """The questions of ``game``: title and URL (the session's, or the stand-alone one)."""
    out = []
    for tool in disputes.tools_for(game):
        if session is not None:
            url = reverse(f"scorepad:session_referee_{tool.name}",
                          kwargs={"session_id": session.pk})
        else:
            url = reverse(f"scorepad:referee_{tool.name}")
        out.append({"name": tool.name, "title": tool.title(), "url": url + query})
    return out


def _games() -> list[dict[str, Any]]:
    return [{"name": game.NAME, "title": game.TITLE, "tools": _links(game.NAME)}
            for game in games.registered()]


# --- stand-alone: anyone, no login ---------------------------------------------------------


@require_safe
def referee_home(request: HttpRequest) -> HttpResponse:
    return render(request, "scorepad/referee.html", {"games": _games(), "session": None})


@require_http_methods(["GET", "HEAD", "POST"])
def referee_tool(request: HttpRequest, tool: str) -> HttpResponse:
    the_tool = _tool(tool)
    table, errors = disputes.game_module(the_tool.game).standalone_table(_data(request), tool)
    return _answer(request, the_tool, table, errors, {
        "session": None, "others": _links(the_tool.game),
        "back_url": reverse("scorepad:referee"),
    })


# --- a session's: members only -------------------------------------------------------------


@login_required
@require_safe
def session_referee(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    game = games.of(session)
    return render(request, "scorepad/referee.html", {
        "session": session,
        "games": [{"name": game.NAME, "title": game.TITLE,
                   "tools": _links(game.NAME, session, _trump_query(request))}],
    })


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_referee_tool(request: HttpRequest, session_id: int, tool: str) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    the_tool = _tool(tool, session.game)
    loaded = Loaded.of(session)
    table = disputes.game_module(session.game).session_table(loaded,
                                                             services.scoreboard(loaded))
    return _answer(request, the_tool, table, [], {
        "session": session, "others": _links(session.game, session, _trump_query(request)),
        "back_url": reverse("scorepad:session", kwargs={"session_id": session.pk}),
    })


def _trump_query(request: HttpRequest) -> str:
    """``?trump=…`` carried from tool to tool (the deal form's trump, where known)."""
    trump = request.GET.get("trump", "")
    return "?" + urlencode({"trump": trump}) if trump.isascii() and trump.isalpha() \
        and len(trump) < 10 else ""


@login_required
@require_safe
def beat_moved(request: HttpRequest, session_id: int) -> HttpResponse:
    """The old "Does this beat?" page: now the Referee page's question, same answers."""
    session = session_for(request.user, session_id, READ)
    url = reverse("scorepad:session_referee_beat", kwargs={"session_id": session.pk})
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)


# --- the rules document ------------------------------------------------------------------


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    doc = rules_doc()
    return render(request, "scorepad/rules_doc.html", {"doc": doc, "html": doc.html})
