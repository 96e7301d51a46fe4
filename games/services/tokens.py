"""API tokens: issued (the clear text shown once), revoked, and checked on every API
request (only their sha256 is stored)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from games.compiled import CompiledQuery
from games.errors import InvalidRequest, NotFound
from games.models import ApiToken, TokenScope

TOKEN_PREFIX = "ind_"  # noqa: S105 (a marker that makes leaked tokens greppable)
TOKEN_TOUCH_INTERVAL = timedelta(minutes=1)

# Every API request authenticates: compiled once per process (games.compiled).
_TOKEN = CompiledQuery(
    lambda token_hash: (
        ApiToken.objects.select_related("user")
        .filter(token_hash=token_hash, revoked_at__isnull=True, user__is_active=True)
        .order_by("pk")[:1]
    ),
    str,
)


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def token_issue(
    *, user: User, name: str = "", scopes: Sequence[str] = ("read", "play")
) -> tuple[ApiToken, str]:
    """Create a token; the clear text is returned once and never stored."""
    unknown = set(scopes) - set(TokenScope.values)
    if unknown or not scopes:
        raise InvalidRequest(
            _("Scopes must be chosen from %(scopes)s.") % {"scopes": ", ".join(TokenScope.values)}
        )
    if len(name) > 64:
        raise InvalidRequest(_("A token name may be at most 64 characters long."))
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        token_hash=_token_hash(raw),
        prefix=raw[:12],
        scopes=sorted(set(scopes)),
    )
    return token, raw


def token_revoke(*, token_id: int, user: User) -> None:
    updated = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if not updated and not ApiToken.objects.filter(pk=token_id, user=user).exists():
        raise NotFound(_("You have no token with that id."))


def token_authenticate(*, raw: str) -> ApiToken | None:
    token = _TOKEN.first(_token_hash(raw))
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOKEN_TOUCH_INTERVAL:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
