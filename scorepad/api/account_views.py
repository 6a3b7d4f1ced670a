"""Accounts: register, the API token of an account, change the password, log out
everywhere (docs/api.md, "The scorepad API"). The work is in scorepad/accounts.py."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import logout, update_session_auth_hash
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import accounts, limits, services

from . import idempotency
from . import referee_serializers as s
from . import scorepad_serializers as sp
from .errors import invalid, validation_response
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import MAX_KEY


def too_many_registrations(wait: int) -> Response:
    """429 with Retry-After: this address made its accounts for the hour."""
    response = Response(s.ErrorOut({"detail": accounts.registrations_message(wait)}).data,
                        status=429)
    response["Retry-After"] = str(wait)
    return response


@extend_schema(request=sp.RegisterIn,
               responses={201: sp.UserOut, 400: s.ErrorOut,
                          429: OpenApiResponse(s.ErrorOut, description="too many new "
                                               "accounts from this address this hour "
                                               "(Retry-After)")},
               parameters=[IDEMPOTENCY], summary="Create an account")
@api_view(["POST"])
@authentication_classes([])  # open: a stale token header must not make it 401
@permission_classes([AllowAny])
def register(request: Request) -> Response:
    """Nobody is logged in yet, so an ``Idempotency-Key`` is filed under the account it
    creates, hashed and prefixed; the fingerprint holds the username only: a repeat must
    bring the password the account was made with (checked against its hash, never
    stored a second time)."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and len(key) > MAX_KEY:
        return idempotency.too_long()
    data = sp.RegisterIn(data=request.data)
    data.is_valid(raise_exception=True)
    username, password = data.validated_data["username"], data.validated_data["password"]
    made: dict[str, Any] = {}

    def run() -> Response:
        try:
            user = accounts.account_register(username=username, password=password,
                                             request=request._request)
        except limits.TooMany as e:
            return too_many_registrations(e.wait)
        made["user"] = user
        return Response(sp.UserOut({"id": user.pk, "username": user.get_username()}).data,
                        status=201)

    stored = None if key is None else "register:" + hashlib.sha256(key.encode()).hexdigest()
    try:
        return idempotency.respond_once(
            request, ["register", username.lower()], run, key=stored,
            owner=lambda _response: made.get("user"),
            verify=lambda record: record.user.check_password(password))
    except services.InputError as e:
        raise invalid(e) from e


@extend_schema(request=sp.TokenIn,
               responses={200: sp.TokenOut, 400: s.ErrorOut,
                          429: OpenApiResponse(s.ErrorOut, description="too many wrong "
                                               "passwords for this username and address")},
               summary="Get the API token for an account")
@api_view(["POST"])
@authentication_classes([])  # open: a stale token header must not make it 401
@permission_classes([AllowAny])
def token(request: Request) -> Response:
    data = sp.TokenIn(data=request.data)
    data.is_valid(raise_exception=True)
    user = limits.authenticate(request._request, username=data.validated_data["username"],
                               password=data.validated_data["password"])
    if user is None:
        return validation_response({"": [_("Wrong username or password.")]})
    accounts.logged_in(user=user)  # as a web login: older reset links stop working
    return Response(sp.TokenOut({"token": accounts.token_of(user=user)}).data)


@extend_schema(
    request=sp.PasswordIn,
    responses={200: sp.NewTokenOut, 400: s.ErrorOut, 401: s.ErrorOut,
               429: OpenApiResponse(s.ErrorOut, description="too many wrong old passwords "
                                    "for this username and address")},
    summary="Change your password (ends your other sessions, answers a new token)")
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def password(request: Request) -> Response:
    data = sp.PasswordIn(data=request.data)
    data.is_valid(raise_exception=True)
    user = request.user
    # as a login's: wrong old passwords count towards the login lockout
    if limits.authenticate(request._request, username=user.get_username(),
                           password=data.validated_data["old_password"]) is None:
        return validation_response({"old_password": [_("This is not your password.")]})
    browser = not request.auth  # a browser session, not the token: it stays logged in

    def store() -> None:
        accounts.password_set(user=user, password=data.validated_data["new_password"])
        if browser:
            update_session_auth_hash(request._request, user)

    try:
        _stored, token = accounts.password_replace(
            user=user, store=store,
            keep=lambda: request._request.session.session_key if browser else None)
    except services.InputError as e:
        raise invalid(e) from e
    return Response(sp.NewTokenOut({"token": token}).data)


@extend_schema(request=None, responses={204: None, 401: s.ErrorOut},
               summary="Log out everywhere: the API token and every login session end")
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def token_revoke(request: Request) -> Response:
    accounts.log_out_everywhere(user=request.user)
    if not request.auth:  # a browser session: this one ends too
        logout(request._request)
    return Response(status=204)
