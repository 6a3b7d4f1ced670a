"""Account endpoints beyond API.md: change the password, log out everywhere.

Both take the token or a browser session; the work is in scorepad/accounts.py.
"""

from __future__ import annotations

from django.contrib.auth import (
    authenticate,
    logout,
    password_validation,
    update_session_auth_hash,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import accounts

from . import serializers as s
from .errors import validation_response
from .fields import StrictCharField


class PasswordIn(serializers.Serializer):  # type: ignore[type-arg]
    old_password = StrictCharField(max_length=128, trim_whitespace=False)
    new_password = StrictCharField(max_length=128, trim_whitespace=False)


class NewTokenOut(serializers.Serializer):  # type: ignore[type-arg]
    token = serializers.CharField(help_text="the account's new API token (the old one "
                                            "no longer works)")


@extend_schema(
    request=PasswordIn,
    responses={200: NewTokenOut, 400: s.ErrorOut, 401: s.ErrorOut,
               429: OpenApiResponse(s.ErrorOut, description="too many wrong old passwords "
                                    "for this username and address")},
    summary="Change your password (ends your other sessions, answers a new token)")
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def password(request: Request) -> Response:
    data = PasswordIn(data=request.data)
    data.is_valid(raise_exception=True)
    user = request.user
    # through authenticate(): wrong old passwords count towards the login lockout
    if authenticate(request._request, username=user.get_username(),
                    password=data.validated_data["old_password"]) is None:
        return validation_response({"old_password": [_("This is not your password.")]})
    new = data.validated_data["new_password"]
    try:
        password_validation.validate_password(new, user)
    except DjangoValidationError as e:
        return validation_response({"new_password": list(e.messages)})
    user.set_password(new)
    user.save()
    keep = None
    if not request.auth:  # a browser session, not the token: it stays logged in
        update_session_auth_hash(request._request, user)
        keep = request._request.session.session_key
    return Response({"token": accounts.password_changed(user=user, keep=keep)})


@extend_schema(request=None, responses={204: None, 401: s.ErrorOut},
               summary="Log out everywhere: the API token and every login session end")
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def token_revoke(request: Request) -> Response:
    accounts.log_out_everywhere(user=request.user)
    if not request.auth:  # a browser session: this one ends too
        logout(request._request)
    return Response(status=204)
