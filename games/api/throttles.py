"""Request rates (DRF scoped throttling); 429 ``throttled`` with ``Retry-After`` seconds.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under the scopes ``anon``
(per IP address), ``user`` (per account, every request) and ``actions`` (per account,
``POST .../actions`` only). They are read on every request, so changing the settings
(or ``override_settings`` in a test) takes effect at once; a missing scope means
unthrottled.

Counting: a sliding window estimated from two fixed-window counters (the current
window's count plus the previous window's, weighted by how much of it still overlaps),
kept in the cache with an atomic increment. DRF's default keeps a list of every request's
time and rewrites it on each request (two cache round trips and a list as long as the
rate, and concurrent requests can overwrite each other's entries); here one Redis round
trip counts a request, and concurrent requests never lose a count.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.redis import RedisCache
from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

DEFAULT_RATES = {"anon": "60/min", "user": "1200/min", "actions": "600/min"}


class _SettingsRate(throttling.SimpleRateThrottle):
    num_requests: int | None  # set by SimpleRateThrottle.__init__ from the rate
    duration: int | None
    _wait: float = 0.0

    def get_rate(self) -> Any:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES or {}
        assert self.scope is not None
        return rates.get(self.scope, DEFAULT_RATES.get(self.scope))

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        limit, duration = self.num_requests, self.duration
        assert limit is not None
        assert duration is not None
        self._wait = sliding_window_wait(self.cache, self.key, limit, duration, self.timer())
        return self._wait == 0.0

    def wait(self) -> float | None:
        return float(max(1, math.ceil(self._wait)))


def sliding_window_wait(cache: BaseCache, key: str, limit: int, duration: int, now: float) -> float:
    """Count one request under ``key``; 0.0 if it is within ``limit`` per ``duration``
    seconds, else the seconds to wait before the next one would be."""
    window = int(now // duration)
    elapsed = now - window * duration
    count, previous = _count(cache, f"{key}:{window}", f"{key}:{window - 1}", 2 * duration)
    overlap = 1.0 - elapsed / duration  # share of the previous window still in view
    if previous * overlap + count <= limit:
        return 0.0
    if count >= limit:  # even the current window alone is full: wait for the next
        return max(duration - elapsed, 1e-3)
    # Wait until enough of the previous window has slid out of view.
    return max(duration * (1.0 - (limit - count) / previous) - elapsed, 1e-3)


def _count(cache: BaseCache, key: str, previous_key: str, timeout: int) -> tuple[int, int]:
    """Count one request under ``key``; return it with the count under ``previous_key``."""
    if cache is default_cache:  # DRF's throttles hold the proxy; count on the backend
        cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        # One round trip: INCR is atomic, so concurrent workers never lose a count.
        full, full_previous = (
            cache.make_and_validate_key(key),
            cache.make_and_validate_key(previous_key),
        )
        client = cache._cache.get_client(full, write=True)
        pipe = client.pipeline(transaction=False)
        pipe.incr(full)
        pipe.expire(full, timeout)
        pipe.get(full_previous)
        count, _, previous = pipe.execute()
        return int(count), int(previous or 0)
    if cache.add(key, 1, timeout):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.set(key, 1, timeout)
            count = 1
    return count, int(cache.get(previous_key) or 0)


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
