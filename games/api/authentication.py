"""Who is asking: a bearer token (REST clients, bots) or the web site's session.

``request.auth`` is the :class:`~games.models.ApiToken` for bearer requests (its scopes
are checked by :mod:`games.api.permissions`) and ``None`` for session requests.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games import services
from games.api.exceptions import CsrfFailed, InvalidToken
from games.models import ApiToken

BEARER = "bearer"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``; other schemes are left to the next authenticator."""

    www_authenticate_realm = "api"

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode("latin-1").lower() != BEARER:
            return None
        if len(header) != 2:
            raise InvalidToken(
                "Send the token as 'Authorization: Bearer <token>', with exactly one space."
            )
        try:
            raw = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise InvalidToken("The bearer token contains characters a token never has.") from None
        token = services.token_authenticate(raw=raw)
        if token is None:
            raise InvalidToken("The bearer token is unknown or has been revoked.")
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'Bearer realm="{self.www_authenticate_realm}"'


class SessionAuthentication(authentication.SessionAuthentication):
    """The web site's login session; unsafe methods must carry the CSRF token."""

    def enforce_csrf(self, request: Any) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as exc:
            raise CsrfFailed(
                "The CSRF check failed: send the csrftoken cookie's value in the "
                "X-CSRFToken header, or use a bearer token instead of the session."
            ) from exc
