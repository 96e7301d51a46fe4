"""``/healthz``: database, Redis and worker status as JSON, for humans and load balancers.

Nothing here waits on a worker. Each worker writes a heartbeat into Redis every
``WORKER_HEARTBEAT_SECONDS`` (:func:`heartbeat_write`, called by the consumer bootstep in
:mod:`indulgence_site.celery`); the check reads their ages in one round trip. A worker
is "ok" while its last heartbeat is younger than three intervals. Without Redis tasks
run in the web process ("embedded").

Anonymous callers get one status word per component; staff (a signed-in ``is_staff``
session) also get the details: database vendor, error texts, worker names and ages.
"""

from __future__ import annotations

import json
import logging
import time
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

PROBE_TIMEOUT_SECONDS = 1.0
DEFAULT_HEARTBEAT_SECONDS = 10.0
STALE_AFTER_BEATS = 3  # a worker missing three heartbeats in a row is not counted
FORGET_AFTER_SECONDS = 24 * 3600  # heartbeats this old are dropped when a worker starts

logger = logging.getLogger(__name__)


def heartbeat_seconds() -> float:
    return float(getattr(settings, "WORKER_HEARTBEAT_SECONDS", DEFAULT_HEARTBEAT_SECONDS))


def heartbeat_key() -> str:
    """One Redis hash per default queue name, so stacks sharing a Redis database stay apart."""
    from indulgence_site.celery import app

    return f"{app.conf.task_default_queue}:worker-heartbeats"


@lru_cache(maxsize=4)
def _client(url: str) -> redis.Redis:
    """A client (and its connection pool) per URL, kept between requests."""
    return redis.Redis.from_url(
        url,
        socket_timeout=PROBE_TIMEOUT_SECONDS,
        socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
    )


def heartbeat_write(hostname: str, queues: list[str], *, now: float | None = None) -> None:
    """Record that the worker ``hostname`` consumes ``queues`` now. Never raises: a
    worker that cannot reach Redis cannot take tasks either, and the check says so."""
    if not settings.REDIS_URL:
        return
    value = json.dumps({"at": time.time() if now is None else now, "queues": sorted(queues)})
    try:
        pipe = _client(settings.REDIS_URL).pipeline(transaction=False)
        pipe.hset(heartbeat_key(), hostname, value)
        pipe.expire(heartbeat_key(), FORGET_AFTER_SECONDS)
        pipe.execute()
    except redis.RedisError as exc:
        logger.warning("worker heartbeat not written: %s", exc)


def heartbeat_forget(hostname: str, *, older_than: float | None = None) -> None:
    """Drop this worker's heartbeat (it stops) and any older than ``older_than`` seconds."""
    if not settings.REDIS_URL:
        return
    try:
        client = _client(settings.REDIS_URL)
        stale = [hostname]
        if older_than is not None:
            now = time.time()
            beats = _decode(client.hgetall(heartbeat_key()))
            stale += [name for name, beat in beats.items() if now - beat["at"] > older_than]
        client.hdel(heartbeat_key(), *stale)
    except redis.RedisError as exc:
        logger.warning("worker heartbeats not cleaned up: %s", exc)


def _decode(raw: dict[Any, Any]) -> dict[str, dict[str, Any]]:
    beats: dict[str, dict[str, Any]] = {}
    for name, value in raw.items():
        try:
            beat = json.loads(value)
            beats[name.decode() if isinstance(name, bytes) else str(name)] = {
                "at": float(beat["at"]),
                "queues": list(beat.get("queues") or []),
            }
        except (ValueError, TypeError, KeyError):
            continue  # not ours, or a partial write: ignored
    return beats


def database_status() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"status": "error", "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"status": "ok", "vendor": connection.vendor}


def redis_and_worker_status() -> tuple[dict[str, Any], dict[str, Any]]:
    """Redis and the workers, read together in one round trip (PING, HGETALL)."""
    eager = bool(settings.CELERY_TASK_ALWAYS_EAGER)
    embedded = {"status": "embedded", "detail": "tasks run in the web process after commit"}
    if not settings.REDIS_URL:
        return {"status": "not_configured"}, embedded if eager else {"status": "unknown"}
    try:
        pipe = _client(settings.REDIS_URL).pipeline(transaction=False)
        pipe.ping()
        pipe.hgetall(heartbeat_key())
        _pong, raw = pipe.execute()
    except redis.RedisError as exc:
        error = {"status": "error", "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        return error, embedded if eager else {"status": "unknown"}
    if eager:
        return {"status": "ok"}, embedded
    return {"status": "ok"}, _workers(_decode(raw))


def _workers(beats: dict[str, dict[str, Any]]) -> dict[str, Any]:
    now = time.time()
    stale_after = STALE_AFTER_BEATS * heartbeat_seconds()
    workers = [
        {"name": name, "age_seconds": round(now - beat["at"], 1), "queues": beat["queues"]}
        for name, beat in sorted(beats.items())
    ]
    fresh = [w for w in workers if w["age_seconds"] <= stale_after]
    if fresh:
        return {"status": "ok", "workers": fresh}
    if workers:
        return {"status": "stale", "workers": workers, "stale_after_seconds": stale_after}
    return {"status": "no_workers", "workers": []}


def _is_staff(request: HttpRequest) -> bool:
    try:
        return bool(request.user.is_authenticated and request.user.is_staff)
    except DatabaseError:  # the session is in the database, which may be the problem
        return False


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = database_status()
    redis_, worker = redis_and_worker_status()
    healthy = (
        database["status"] == "ok"
        and redis_["status"] in {"ok", "not_configured"}
        and worker["status"] in {"ok", "embedded"}
    )
    parts = {"database": database, "redis": redis_, "worker": worker}
    if not _is_staff(request):  # host names and error texts are for staff only
        parts = {name: {"status": part["status"]} for name, part in parts.items()}
    body = {"status": "ok" if healthy else "degraded", **parts}
    # Only a dead database makes this instance useless; degraded still serves pages.
    return JsonResponse(body, status=200 if database["status"] == "ok" else 503)
