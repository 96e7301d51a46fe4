"""Request bodies: JSON only, at most ``API_MAX_BODY_BYTES`` (64 KiB unless set).

The largest real request (an action, a dispute's reason) is a few kilobytes; a body over
the limit is refused with 413 ``payload_too_large`` before it is read in full: by its
``Content-Length`` in :meth:`games.api.views.ApiView.initial`, and here while reading
for bodies sent without one (chunked).
"""

from __future__ import annotations

import io
from typing import IO, Any

from django.conf import settings
from rest_framework.parsers import JSONParser

from games.api.exceptions import PayloadTooLarge

DEFAULT_MAX_BODY_BYTES = 64 * 1024


def max_body_bytes() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES))


def too_large(size: int | None = None) -> PayloadTooLarge:
    limit = max_body_bytes()
    told = f" ({size} bytes)" if size is not None else ""
    return PayloadTooLarge(
        f"The request body{told} is larger than the API accepts ({limit} bytes)."
    )


def refuse_oversized(request: Any) -> None:
    """Refuse a body by its announced length, before reading any of it."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    if size > max_body_bytes():
        raise too_large(size)


class LimitedJSONParser(JSONParser):
    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        limit = max_body_bytes()
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise too_large()
        return super().parse(io.BytesIO(data), media_type, parser_context)
