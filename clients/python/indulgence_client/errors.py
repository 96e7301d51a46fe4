"""Exceptions carrying the server's error ``code`` and ``detail`` (api.md "Errors")."""

from __future__ import annotations

from typing import Any


class IndulgenceError(Exception):
    """Base of every error this client raises."""


class TransportError(IndulgenceError):
    """The server could not be reached (after the bounded retries)."""


class ApiError(IndulgenceError):
    """The server refused the request: ``status``, ``code`` (program against it), ``detail``."""

    def __init__(
        self, status: int, code: str, detail: str, body: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.body = body or {}


class InvalidRequest(ApiError):
    """400 invalid_request / malformed_json: ``errors`` holds the messages per field."""

    @property
    def errors(self) -> dict[str, Any]:
        return dict(self.body.get("errors") or {})


class IllegalAction(ApiError):
    """400 illegal_action: the rules refuse the action; ``detail`` says why."""


class UnknownBot(ApiError):
    """400 unknown_bot."""


class NotAuthenticated(ApiError):
    """401: no token, or a bad or revoked one."""


class Forbidden(ApiError):
    """403: insufficient_scope, session_required, forbidden..."""


class NotSeated(Forbidden):
    """403 not_seated: you have no seat at this game."""


class NotFound(ApiError):
    """404 not_found."""


class Conflict(ApiError):
    """409: the game's state does not allow this now."""


class NotYourTurn(Conflict):
    """409 not_your_turn."""


class VersionConflict(Conflict):
    """409 version_conflict: the game moved on; fetch the view and decide again."""


class GameNotActive(Conflict):
    """409 game_not_active: not started yet, or over."""


class GameFull(Conflict):
    """409 game_full."""


class AlreadySeated(Conflict):
    """409 already_seated."""


class NotOpen(Conflict):
    """409 not_open."""


class GameNotFinished(Conflict):
    """409 game_not_finished: the full record is published when the game ends."""


class PayloadTooLarge(ApiError):
    """413 payload_too_large."""


class IdempotencyKeyReused(ApiError):
    """422 idempotency_key_reused."""


class RateLimited(ApiError):
    """429 throttled, still refused after the client's bounded waits: ``retry_after`` s."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        body: dict[str, Any] | None = None,
        retry_after: float = 1.0,
    ) -> None:
        super().__init__(status, code, detail, body)
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx: a bug or an outage on the server's side."""


_BY_CODE: dict[str, type[ApiError]] = {
    "invalid_request": InvalidRequest,
    "malformed_json": InvalidRequest,
    "illegal_action": IllegalAction,
    "unknown_bot": UnknownBot,
    "not_authenticated": NotAuthenticated,
    "not_seated": NotSeated,
    "not_found": NotFound,
    "not_your_turn": NotYourTurn,
    "version_conflict": VersionConflict,
    "game_not_active": GameNotActive,
    "game_full": GameFull,
    "already_seated": AlreadySeated,
    "not_open": NotOpen,
    "game_not_finished": GameNotFinished,
    "payload_too_large": PayloadTooLarge,
    "idempotency_key_reused": IdempotencyKeyReused,
}

_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequest,
    401: NotAuthenticated,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: IdempotencyKeyReused,
}


def error_for(status: int, body: Any, retry_after: float | None = None) -> ApiError:
    """The exception for an error response (``body`` is the decoded JSON, if any)."""
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code") or f"http_{status}")
    detail = str(body.get("detail") or f"The server answered HTTP {status}.")
    if status == 429:
        return RateLimited(status, code, detail, body, retry_after=retry_after or 1.0)
    klass = _BY_CODE.get(code)
    if klass is None:
        klass = ServerError if status >= 500 else _BY_STATUS.get(status, ApiError)
    return klass(status, code, detail, body)
