"""Token authentication that costs no query in the common case (scorepad.cache.logins),
and a tournament table's code."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    TokenAuthentication,
    get_authorization_header,
)
from rest_framework.permissions import IsAuthenticated

from scorepad.access import TableUser
from scorepad.cache import logins
from scorepad.ids import parse_id


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's token check, its answer kept in the shared cache while the user's access
    generation holds: a revoked token, a password change or a deactivated account take
    effect on the next request, as without the cache. For a request about a session
    (its URL names ``session_id``) the member's role and the session's version are read
    in the same round trip, kept on this authenticator (DRF makes one per request) as
    ``ahead`` for the view (``request.successful_authenticator``)."""

    session_id: int | None = None
    ahead: dict[str, Any] | None = None

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
        self.session_id = parse_id(kwargs.get("session_id"))
        self.ahead = {}
        return super().authenticate(request)  # type: ignore[no-any-return]

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = logins.token_user(key, self.session_id, self.ahead)
        if found is not None:
            return found
        user, token = super().authenticate_credentials(key)  # 401 for a bad token
        model = self.get_model()
        logins.remember_token(key, user, token, lambda: model.objects.filter(
            key=key, user__is_active=True, user__password=user.password).exists())
        return user, token


#: What a table's phone may do with its code: its own session's page of the API, read,
#: record and correct, and confirm its result (docs/tournaments.md, "Table codes");
#: URL name → methods.
TABLE_MAY = {
    "api:session_detail": {"GET", "HEAD"},
    "api:deals": {"GET", "HEAD", "POST"},
    "api:deal_detail": {"GET", "HEAD", "PUT", "DELETE"},
    "api:scoreboard": {"GET", "HEAD"},
    "api:history": {"GET", "HEAD"},
    "api:settlement": {"GET", "HEAD"},
    "api:session_confirm": {"GET", "HEAD", "POST"},
}


class TableCodeAuthentication(BaseAuthentication):
    """``Authorization: Table <code>``: a tournament table's phone, without an account, on
    that table's session alone while its round is open; anything else with a code is
    refused (401)."""

    keyword = "Table"

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid table code header."))
        try:
            code = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("Invalid table code.")) from None
        from scorepad.tournaments.services import table_for_code

        match = getattr(request._request, "resolver_match", None)
        name = match.view_name if match is not None else ""
        kwargs = (match.kwargs if match is not None else {}) or {}
        table = table_for_code(code, parse_id(kwargs.get("session_id")))
        if table is None:
            raise exceptions.AuthenticationFailed(_("This table code is unknown or has "
                                                    "ended with its round."))
        if (request.method not in TABLE_MAY.get(name, set())
                or parse_id(kwargs.get("session_id")) != table.session_id):
            raise exceptions.AuthenticationFailed(_("A table code opens its own table's "
                                                    "session only."))
        user = TableUser(table.table_id, table.session_id, table.number, table.keeper_id)
        user.session_version = table.version  # read with the code: a poll needs no other
        return user, code

    def authenticate_header(self, request: Any) -> str:
        return self.keyword


class TableCodeScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The table code in the schema: ``Authorization: Table <code>``."""

    target_class = TableCodeAuthentication
    name = "tableCode"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "A tournament table's phone: `Table <code>` (the table's "
                               "session only, while its round is open)"}


class AccountSessionAuthentication(SessionAuthentication):
    """DRF's login-session check for accounts only: a phone playing without an account
    (scorepad/guests.py) is nobody to the API, which needs an account."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        from scorepad.guests import is_guest

        found = super().authenticate(request)
        if found is not None and is_guest(found[0]):
            return None
        return found  # type: ignore[no-any-return]


class AccountSessionScheme(SessionScheme):  # type: ignore[misc]
    """The schema names it as DRF's login-session check (``cookieAuth``)."""

    target_class = "scorepad.api.auth.AccountSessionAuthentication"


class AccountRequired(IsAuthenticated):
    """The API's side of ``scorepad.guests.account_required``: endpoints of groups,
    members, invitations, imports, tournaments and statistics answer an account only
    (401 to nobody, 403 to a guest or a table's phone, should either ever be known here;
    AccountSessionAuthentication makes a guest nobody already)."""

    message = gettext_lazy("This needs an account.")  # in the language of each request

    def has_permission(self, request: Any, view: Any) -> bool:
        from scorepad.guests import is_account

        return bool(super().has_permission(request, view)) and is_account(request.user)
