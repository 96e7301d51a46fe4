"""A database that cannot be reached is a temporary outage, not a crash.

When a view fails because PostgreSQL is unreachable (restarting, failing over, out of
connections), the answer is ``503 Service Unavailable`` with ``Retry-After``: JSON
``{"code": "service_unavailable", "detail": ...}`` under ``/api/`` and a short page
elsewhere, instead of a 500. Nothing was half-applied: every write runs in one
transaction, which the failure rolled back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning(
            "database unavailable for %s %s: %s", request.method, request.path, exception
        )
        detail = _("The database is unavailable for a moment; nothing was changed. Try again.")
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse({"code": "service_unavailable", "detail": detail}, status=503)
        else:
            response = HttpResponse(detail, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
