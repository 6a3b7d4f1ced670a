"""Test data for the scorepad: named personas at a Salzburg table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from scorepad import services
from scorepad.models import Group, Membership, Session

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
#: A plain deal's tricks: two for the first seat, one for everybody else.
EVEN = {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}


def user(username: str = "anna") -> Any:
    return get_user_model().objects.create_user(username=username, password="s3cret-pass!")


def group_with(owner: Any, name: str = "Stammtisch Mondsee") -> Group:
    return services.group_create(user=owner, name=name)


def member(group: Group, who: Any, role: str) -> Membership:
    return services.member_set(group=group, user=who, role=role)


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
