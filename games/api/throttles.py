"""Request rates (DRF scoped throttling); 429 ``throttled`` with ``Retry-After`` seconds.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under the scopes ``anon``
(per client address: :func:`games.client_address.client_address`, which believes
``X-Forwarded-For`` only from ``TRUSTED_PROXIES``), ``user`` (per account, every request)
and ``actions`` (per account, ``POST .../actions`` only). They are read on every request,
so changing the settings (or ``override_settings`` in a test) takes effect at once; a
missing scope means unthrottled.

Counting: a sliding window estimated from two fixed-window counters (the current
window's count plus the previous window's, weighted by how much of it still overlaps),
kept in the cache with an atomic increment. DRF's default keeps a list of every request's
time and rewrites it on each request (two cache round trips and a list as long as the
rate, and concurrent requests can overwrite each other's entries); here one Redis round
trip counts a request, and concurrent requests never lose a count.

Fail open: when the cache (Redis) cannot be reached, requests are let through and a
warning is logged (at most once every ``_WARN_EVERY`` seconds per process), never a 500.
"""

from __future__ import annotations

import logging
import math
import weakref
from typing import Any

import redis
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.redis import RedisCache
from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.client_address import client_address
from games.warnings_every import WarnEvery

logger = logging.getLogger(__name__)

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


# What a cache that cannot be reached raises: redis-py's errors (Django's RedisCache lets
# them through) and socket errors from other backends.
CACHE_DOWN = (redis.RedisError, OSError)
_warn = WarnEvery(logger)


def cache_down_warning(what: str, exc: BaseException) -> None:
    """Log that counting failed open (at most once every 10 s per process)."""
    _warn("%s not counted, let through: the cache is unreachable (%s)", what, exc)


def sliding_window_wait(cache: BaseCache, key: str, limit: int, duration: int, now: float) -> float:
    """Count one request under ``key``; 0.0 if it is within ``limit`` per ``duration``
    seconds, else the seconds to wait before the next one would be. 0.0 as well when the
    cache cannot be reached (fail open, with a warning)."""
    try:
        count, previous = _count(cache, *_window_keys(key, duration, now))
    except CACHE_DOWN as exc:
        cache_down_warning(f"request under {key!r}", exc)
        return 0.0
    return _window_wait(count, previous, limit, duration, now)


def _window_keys(key: str, duration: int, now: float) -> tuple[str, str, int]:
    """The current and the previous window's counter keys, and how long to keep them."""
    window = int(now // duration)
    return f"{key}:{window}", f"{key}:{window - 1}", 2 * duration


def _window_wait(count: int, previous: int, limit: int, duration: int, now: float) -> float:
    """The wait for a request counted ``count``-th in the current window, ``previous``
    having been counted in the window before."""
    elapsed = now - int(now // duration) * duration
    overlap = 1.0 - elapsed / duration  # share of the previous window still in view
    if previous * overlap + count <= limit:
        return 0.0
    if count >= limit:  # even the current window alone is full: wait for the next
        return max(duration - elapsed, 1e-3)
    # Wait until enough of the previous window has slid out of view.
    return max(duration * (1.0 - (limit - count) / previous) - elapsed, 1e-3)


def _backend(cache: BaseCache) -> BaseCache:
    # DRF's throttles hold the proxy: count on the backend itself.
    return caches[DEFAULT_CACHE_ALIAS] if cache is default_cache else cache


def _count(cache: BaseCache, key: str, previous_key: str, timeout: int) -> tuple[int, int]:
    """Count one request under ``key``; return it with the count under ``previous_key``."""
    cache = _backend(cache)
    if isinstance(cache, RedisCache):
        # One round trip: INCR is atomic, so concurrent workers never lose a count.
        return _redis_counts(cache, [(key, previous_key, timeout)])[0]
    if cache.add(key, 1, timeout):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.set(key, 1, timeout)
            count = 1
    return count, int(cache.get(previous_key) or 0)


# One client per connection pool: Django's RedisCache builds a new client object (and its
# table of reply parsers) on every call, which cost more CPU than the round trip itself.
_CLIENTS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _client(cache: RedisCache) -> Any:
    backend: Any = cache._cache
    pool = backend._get_connection_pool(write=True)
    client = _CLIENTS.get(pool)
    if client is None:
        client = _CLIENTS[pool] = backend.get_client(write=True)
    return client


def _redis_counts(cache: RedisCache, keys: list[tuple[str, str, int]]) -> list[tuple[int, int]]:
    """For each (key, previous key, timeout): count one request under the key and read the
    previous key, all in one pipelined round trip."""
    pipe = _client(cache).pipeline(transaction=False)
    for key, previous_key, timeout in keys:
        full = cache.make_and_validate_key(key)
        pipe.incr(full)
        pipe.expire(full, timeout)
        pipe.get(cache.make_and_validate_key(previous_key))
    answers = pipe.execute()
    return [(int(answers[3 * i]), int(answers[3 * i + 2] or 0)) for i in range(len(keys))]


def throttle_waits(throttles: list[Any], request: Request, view: Any) -> list[float | None]:
    """What DRF's ``APIView.check_throttles`` asks of each throttle (the waits of those that
    refuse), except that the sliding-window throttles counting in Redis are counted
    together, in one round trip for the whole request (a move has two: per account and
    per action)."""
    waits: list[float | None] = []
    batched: list[tuple[_SettingsRate, str, int, int, float]] = []
    for throttle in throttles:
        if isinstance(throttle, _SettingsRate) and isinstance(_backend(throttle.cache), RedisCache):
            if throttle.rate is None:
                continue
            key = throttle.get_cache_key(request, view)
            if key is None:
                continue
            limit, duration = throttle.num_requests, throttle.duration
            assert limit is not None
            assert duration is not None
            batched.append((throttle, key, limit, duration, throttle.timer()))
        elif not throttle.allow_request(request, view):
            waits.append(throttle.wait())
    by_cache: dict[RedisCache, list[tuple[_SettingsRate, str, int, int, float]]] = {}
    for item in batched:
        backend = _backend(item[0].cache)
        assert isinstance(backend, RedisCache)
        by_cache.setdefault(backend, []).append(item)
    for cache, items in by_cache.items():
        keys = [_window_keys(key, duration, now) for _, key, _, duration, now in items]
        try:
            counts = _redis_counts(cache, keys)
        except CACHE_DOWN as exc:
            cache_down_warning("API request", exc)
            continue  # fail open: these throttles let the request through
        for (throttle, key, limit, duration, now), (count, previous) in zip(
            items, counts, strict=True
        ):
            throttle.key = key
            throttle._wait = _window_wait(count, previous, limit, duration, now)
            if throttle._wait:
                waits.append(throttle.wait())
    return waits


class AnonThrottle(_SettingsRate, throttling.AnonRateThrottle):
    """Callers without an account, per client address."""

    scope = "anon"

    def get_ident(self, request: Request) -> str:
        # DRF's own reads any X-Forwarded-For: a client could name a fresh address on
        # every request. Only our proxies' header is believed.
        return client_address(request._request)


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
