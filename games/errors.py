"""Errors the services raise. Each has one HTTP status and one snake_case ``code``.

The API maps them to ``{"code": ..., "detail": ...}``; web views show ``detail``.
"""

from __future__ import annotations


class ServiceError(Exception):
    code = "error"
    status = 400

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code

    @property
    def extra(self) -> dict[str, str]:
        """Fields the API's error body carries besides ``code`` and ``detail``."""
        return {}


class InvalidRequest(ServiceError):
    code, status = "invalid_request", 400


class IllegalActionError(ServiceError):
    """The engine refused the action: ``reason`` is the engine's own code
    (``must_follow_suit``, ``card_not_in_hand``, ``rule_rejected``, ...), one per rule of
    the game, so a client can tell refusals apart without reading the sentence."""

    code, status = "illegal_action", 400

    def __init__(self, detail: str, *, reason: str = "") -> None:
        super().__init__(detail)
        self.reason = reason

    @property
    def extra(self) -> dict[str, str]:
        return {"reason": self.reason} if self.reason else {}


class UnknownBot(ServiceError):
    code, status = "unknown_bot", 400


class NotSeated(ServiceError):
    code, status = "not_seated", 403


class Forbidden(ServiceError):
    code, status = "forbidden", 403


class NotFound(ServiceError):
    code, status = "not_found", 404


class NotYourTurn(ServiceError):
    code, status = "not_your_turn", 409


class VersionConflict(ServiceError):
    code, status = "version_conflict", 409


class GameNotActive(ServiceError):
    code, status = "game_not_active", 409


class GameFull(ServiceError):
    code, status = "game_full", 409


class AlreadySeated(ServiceError):
    code, status = "already_seated", 409


class NotOpen(ServiceError):
    code, status = "not_open", 409


class GameNotFinished(ServiceError):
    code, status = "game_not_finished", 409


class AbortNotAllowed(ServiceError):
    code, status = "abort_not_allowed", 409


class UndoNotAvailable(ServiceError):
    """Nothing can be taken back now (the spec of Pax Illuminaten, 15.5.2; P-79), or the
    game offers no undo at all."""

    code, status = "undo_not_available", 409


class DisputeNotAllowed(ServiceError):
    code, status = "dispute_not_allowed", 409


class IdempotencyKeyReused(ServiceError):
    code, status = "idempotency_key_reused", 422
