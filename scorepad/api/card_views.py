"""The evening's card as a PNG (docs/using.md, "The evening's card"): for the session's
members, and for anyone with its watch link."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    renderer_classes,
)
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from scorepad import card, sharing
from scorepad.access import READ, session_for
from scorepad.models import Session

from . import referee_serializers as s
from .scorepad_serializers import ERRORS_4XX


class PNGRenderer(BaseRenderer):
    """Lets ``Accept: image/png`` through DRF's content negotiation; the view draws it."""

    media_type = "image/png"
    format = "png"
    charset = None

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Any = None) -> bytes:
        return data if isinstance(data, bytes) else JSONRenderer().render(data)


PARAMETERS = [
    OpenApiParameter("theme", OpenApiTypes.STR, enum=list(card.THEMES),
                     description="light (default) or dark"),
    OpenApiParameter("lang", OpenApiTypes.STR, enum=[code for code, _n in settings.LANGUAGES],
                     description="the card's language (default: by Accept-Language)"),
]
PNG = OpenApiResponse(OpenApiTypes.BINARY, description="the card, 1080 px wide")


def _answer(request: Request, session: Session, *, secret: bool = False) -> HttpResponse:
    body = card.png_kept(session, card.theme_of(request.query_params.get("theme")),
                         card.language_of(request.query_params.get("lang")))
    response = HttpResponse(body, content_type="image/png")
    response["Content-Disposition"] = (
        f'inline; filename="{card.filename(session)}"')
    response["Cache-Control"] = "no-store" if secret else "private, max-age=0"
    if secret:
        response["Referrer-Policy"] = "no-referrer"
    return response


@extend_schema(parameters=PARAMETERS, responses={(200, "image/png"): PNG, **ERRORS_4XX},
               summary="The evening's card: a picture of the session for the group's chat")
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
@renderer_classes([JSONRenderer, PNGRenderer])
def session_card(request: Request, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    return _answer(request, session)


@extend_schema(parameters=PARAMETERS,
               responses={(200, "image/png"): PNG, 404: s.ErrorOut},
               summary="The evening's card by watch token, no login")
@api_view(["GET", "HEAD"])
@authentication_classes([])
@permission_classes([AllowAny])
@renderer_classes([JSONRenderer, PNGRenderer])
def watch_card(request: Request, token: str) -> HttpResponse:
    try:
        session = sharing.session_by_watch_token(token)
    except Session.DoesNotExist:
        raise Http404 from None
    return _answer(request, session, secret=True)
