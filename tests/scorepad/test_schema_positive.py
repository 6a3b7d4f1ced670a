"""The schema tells the truth about input too: a request that the OpenAPI schema allows is
never refused for its shape. Schemathesis generates schema-conforming (positive) requests
for every operation, sent with the token of an owner whose group holds a session of each
game, path parameters set to real ids; none may answer 400 or 5xx.

A 400 is allowed only for the few refusals that are not about shape but answered 400 by
the contract (``DOMAIN_400``: wrong credentials, unknown accounts, a name already taken)
and for the limits OpenAPI 3.0 cannot state (``KNOWN_GAPS``); each names the field it
speaks of, so a shape error of the same operation still fails.

100 examples per operation under the ``ci`` profile, 5 under ``dev`` (tests/strength.py:
one hypothesis run per operation, some 60 of them, and generating a case from the schema
costs more than sending it: 20 per operation took three minutes under load), or
``SCHEMA_EXAMPLES``; ``SCHEMA_ONLY`` (a regular expression) picks operations by their
label, e.g. ``SCHEMA_ONLY='POST /api/v1/sessions/$'``.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import uuid
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import FlakyStrategyDefinition
from schemathesis.core import NotSet

from scorepad.wsgi import application

from ..strength import env_examples
from .test_schema_truth import as_published

pytestmark = pytest.mark.django_db

#: Examples per operation at full strength (``ci``); ``dev`` runs a twentieth of them.
EXAMPLES = 100
GAMES = ("mulatschak", "mura", "muller_matz")

#: (method, path, field of the 400's ``errors``) → why it is a domain refusal, not shape.
DOMAIN_400 = {
    ("POST", "/api/v1/auth/token", ""): "wrong username or password",
    ("POST", "/api/v1/auth/password", "old_password"): "not your password",
    ("POST", "/api/v1/auth/password", "new_password"): "too common, or like the username",
    ("POST", "/api/v1/auth/register", "password"): "too common, or like the username",
    ("POST", "/api/v1/auth/register", "username"): "taken",
    ("POST", "/api/v1/groups/{group_id}/members/", "username"): "no such account",
    ("DELETE", "/api/v1/groups/{group_id}/members/", "username"): "no such member",
    ("POST", "/api/v1/groups/{group_id}/players/", "name"): "already on the roster",
    ("POST", "/api/v1/tournaments/{tournament_id}/players/", "name"): "already registered",
    ("DELETE", "/api/v1/tournaments/{tournament_id}/players/", "name"): "not registered",
    ("PATCH", "/api/v1/groups/{group_id}/players/{player_id}/", "name"):
        "already on the roster",
    ("PATCH", "/api/v1/groups/{group_id}/players/{player_id}/", "user"):
        "no such account, or linked already",
    ("PATCH", "/api/v1/players/{player_id}/", "name"): "already on the roster",
    ("PATCH", "/api/v1/players/{player_id}/", "user"): "no such account, or linked already",
    ("PATCH", "/api/v1/tournaments/{tournament_id}/players/", "name"): "not registered",
    ("POST", "/api/v1/sessions/{session_id}/confirm", "player"): "not seated at the table",
}


#: (method, path, field of the 400, as a glob) → a limit the schema cannot state (OpenAPI
#: 3.0 has no way to bound an object's keys or to compare two fields), so that 400 is not
#: held against it here. Each is a gap, not an allowance: nothing else of the operation is
#: excused; and each is told to the API's readers (checked below):
#: docs/api.md, "What the schema cannot say".
KNOWN_GAPS = {
    ("POST", "/api/v1/groups/{group_id}/import", "*"):
        "an export file's contents are the importer's to check, not described in the schema",
    ("POST", "/api/v1/sessions/import", "*"):
        "an export file's contents are the importer's to check, not described in the schema",
    ("POST", "/api/v1/referee/mura/settle", "penalties"): "keyed by names (an object's keys)",
    ("POST", "/api/v1/referee/mulatschak/deal", "scores_before"):
        "keyed by names (an object's keys)",
    ("POST", "/api/v1/referee/mulatschak/auction", "scores_before"):
        "keyed by names (an object's keys)",
    **{(method, path, f"{prefix}{field}"): "keyed by names (an object's keys)"
       for method, path, prefix in (
           ("POST", "/api/v1/sessions/{session_id}/deals/", ""),
           ("PUT", "/api/v1/sessions/{session_id}/deals/{number}/", ""),
           ("POST", "/api/v1/referee/mulatschak/deal", "deal."),
           ("POST", "/api/v1/referee/mura/deal", ""))
       for field in ("tricks", "figures", "exchanged", "exchanges*")},
    **{(method, path, "trick_cards.*.cards"): "a trick's cards, keyed by names (its keys)"
       for method, path in (("POST", "/api/v1/sessions/{session_id}/deals/"),
                            ("PUT", "/api/v1/sessions/{session_id}/deals/{number}/"),
                            ("POST", "/api/v1/referee/mura/deal"))},
    ("POST", "/api/v1/sessions/", "dealer"): "one of the seats (a value and a list compared)",
    ("POST", "/api/v1/tournaments/", "table_size"):
        "within the frozen rules' players_min and players_max (two fields compared)",
    ("POST", "/api/v1/tournaments/", "rules.overrides.players_*"):
        "players_min at most players_max, and cards enough for players_max (two fields)",
    ("PATCH", "/api/v1/tournaments/{tournament_id}/", "screen_hides_rounds"):
        "at most the tournament's rounds (a stored value compared)",
    **{(method, path, field): why for method, path in (
        ("POST", "/api/v1/tournaments/"), ("PATCH", "/api/v1/tournaments/{tournament_id}/"))
       for field, why in (
           ("prizes", "the percents add up to at most 100 (a sum over a list)"),
           ("prizes.*.place", "each place at most once (a value compared across a list)"))},
    ("PATCH", "/api/v1/tournaments/{tournament_id}/", "rank_points"):
        "combined scoring needs rank_points (a stored value compared)",
    **dict.fromkeys((
        ("PATCH", "/api/v1/players/{player_id}/", "category"),
        # found by this test in CI: "Ĳ" is two letters after normalization ("IJ")
        ("PATCH", "/api/v1/groups/{group_id}/players/{player_id}/", "category"),
        ("POST", "/api/v1/tournaments/{tournament_id}/players/", "category"),
        ("PATCH", "/api/v1/tournaments/{tournament_id}/players/", "category"),
        ("GET", "/api/v1/tournaments/{tournament_id}/ranking", "category"),
        ("POST", "/api/v1/tournaments/", "prizes.*.item"),
        ("PATCH", "/api/v1/tournaments/{tournament_id}/", "prizes.*.item")),
        "at most so many characters after Unicode normalization (NFKC: a compatibility "
        "form such as U+FDFA stands for many letters)"),
    # a group's and a tournament's name: a name's rules (rosters.clean_name)
    **dict.fromkeys((
        ("POST", "/api/v1/groups/", "name"),
        ("POST", "/api/v1/tournaments/", "name"),
        ("PATCH", "/api/v1/tournaments/{tournament_id}/", "name")),
        "at most 40 characters after Unicode normalization (NFKC), as every name"),
    # seasons: docs/tournaments.md, "Seasons: what the schema cannot say"
    **{(method, path, field): why for method, path in (
        ("POST", "/api/v1/groups/{group_id}/seasons/"),
        ("PATCH", "/api/v1/seasons/{season_id}/"))
       for field, why in (
           ("end", "not before start (two fields compared, or one with the kept one)"),
           ("name", "at most 80 characters after Unicode normalization (NFKC)"))},
    ("GET", "/api/v1/seasons/{season_id}/standings", "category"):
        "at most 20 characters after Unicode normalization (NFKC)",
    ("POST", "/api/v1/sessions/", "seats"):
        "no name twice, capitals and compatibility forms aside (Unicode caseless matching)",
    ("POST", "/api/v1/referee/muller-matz/pile", "hands*"):
        "keyed by the players' names (an object's keys)",
    ("POST", "/api/v1/referee/mulatschak/deal", "knocks_before"):
        "at most collapses_before (two fields compared)",
    **{(method, path, f"{prefix}rules.overrides.players_*"):
       "players_min at most players_max, and cards enough for players_max (two fields)"
       for method, path, prefix in (
           ("POST", "/api/v1/sessions/", ""),
           ("POST", "/api/v1/referee/mulatschak/deal", ""),
           ("POST", "/api/v1/referee/mulatschak/auction", ""),
           ("POST", "/api/v1/referee/mulatschak/trick", ""),
           ("POST", "/api/v1/referee/muller-matz/hand", ""),
           ("POST", "/api/v1/referee/muller-matz/pile", ""))},
}


@pytest.fixture(scope="session")
def _published() -> dict[str, Any]:
    """The schema as the API serves it, generated once per run."""
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True),
                                 default=str))


@pytest.fixture
def operations(_published: dict[str, Any]) -> list[Any]:
    """Every operation of the schema, schemathesis' way: built here, not at import (and
    not with schemathesis.pytest.from_fixture, whose lazy tests do not run under pytest 9:
    it sets a test node's ``_nodeid``)."""
    schema = schemathesis.openapi.from_dict(_published)
    schema.app = application
    only = re.compile(os.environ.get("SCHEMA_ONLY", ""))
    return [result.ok() for result in schema.get_all_operations()
            if "/schema/" not in result.ok().path and only.search(result.ok().label)]


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    """An owner with a group, a session of each game with a deal, a watch link."""
    from scorepad import services, sharing

    from .factories import SEATS, group_with, user

    owner = user("positiva")
    group = group_with(owner)
    deals = {"mulatschak": {"kind": "collapsed"},
             "mura": {"tricks": dict.fromkeys(SEATS, 2), "figures": dict.fromkeys(SEATS, 4)},
             "muller_matz": {"loser": "Bert"}}
    sessions = {}
    for game in GAMES:
        preset = "salzburg" if game == "mulatschak" else game
        session = services.session_start(group=group, user=owner, preset=preset, overrides=None,
                                          seats=SEATS, dealer="Dominik", game=game)
        names = services.Names.of(session)
        services.deal_record(session=session, user=owner, data=names.deal_ids(deals[game]))
        sessions[game] = session
    from .tournament_play import drawn, tournament

    contest = tournament(group, owner, players=5)
    drawn(contest, owner)
    from .season_play import season

    return {"owner": owner, "group": group, "sessions": sessions,
            "season": season(group, owner),
            "player": group.players.order_by("pk").first(),
            "watch": sharing.watch_link_create(session=sessions["mulatschak"]),
            "tournament": contest}


