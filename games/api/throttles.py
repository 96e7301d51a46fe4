"""Request rates (DRF scoped throttling); 429 ``throttled`` with ``Retry-After`` seconds.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under the scopes ``anon``
(per IP address), ``user`` (per account, every request) and ``actions`` (per account,
``POST .../actions`` only). They are read on every request, so changing the settings
(or ``override_settings`` in a test) takes effect at once; a missing scope means
unthrottled.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

DEFAULT_RATES = {"anon": "60/min", "user": "1200/min", "actions": "600/min"}


class _SettingsRate(throttling.SimpleRateThrottle):
    def get_rate(self) -> Any:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES or {}
        assert self.scope is not None
        return rates.get(self.scope, DEFAULT_RATES.get(self.scope))


class AnonThrottle(_SettingsRate, throttling.AnonRateThrottle):
    """Callers without an account, per IP address."""

    scope = "anon"


class UserThrottle(_SettingsRate, throttling.UserRateThrottle):
    """Signed-in callers, per account (every endpoint)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None  # AnonThrottle counts these
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class ActionThrottle(_SettingsRate):
    """Submitted actions, per account."""

    scope = "actions"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}
