"""Export and import endpoints (docs/export.md, "Export, import and backups"): thin adapters
over scorepad.transfer.

Imports read the request body themselves, up to ``fileformat.MAX_BYTES``: a long-lived
group's file is far larger than Django's limit for ordinary request bodies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad.access import READ, WRITE, group_for, session_for
from scorepad.ids import parse_id
from scorepad.loaded import Loaded
from scorepad.transfer import exporting, fileformat, importing

from . import scorepad_serializers as sp
from .auth import AccountRequired
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import respond_once
from .scorepad_serializers import ERRORS_4XX
from .session_views import session_out


class CSVRenderer(BaseRenderer):
    """Lets ``?format=csv`` through DRF's content negotiation; the view writes the CSV."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Any = None) -> bytes:
        return b"" if data is None else str(data).encode()


REJECTED = {
    400: OpenApiResponse(sp.ImportRejectedOut, description="not a valid export file, or too big"),
    409: OpenApiResponse(sp.ImportRejectedOut, description="imported already / group not empty"),
    422: OpenApiResponse(sp.ImportRejectedOut, description="the referee rejects a deal"),
}
#: What a refused import's category answers.
STATUS = {fileformat.INVALID: 400, fileformat.RULES: 422, fileformat.CONFLICT: 409}


def _attachment(response: HttpResponse | Response, filename: str) -> Any:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _rejected(error: fileformat.ImportRejected) -> Response:
    problems = [p.as_dict() for p in error.problems]
    detail = _("The file was not imported: %(count)s problem(s).") % {"count": len(problems)}
    return Response(sp.ImportRejectedOut({"detail": detail, "problems": problems}).data,
                    status=STATUS[error.category])


def _read_raw(request: Request) -> bytes:
    """The body, read up to the import limit (ImportRejected beyond it)."""
    raw_request = request._request
    try:
        length = int(raw_request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > fileformat.MAX_BYTES:
        raise fileformat.too_large()
    return bytes(raw_request.read(fileformat.MAX_BYTES + 1))


def _once(request: Request, raw: bytes, run: Callable[[], Response]) -> Response:
    """``Idempotency-Key`` as for every write (docs/api.md, "The scorepad API"), fingerprinting
    the raw body: the usual decorator would make DRF parse it, under Django's much smaller
    body limit."""
    return respond_once(request, hashlib.sha256(raw).hexdigest(), run)


FORMAT_PARAM = OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"],
                                description="csv: one row per deal, as on paper")


@extend_schema(
    parameters=[FORMAT_PARAM],
    responses={(200, "application/json"): OpenApiTypes.OBJECT,
               (200, "text/csv"): OpenApiTypes.STR, **ERRORS_4XX},
    summary="The whole session as a versioned JSON file (or CSV)",
)
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
@renderer_classes([JSONRenderer, CSVRenderer])
def session_export(request: Request, session_id: int) -> Any:
    session = session_for(request.user, session_id, READ)
    if request.accepted_renderer.format == "csv":
        response = HttpResponse(exporting.session_csv(session),
                                content_type="text/csv; charset=utf-8")
        return _attachment(response, exporting.export_filename("session", session.pk, "csv"))
    return _attachment(Response(exporting.session_export(session)),
                       exporting.export_filename("session", session.pk, "json"))


@extend_schema(
    responses={200: OpenApiTypes.OBJECT, **ERRORS_4XX},
    summary="The whole group (roster, members, every session) as a versioned JSON file",
)
@api_view(["GET", "HEAD"])
@permission_classes([AccountRequired])
def group_export(request: Request, group_id: int) -> Any:
    group = group_for(request.user, group_id, READ)
    return _attachment(Response(exporting.group_export(group)),
                       exporting.export_filename("group", group.pk, "json"))


@extend_schema(
    parameters=[IDEMPOTENCY],
    request=sp.SessionImportIn,
    responses={201: sp.SESSION, **ERRORS_4XX, **REJECTED},
    summary="Import a session file into a group (every deal checked by the referee)",
    description=("Send {\"group\": id, \"data\": file} (409 if that group holds the session "
                 "already), or the exported file itself: it goes into ?group= or the group "
                 "it came from, as a copy with a new uid if that group still holds it."),
)
@api_view(["POST"])
@permission_classes([AccountRequired])
def session_import(request: Request) -> Response:
    try:
        raw = _read_raw(request)
        body = fileformat.read_file(raw)
    except fileformat.ImportRejected as e:
        return _rejected(e)
    # docs/export.md, "Downloads and uploads": the export sent back as it is (a bare file: into
    # ?group= or the group it came from, as a copy if that group holds it still), or
    # {"group", "data"} (refused with 409 when the group holds that session already)
    bare = isinstance(body, dict) and "format" in body
    group_id = body.get("group") if isinstance(body, dict) else None
    group_id = group_id if isinstance(group_id, int) else None  # a number in the JSON
    if bare and request.query_params.get("group"):
        group_id = request.query_params["group"]  # text in the URL
    group_id = parse_id(group_id)
    if group_id is None:
        return _rejected(fileformat.ImportRejected(
            [fileformat.Problem("group", "invalid", _("must be the id of a group"))]))
    group = group_for(request.user, group_id, WRITE)
    data = body if bare else body.get("data")

    def run() -> Response:
        try:
            session = importing.session_import(group=group, data=data, copy=bare)
        except fileformat.ImportRejected as e:
            return _rejected(e)
        return Response(session_out(Loaded.of(session)), status=201)

    return _once(request, raw, run)


@extend_schema(
    parameters=[IDEMPOTENCY],
    request=OpenApiTypes.OBJECT,
    responses={201: sp.GroupImportOut, **ERRORS_4XX, **REJECTED},
    summary="Import a group file into this group, which must have no sessions yet",
)
@api_view(["POST"])
@permission_classes([AccountRequired])
def group_import(request: Request, group_id: int) -> Response:
    group = group_for(request.user, group_id, WRITE)
    try:
        raw = _read_raw(request)
        data = fileformat.read_file(raw)
    except fileformat.ImportRejected as e:
        return _rejected(e)

    def run() -> Response:
        try:
            sessions = importing.group_import(group=group, data=data)
        except fileformat.ImportRejected as e:
            return _rejected(e)
        body = {"group": group.pk, "sessions": [session_out(Loaded.of(x)) for x in sessions]}
        return Response(sp.GroupImportOut(body).data, status=201)

    return _once(request, raw, run)

