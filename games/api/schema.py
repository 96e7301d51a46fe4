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
    "abort_not_allowed": (
        409,
        "A person has moved in this game, so it can no longer be aborted: play it to the end.",
    ),
    "undo_not_available": (
        409,
        "Nothing to take back: you may undo only your own last actions in your own turn "
        "while you are to act, back to the last point where hidden information was "
        "revealed (a draw, a Scout, an Expel of a face-down card, an Oust reveal, an event "
        "draw); a move by another seat or an automatic step closes the undo window too "
        "(15.5.2).",
    ),
    "payload_too_large": (413, "The request body (70000 bytes) is larger than the API accepts."),
    "unsupported_media_type": (415, 'Unsupported media type "text/plain" in request.'),
    "idempotency_key_reused": (
        422,
        "This Idempotency-Key was already used for a different request.",
    ),
    "throttled": (429, "Too many requests: try again in 12 seconds."),
    "too_many_streams": (
        429,
        "Too many open streams for this address (at most 20): close one, or retry in 10 seconds.",
    ),
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
    address api.md gives (every endpoint also answers with the other trailing slash).

    The API's views mark their second route (``alternate_route``); games/live_urls.py
    mounts the same view twice, the documented address first, so of two routes that
    differ only by the trailing slash the first is kept."""
    kept: list[tuple[Any, ...]] = []
    seen: set[tuple[str, str]] = set()
    for endpoint in endpoints:
        path, _pattern, method, callback = endpoint[:4]
        if getattr(callback, "initkwargs", {}).get("alternate_route", False):
            continue
        key = (str(path).rstrip("/"), str(method))
        if key in seen:
            continue
        seen.add(key)
        kept.append(endpoint)
    return kept


# --- the live streams (games/streams.py: plain Django views, docs/streams.md) -------------

STREAM_FORMAT = (
    "`text/event-stream` (Server-Sent Events). The first block is `retry: <ms>` and "
    "`id: <newest event id>` without data; then every message is one `id:` line (the "
    "event's id: increasing, not contiguous) and one `data:` line holding a JSON object "
    "with at least `type`, `game` (id or null), `version` (the game's version after the "
    "change, or null) and `at`, then a blank line. There is no `event:` field. "
    "`: keep-alive` comment lines come every 15 s of silence; the connection ends after "
    "300 s (reconnect with Last-Event-ID)."
)
STREAM_EXAMPLE = (
    "retry: 2000\nid: 41\n\n"
    'id: 42\ndata: {"type":"move","game":7,"version":12,"seq":9,"seat":1,"actor":"human",'
    '"bot":null,"action":{"type":"play","card":null,"indulgence":false},"to_act":2,'
    '"hand_number":1,"phase":"playing","status":"in_progress",'
    '"at":"2026-11-22T03:01:02.5+00:00"}\n\n'
    ": keep-alive\n\n"
)
# One message of the stream, as OpenAPI 3.2 (and schemathesis, for 3.0) reads an event
# stream's schema: an object per event. Blocks without data (the first one, keep-alive
# comments) are not messages.
STREAM_EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One message of the stream (the body itself is text, not JSON).",
    "properties": {
        "id": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The event's id: increasing, not contiguous; resume after it.",
        },
        "event": {
            "type": "string",
            "enum": ["message"],
            "description": "Never sent: every message is dispatched as `message`.",
        },
        "data": {
            "type": "string",
            "description": (
                "One JSON object on one line, with at least `type`, `game` (id or null), "
                "`version` (the game's version after the change, or null) and `at`."
            ),
        },
        "retry": {
            "type": "integer",
            "description": "The reconnection delay in ms (first block only, without data).",
        },
    },
    "required": ["data"],
}
STREAM_ERRORS: dict[str, str] = {
    "invalid_request": "Last-Event-ID must be a non-negative integer event id.",
    "not_authenticated": "The bearer token is unknown or has been revoked.",
    "insufficient_scope": "This token lacks the 'read' scope needed for streams.",
    "not_found": "There is no game 12345.",
    "too_many_streams": ERROR_CODES["too_many_streams"][1],
}


def _stream_errors(*codes: str) -> dict[str, Any]:
    """Error responses of a stream, as OpenAPI objects (the streams are not throttled, but
    the streams open at once are limited: ``too_many_streams``)."""
    by_status: dict[str, list[str]] = {}
    for code in codes:
        by_status.setdefault(str(ERROR_CODES[code][0]), []).append(code)
    return {
        status: {
            "description": "Error; code: " + " | ".join(f"`{c}`" for c in status_codes),
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/ErrorResponse"},
                    "examples": {
                        code.replace("_", " ").capitalize().replace(" ", ""): {
                            "value": {"code": code, "detail": STREAM_ERRORS[code]},
                            "summary": code,
                        }
                        for code in status_codes
                    },
                }
            },
        }
        for status, status_codes in sorted(by_status.items())
    }


def _stream_operation(
    *, operation_id: str, summary: str, description: str, anonymous: bool, codes: tuple[str, ...]
) -> dict[str, Any]:
    parameters: list[dict[str, Any]] = []
    if operation_id == "games_stream":
        parameters.append(
            {
                "in": "path",
                "name": "game_id",
                "schema": {"type": "integer"},
                "description": "The game's id.",
                "required": True,
            }
        )
    resume = (
        "Resume after this event id: the stream first sends exactly the events after it "
        "that it carries, in order, then live events. Without it, the stream starts at "
        "the newest event."
    )
    parameters += [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "schema": {"type": "integer", "minimum": 0},
            "description": resume + " Browsers send it themselves when they reconnect.",
        },
        {
            "in": "query",
            "name": "last_event_id",
            "schema": {"type": "integer", "minimum": 0},
            "description": "The same as the Last-Event-ID header, for clients that cannot "
            "set headers (the header wins).",
        },
    ]
    security: list[dict[str, Any]] = [{"bearerAuth": []}, {"cookieAuth": []}]
    if anonymous:
        security.append({})
    return {
        "operationId": operation_id,
        "summary": summary,
        "description": description + "\n\n" + STREAM_FORMAT,
        "parameters": parameters,
        "tags": ["streams"],
        "security": security,
        "responses": {
            "200": {
                "description": "The event stream (never ends by itself before 300 s).",
                "content": {
                    "text/event-stream": {
                        "schema": STREAM_EVENT_SCHEMA,
                        "examples": {
                            "Events": {"value": STREAM_EXAMPLE, "summary": "A move event"}
                        },
                    }
                },
            },
            **_stream_errors(*codes),
        },
    }


def add_stream_paths(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]: the two Server-Sent Events streams,
    which are plain Django views (not DRF), documented by hand."""
    paths = result.setdefault("paths", {})
    paths["/api/v1/games/{game_id}/stream"] = {
        "get": _stream_operation(
            operation_id="games_stream",
            summary="A game's live events",
            description=(
                "Anyone who may see the game (seated players, spectators, anonymous "
                "callers) gets its events, filtered for the caller's seat: `player_joined`, "
                "`game_started`, `move`, `hand_settled`, `game_finished`, "
                "`seat_handed_to_bot`. No event carries a card still in anyone's hand. "
                "Treat an event as 'the game changed' and fetch the game for the full view."
            ),
            anonymous=True,
            codes=(
                "invalid_request",
                "not_authenticated",
                "insufficient_scope",
                "not_found",
                "too_many_streams",
            ),
        )
    }
    paths["/api/v1/stream"] = {
        "get": _stream_operation(
            operation_id="account_stream",
            summary="Your account's live events",
            description=(
                "One event per notification (see GET /api/v1/notifications): `your_turn`, "
                "`reminder`, `game_started`, `player_joined`, `game_finished`, "
                "`seat_handed_to_bot`, `dispute_update`, with `game`, `version`, "
                "`notification` (its id), `title`, `body`, `url` and `data`. A bearer token "
                "needs the `read` scope."
            ),
            anonymous=False,
            codes=(
                "invalid_request",
                "not_authenticated",
                "insufficient_scope",
                "too_many_streams",
            ),
        )
    }
    result["paths"] = dict(sorted(paths.items()))
    return result


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
