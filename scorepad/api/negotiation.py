"""Content negotiation where ``?format=`` wins over the Accept header.

DRF matches the format's renderer against Accept as well, so ``export?format=csv`` from a
client that always sends ``Accept: application/json`` got 406. The format in the URL is
what the user asked for: it is served whatever the client accepts by default.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.negotiation import DefaultContentNegotiation

#: Accept headers that take the first renderer as it is: what phones and API clients send
#: (DRF's full negotiation parses and orders every Accept header, a twentieth of a 304).
PLAIN_ACCEPT = frozenset({"", "*/*", "application/json"})


class FormatFirst(DefaultContentNegotiation):
    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        wanted = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if wanted is not None:  # asked for, even empty ("?format="): it must exist
            for renderer in renderers:
                if renderer.format == wanted:
                    return renderer, renderer.media_type
            raise NotFound()
        first = renderers[0] if renderers else None
        if (first is not None and first.media_type == "application/json"
                and request.META.get("HTTP_ACCEPT", "").strip() in PLAIN_ACCEPT):
            return first, first.media_type
        return super().select_renderer(request, renderers, format_suffix)
