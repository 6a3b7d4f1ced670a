"""Accounts: registering, API tokens, passwords, logging out everywhere, reset links,
what a refused registration says.

Use cases like those of scorepad/services.py (keyword-only, typed, refusing with the
domain errors of scorepad/errors.py); the pages are in scorepad/views/account.py, the API
endpoints in scorepad/api/account_views.py.

- A password change (page, API, reset link) rotates the account's API token and ends its
  other login sessions; logging out everywhere deletes the token and ends every session.
  Login sessions live in the database (``SESSION_ENGINE``) without an index by user, so
  ending them reads the live sessions once (milliseconds per thousand sessions; expired
  ones are removed nightly by ``clearsessions``).
- The scoreboard's poll grants follow: the account's access generation changes (in the
  database, its copy dropped from the shared cache in the same transaction: if the cache
  refuses, nothing changes and the request answers 503), and without a shared cache every
  poll checks the account is active and the grant's login still matches the password
  (scorepad/cache/grants.py).
- Reset links are Django's one-time password reset tokens (valid for
  ``PASSWORD_RESET_TIMEOUT``, a day; spent by the change they make and by any login of
  the account). Only staff make them (``manage.py reset_link``, the admin) or a mail
  (``EMAIL_URL``): a group's owner cannot.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import update_last_login
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session as LoginSession
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import ngettext
from rest_framework.authtoken.models import Token

from . import limits
from .cache import backend, grants
from .errors import FieldProblem, InputError
from .models import Registration

log = logging.getLogger(__name__)
T = TypeVar("T")


def account_register(*, username: str, password: str, request: HttpRequest | None = None
                     ) -> Any:
    """A new account: the username by Django's rules and free (whatever its case), the
    password by the password validators. Counted against the address of ``request``
    first, in the same transaction (scorepad/limits.py): beyond the hour's
    ``limits.TooMany``, whatever was sent; a refused one does not count."""
    User = get_user_model()
    try:
        with transaction.atomic():
            if request is not None:
                limits.take(request, Registration.Kind.ACCOUNT)
            try:
                User._meta.get_field("username").run_validators(username)
            except DjangoValidationError as e:
                raise _worded("username", e) from e
            if User.objects.filter(username__iexact=username).exists():
                raise InputError("username", "is taken", "username_taken")
            try:
                password_validation.validate_password(password, User(username=username))
            except DjangoValidationError as e:
                raise _worded("password", e) from e
            return User.objects.create_user(username=username, password=password)
    except IntegrityError as e:  # a twin of this request came first
        raise InputError("username", "is taken", "username_taken") from e


def _worded(field: str, error: DjangoValidationError) -> InputError:
    """Django's validators speak the user's language already."""
    return InputError.of(FieldProblem(field, "invalid", str(m), worded=True)
                         for m in error.messages)


def phone_owner(*, user: Any) -> str:
    """The account as a phone's own storage names it (docs/using.md, "On the phone"): the deals
    kept offline and the copies of pages belong to it. Opaque (a keyed hash of the id) and
    the same for every login of the account, so that its kept deals wait for it; empty for
    nobody logged in."""
    if not getattr(user, "is_authenticated", False):
        return ""
    if getattr(user, "table_session_id", None) is not None:  # a table's phone: the table's
        return salted_hmac("scorepad.phone_owner", f"table {user.table_id}").hexdigest()[:24]
    return salted_hmac("scorepad.phone_owner", str(user.pk)).hexdigest()[:24]


def token_of(*, user: Any) -> str:
    """The account's API token, made on first asking."""
    token, _created = Token.objects.get_or_create(user=user)
    return str(token.key)


def sessions_end(*, user: Any, keep: str | None = None) -> int:
    """End every login session of ``user`` but ``keep`` (a session key); how many ended.
    All or nothing: if the cache will not forget an ended session (or the account's
    access generation), grants.CacheRefused and nothing ends."""
    from django.contrib.auth import SESSION_KEY

    ended = []
    live = LoginSession.objects.filter(expire_date__gt=timezone.now())
    with transaction.atomic():
        for row in live.only("session_key", "session_data").iterator(chunk_size=2000):
            if row.session_key != keep and \
                    str(row.get_decoded().get(SESSION_KEY)) == str(user.pk):
                ended.append(row.session_key)
        for start in range(0, len(ended), 500):
            LoginSession.objects.filter(session_key__in=ended[start:start + 500]).delete()
            _forget_sessions(ended[start:start + 500])
        grants.bump(grants.user_key(user.pk))
    return len(ended)


