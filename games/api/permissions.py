"""Who may call what.

* Public reads (a game's spectator view, its public move log, the lobby, the
  leaderboard, finished games' records) are open to anonymous callers.
* Writes need an account: a bearer token or the web session.
* A token carries scopes: ``read`` for GET/HEAD/OPTIONS, ``play`` for POST/DELETE
  (403 ``insufficient_scope``). Session users have both.
* Token management itself needs the web session (403 ``session_required``): a token
  must not be able to mint itself a wider one.
"""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from games.api.exceptions import InsufficientScope, SessionRequired
from games.models import ApiToken, TokenScope


def required_scope(method: str) -> str:
    return TokenScope.READ if method in permissions.SAFE_METHODS else TokenScope.PLAY


def token_scopes(request: Request) -> list[str]:
    """The scopes the caller holds: the token's, or every scope for a session."""
    if isinstance(request.auth, ApiToken):
        return list(request.auth.scopes)
    if request.user.is_authenticated:
        return list(TokenScope.values)
    return []


class TokenScopes(permissions.BasePermission):
    """A bearer token may only do what its scopes allow."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not isinstance(request.auth, ApiToken):
            return True
        scope = required_scope(request.method or "GET")
        if scope not in request.auth.scopes:
            raise InsufficientScope(
                f"This token lacks the '{scope}' scope needed for {request.method} requests; "
                f"it has: {', '.join(request.auth.scopes) or 'none'}."
            )
        return True


class ReadPublicWriteAuthenticated(permissions.BasePermission):
    """Anyone may read; only signed-in callers may write (401 otherwise)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user.is_authenticated)


class Authenticated(permissions.BasePermission):
    """Every method needs a signed-in caller (401 otherwise)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user.is_authenticated)


class SessionOnly(permissions.BasePermission):
    """Signed in through the web session, not with a bearer token."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user.is_authenticated:
            return False
        if isinstance(request.auth, ApiToken):
            raise SessionRequired()
        return True
