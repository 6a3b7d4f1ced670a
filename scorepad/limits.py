"""Limits per client: who a request comes from, and counting it without letting a burst
through (docs/deploy.md, "10. Accounts and access").

- ``client_address``: the connection's address; behind the reverse proxy
  (``DJANGO_BEHIND_PROXY=1``) the one it appended to X-Forwarded-For, believed only when
  the connection comes from a trusted proxy (``SCHREIBER_TRUSTED_PROXIES``, the loopback
  addresses unless told; gunicorn's ``forwarded_allow_ips`` reads the same variable in
  gunicorn.conf.py). Counted as a person: an IPv4-mapped IPv6 address as its IPv4
  address, any other IPv6 address by its network (``SCHREIBER_IPV6_PREFIX``, 64 bits),
  since one household or one attacker holds a whole /64. Every limit per address counts
  by it: sessions without an account, new accounts and the login lockout (django-axes,
  ``AXES_CLIENT_IP_CALLABLE``).
- ``take``: one more session without an account (or new account) for the address, counted
  and added in one turn per address (``turn``), so that parallel requests queue instead
  of all counting before any adds; ``TooMany`` beyond the hour's limit.
- ``authenticate``: Django's ``authenticate`` in one turn per username and address, so
  that the lockout's check, the password's and the count of a failure are one step: a
  burst of guesses gets the lockout's five, not one each.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.db import OperationalError, connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from .models import Registration

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: How long a request waits for its turn before it gives up (answered 503, as when the
#: database is away: scorepad.middleware); a turn's work takes milliseconds, a login's the
#: hashing of one password (a fifth of a second), and a locked-out one none.
TURN_SECONDS = 5


def _address(value: object) -> Address | None:
    try:
        found = ipaddress.ip_address(str(value).strip())
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return found.ipv4_mapped
        if found.scope_id:
            return ipaddress.IPv6Address(int(found))
    return found


def _trusted(peer: Address | None) -> bool:
    """Is the connection's peer a proxy whose X-Forwarded-For counts? A connection without
    an address (a UNIX socket, which only the host's own proxy reaches) is, as gunicorn
    treats it."""
    if peer is None:
        return True
    return any(peer in network for network in settings.SCHREIBER_TRUSTED_PROXIES)


def _client(request: HttpRequest) -> Address | None:
    remote = str(request.META.get("REMOTE_ADDR") or "")
    peer = _address(remote)
    if not getattr(settings, "SCHREIBER_BEHIND_PROXY", False) or not _trusted(peer):
        return peer
    # From the right: each entry was appended by the one after it; the first that is not
    # a trusted proxy is the client (anything further left it wrote itself).
    for entry in reversed(str(request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",")):
        found = _address(entry)
        if found is None:
            break
        peer = found
        if not _trusted(found):
            break
    return peer


def forwarded_by_trusted_proxy(request: HttpRequest) -> bool:
    """Are the X-Forwarded-* headers of ``request`` the reverse proxy's? Only behind it
    (``DJANGO_BEHIND_PROXY=1``) and only when the connection comes from a trusted proxy."""
    return bool(getattr(settings, "SCHREIBER_BEHIND_PROXY", False)) and _trusted(
        _address(request.META.get("REMOTE_ADDR") or ""))


def client_address(request: HttpRequest) -> str:
    """The address the request is counted by (the module's docstring): an IPv4 address,
    or the first address of the client's IPv6 network; the connection's address as it
    came when it is none."""
    found = _client(request)
    if found is None:
        return str(request.META.get("REMOTE_ADDR") or "")[:45]
    if isinstance(found, ipaddress.IPv6Address):
        prefix = int(getattr(settings, "SCHREIBER_IPV6_PREFIX", 64))
        return str(ipaddress.IPv6Network((found, prefix), strict=False).network_address)
    return str(found)


# --- taking turns -------------------------------------------------------------------------------


def turn(*key: str) -> None:
    """Wait for ``key``'s turn, held until the caller's transaction ends: requests for
    the same key run one after the other, others side by side. PostgreSQL: a
    transaction-level advisory lock (given up after ``TURN_SECONDS``); SQLite: its
    IMMEDIATE transactions (settings) take turns anyway, every writer after the other."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a turn is held by a transaction: call turn() inside one")
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)",
                       [f"{TURN_SECONDS}s"])
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_number(key)])


