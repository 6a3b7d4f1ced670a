"""Token authentication that costs no query in the common case (scorepad.caching)."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication

from scorepad import caching


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's token check, its answer kept in the shared cache while the user's access
    generation holds: a revoked token, a password change or a deactivated account take
    effect on the next request, as without the cache."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = caching.token_user(key)
        if found is not None:
            return found
        user, token = super().authenticate_credentials(key)  # 401 for a bad token
        model = self.get_model()
        caching.remember_token(key, user, token, lambda: model.objects.filter(
            key=key, user__is_active=True, user__password=user.password).exists())
        return user, token
