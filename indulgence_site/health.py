"""``/healthz``: database, Redis and worker status as JSON, for humans and load balancers."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

PROBE_TIMEOUT_SECONDS = 1.0


def database_status() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"status": "error", "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"status": "ok", "vendor": connection.vendor}


def redis_status() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"status": "not_configured"}
    import redis

    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_timeout=PROBE_TIMEOUT_SECONDS,
        socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except redis.RedisError as exc:
        return {"status": "error", "error": str(exc)[:200]}
    finally:
        client.close()
    return {"status": "ok"}


def worker_status() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"status": "embedded", "detail": "tasks run in the web process after commit"}
    from indulgence_site.celery import app

    try:
        replies = app.control.ping(timeout=PROBE_TIMEOUT_SECONDS)
    except Exception as exc:  # any broker failure is a status here, never a 500:
        # kombu raises OSError subclasses, kombu.exceptions.OperationalError, redis errors
        return {"status": "error", "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    workers = sorted(name for reply in replies for name in reply)
    if not workers:
        return {"status": "no_workers", "workers": []}
    return {"status": "ok", "workers": workers}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = database_status()
    redis_ = redis_status()
    worker = worker_status() if redis_["status"] != "error" else {"status": "unknown"}
    healthy = (
        database["status"] == "ok"
        and redis_["status"] in {"ok", "not_configured"}
        and worker["status"] in {"ok", "embedded"}
    )
    body = {
        "status": "ok" if healthy else "degraded",
        "database": database,
        "redis": redis_,
        "worker": worker,
    }
    # Only a dead database makes this instance useless; degraded still serves pages.
    return JsonResponse(body, status=200 if database["status"] == "ok" else 503)
