"""One error shape for the whole API: ``{"code": "<snake_case>", "detail": "<sentence>"}``.

:func:`exception_handler` (DRF's ``EXCEPTION_HANDLER``) maps the services' errors
(:class:`games.errors.ServiceError`: their own status and code) and DRF's exceptions to
that shape. Validation errors add ``"errors"``: the field errors, keyed by field name.
The ``handler*`` functions give Django's own 400/403/404/500 responses the same shape
under ``/api/`` (unknown URLs, crashes), and leave every other page to Django.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response

from games.errors import ServiceError

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"


class InvalidToken(exceptions.AuthenticationFailed):
    api_code = "not_authenticated"


class CsrfFailed(exceptions.PermissionDenied):
    api_code = "csrf_failed"


class InsufficientScope(exceptions.PermissionDenied):
    api_code = "insufficient_scope"


class SessionRequired(exceptions.PermissionDenied):
    api_code = "session_required"
    default_detail = (
        "API tokens are managed from a logged-in web session (or with manage.py "
        "issue_token), not with a bearer token."
    )


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    api_code = "payload_too_large"


# DRF exception class -> the API's code. Checked in order: subclasses first.
_CODES: tuple[tuple[type[exceptions.APIException], str], ...] = (
    (exceptions.ValidationError, "invalid_request"),
    (exceptions.ParseError, "malformed_json"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "not_authenticated"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.PermissionDenied, "forbidden"),
)

_SENTENCES: dict[str, str] = {
    "not_authenticated": (
        "Authentication is required: send 'Authorization: Bearer <token>' or log in."
    ),
    "not_found": "There is nothing at this address.",
    "forbidden": "You may not do this.",
    "server_error": "Something went wrong on our side; the error has been logged.",
    "bad_request": "The request could not be understood.",
}


# What may end a sentence already: English and Japanese (full-width) stops and marks.
SENTENCE_ENDS = ".!?。！？"


def sentence(text: str) -> str:
    """``text`` as a sentence: stripped, with a final full stop unless it has one (a
    Japanese sentence ends in "。" and gets no "." after it)."""
    text = str(text).strip()
    if text and text[-1] not in SENTENCE_ENDS:
        text += "."
    return text


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "detail": sentence(detail), **extra}


def flatten_errors(errors: Any, prefix: str = "") -> list[str]:
    """DRF's nested field errors as ``["field: message.", "bots[0].seat: message."]``."""
    if isinstance(errors, dict):
        lines: list[str] = []
        for field, value in errors.items():
            if field in ("non_field_errors", "__all__"):
                name = prefix
            elif isinstance(field, int):  # list items: DRF keys their errors by index
                name = f"{prefix}[{field}]"
            elif prefix:
                name = f"{prefix}.{field}"
            else:
                name = str(field)
            lines.extend(flatten_errors(value, name))
        return lines
    if isinstance(errors, list):
        if all(not isinstance(item, dict | list) for item in errors):
            return [f"{prefix}: {sentence(item)}" if prefix else sentence(item) for item in errors]
        lines = []
        for index, item in enumerate(errors):
            if item:
                lines.extend(flatten_errors(item, f"{prefix}[{index}]"))
        return lines
    return [f"{prefix}: {sentence(errors)}" if prefix else sentence(errors)]


def _code_of(exc: exceptions.APIException) -> str:
    api_code = getattr(exc, "api_code", None)  # the subclasses above name their code
    if api_code is not None:
        return str(api_code)
    for klass, code in _CODES:
        if isinstance(exc, klass):
            return code
    return "error"


def _detail_of(exc: exceptions.APIException, code: str) -> tuple[str, dict[str, Any]]:
    if isinstance(exc, exceptions.ValidationError):
        lines = flatten_errors(exc.detail)
        detail = " ".join(lines) or "The request is not valid."
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return f"The request is not valid: {detail}", {"errors": errors}
    if isinstance(exc, exceptions.ParseError):
        reason = str(exc.detail).removeprefix("JSON parse error - ")
        return f"The request body is not valid JSON ({reason})", {}
    if isinstance(exc, exceptions.Throttled):
        return f"Too many requests: try again in {_retry_after(exc)} seconds", {}
    if isinstance(exc, exceptions.NotAuthenticated):
        return _SENTENCES["not_authenticated"], {}
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return f"{exc.detail} Send 'Content-Type: application/json'", {}
    if isinstance(exc, exceptions.NotFound) and str(exc.detail) == str(
        exceptions.NotFound.default_detail
    ):
        return _SENTENCES["not_found"], {}
    return str(exc.detail), {}


def _retry_after(exc: exceptions.Throttled) -> int:
    wait = getattr(exc, "wait", None)
    return max(1, math.ceil(wait)) if wait is not None else 1


def set_rollback() -> None:
    # Imported here: rest_framework.views imports the authentication classes, which
    # import this module.
    from rest_framework.views import set_rollback as drf_set_rollback

    drf_set_rollback()


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every refusal as ``{"code", "detail"}``."""
    if isinstance(exc, ServiceError):
        set_rollback()
        return Response(error_body(exc.code, exc.detail, **exc.extra), status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None  # a bug: Django answers 500 (JSON under /api/, see handler500)

    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    if isinstance(exc, exceptions.Throttled):
        headers["Retry-After"] = str(_retry_after(exc))
    code = _code_of(exc)
    detail, extra = _detail_of(exc, code)
    set_rollback()
    return Response(error_body(code, detail, **extra), status=exc.status_code, headers=headers)


# --- Django's own error views, for URLs DRF never sees -----------------------------------


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def json_error(status_code: int, code: str, detail: str | None = None) -> JsonResponse:
    return JsonResponse(error_body(code, detail or _SENTENCES[code]), status=status_code)


@csrf_exempt  # it changes nothing; without this a POST got Django's HTML CSRF 403
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """The last pattern of the API's URLconf: any unknown ``/api/v1/`` address."""
    return json_error(404, "not_found", f"There is no API endpoint at {request.path}.")


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return json_error(400, "bad_request")
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return json_error(403, "forbidden")
    return defaults.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return json_error(404, "not_found", f"There is no API endpoint at {request.path}.")
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return json_error(500, "server_error")
    return defaults.server_error(request)
