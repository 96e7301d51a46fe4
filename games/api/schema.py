"""OpenAPI (drf-spectacular) helpers: the bearer scheme, error responses, examples."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from games.api.permissions import SessionOnly
from games.api.serializers import ErrorResponse

# Every code the API answers with, its status and a sample sentence (docs/api.md's table).
ERROR_CODES: dict[str, tuple[int, str]] = {
    "invalid_request": (400, 'The request is not valid: player_count: "5" is not a valid choice.'),
    "malformed_json": (
        400,
        "The request body is not valid JSON (Expecting value: line 1 column 1).",
    ),
    "illegal_action": (400, "You must follow medici: you hold M3, M8."),
    "unknown_bot": (400, "There is no built-in bot called 'genius'; available: heuristic, random."),
    "not_authenticated": (401, "The bearer token is unknown or has been revoked."),
    "insufficient_scope": (403, "This token lacks the 'play' scope needed for POST requests."),
    "session_required": (403, "API tokens are managed from a logged-in web session."),
    "csrf_failed": (403, "The CSRF check failed: send the csrftoken cookie's value."),
    "not_seated": (403, "You are not seated at this game."),
    "forbidden": (403, "Your seat is played by the heuristic bot for the rest of this game."),
    "not_found": (404, "There is no game 12345."),
    "method_not_allowed": (405, 'Method "PUT" not allowed.'),
    "not_acceptable": (406, "Could not satisfy the request Accept header."),
    "not_your_turn": (409, "It is seat 2's turn, not yours (seat 0)."),
    "version_conflict": (
        409,
        "The game is at version 42, not 41: fetch the game and decide again.",
    ),
    "game_not_active": (409, "This game is finished; no moves now."),
    "game_full": (409, "Every seat at this game is taken."),
    "already_seated": (409, "You already have a seat at this game."),
    "not_open": (409, "This game is void, not open for joining."),
    "game_not_finished": (409, "The full record is published when the game has finished."),
    "dispute_not_allowed": (409, "Games can be disputed up to 7 days after they end."),
    "payload_too_large": (413, "The request body (70000 bytes) is larger than the API accepts."),
    "unsupported_media_type": (415, 'Unsupported media type "text/plain" in request.'),
    "idempotency_key_reused": (
        422,
        "This Idempotency-Key was already used for a different request.",
    ),
    "throttled": (429, "Too many requests: try again in 12 seconds."),
    "server_error": (500, "Something went wrong on our side; the error has been logged."),
}

# Codes any endpoint may answer with, whatever it does.
COMMON_CODES = ("throttled",)
READ_CODES = ("not_authenticated", "insufficient_scope")
WRITE_CODES = (
    "not_authenticated",
    "insufficient_scope",
    "csrf_failed",
    "malformed_json",
    "payload_too_large",
    "unsupported_media_type",
)


def errors(*codes: str) -> dict[int, OpenApiResponse]:
    """The error responses of an endpoint: one entry per status, one example per code."""
    by_status: dict[int, list[str]] = {}
    for code in (*codes, *COMMON_CODES):
        status = ERROR_CODES[code][0]
        if code not in by_status.setdefault(status, []):
            by_status[status].append(code)
    responses = {}
    for status, status_codes in sorted(by_status.items()):
        responses[status] = OpenApiResponse(
            response=ErrorResponse,
            description="Error; code: " + " | ".join(f"`{c}`" for c in status_codes),
            examples=[
                OpenApiExample(
                    code,
                    value={"code": code, "detail": ERROR_CODES[code][1]},
                    response_only=True,
                    status_codes=[str(status)],
                )
                for code in status_codes
            ],
        )
    return responses


IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type=str,
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        "Up to 128 printable ASCII characters, unique per request you mean. Sending the same "
        "key with the same body again returns the first result (header Idempotent-Replayed: "
        "true) instead of acting twice; the same key with another body is refused (422)."
    ),
)


def drop_alternate_routes(endpoints: list[tuple[Any, ...]], **kwargs: Any) -> list[tuple[Any, ...]]:
    """SPECTACULAR_SETTINGS["PREPROCESSING_HOOKS"]: document each endpoint once, at the
    address api.md gives (every endpoint also answers with the other trailing slash)."""
    return [
        endpoint
        for endpoint in endpoints
        if not getattr(endpoint[3], "initkwargs", {}).get("alternate_route", False)
    ]


class ApiAutoSchema(AutoSchema):
    """Security as the views enforce it: anonymous access (``{}``) where allowed, and only
    the session where a bearer token is refused."""

    def get_auth(self) -> list[dict[str, Any]]:
        auths: list[dict[str, Any]] = super().get_auth()
        if any(isinstance(p, SessionOnly) for p in self.view.get_permissions()):
            return [auth for auth in auths if "cookieAuth" in auth]
        allows = getattr(self.view, "allows_anonymous", None)
        if allows is not None and allows(self.method) and {} not in auths:
            auths.append({})
        return auths


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "games.api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "An API token: 'Authorization: Bearer ind_...'. Create one on the web page "
                "'API tokens' or with 'manage.py issue_token USERNAME'. Scopes: read (GET), "
                "play (POST)."
            ),
        }


class SessionScheme(OpenApiAuthenticationExtension):
    target_class = "games.api.authentication.SessionAuthentication"
    name = "cookieAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": "sessionid",
            "description": "The web site's login session (unsafe methods need X-CSRFToken).",
        }