@pytest.fixture(autouse=True)
def _no_connection_closing_between_requests() -> Any:
    """As in test_fuzz.py: the test client's way, or a WSGI caller sees false 500s."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _game_of(case: Any, published: dict[str, Any]) -> str:
    """The game whose shape a deal body takes (a client writes its session's game)."""
    content = case.operation.definition.raw.get("requestBody", {}).get("content", {})
    body_schema = content.get("application/json", {}).get("schema", {})
    components = published["components"]["schemas"]
    if "$ref" in body_schema:
        body_schema = components[body_schema["$ref"].rsplit("/", 1)[-1]]
    options = body_schema.get("oneOf")
    if not options or not isinstance(case.body, dict):
        return "mulatschak"
    for option in options:
        shape = option.get("$ref", "").rsplit("/", 1)[-1].lower()
        game = next((g for g in GAMES if shape.startswith(g.replace("_", ""))), None)
        checker = jsonschema.Draft202012Validator(as_published(option, components))
        if game and checker.is_valid(case.body):
            return game
    return "mulatschak"


def _real_ids(case: Any, world: dict[str, Any], published: dict[str, Any]) -> None:
    params = case.path_parameters or {}
    session = world["sessions"][_game_of(case, published)]
    real = {"group_id": world["group"].pk, "player_id": world["player"].pk,
            "session_id": session.pk, "number": 1, "token": world["watch"],
            "tournament_id": world["tournament"].pk, "season_id": world["season"].pk}
    case.path_parameters = {name: real.get(name, value) for name, value in params.items()}


def _shown(body: Any) -> str:
    return "(no body)" if isinstance(body, NotSet) else json.dumps(body)[:400]


#: The refusal of an invisible character beyond the Basic Multilingual Plane (a tag
#: character such as U+E0064): a schema's pattern cannot name one (scorepad/fields.py), so
#: the server alone refuses it, wherever text is taken. Found by this test in make test,
#: in a session's note. Told: docs/api.md, "What the schema cannot say".
BEYOND_THE_PATTERNS = re.compile(r"invisible or control characters \(U\+[0-9A-F]{5,6}\)")


def _beyond_the_patterns(messages: Any) -> bool:
    found = messages if isinstance(messages, list) else [messages]
    return bool(found) and all(isinstance(m, str) and BEYOND_THE_PATTERNS.search(m)
                               for m in found)


def _excused(method: str, path: str, field: str) -> bool:
    """Whether a 400 for ``field`` of the operation is a domain refusal or a known gap."""
    return any((m, p) == (method.upper(), path) and fnmatch.fnmatchcase(field, glob)
               for m, p, glob in [*DOMAIN_400, *KNOWN_GAPS])


def _shape_errors(case: Any, body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        return {"": body}
    errors = body.get("errors") or {p["path"]: p["message"] for p in body.get("problems", [])}
    errors = errors or {"": body.get("detail")}
    return {field: messages for field, messages in errors.items()
            if not _excused(case.method, case.operation.path, field)
            and not _beyond_the_patterns(messages)}


def _check(case: Any, world: dict[str, Any], published: dict[str, Any]) -> None:
    from scorepad import accounts

    _real_ids(case, world, published)
    token = accounts.token_of(user=world["owner"])  # again: a case may revoke it
    if case.headers and "Idempotency-Key" in case.headers:
        # a client sends a new key with each new request (a key used again for another
        # body is refused, whatever its shape)
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    response = case.call(headers={"Authorization": f"Token {token}"})
    assert response.status_code < 500, f"{_shown(case.body)}: {response.text[:500]}"
    if response.status_code == 400:
        refused = _shape_errors(case, response.json())
        assert not refused, (f"{case.method} {case.formatted_path} refused {refused} "
                             f"for {_shown(case.body)}")


def _run(operation: Any, world: dict[str, Any], published: dict[str, Any]) -> None:
    """One hypothesis run of ``operation``'s positive cases."""

    @given(case=operation.as_strategy(schemathesis.GenerationMode.POSITIVE))
    @settings(max_examples=env_examples("SCHEMA_EXAMPLES", EXAMPLES, share=20),
              deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
              report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        _check(case, world, published)

    run()


#: The operations are shared out among this many tests (every ``SHARDS``-th one each):
#: at full strength all of them in one test took over five minutes on a slow day, past
#: the suite's timeout per test, and one test cannot be spread over the workers.
SHARDS = 6


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_request_the_schema_allows_is_refused_for_its_shape(operations, world, _published,
                                                                shard):
    """One hypothesis run per operation; every operation's failure is reported.

    Hypothesis' "Inconsistent data generation" (``FlakyStrategyDefinition``) is about the
    generator, not the API: drawing the same choices again gave other kinds of values (seen
    once in CI, at full strength, for an operation whose only body field is a name with a
    pattern; 4,000 further cases of it did not repeat it). Such a run is made once more,
    from the start with new cases, and fails only if that happens again; its words are
    reported whole."""
    mine = operations[shard::SHARDS]
    assert mine or os.environ.get("SCHEMA_ONLY"), "fewer operations than shards"
    failures = []
    for operation in mine:
        for attempt in (1, 2):
            try:
                _run(operation, world, _published)
            except FlakyStrategyDefinition as e:
                if attempt == 2:
                    failures.append(f"{operation.label}, twice: {str(e)[:1500]}")
                continue
            except Exception as e:  # noqa: BLE001  (every operation's failure, then fail)
                found = e.exceptions if isinstance(e, ExceptionGroup) else [e]
                failures += [f"{operation.label}: {next(iter(str(x).splitlines()), repr(x))[:700]}"
                             for x in found]
            break
    assert not failures, "\n".join(failures)


def test_every_rule_the_schema_cannot_state_is_told_to_the_apis_readers():
    """Each field of DOMAIN_400 and KNOWN_GAPS is named in docs/api.md's "What the schema
    cannot say" (an imported file's contents by the importer's section), or for seasons
    in docs/tournaments.md's "Seasons: what the schema cannot say"."""
    from tests.conftest import ROOT

    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    told = api[api.index("### What the schema cannot say"):]
    told = told[:told.index("\n### ", 1)]
    tournaments = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    seasons = tournaments[tournaments.index("### Seasons: what the schema cannot say"):]
    told = re.sub(r"\s+", " ", told + seasons[:(seasons + "\n#").index("\n#", 1)])
    missing = []
    for method, path, field in [*DOMAIN_400, *KNOWN_GAPS]:
        name = field.rsplit(".", 1)[-1].rstrip("*")
        word = {"": '`""`', "*": "import"}.get(field, f"`{name}")
        short = re.sub(r"\{\w+_id\}", "{id}", path.removeprefix("/api/v1"))
        if word not in told or (method == "DELETE" and f"DELETE {short}" not in told):
            missing.append((method, path, field))
    assert missing == [], missing


#: The fields whose length the server counts after Unicode normalization (NFKC, as it
#: stores them: scorepad/rosters.py clean_text), which no schema can say.
NORMALIZED = {"name", "category", "item"}
#: A session's name is kept as typed (services.clean_session_name): no letter grows.
AS_TYPED = {("POST", "/api/v1/sessions/", "name"),
            ("PATCH", "/api/v1/sessions/{session_id}/", "name")}


def _fields(schema: Any, components: dict[str, Any], prefix: str = "",
            seen: frozenset[str] = frozenset()) -> Iterator[str]:
    """The dotted names of a request schema's fields with a maxLength (lists as ``*``)."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref", "").rsplit("/", 1)[-1]
    if ref:
        if ref not in seen:
            yield from _fields(components[ref], components, prefix, seen | {ref})
        return
    if "maxLength" in schema and prefix:
        yield prefix
    for key in ("oneOf", "anyOf", "allOf"):
        for option in schema.get(key, []):
            yield from _fields(option, components, prefix, seen)
    for name, sub in (schema.get("properties") or {}).items():
        yield from _fields(sub, components, f"{prefix}.{name}".lstrip("."), seen)
    if "items" in schema:
        yield from _fields(schema["items"], components, f"{prefix}.*".lstrip("."), seen)


def test_every_field_counted_after_normalization_is_excused_where_the_schema_takes_it(
        _published):
    """A text at its maxLength as sent may be longer as stored ("Ĳ" is "IJ"): each
    operation that takes a name, a category or a prize's item has that refusal excused
    (KNOWN_GAPS, or DOMAIN_400 for the same field), so that an operation added later
    cannot fail this test at CI strength only, by the chance of one generated letter."""
    components = _published["components"]["schemas"]
    missing = []
    for path, operations_of in _published["paths"].items():
        for method, operation in operations_of.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            body = (operation.get("requestBody", {}).get("content", {})
                    .get("application/json", {}).get("schema", {}))
            fields = set(_fields(body, components))
            fields |= {p["name"] for p in operation.get("parameters", [])
                       if "maxLength" in p.get("schema", {})}
            for field in sorted(fields):
                if (method.upper(), path, field) in AS_TYPED:
                    continue
                if (field.rsplit(".", 1)[-1] in NORMALIZED
                        and not _excused(method, path, field)):
                    missing.append((method.upper(), path, field))
    assert missing == [], missing
