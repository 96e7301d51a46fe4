"""Request bodies: JSON only, at most ``API_MAX_BODY_BYTES`` (64 KiB unless set).

The largest real request (an action, a dispute's reason) is a few kilobytes; a body over
the limit is refused with 413 ``payload_too_large`` before it is read in full: by its
``Content-Length`` in :meth:`games.api.views.ApiView.initial`, and here while reading
for bodies sent without one (chunked).

Nesting is limited too: a body nested deeper than ``MAX_JSON_DEPTH`` (arrays and objects
within each other) is a 400 ``malformed_json``, like one so deep that the parser itself
gives up (``RecursionError``, about 1,000 levels: 64 KiB of ``[`` is 65,536). The real
requests are three or four levels deep.
"""

from __future__ import annotations

import io
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.api.exceptions import PayloadTooLarge

DEFAULT_MAX_BODY_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32


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
        try:
            parsed = super().parse(io.BytesIO(data), media_type, parser_context)
        except RecursionError:
            raise too_deep() from None
        if json_depth(parsed) > MAX_JSON_DEPTH:
            raise too_deep()
        return parsed


def too_deep() -> ParseError:
    return ParseError(
        f"JSON parse error - arrays and objects nested more than {MAX_JSON_DEPTH} deep."
    )


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in item)
    return deepest
