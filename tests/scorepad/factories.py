"""Test data for the scorepad: named personas at a Salzburg table."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from referee.deal import deal_from_dict
from referee.rules import mulatschak_rules
from referee.session import replay
from scorepad import rosters, services
from scorepad.games.mulatschak.play import game_json, outcome_to_json, state_to_json
from scorepad.models import Deal, Group, Membership, Session

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
#: A plain deal's tricks: two for the first seat, one for everybody else.
EVEN = {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}


def user(username: str = "anna") -> Any:
    return get_user_model().objects.create_user(username=username, password="s3cret-pass!")


def phone_of(who: Any) -> Client:
    """A phone (test client) logged in as ``who``."""
    client = Client()
    client.force_login(who)
    return client


class Api:
    """The API as a client with a token sees it (JSON in and out)."""

    def __init__(self, token: str | None = None) -> None:
        self.client = Client()
        self.headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}

    def call(self, method: str, path: str, body: Any = None, **extra: Any) -> Any:
        kwargs = {**self.headers, **extra}
        if body is not None:
            kwargs["data"] = json.dumps(body)
            kwargs["content_type"] = "application/json"
        return getattr(self.client, method)(path, **kwargs)


def api_for(username: str) -> Api:
    """A new account registered through the API, with the token it asked for."""
    anonymous = Api()
    anonymous.call("post", "/api/v1/auth/register",
                   {"username": username, "password": "kartenspiel-2026"})
    answer = anonymous.call("post", "/api/v1/auth/token",
                            {"username": username, "password": "kartenspiel-2026"})
    return Api(answer.json()["token"])


def group_with(owner: Any, name: str = "Stammtisch Mondsee") -> Group:
    return rosters.group_create(user=owner, name=name)


def member(group: Group, who: Any, role: str) -> Membership:
    return rosters.member_set(group=group, user=who, role=role)


def session_at(group: Group, owner: Any, preset: str = "salzburg",
               overrides: dict[str, Any] | None = None, seats: list[str] | None = None,
               dealer: str | None = "Dominik") -> Session:
    return services.session_start(group=group, user=owner, preset=preset,
                                  overrides=overrides, seats=seats or SEATS, dealer=dealer)


def played(declarer: str, tricks: dict[str, int], bid: int = 2, trump: str = "acorns",
           **more: Any) -> dict[str, Any]:
    return {"kind": "played", "declarer": declarer, "bid": bid, "trump": trump,
            "tricks": tricks, "stayed_home": more.pop("stayed_home", []), **more}


def record(session: Session, who: Any, data: dict[str, Any], **kw: Any) -> Any:
    names = services.Names.of(session)
    return services.deal_record(session=session, user=who, data=names.deal_ids(data), **kw)


def apply_actions(session: Session, who: Any, actions: Any, deal_for: Any,
                  *, refusals_ok: bool = False) -> None:
    """Play a hypothesis history: each ``(action, target, seed)`` records, corrects or
    deletes a deal (``target`` picks which, ``deal_for(seed)`` gives its data by name).
    With ``refusals_ok`` a write the referee refuses is skipped: nothing changed."""
    names = services.Names.of(session)
    for action, target, seed in actions:
        numbers = list(session.deals.values_list("number", flat=True))
        try:
            if action == "record" or not numbers:
                services.deal_record(session=session, user=who,
                                     data=names.deal_ids(deal_for(seed)))
            elif action == "correct":
                services.deal_correct(session=session, user=who,
                                      number=numbers[target % len(numbers)],
                                      data=names.deal_ids(deal_for(seed)))
            else:
                services.deal_delete(session=session, user=who,
                                     number=numbers[target % len(numbers)])
        except services.RulesBroken:
            if not refusals_ok:
                raise


def assert_scores_like_a_fresh_replay(session: Session, preset: str) -> list[Deal]:
    """The session's stored state and every deal's stored result are what a fresh replay
    of its deals by the referee gives; the deals, in order, for further checks."""
    session.refresh_from_db()
    rows = list(session.deals.order_by("number"))
    fresh = replay(mulatschak_rules(preset, session.rules), services.Names.of(session).seats,
                   str(session.first_dealer_id), [deal_from_dict(r.data) for r in rows])
    assert fresh.illegal is None
    assert session.state == state_to_json(fresh.state)
    assert list(session.finished_games.values_list("summary", flat=True)) == [
        game_json(g) for g in fresh.state.games]  # a row per finished game
    for row, outcome in zip(rows, fresh.outcomes, strict=True):
        assert row.result == outcome_to_json(outcome)
    return rows


def deal_from_seed(seed: int, seats: list[str]) -> dict[str, Any]:
    """A legal Mulatschak deal for most positions (the referee may still refuse some)."""
    kind = seed % 7
    if kind == 0:
        return {"kind": "collapsed"}
    if kind == 1:
        return {"kind": "passed"}
    declarer = seats[seed % len(seats)]
    trump = ["acorns", "leaves", "hearts", "bells"][(seed // 7) % 4]
    bid = 1 + (seed // 29) % 4
    tricks = dict.fromkeys(seats, 0)
    tricks[declarer] = bid
    rest = [p for p in seats if p != declarer]
    for i in range(5 - bid):
        tricks[rest[(seed + i) % len(rest)]] += 1
    return played(declarer, tricks, bid=bid, trump=trump, knocked=bool(seed % 2))


def game_start(owner: Any, game: str, seats: Any = ("Anna", "Bert", "Cilli", "Dominik"),
               **more: Any) -> Any:
    """A session of ``game`` (its preset of the same name) in a new group of ``owner``."""
    return services.session_start(group=group_with(owner, name=game), user=owner, preset=game,
                                  overrides=None, seats=list(seats), game=game, **more)
