"""Playing without an account ("Just play" on the start page).

A guest is a real account (``scorepad.models.Guest`` beside it) that cannot log in with a
password, owning one group of its own that the pages do not show as a group: every
permission of its sessions (scorepad/access.py, the cached grants of scorepad/cache/) is
the same as anybody's. The phone keeps the guest's token in a signed cookie for a year
(HttpOnly, SameSite=Lax, Secure over HTTPS); while the guest has no login session (it
ended, the browser dropped it) a page loaded with the cookie logs the guest in again
(``GuestMiddleware``). The phone's own storage keys the guest's kept deals by its own
account (``phone_owner``), as any account's.

- A guest's username has a space in it, which no account's can have (Django's username
  rules): ``is_guest`` needs no query.
- Guests cannot do what needs an account (groups, members, invitations, import,
  tournaments, statistics, the account page, the API): ``account_required`` answers with
  a page that offers signing up, and the API's ``AccountRequired`` as to nobody. A guest's
  own sessions are its own: the session pages, the list of them, the group's past
  sessions (``tests/scorepad/test_access.py`` holds what a guest may see of its group).
- Signing up on the same phone keeps every guest session: the guest's group becomes the
  new account's, with everything the guest recorded, in the sign-up's transaction
  (``account_register_claiming``), and is named by the account.
- Interface words are not data: a guest's group is stored without a name, and shown in
  the reader's language as played without an account (``Group.title``).
- Sessions without an account are limited per address and hour like new accounts
  (``SCHREIBER_GUEST_SESSIONS_PER_HOUR``, scorepad/limits.py); a guest never claimed is
  removed ``SCHREIBER_GUEST_DAYS`` (90) days after its last use by
  ``manage.py prune_guests`` (docs/deploy.md, "7. Cron: backups and housekeeping").
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F, Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from . import accounts, limits, services
from .access import is_table
from .cache import grants
from .models import (
    Deal,
    DealEvent,
    Group,
    Guest,
    IdempotencyKey,
    Membership,
    Player,
    Registration,
    Session,
)

COOKIE = "schreiber_guest"
SALT = "scorepad.guest"
COOKIE_SECONDS = 365 * 24 * 3600
PREFIX = "guest "
BACKEND = "django.contrib.auth.backends.ModelBackend"
#: In the login session after signing up as a guest: the guest's ``phone_owner``, whose
#: deals kept on the phone are the new account's (shown once on <body>, static/outbox.js).
FORMER_OWNER = "guest_phone_owner"


def is_guest(user: Any) -> bool:
    """Is ``user`` a guest (no query: a guest's username has a space, an account's never)?"""
    return bool(getattr(user, "is_authenticated", False)
                and str(user.get_username()).startswith(PREFIX)
                and not user.has_usable_password())


def guest_create() -> Guest:
    """A new guest with its own group (its first session is counted against the
    address by the caller: ``limits.take``)."""
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username=PREFIX + secrets.token_hex(6), password=None)
        # no name: a name in the language of this moment would stay so (Group.title)
        group = Group.objects.create(name="")
        Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
        return Guest.objects.create(user=user, group=group, token=secrets.token_urlsafe(32))


def guest_session_start(
    *,
    request: HttpRequest,
    guest: Guest | None,
    game: str,
    seats: Sequence[str],
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    dealer: str | None = None,
    stake: str | None = None,
    currency: str | None = None,
) -> tuple[Guest, Session]:
    """A session without an account ("Just play"), all or nothing: counted against the
    address of ``request`` first (``SCHREIBER_GUEST_SESSIONS_PER_HOUR``: beyond it
    ``limits.TooMany`` and nothing is made), a new guest with its own group when the
    phone plays as none yet, and the session (``services.session_start``) in the guest's
    group, started by the guest. A refused start leaves no guest, no count and no session
    behind."""
    with transaction.atomic():
        limits.take(request, Registration.Kind.GUEST)
        if guest is None:
            guest = guest_create()
        session = services.session_start(
            group=guest.group, user=guest.user, preset=preset, overrides=overrides,
            seats=seats, dealer=dealer, game=game, stake=stake, currency=currency)
        return guest, session


def guest_of(user: Any) -> Guest | None:
    """The guest behind ``user``, or None for an account or nobody."""
    if not is_guest(user):
        return None
    return Guest.objects.select_related("group").filter(user_id=user.pk).first()


# --- the cookie -------------------------------------------------------------------------------


def _name(request: HttpRequest) -> str:
    """Over HTTPS the cookie is a ``__Host-`` one (Secure, this host only, path /), as the
    login's (docs/deploy.md, "4. Environment file")."""
    return "__Host-" + COOKIE if request.is_secure() else COOKIE


def cookie_set(response: HttpResponse, request: HttpRequest, guest: Guest) -> None:
    response.set_signed_cookie(_name(request), guest.token, salt=SALT,
                               max_age=COOKIE_SECONDS, httponly=True,
                               secure=request.is_secure(), samesite="Lax")


def cookie_delete(response: HttpResponse, request: HttpRequest) -> None:
    response.delete_cookie(_name(request), samesite="Lax")


def has_cookie(request: HttpRequest) -> bool:
    return _name(request) in request.COOKIES


def from_cookie(request: HttpRequest) -> Guest | None:
    """The guest the request's cookie names, if its signature holds and the guest is
    still one (not claimed, not removed); None for anything else."""
    token = request.get_signed_cookie(_name(request), default=None, salt=SALT,
                                      max_age=COOKIE_SECONDS)
    if not token or len(token) > 64:
        return None
    return (Guest.objects.select_related("user", "group")
            .filter(token=token, user__is_active=True).first())