def _number(key: tuple[str, ...]) -> int:
    """A key as a signed 64-bit number (an advisory lock's), the same in every process."""
    digest = hashlib.blake2b("\x00".join(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


# --- sessions without an account and new accounts, per address and hour ----------------------


class TooMany(Exception):
    """The address made its hour's ``kind``; it may again in ``wait`` seconds."""

    def __init__(self, kind: str, wait: int) -> None:
        super().__init__(f"too many {kind} from this address: wait {wait} s")
        self.kind, self.wait = kind, wait


#: What each kind of registration is limited by (per address and hour), and its default.
_LIMITS = {Registration.Kind.ACCOUNT: ("SCHREIBER_SIGNUPS_PER_HOUR", 10),
           Registration.Kind.GUEST: ("SCHREIBER_GUEST_SESSIONS_PER_HOUR", 20)}


def take(request: HttpRequest, kind: str = Registration.Kind.ACCOUNT) -> None:
    """Count one more ``kind`` (a new account; GUEST: a session started without one)
    against the request's address, in the caller's transaction: TooMany, and nothing
    counted, when the address made its hour's. The address's count and the new row are
    one turn, so a burst cannot pass the limit; rows older than an hour go."""
    kind = Registration.Kind(kind)
    setting, default = _LIMITS[kind]
    limit = int(getattr(settings, setting, default))
    address = client_address(request)
    now = timezone.now()
    turn("registration", kind, address)
    if limit > 0:
        recent = list(Registration.objects.filter(address=address, kind=kind,
                                                  at__gt=now - timedelta(hours=1))
                      .order_by("-at").values_list("at", flat=True)[:limit])
        if len(recent) >= limit:
            free_at = recent[-1] + timedelta(hours=1)
            raise TooMany(kind, max(1, math.ceil((free_at - now).total_seconds())))
    Registration.objects.filter(at__lt=now - timedelta(hours=1)).delete()
    Registration.objects.create(address=address, at=now, kind=kind)


# --- the login lockout --------------------------------------------------------------------------

#: A login's turn on SQLite is a lock file, one of these many (keys share them at random).
FILE_TURNS = 64


def authenticate(request: HttpRequest, *, username: str, password: str) -> Any:
    """``django.contrib.auth.authenticate`` in one turn per username and address: the
    lockout's check (django-axes' backend), the password and the failure counted
    (axes' handler of ``user_login_failed``) happen before the next try of the same
    username from the same address begins. Every login and every check of an old
    password goes through here."""
    with _login_turn("login", str(username).casefold(), client_address(request)):
        return auth.authenticate(request, username=username, password=password)


@contextmanager
def _login_turn(*key: str) -> Iterator[None]:
    """PostgreSQL: ``turn`` in a transaction of its own. SQLite: a lock file of the host
    (every process of an SQLite site runs on it), since a turn of SQLite's own would
    hold every writer back while the password is hashed (a fifth of a second)."""
    if connection.vendor == "postgresql":
        with transaction.atomic():
            turn(*key)
            yield
        return
    import fcntl

    database = hashlib.blake2b(str(connection.settings_dict["NAME"]).encode(),
                               digest_size=8).hexdigest()
    folder = Path(tempfile.gettempdir()) / f"schreiber-turns-{database}"
    folder.mkdir(mode=0o700, exist_ok=True)
    with open(folder / f"{_number(key) % FILE_TURNS}", "a") as file:
        deadline = time.monotonic() + TURN_SECONDS
        while True:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:  # answered 503, as a database lock's
                    raise OperationalError("no turn for this login") from None
                time.sleep(0.01)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)
