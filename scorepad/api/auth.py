"""Token authentication that costs no query in the common case (scorepad.cache.logins)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import SessionScheme
from rest_framework.authentication import SessionAuthentication, TokenAuthentication

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
