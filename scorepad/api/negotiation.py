"""Content negotiation where ``?format=`` wins over the Accept header.

DRF matches the format's renderer against Accept as well, so ``export?format=csv`` from a
client that always sends ``Accept: application/json`` got 406. The format in the URL is
what the user asked for: it is served whatever the client accepts by default.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.negotiation import DefaultContentNegotiation


class FormatFirst(DefaultContentNegotiation):
    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        wanted = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if wanted is not None:  # asked for, even empty ("?format="): it must exist
            for renderer in renderers:
                if renderer.format == wanted:
                    return renderer, renderer.media_type
            raise NotFound()
        return super().select_renderer(request, renderers, format_suffix)