def _forget_sessions(keys: list[str]) -> None:
    """Ended login sessions leave the cache of ``cached_db`` sessions too (settings), now
    (grants.CacheRefused if the cache keeps any) and again after the commit (a request
    may have read a session back from the database meanwhile)."""
    from django.contrib.sessions.backends.cached_db import KEY_PREFIX
    from django.core.cache import caches

    if not keys or settings.SESSION_ENGINE == "django.contrib.sessions.backends.db":
        return
    cache, cached = caches[settings.SESSION_CACHE_ALIAS], [KEY_PREFIX + k for k in keys]
    try:
        cache.delete_many(cached)
        left = cache.get_many(cached)
    except backend.ERRORS as e:
        raise grants.CacheRefused("login sessions") from e
    if left:
        raise grants.CacheRefused("login sessions")

    def again() -> None:
        try:
            cache.delete_many(cached)
        except backend.ERRORS:
            log.warning("could not forget ended login sessions", exc_info=True)

    backend.after_commit(again)


def token_rotate(*, user: Any) -> str:
    """A new API token for ``user``; the old one stops working."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return str(Token.objects.create(user=user).key)


def password_set(*, user: Any, password: str, field: str = "new_password") -> None:
    """A new password for ``user``, if the password validators take it (an InputError
    naming ``field`` otherwise); then see ``password_changed``."""
    try:
        password_validation.validate_password(password, user)
    except DjangoValidationError as e:
        raise _worded(field, e) from e
    user.set_password(password)
    user.save()


def password_changed(*, user: Any, keep: str | None = None) -> str:
    """After a password change: a new API token (returned), every other session ended.
    The callers run the change and this in one transaction: if the cache refuses to
    forget (grants.CacheRefused), the password stays as it was."""
    with transaction.atomic():
        token = token_rotate(user=user)
        sessions_end(user=user, keep=keep)
        return token


def password_replace(*, user: Any, store: Callable[[], T],
                     keep: Callable[[], str | None] = lambda: None) -> tuple[T, str]:
    """A new password with its consequences, all or nothing (one transaction): ``store``
    writes it (a Django password page's own save, or ``password_set``) and answers what it
    answers; then ``password_changed`` with the login session ``keep`` names once the
    password is stored (the one this phone stays logged in with; None: none stays). Answers
    ``store``'s answer and the new API token."""
    with transaction.atomic():
        stored = store()
        return stored, password_changed(user=user, keep=keep())


def log_out_everywhere(*, user: Any) -> None:
    """The API token and every login session of ``user`` end (all or nothing)."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        sessions_end(user=user)


# --- reset links ------------------------------------------------------------------------------


def reset_path(user: Any) -> str:
    """The path of a one-time link that sets a new password for ``user``: staff make
    them (``manage.py reset_link``, the admin), never a group's owner. Django's token
    hashes the password, ``last_login`` and the time: it stops working once used, on
    any login of the account, and after ``PASSWORD_RESET_TIMEOUT``."""
    return reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    })


def reset_link(user: Any, base_url: str | None = None) -> str:
    """``reset_path`` as a full URL under ``base_url`` (else ``SCHREIBER_BASE_URL``);
    the path alone when neither is known."""
    base = (base_url or getattr(settings, "SCHREIBER_BASE_URL", "") or "").rstrip("/")
    return base + reset_path(user)


def logged_in(*, user: Any) -> None:
    """A login that is not Django's login() (the API's token): ``last_login`` moves on as
    for a web login, so older reset links stop working."""
    update_last_login(None, user)


# --- registrations per address (scorepad/limits.py counts them) ----------------------------------


def registrations_message(wait: int) -> str:
    """Why a registration was refused, with the wait in whole minutes."""
    minutes = max(1, math.ceil(wait / 60))
    return ngettext("Too many new accounts from your address. Try again in %(n)s minute.",
                    "Too many new accounts from your address. Try again in %(n)s minutes.",
                    minutes) % {"n": minutes}


def guest_sessions_message(wait: int) -> str:
    """Why a session without an account was refused, with the wait in whole minutes."""
    minutes = max(1, math.ceil(wait / 60))
    return ngettext(
        "Too many sessions without an account from your address. Sign up, or try again "
        "in %(n)s minute.",
        "Too many sessions without an account from your address. Sign up, or try again "
        "in %(n)s minutes.", minutes) % {"n": minutes}
