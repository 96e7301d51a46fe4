"""The request-rate counters themselves, on the production cache (Redis) and on LocMem.

The endpoint tests (test_actions, test_errors) check the 429 answers; these check the
counting: exactly ``limit`` requests pass in a window, the answer says how long to wait,
the previous window still weighs on the next one, and concurrent requests never lose a
count (the Redis path counts with one atomic INCR).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from games.api.throttles import _SettingsRate
from tests.settings import TEST_REDIS_URL


class _Request:
    def __init__(self, user_id: int) -> None:
        self.user = type("U", (), {"is_authenticated": True, "pk": user_id})()


class _Throttle(_SettingsRate):
    scope = "test"
    rate = "5/min"

    def __init__(self, cache: BaseCache, now: float) -> None:
        self.cache = cache
        self.timer = lambda: now
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return f"throttle_test_{request.user.pk}"


@pytest.fixture(params=["redis", "locmem"])
def cache(request: pytest.FixtureRequest) -> Iterator[BaseCache]:
    prefix = f"t{uuid.uuid4().hex[:8]}"
    if request.param == "redis":
        backend: BaseCache = RedisCache(TEST_REDIS_URL, {"KEY_PREFIX": prefix})
    else:
        backend = LocMemCache(prefix, {})
    yield backend
    backend.clear()


def _allowed(cache: BaseCache, now: float, user: int = 1) -> tuple[bool, float | None]:
    throttle = _Throttle(cache, now)
    allowed = throttle.allow_request(_Request(user), None)  # type: ignore[arg-type]
    return allowed, None if allowed else throttle.wait()


@pytest.mark.redis
def test_it_lets_exactly_the_limit_through_then_says_how_long_to_wait(cache: BaseCache) -> None:
    start = 600.0 * 1000  # the start of a one-minute window
    results = [_allowed(cache, start + i) for i in range(6)]
    assert [ok for ok, _ in results] == [True] * 5 + [False]
    assert results[5][1] == 55  # the window ends 55 s after the sixth request


@pytest.mark.redis
def test_it_counts_each_account_apart(cache: BaseCache) -> None:
    start = 600.0 * 1000
    for _ in range(5):
        assert _allowed(cache, start, user=1)[0]
    assert not _allowed(cache, start, user=1)[0]
    assert _allowed(cache, start, user=2)[0]


@pytest.mark.redis
def test_the_previous_window_still_weighs_on_the_next(cache: BaseCache) -> None:
    start = 600.0 * 1000
    for _ in range(5):
        assert _allowed(cache, start + 50)[0]
    # 15 s into the next window, 3/4 of the previous one is still in view: 3.75 + 1 <= 5,
    # so one more request passes, the next (3.75 + 2 > 5) does not.
    assert _allowed(cache, start + 75)[0]
    ok, wait = _allowed(cache, start + 75)
    assert not ok
    # Both counted requests of this window (2) need 5 - 2 = 3 of the previous window's 5
    # to remain: when 2/5 of it has slid out, 24 s in, 9 s from now.
    assert wait == 9


@pytest.mark.redis
def test_concurrent_requests_never_lose_a_count_on_redis() -> None:
    """What matters across web workers: the production cache's count is atomic."""
    cache = RedisCache(TEST_REDIS_URL, {"KEY_PREFIX": f"t{uuid.uuid4().hex[:8]}"})
    start = 600.0 * 1000
    passed: list[bool] = []
    lock = threading.Lock()

    def hit() -> None:
        ok, _ = _allowed(cache, start + 1)
        with lock:
            passed.append(ok)

    threads = [threading.Thread(target=hit) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    cache.clear()
    assert passed.count(True) == 5
    assert len(passed) == 40