def of_request(request: HttpRequest) -> Guest | None:
    """The guest this phone plays as: the one logged in, else the cookie's."""
    user = getattr(request, "user", None)
    if getattr(user, "is_authenticated", False):
        return guest_of(user)
    return from_cookie(request)


class GuestMiddleware:
    """A page loaded without a login but with a guest's cookie logs the guest in (after
    CachedAuthenticationMiddleware). Only pages read (GET, HEAD) and never the API: a
    login rotates the CSRF token, which a form sent meanwhile would not match."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_cookie(request) and request.method in ("GET", "HEAD") \
                and not request.path.startswith("/api/") \
                and not request.user.is_authenticated:
            guest = from_cookie(request)
            if guest is not None:
                login(request, guest.user, backend=BACKEND)
        return self.get_response(request)


def context(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``is_guest``, whether the page is rendered for a guest, and
    ``former_owner``: once after signing up as a guest, the guest's phone owner."""
    # callables, which a template calls when it uses them: a fragment that does not
    # (a polled scoreboard) does not load the user
    return {"is_guest": lambda: is_guest(getattr(request, "user", None)),
            "former_owner": lambda: _former_owner(request)}


def _former_owner(request: HttpRequest) -> str:
    session = getattr(request, "session", None)
    if session is None or FORMER_OWNER not in session:
        return ""
    return str(session.pop(FORMER_OWNER))


def is_account(user: Any) -> bool:
    """Somebody with an account: logged in, and neither a guest nor a table's phone."""
    return (bool(getattr(user, "is_authenticated", False)) and not is_guest(user)
            and not is_table(user))


def account_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The one rule of the pages that need an account (groups and their administration,
    members, invitations, imports, tournaments, statistics, the account's own pages; put
    it on every new page of a group): nobody logged in goes to the login page (as
    ``login_required``), a guest (or a table's phone) gets the page that says so and offers
    signing up (403), an account the view. The API's twin is
    ``scorepad.api.auth.AccountRequired``."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_account(request.user):
            return render(request, "registration/account_needed.html", status=403)
        return view(request, *args, **kwargs)

    return login_required(checked)


# --- signing up keeps the guest's sessions -----------------------------------------------------


def guest_claim(*, guest: Guest, user: Any) -> Group | None:
    """The guest's group becomes ``user``'s (owner), with every session, deal, correction
    and kept answer the guest made now the account's; the guest is gone. All or nothing;
    None if the guest was gone already (claimed by a sign-up a moment earlier)."""
    with transaction.atomic():
        found = (Guest.objects.select_for_update().select_related("user", "group")
                 .filter(pk=guest.pk).first())
        if found is None:
            return None
        group, old = found.group, found.user
        # the group is the account's now: named by it (a guest's has no name, Group.title)
        group.name = user.get_username()[: Group._meta.get_field("name").max_length]
        Group.objects.filter(pk=group.pk).update(name=group.name)
        Membership.objects.filter(group=group, user=old).update(user=user)
        Player.objects.filter(group=group, user=old).update(user=user)
        Session.objects.filter(group=group, created_by=old).update(created_by=user)
        Deal.objects.filter(session__group=group, created_by=old).update(created_by=user)
        DealEvent.objects.filter(session__group=group, user=old).update(user=user)
        IdempotencyKey.objects.filter(user=old).update(user=user)
        # Pages name who recorded what: every cached page of the group is stale.
        Session.objects.filter(group=group).update(version=F("version") + 1)
        grants.bump(grants.user_key(old.pk))
        grants.bump(grants.group_key(group.pk))
        found.delete()
        old.delete()
        return group


def account_register_claiming(*, username: str, password: str, request: HttpRequest,
                              guest: Guest | None) -> tuple[Any, Group | None]:
    """A new account (scorepad/accounts.py, ``account_register``) that keeps ``guest``'s
    sessions, in one transaction: if anything fails, neither exists."""
    with transaction.atomic():
        user = accounts.account_register(username=username, password=password,
                                         request=request)
        group = guest_claim(guest=guest, user=user) if guest is not None else None
        return user, group


# --- guests never claimed go ------------------------------------------------------------------


def guests_prune(*, days: int | None = None, now: Any = None) -> int:
    """Remove the guests (their group, sessions and account) unused for ``days``
    (``SCHREIBER_GUEST_DAYS``): nothing recorded, corrected, started or logged in since.
    How many were removed."""
    days = int(getattr(settings, "SCHREIBER_GUEST_DAYS", 90)) if days is None else days
    cutoff = (now or timezone.now()) - timedelta(days=days)
    stale = (
        Guest.objects.filter(created_at__lt=cutoff)
        .filter(Q(user__last_login__isnull=True) | Q(user__last_login__lt=cutoff))
        .annotate(last_session=Max("group__sessions__created_at"),
                  last_change=Max("group__sessions__events__at"))
        .filter(Q(last_session__isnull=True) | Q(last_session__lt=cutoff))
        .filter(Q(last_change__isnull=True) | Q(last_change__lt=cutoff))
    )
    removed = 0
    for guest in stale.select_related("user", "group").iterator(chunk_size=200):
        with transaction.atomic():
            grants.bump(grants.user_key(guest.user_id))
            grants.bump(grants.group_key(guest.group_id))
            user, group = guest.user, guest.group
            Session.objects.filter(group=group).delete()
            group.delete()
            user.delete()
        removed += 1
    return removed
