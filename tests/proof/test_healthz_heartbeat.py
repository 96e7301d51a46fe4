"""``/healthz`` answers from the workers' heartbeats, never by pinging them in the request,
and tells anonymous callers only ok/error per component (details are for staff)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.db import OperationalError, connection
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from indulgence_site import health
from indulgence_site.celery import app

pytestmark = pytest.mark.django_db

SECRET_HOST = "worker-host-7f3a.internal"
ANONYMOUS_WORDS = {
    *("ok", "error", "degraded", "embedded", "not_configured", "no_workers", "stale", "unknown")
}


@pytest.fixture
def live_redis(settings: SettingsWrapper) -> Iterator[str]:
    """This process's Redis is the test Redis; tasks go to workers (none run here). A queue
    name of its own keeps the heartbeats apart from any other test's."""
    settings.REDIS_URL = settings.TEST_REDIS_URL
    settings.CELERY_TASK_ALWAYS_EAGER = False
    saved = app.conf.task_default_queue
    app.conf.update(task_default_queue=f"healthz-test-{uuid.uuid4().hex[:10]}")
    yield settings.TEST_REDIS_URL
    redis.Redis.from_url(settings.TEST_REDIS_URL).delete(health.heartbeat_key())
    app.conf.update(task_default_queue=saved)


@pytest.fixture
def broker_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every ping or inspect of the workers over the broker, each made as slow as a real
    one that waits out its timeout (what put 1.5 s on every request under 4 clients)."""
    calls: list[str] = []

    def slow(name: str) -> Any:
        def call(*_: Any, **__: Any) -> Any:
            calls.append(name)
            time.sleep(1.0)
            return []

        return call

    monkeypatch.setattr(app.control, "ping", slow("ping"))
    monkeypatch.setattr(app.control, "inspect", slow("inspect"))
    return calls


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value)


@pytest.mark.redis
def test_healthz_never_pings_the_workers_and_answers_fast(
    live_redis: str, broker_calls: list[str]
) -> None:
    health.heartbeat_write(SECRET_HOST, ["q"])
    client = Client()
    slowest = 0.0
    for _ in range(8):
        started = time.perf_counter()
        response = client.get("/healthz")
        slowest = max(slowest, time.perf_counter() - started)
        assert response.status_code == 200
        assert response.json()["worker"]["status"] == "ok", response.json()
    assert broker_calls == []
    assert slowest < 0.5, f"slowest /healthz took {slowest:.3f} s"


@pytest.mark.redis
def test_a_stale_or_missing_heartbeat_is_reported_as_not_ok(live_redis: str) -> None:
    client = Client()
    body = client.get("/healthz").json()
    assert body["worker"]["status"] == "no_workers"
    assert body["status"] == "degraded"
    health.heartbeat_write(SECRET_HOST, ["q"], now=time.time() - 3600)
    body = client.get("/healthz").json()
    assert body["worker"]["status"] == "stale"
    assert body["status"] == "degraded"
    health.heartbeat_write(SECRET_HOST, ["q"])
    assert client.get("/healthz").json()["status"] == "ok"


def test_embedded_mode_says_tasks_run_in_process(client: Client) -> None:
    body = client.get("/healthz").json()
    assert body["worker"]["status"] == "embedded"
    assert body["status"] == "ok"


@pytest.mark.redis
def test_anonymous_callers_see_no_host_names_staff_do(live_redis: str, staff: Any) -> None:
    health.heartbeat_write(SECRET_HOST, ["q"])
    anonymous = Client().get("/healthz")
    text = anonymous.content.decode()
    assert SECRET_HOST not in text
    assert set(_strings(json.loads(text))) <= ANONYMOUS_WORDS | {
        "status",
        "database",
        "redis",
        "worker",
    }, text
    member = Client()
    member.force_login(staff)
    detailed = member.get("/healthz").content.decode()
    assert SECRET_HOST in detailed
    assert "postgresql" in detailed or "sqlite" in detailed  # the vendor, for staff


def test_anonymous_callers_see_no_database_or_redis_error_text(
    settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    message = 'connection to server at "db-7.internal.example" (10.9.8.7), port 5432 failed'

    def refuse(*_: Any, **__: Any) -> Any:
        raise OperationalError(message)

    monkeypatch.setattr(connection, "cursor", refuse)
    response = Client().get("/healthz")
    monkeypatch.undo()
    assert response.status_code == 503
    text = response.content.decode()
    for secret in ("db-7.internal", "10.9.8.7", "127.0.0.1", "5432", "refused", "Error"):
        assert secret not in text, text
    body = json.loads(text)
    assert body["database"] == {"status": "error"}
    assert body["redis"] == {"status": "error"}
