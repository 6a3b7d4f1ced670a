"""Accounts: register, and the API token of an account (API.md)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import services

from . import idempotency
from . import scorepad_serializers as sp
from . import serializers as s
from .errors import invalid, validation_response
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import MAX_KEY


@extend_schema(request=sp.RegisterIn, responses={201: sp.UserOut, 400: s.ErrorOut},
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
        user = services.account_register(username=username, password=password)
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
    user = authenticate(
        request._request,
        username=data.validated_data["username"],
        password=data.validated_data["password"],
    )
    if user is None:
        return validation_response({"": [_("Wrong username or password.")]})
    return Response(sp.TokenOut({"token": services.account_token(user=user)}).data)
